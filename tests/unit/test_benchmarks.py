"""Smoke test of the benchmark harness: it runs at 1,000 records and reports every number.

Times are not asserted (they depend on the machine); only the shape of the JSON.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KEYS = ("records", "load_s", "first_paint_s", "rss_mb", "keystroke_p50_ms", "keystroke_p95_ms", "match_ms")
BASELINE_KEYS = ("wratio_ms", "re_loop_ms", "optionlist_ms")


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def test_generated_records_are_valid_and_match_their_examples(tmp_path: Path) -> None:
    from benchmarks.generate import ensure_kb, make_record, traceback_text
    from errkb_tui.kb import Source
    from errkb_tui.loader import load_kb
    from errkb_tui.match import Matcher

    kb = load_kb([Source(ensure_kb(300, tmp_path), "--data")])
    assert len(kb.records) == 300
    assert [p for p in kb.problems if p.severity == "error"] == []
    assert len({r.domain for r in kb.records}) >= 10
    record, example = make_record(7, 300)
    assert Matcher(kb.records).best(example) is not None
    text, record_id = traceback_text(300)
    assert len(text.splitlines()) == 200
    assert Matcher(kb.records).best(text).id == record_id


def test_harness_reports_every_number_at_1000_records() -> None:
    env = {k: v for k, v in os.environ.items() if k != "ERRKB_PATH"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks.run", "--sizes", "1000", "--json", "--no-bundled"],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    rows = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    assert len(rows) == 1
    row = rows[0]
    assert row["records"] == 1000
    for key in KEYS:
        assert _number(row[key]), key
    for key in BASELINE_KEYS:
        assert _number(row["baseline"][key]), key


def test_every_shape_holds_the_same_records(tmp_path: Path) -> None:
    from benchmarks.generate import SHAPES, ensure_kb
    from errkb_tui.kb import Source
    from errkb_tui.loader import load_kb

    loaded = {}
    for shape in SHAPES:
        path = ensure_kb(60, tmp_path, shape=shape)
        assert path.is_dir() == (shape in ("parts", "folder"))
        kb = load_kb([Source(path, "--data")])
        assert [p for p in kb.problems if p.severity == "error"] == []
        loaded[shape] = [(r.id, r.signature, r.regex) for r in kb.records]
        if shape in ("jsonl", "list"):
            assert all(o.offset is not None and o.length for o in kb.origins.values())
    assert len(loaded["parts"]) == 60
    assert all(records == loaded["parts"] for records in loaded.values())


def test_store_harness_reports_every_number_for_every_shape() -> None:
    env = {k: v for k, v in os.environ.items() if k != "ERRKB_PATH"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks.store", "--sizes", "300", "--json"],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    rows = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    assert [row["shape"] for row in rows] == ["folder", "jsonl", "list"]
    for row in rows:
        assert row["records"] == 300 and row["errors"] == 0
        for key in ("cold_s", "warm_s", "get_ms", "naive_parse_s", "naive_get_ms"):
            assert _number(row[key]), key
        assert row["first_rows_s"] is None or _number(row["first_rows_s"])


def test_generate_says_its_usage_instead_of_a_traceback(capsys) -> None:
    from benchmarks import generate

    with pytest.raises(SystemExit) as exit_:
        generate.main(["--help"])
    assert exit_.value.code == 0 and "--shape" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_:
        generate.main(["lots"])
    assert exit_.value.code == 2 and "invalid int value" in capsys.readouterr().err
