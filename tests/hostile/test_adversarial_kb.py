"""Adversarial KBs: validate names each problem and fails; the app starts and stays usable."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from errkb_tui.cli import main
from errkb_tui.widgets.header import StatusHeader

from ..ui.conftest import build_app, settle

FIXTURES = Path(__file__).parent.parent / "fixtures" / "adversarial"
GOOD = json.loads((FIXTURES / "good.json").read_text())


def _big_field(folder: Path) -> None:
    (folder / "huge-field.json").write_text(json.dumps(dict(GOOD, id="acme/huge", root_cause="x" * 1_048_576)))


def _deep(folder: Path) -> None:
    (folder / "deep.json").write_text("[" * 100_000 + "]" * 100_000)


def _loop(folder: Path) -> None:
    (folder / "sub").mkdir()
    os.symlink(folder, folder / "sub" / "back-to-top")


def _tiny_files(folder: Path) -> None:
    many = folder / "many"
    many.mkdir()
    for n in range(10_000):
        data = "{}" if n % 1000 == 0 else json.dumps(dict(GOOD, id=f"tiny/t{n}", domain="tiny",
                                                          regex=f"TinyError {n}\\b"))
        (many / f"t{n}.json").write_text(data)


# case name -> (files copied from FIXTURES or a maker, words the problem report must contain)
CASES = {
    "catastrophic-regex": (["catastrophic-regex.json"], ["regex", "matches almost any text"]),
    "re2-rejected": (["re2-rejected.json"], ["regex", "RE2"]),
    "wrong-types": (["wrong-types.json"], ["signature", "confidence", "first_seen", "evidence_count"]),
    "non-utf8": (["latin1.json"], ["not UTF-8"]),
    "truncated": (["truncated.json"], ["invalid JSON"]),
    "empty": (["empty.json"], ["file is empty"]),
    "duplicate-ids": (["duplicate-ids.json"], ["duplicate id", "acme/twin"]),
    "self-link": (["self-link.json"], ["links the record to itself"]),
    "huge-field": (_big_field, ["root_cause", "longer than"]),
    "deep-nesting": (_deep, ["nested too deeply"]),
    "symlink-loop": (_loop, ["symlink loop"]),
    "tiny-files": (_tiny_files, ["t0.json", "t9000.json"]),
}


def make_case(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    shutil.copy(FIXTURES / "good.json", folder / "good.json")
    files, _ = CASES[name]
    if callable(files):
        files(folder)
    else:
        for file in files:
            shutil.copy(FIXTURES / file, folder / file)
    return folder


@pytest.mark.parametrize("name", sorted(CASES))
def test_validate_names_the_problem_and_fails(tmp_path, capsys, name):
    folder = make_case(tmp_path, name)
    assert main(["validate", "--no-bundled", str(folder)]) == 1
    out = capsys.readouterr().out
    for words in CASES[name][1]:
        assert words in out, out[-2000:]
    assert "Traceback" not in out


def test_cycles_are_legal_but_a_dangling_link_fails_strict(tmp_path, capsys):
    folder = tmp_path / "cycle"
    folder.mkdir()
    shutil.copy(FIXTURES / "cycle.json", folder)
    assert main(["validate", "--no-bundled", str(folder)]) == 0
    assert main(["validate", "--no-bundled", "--strict", str(folder)]) == 1
    assert "acme/nowhere" in capsys.readouterr().out


@pytest.mark.parametrize("name", sorted(CASES))
async def test_app_starts_shows_the_problems_and_stays_usable(tmp_path, name):
    folder = make_case(tmp_path, name)
    app = build_app(folder)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        assert app.kb.get("acme/good") is not None
        errors = [p for p in app.kb.problems if p.severity == "error"]
        assert errors
        assert "problem" in str(app.screen.query_one(StatusHeader).render())
        await pilot.press("slash", *"acme good")
        await settle(pilot, app)
        assert app.screen.query_one("RecordList").current.id == "acme/good"
        await pilot.press("escape", "escape")  # clear the filter, leave it
        await settle(pilot, app)
        await pilot.press("exclamation_mark")
        await settle(pilot, app)
        assert type(app.screen).__name__ == "ProblemsScreen"
        await pilot.press("escape")


async def test_following_links_round_a_cycle_terminates(tmp_path):
    folder = tmp_path / "cycle"
    folder.mkdir()
    shutil.copy(FIXTURES / "cycle.json", folder)
    app = build_app(folder)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        app.select("acme/ping", "palette", reveal=True)
        await settle(pilot, app)
        for _ in range(6):  # ping -> pong -> ping -> ...
            link = app.screen.query_one(".related")
            link.focus()
            await pilot.pause()
            await pilot.press("enter")
            await settle(pilot, app)
        assert app.screen.shown_record().id == "acme/ping"
        for _ in range(6):
            await pilot.press("backspace")
        await settle(pilot, app)
        assert app.screen.shown_record().id == "acme/ping"
