"""The outcomes log and team counts: stable keys, safe appends, tolerant reads."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
from pathlib import Path

import pytest

from errkb_tui.kb import Source
from errkb_tui.model import DeadEnd, Record, Workaround
from errkb_tui.outcomes import TEAM_FILE, Counts, OutcomeLog, append_event, item_hash, make_event
from errkb_tui.team import TeamOutcomes, export_lines, team_files

from ..helpers import seed_record

RECORD = Record.model_validate(seed_record("acme/thing"))
FIX, OTHER = RECORD.workarounds
DEAD = RECORD.dead_ends[0]


def test_the_hash_is_sha256_of_kind_action_and_how_normalised() -> None:
    fix = Workaround(action="  Set   the\tseed ", how="torch.manual_seed(0)\n")
    expected = hashlib.sha256(b"workaround\nSet the seed\ntorch.manual_seed(0)").hexdigest()[:16]
    assert item_hash(fix) == expected
    dead = DeadEnd(action="", why_fails="Only  hides it.")
    assert item_hash(dead) == hashlib.sha256(b"dead_end\n\nOnly hides it.").hexdigest()[:16]


def test_the_hash_ignores_rates_sources_conditions_and_position_but_not_the_text() -> None:
    fix = Workaround(action="Pin numpy", how="pip install 'numpy<2'", success_rate=0.9)
    same = Workaround(action="Pin  numpy\n", how="pip install 'numpy<2'", success_rate=0.4,
                      condition="old wheels", sources=["https://example.org/x"])
    reworded = Workaround(action="Pin numpy", how="pip install 'numpy<1.27'")
    assert item_hash(fix) == item_hash(same)
    assert item_hash(fix) != item_hash(reworded)
    # The same words as a dead end are a different thing.
    assert item_hash(DeadEnd(action="Pin numpy", why_fails="pip install 'numpy<2'")) != item_hash(fix)
    reordered = RECORD.model_copy(update={"workarounds": [OTHER, FIX]})
    assert [item_hash(w) for w in reordered.workarounds] == [item_hash(OTHER), item_hash(FIX)]


def test_outcomes_survive_a_restart_and_count_per_fix(tmp_path: Path) -> None:
    path = tmp_path / "new" / "folder" / "outcomes.jsonl"
    log = OutcomeLog(path)
    assert not log and log.problems == []
    log.record(RECORD.id, FIX, "worked")
    log.record(RECORD.id, FIX, "worked")
    log.record(RECORD.id, FIX, "failed")
    log.record(RECORD.id, DEAD, "tried_failed")
    assert log.counts(RECORD.id) == {item_hash(FIX): Counts(2, 1), item_hash(DEAD): Counts(0, 1)}

    again = OutcomeLog(path)
    assert again.counts(RECORD.id) == log.counts(RECORD.id)
    assert again.counts_for(RECORD.id, OTHER) == Counts(0, 0)
    assert again.counts("acme/other") == {}
    assert again.record_ids() == {RECORD.id}
    lines = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    assert set(lines[0]) == {"record_id", "hash", "kind", "verdict", "date"}
    assert lines[-1]["kind"] == "dead_end" and lines[-1]["verdict"] == "tried_failed"


def test_verdicts_must_fit_the_kind(tmp_path: Path) -> None:
    log = OutcomeLog(tmp_path / "o.jsonl")
    with pytest.raises(ValueError, match="verdict"):
        log.record(RECORD.id, FIX, "tried_failed")
    with pytest.raises(ValueError, match="verdict"):
        log.record(RECORD.id, DEAD, "failed")
    with pytest.raises(ValueError, match="record id"):
        log.record("no-slash", FIX, "worked")
    assert not (tmp_path / "o.jsonl").exists()


def test_bad_lines_are_problems_with_line_numbers_and_good_lines_count(tmp_path: Path) -> None:
    path = tmp_path / "outcomes.jsonl"
    good = make_event(RECORD.id, item_hash(FIX), "workaround", "worked", "2026-01-02").to_line()
    path.write_bytes(b"".join([
        good,
        b"not json\n",
        b"[1, 2]\n",
        b'{"record_id": "acme/thing", "hash": "xyz", "kind": "workaround", "verdict": "worked", "date": "2026-01-02"}\n',
        good.replace(b"worked", b"fixed"),
        good.replace(b"2026-01-02", b"yesterday"),
        b"\xff\xfe\n",
        b"\n",
        good,
    ]))
    log = OutcomeLog(path)
    assert log.counts(RECORD.id) == {item_hash(FIX): Counts(2, 0)}
    assert [(p.line, p.severity) for p in log.problems] == [(n, "warning") for n in (2, 3, 4, 5, 6, 7)]
    assert all(p.file == str(path) for p in log.problems)
    assert "not JSON" in log.problems[0].message and "hash" in log.problems[2].message


def test_a_torn_last_line_is_skipped_reported_and_the_next_write_stays_whole(tmp_path: Path) -> None:
    path = tmp_path / "outcomes.jsonl"
    log = OutcomeLog(path)
    log.record(RECORD.id, FIX, "worked")
    whole = path.read_bytes()
    with open(path, "ab") as handle:  # a write cut short by a crash
        handle.write(whole[: len(whole) // 2])
    log.reload()
    assert log.counts(RECORD.id) == {item_hash(FIX): Counts(1, 0)}
    [problem] = log.problems
    assert problem.line == 2 and "incomplete" in problem.message

    log.record(RECORD.id, OTHER, "failed")  # a newline goes first: the torn line stays alone
    assert path.read_bytes().count(b"\n") == 3
    fresh = OutcomeLog(path)
    assert fresh.counts(RECORD.id) == {item_hash(FIX): Counts(1, 0), item_hash(OTHER): Counts(0, 1)}
    assert [p.line for p in fresh.problems] == [2]
    assert [p.line for p in log.problems] == [2]  # the incremental read agrees


def test_reload_picks_up_another_instance_and_a_replaced_file(tmp_path: Path) -> None:
    path = tmp_path / "outcomes.jsonl"
    first, second = OutcomeLog(path), OutcomeLog(path)
    first.record(RECORD.id, FIX, "worked")
    second.record(RECORD.id, FIX, "failed")  # reads the first's line on the way
    assert second.counts(RECORD.id) == {item_hash(FIX): Counts(1, 1)}
    first.reload()
    assert first.counts(RECORD.id) == {item_hash(FIX): Counts(1, 1)}

    replacement = tmp_path / "other.jsonl"
    append_event(replacement, make_event(RECORD.id, item_hash(OTHER), "workaround", "worked"))
    os.replace(replacement, path)
    first.reload()
    assert first.counts(RECORD.id) == {item_hash(OTHER): Counts(1, 0)}


def test_since_counts_only_later_outcomes(tmp_path: Path) -> None:
    path = tmp_path / "outcomes.jsonl"
    log = OutcomeLog(path)
    log.record(RECORD.id, FIX, "worked", date="2026-01-01")
    log.record(RECORD.id, FIX, "failed", date="2026-03-01")
    assert OutcomeLog(path, since="2026-02-01").counts(RECORD.id) == {item_hash(FIX): Counts(0, 1)}


def _writer(path: str, start, count: int, hash_: str) -> None:
    log = OutcomeLog(Path(path))
    start.wait()
    for _ in range(count):
        log.record_event(make_event(RECORD.id, hash_, "workaround", "worked"))


def test_two_processes_appending_at_once_lose_and_tear_nothing(tmp_path: Path) -> None:
    path = tmp_path / "outcomes.jsonl"
    count = 300
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    start = context.Event()
    hashes = ["a" * 16, "b" * 16]
    workers = [context.Process(target=_writer, args=(str(path), start, count, h)) for h in hashes]
    for worker in workers:
        worker.start()
    start.set()  # both begin together
    for worker in workers:
        worker.join(timeout=120)
        assert worker.exitcode == 0
    raw = path.read_bytes()
    assert raw.endswith(b"\n") and raw.count(b"\n") == 2 * count
    log = OutcomeLog(path)
    assert log.problems == []
    assert log.counts(RECORD.id) == {h: Counts(count, 0) for h in hashes}


def test_team_files_are_read_from_the_top_of_folder_sources_only(tmp_path: Path) -> None:
    team = tmp_path / "team-kb"
    (team / "acme").mkdir(parents=True)
    (team / TEAM_FILE).write_text(
        json.dumps({"record_id": RECORD.id, "hash": item_hash(FIX), "kind": "workaround", "worked": 12,
                    "failed": 3, "first": "2026-01-04", "last": "2026-11-30"}) + "\n"
        + '{"record_id": "acme/thing", "hash": "' + item_hash(FIX) + '", "worked": -1, "failed": 0}\n'
        + "garbage\n"
        + json.dumps({"record_id": RECORD.id, "hash": item_hash(FIX), "worked": 1, "failed": 0}) + "\n",
        encoding="utf-8")
    (team / "acme" / TEAM_FILE).write_text("ignored\n", encoding="utf-8")
    plain_file = tmp_path / "kb.jsonl"
    plain_file.write_text("", encoding="utf-8")
    sources = [Source(team, "--data"), Source(plain_file, "--data"), Source(tmp_path / "missing", "--data")]
    assert team_files(sources) == [team / TEAM_FILE]
    counts = TeamOutcomes.from_sources(sources)
    assert counts.counts(RECORD.id) == {item_hash(FIX): Counts(13, 3)}
    assert [p.line for p in counts.problems] == [2, 3]


def test_export_holds_only_ids_hashes_kinds_counts_and_dates(tmp_path: Path) -> None:
    log = OutcomeLog(tmp_path / "outcomes.jsonl")
    log.record(RECORD.id, FIX, "worked", date="2026-02-01")
    log.record(RECORD.id, FIX, "failed", date="2026-01-01")
    log.record(RECORD.id, DEAD, "tried_failed", date="2026-03-01")
    lines = [json.loads(line) for line in export_lines(log)]
    assert all(set(line) == {"record_id", "hash", "kind", "worked", "failed", "first", "last"} for line in lines)
    by_hash = {line["hash"]: line for line in lines}
    assert by_hash[item_hash(FIX)] == {"record_id": RECORD.id, "hash": item_hash(FIX), "kind": "workaround",
                                       "worked": 1, "failed": 1, "first": "2026-01-01", "last": "2026-02-01"}
    # An export read back as a team file gives the same counts.
    team_file = tmp_path / TEAM_FILE
    team_file.write_text("".join(line + "\n" for line in export_lines(log)), encoding="utf-8")
    team = TeamOutcomes([team_file])
    assert team.problems == [] and team.counts(RECORD.id) == log.counts(RECORD.id)


def test_outcomes_and_trust_import_without_textual() -> None:
    import subprocess
    import sys

    probe = ("import sys, errkb_tui.outcomes, errkb_tui.team, errkb_tui.trust, errkb_tui.outcomes_cli, errkb_tui.lint; "
             "print(any(m == 'textual' or m.startswith('textual.') for m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_a_file_over_the_size_limit_is_a_problem_not_a_memory_spike(tmp_path: Path, monkeypatch) -> None:
    import errkb_tui.outcomes as outcomes
    import errkb_tui.team as team_module

    path = tmp_path / "outcomes.jsonl"
    log = OutcomeLog(path)
    log.record(RECORD.id, FIX, "worked")
    monkeypatch.setattr(outcomes, "MAX_FILE_BYTES", 10)
    monkeypatch.setattr(team_module, "MAX_FILE_BYTES", 10)
    big = OutcomeLog(path)
    assert not big and [p.severity for p in big.problems] == ["error"] and "limit" in big.problems[0].message
    team = TeamOutcomes([path])
    assert [p.severity for p in team.problems] == ["error"]
