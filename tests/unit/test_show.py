"""``errkb-tui show``: a readable page at 80 columns, colour rules, safe text, ids, filling."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from errkb_tui.kb import default_sources
from errkb_tui.loader import load_kb
from errkb_tui.model import Record
from errkb_tui.show import filled, render, use_color
from errkb_tui.text import plain

from ..helpers import seed_record, write_json

ANSI = re.compile(r"\x1b\[[0-9;]*m")
TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "train.py", line 3, in <module>\n'
    "    import torchvisionx\n"
    "ModuleNotFoundError: No module named 'torchvisionx'\n"
)


def acme(**changes) -> dict:
    fields = dict(
        signature="PluginError: no plugin named 'X'",
        regex=r"PluginError: no plugin named '(?P<plugin>[\w.-]+)'",
        root_cause="The plugin is not installed in the environment that runs acme.",
        dead_ends=[{"action": "Reinstall acme itself", "why_fails": "Plugins are separate packages.",
                    "fail_rate": 0.95, "condition": "", "sources": []}],
        workarounds=[{"action": "Install the plugin", "success_rate": 0.9,
                      "how": "acme plugins install {=plugin}\nacme plugins list", "condition": "",
                      "sources": []},
                     {"action": "Pin a release", "success_rate": 0.5,
                      "how": "acme pin {=version:1.2}", "condition": "", "sources": []}],
        workarounds_zh=[],
        transition_graph={"leads_to": [], "preceded_by": [], "frequently_confused_with": []},
    )
    return seed_record("acme/missing-plugin", **{**fields, **changes})


def run_cli(tmp_path: Path, *args: str, stdin: str | None = None, env: dict | None = None):
    import os

    environment = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "errkb_tui", *args], capture_output=True, text=True,
                          input=stdin, cwd=tmp_path, env=environment, timeout=120)


@pytest.fixture(scope="module")
def bundled():
    return load_kb(default_sources())


# -- the page ----------------------------------------------------------------------------------

def command_lines(record: Record) -> set[str]:
    """The commands' lines as the page prints them (never wrapped: they must stay copyable)."""
    return {filled(line, {}).strip() for w in record.workarounds
            for line in plain(w.how, multiline=True).splitlines()}


def test_the_bundled_page_reads_at_80_columns(bundled) -> None:
    record = bundled.get("python/module-not-found")
    page = render(record, width=80)
    commands = command_lines(record)
    for line in page.splitlines():
        assert len(line) <= 80 or line.strip() in commands, line
    assert page.startswith("python/module-not-found\n")
    assert "Don't (dead ends)" in page and "Do (workarounds)" in page
    assert "est. fails ~60%" in page and "est. works ~85%" in page  # rates are estimates
    assert "confused with: python/circular-import" in page
    assert "\x1b" not in page  # no colour unless asked


def test_every_bundled_record_renders_within_80_columns_apart_from_commands(bundled) -> None:
    for summary in bundled.records:
        record = bundled.get(summary.id)
        commands = command_lines(record)
        for line in render(record, width=80).splitlines():
            assert len(line) <= 80 or line.strip() in commands, (summary.id, line)


def test_placeholders_fill_from_the_error_text_and_the_rest_show_as_names(tmp_path: Path) -> None:
    kb = write_json(tmp_path / "kb" / "acme.json", acme())
    error = tmp_path / "error.txt"
    error.write_text("boot\nPluginError: no plugin named 'acme-s3'\n")
    done = run_cli(tmp_path, "show", "acme/missing-plugin", "--no-bundled", "--data", str(kb),
                   "--from", str(error))
    assert done.returncode == 0, done.stderr
    assert "acme plugins install acme-s3" in done.stdout
    assert "acme pin <version>" in done.stdout  # prompted: never a runnable literal
    assert "PluginError: no plugin named 'acme-s3'" in done.stdout  # the filled signature
    assert "{=" not in done.stdout


def test_from_stdin_fills_the_bundled_record_with_the_module(tmp_path: Path) -> None:
    done = run_cli(tmp_path, "show", "python/module-not-found", "--from", "-", stdin=TRACEBACK)
    assert done.returncode == 0, done.stderr
    assert "pip install torchvisionx" in done.stdout
    assert "matched: ModuleNotFoundError: No module named 'torchvisionx'" in done.stdout


def test_json_prints_the_record_and_fills_it_with_from(tmp_path: Path) -> None:
    kb = write_json(tmp_path / "kb" / "acme.json", acme())
    plain = run_cli(tmp_path, "show", "acme/missing-plugin", "--json", "--no-bundled", "--data", str(kb))
    data = json.loads(plain.stdout)
    assert data["id"] == "acme/missing-plugin"
    assert data["workarounds"][0]["how"].startswith("acme plugins install {=plugin}")
    filled = run_cli(tmp_path, "show", "acme/missing-plugin", "--json", "--no-bundled", "--data", str(kb),
                     "--from", "-", stdin="PluginError: no plugin named 'x1'")
    data = json.loads(filled.stdout)
    assert data["workarounds"][0]["how"].startswith("acme plugins install x1")
    assert data["workarounds"][1]["how"] == "acme pin {=version:1.2}"


# -- colour --------------------------------------------------------------------------------------

class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_terminal_and_never_with_no_color() -> None:
    assert use_color(FakeTTY(), environ={}) is True
    assert use_color(FakeTTY(), environ={"NO_COLOR": "1"}) is False
    assert use_color(io.StringIO(), environ={}) is False
    assert use_color(FakeTTY(), environ={"NO_COLOR": ""}) is True  # set but empty: ignored


def test_cmd_show_on_a_tty_colours_unless_no_color(tmp_path: Path, monkeypatch) -> None:
    from errkb_tui.kb import KB
    from errkb_tui.show import cmd_show

    record = Record.model_validate(acme())
    kb = KB([record])

    class Args:
        id = "acme/missing-plugin"
        json = False
        source = None

    monkeypatch.delenv("NO_COLOR", raising=False)
    out = FakeTTY()
    assert cmd_show(Args(), lambda: kb, out=out) == 0
    assert ANSI.search(out.getvalue())
    monkeypatch.setenv("NO_COLOR", "1")
    out = FakeTTY()
    cmd_show(Args(), lambda: kb, out=out)
    assert "\x1b" not in out.getvalue()
    assert ANSI.sub("", out.getvalue()) == out.getvalue()


def test_coloured_lines_are_the_plain_lines_with_colour_added() -> None:
    record = Record.model_validate(acme())
    assert ANSI.sub("", render(record, width=80, color=True)) == render(record, width=80)


# -- record text is data ------------------------------------------------------------------------

def test_control_characters_in_record_text_are_shown_not_sent() -> None:
    hostile = acme(
        signature="PluginError \x1b]52;c;ZXZpbA==\x07 no plugin named 'X'",
        root_cause="Clears your screen \x1b[2J\x1b[H and rings \x07 and hides \u202etext",
        workarounds=[{"action": "Fix \x1b[31mred", "success_rate": 0.5,
                      "how": "echo \x1b]0;title\x07 done\x9b31m", "condition": "", "sources": []}],
    )
    page = render(Record.model_validate(hostile), width=80, color=False)
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]", page)
    assert "␛]52;c;ZXZpbA==␇" in page
    coloured = render(Record.model_validate(hostile), width=80, color=True)
    assert "\x1b]" not in coloured and "\x1b[2J" not in coloured and "\x07" not in coloured


# -- ids -------------------------------------------------------------------------------------------

def test_an_unknown_id_suggests_the_closest_and_exits_1(tmp_path: Path) -> None:
    done = run_cli(tmp_path, "show", "python/modul-not-found")
    assert done.returncode == 1
    assert "no record python/modul-not-found; did you mean python/module-not-found?" in done.stderr
    assert done.stdout == ""


def test_match_show_prints_the_table_then_the_best_record(tmp_path: Path) -> None:
    done = run_cli(tmp_path, "match", "--show", stdin=TRACEBACK, env={"NO_COLOR": "1"})
    assert done.returncode == 0, done.stderr
    table, _, page = done.stdout.partition("\n\n")
    assert "python/module-not-found" in table.splitlines()[1]
    assert page.startswith("python/module-not-found\n")
    assert "pip install torchvisionx" in page
