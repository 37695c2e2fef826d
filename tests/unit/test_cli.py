"""The ``errkb-tui`` command, run as a user would: in a subprocess, from another folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from errkb_tui import __version__

from ..helpers import seed_record, write_json

ROOT = Path(__file__).resolve().parents[2]
SEED = json.loads((ROOT / "data" / "pytorch" / "ddp-bucket-view-error.json").read_text("utf-8"))
DDP_CORPUS = ROOT / "tests" / "corpus" / "pytorch" / "ddp-bucket-view-error.txt"
PROSE = ROOT / "tests" / "corpus" / "_negative" / "prose.txt"
SEED_ID = "pytorch/ddp-bucket-view-error"


def run(cwd: Path, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [sys.executable, "-m", "errkb_tui", *args],
        cwd=cwd, input=stdin, capture_output=True, timeout=60,
    )
    out = subprocess.CompletedProcess(result.args, result.returncode,
                                      result.stdout.decode("utf-8"), result.stderr.decode("utf-8"))
    assert "Traceback (most recent call last)" not in out.stderr, out.stderr
    return out


def acme_record(record_id: str = "acme/thing", **changes) -> dict:
    return seed_record(record_id, **changes)


write = write_json


def test_version(tmp_path: Path) -> None:
    result = run(tmp_path, "--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"errkb-tui {__version__}"


def test_match_json_on_the_ddp_corpus(tmp_path: Path) -> None:
    result = run(tmp_path, "match", "--json", str(DDP_CORPUS))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert list(data) == ["matches"]
    matches = data["matches"]
    assert matches, "at least the seed matches"
    for match in matches:
        assert list(match) == ["id", "score", "method", "line", "confident", "groups", "workarounds", "dead_ends"]
        assert isinstance(match["score"], float) and match["method"] in ("regex", "fuzzy")
    assert matches[0]["id"] == SEED_ID
    assert matches[0]["confident"] is True
    assert matches[0]["method"] == "regex"
    assert "BucketView" in matches[0]["line"]
    assert [m["score"] for m in matches] == sorted((m["score"] for m in matches), reverse=True)
    assert result.stdout.count("\n") == 1  # exactly one JSON document, one line


def test_match_reads_stdin(tmp_path: Path) -> None:
    result = run(tmp_path, "match", "--json", stdin=DDP_CORPUS.read_bytes())
    assert result.returncode == 0
    assert json.loads(result.stdout)["matches"][0]["id"] == SEED_ID
    dash = run(tmp_path, "match", "--json", "-", stdin=DDP_CORPUS.read_bytes())
    assert json.loads(dash.stdout) == json.loads(result.stdout)


def test_match_human_output(tmp_path: Path) -> None:
    result = run(tmp_path, "match", str(DDP_CORPUS))
    assert result.returncode == 0
    header, first = result.stdout.splitlines()[:2]
    assert header.split() == ["score", "method", "id", "line"]
    assert SEED_ID in first and "regex" in first and "not confident" not in first


def test_match_prose_exits_1(tmp_path: Path) -> None:
    result = run(tmp_path, "match", "--json", str(PROSE))
    assert result.returncode == 1
    assert not any(m["confident"] for m in json.loads(result.stdout)["matches"])
    human = run(tmp_path, "match", str(PROSE))
    assert human.returncode == 1


def test_match_missing_file_exits_2_with_a_message(tmp_path: Path) -> None:
    result = run(tmp_path, "match", "no-such-file.txt")
    assert result.returncode == 2
    assert "no-such-file.txt" in result.stderr
    assert result.stdout == ""


def test_match_directory_exits_2(tmp_path: Path) -> None:
    result = run(tmp_path, "match", str(tmp_path))
    assert result.returncode == 2
    assert "cannot read" in result.stderr


def test_match_limit(tmp_path: Path) -> None:
    generic = acme_record("acme/generic", regex="RuntimeError", signature="RuntimeError: X")
    write(tmp_path / "kb" / "generic.json", generic)
    full = run(tmp_path, "match", "--json", "--data", str(tmp_path / "kb"), str(DDP_CORPUS))
    assert len(json.loads(full.stdout)["matches"]) >= 2
    one = run(tmp_path, "match", "--json", "--limit", "1", "--data", str(tmp_path / "kb"), str(DDP_CORPUS))
    assert one.returncode == 0
    assert [m["id"] for m in json.loads(one.stdout)["matches"]] == [SEED_ID]
    bad = run(tmp_path, "match", "--limit", "0", str(DDP_CORPUS))
    assert bad.returncode == 2 and "--limit" in bad.stderr


def test_validate_malformed_records_exits_1_and_names_each_problem(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    rate = acme_record("acme/rate")
    rate["dead_ends"][0]["fail_rate"] = 1.7
    write(kb / "bad-rate.json", rate)
    write(kb / "bad-id.json", acme_record("acme/bad-id", domain="other"))
    write(kb / "bad-regex.json", acme_record("acme/bad-regex", regex=r"(?<=x)y"))
    (kb / "broken.json").write_text('{"id": "acme/broken",\n  "signature": }\n', encoding="utf-8")
    write(kb / "good.json", acme_record("acme/good"))
    result = run(tmp_path, "validate", str(kb))
    assert result.returncode == 1
    out = result.stdout
    lines = out.splitlines()

    def line_for(name: str) -> str:
        found = [line for line in lines if f"{name}:" in line or f"{name}[" in line]
        assert found, out
        errors = [line for line in found if ": error:" in line]  # lint lines of the file come too
        return (errors or found)[0]

    assert "dead_ends[0].fail_rate" in line_for("bad-rate.json")
    assert ": error: acme/rate: " in line_for("bad-rate.json")
    assert "must start with its domain" in line_for("bad-id.json")
    assert "RE2" in line_for("bad-regex.json") and "regex" in line_for("bad-regex.json")
    assert "invalid JSON" in line_for("broken.json")
    # run() works in tmp_path, so files are named relative to it.
    assert line_for("broken.json").startswith("kb/broken.json:2: error:")
    assert not any("good.json" in line and ": error:" in line for line in lines)
    assert lines[-1].startswith("FAILED: 1 record(s) checked; 4 error(s)")


def test_validate_one_good_record_exits_0(tmp_path: Path) -> None:
    write(tmp_path / "kb" / "thing.json", acme_record())
    result = run(tmp_path, "validate", str(tmp_path / "kb"))
    assert result.returncode == 0, result.stdout
    assert result.stdout.splitlines()[-1].startswith("OK: 1 record(s) checked; 0 error(s), 0 warning(s)")
    # The bundled KB is context, not under review: none of its files are listed.
    assert "pytorch/" not in result.stdout
    assert run(tmp_path, "validate", "--strict", str(tmp_path / "kb")).returncode == 0


def test_validate_strict_fails_on_a_warning(tmp_path: Path) -> None:
    data = acme_record()
    data["dead_ends"][0]["acton"] = "typo"
    path = write(tmp_path / "kb" / "thing.json", data)
    lax = run(tmp_path, "validate", str(path))
    assert lax.returncode == 0
    assert "warning: acme/thing: dead_ends[0].acton" in lax.stdout
    strict = run(tmp_path, "validate", "--strict", str(path))
    assert strict.returncode == 1
    assert strict.stdout.splitlines()[-1].startswith("FAILED:")


def test_validate_missing_path_exits_1(tmp_path: Path) -> None:
    result = run(tmp_path, "validate", "nowhere")
    assert result.returncode == 1
    assert "nowhere" in result.stdout and "does not exist" in result.stdout


def test_data_makes_a_user_record_matchable(tmp_path: Path) -> None:
    record = acme_record(
        "acme/widget-jam",
        signature="WidgetError: the frobnicator jammed at stage X",
        regex=r"WidgetError: the frobnicator jammed at stage \d+",
    )
    path = write(tmp_path / "mine" / "widget.json", record)
    text = b"Traceback (most recent call last):\n  File \"w.py\", line 1\nWidgetError: the frobnicator jammed at stage 3\n"
    without = run(tmp_path, "match", "--json", stdin=text)
    assert without.returncode == 1
    assert "acme/widget-jam" not in without.stdout
    for args in (["--data", str(path), "match"], ["match", "--data", str(path.parent)]):
        result = run(tmp_path, *args, "--json", stdin=text)
        assert result.returncode == 0, result.stderr
        top = json.loads(result.stdout)["matches"][0]
        assert top["id"] == "acme/widget-jam" and top["confident"] is True


def test_errkb_path_makes_a_user_record_matchable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record = acme_record("acme/gizmo", signature="GizmoFault: sprocket X misaligned",
                         regex=r"GizmoFault: sprocket \d+ misaligned")
    write(tmp_path / "env-kb" / "gizmo.json", record)
    monkeypatch.setenv("ERRKB_PATH", os.pathsep.join(["", str(tmp_path / "env-kb")]))
    result = run(tmp_path, "match", "--json", stdin=b"GizmoFault: sprocket 7 misaligned\n")
    assert result.returncode == 0
    assert json.loads(result.stdout)["matches"][0]["id"] == "acme/gizmo"


def test_match_reports_kb_problems_on_stderr_but_still_matches(tmp_path: Path) -> None:
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    result = run(tmp_path, "match", "--json", "--data", str(tmp_path / "broken.json"), str(DDP_CORPUS))
    assert result.returncode == 0
    assert "1 KB problem(s)" in result.stderr
    assert json.loads(result.stdout)["matches"][0]["id"] == SEED_ID
