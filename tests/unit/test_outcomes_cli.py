"""``errkb-tui outcomes`` and the evidence in ``match --json``, run as a user would."""

from __future__ import annotations

import getpass
import json
from pathlib import Path

from errkb_tui.model import Record
from errkb_tui.outcomes import TEAM_FILE, OutcomeLog, item_hash
from errkb_tui.userdata import outcomes_file

from ..helpers import seed_record, write_json
from .test_cli import DDP_CORPUS, SEED, SEED_ID, run

RECORD = Record.model_validate(SEED)
FIRST, SECOND = RECORD.workarounds


def mark() -> OutcomeLog:
    """Second workaround worked twice, the first failed once, a dead end tried and failed."""
    log = OutcomeLog(outcomes_file())
    log.record(SEED_ID, SECOND, "worked", date="2026-11-01")
    log.record(SEED_ID, SECOND, "worked", date="2026-11-20")
    log.record(SEED_ID, FIRST, "failed", date="2026-11-10")
    log.record(SEED_ID, RECORD.dead_ends[0], "tried_failed", date="2026-11-10")
    return log


def test_list_says_when_there_is_nothing_yet(tmp_path: Path) -> None:
    result = run(tmp_path, "outcomes")
    assert result.returncode == 0 and "No outcomes recorded yet" in result.stdout


def test_list_shows_counts_beside_the_estimates(tmp_path: Path) -> None:
    mark()
    for args in (("outcomes",), ("outcomes", "list")):
        result = run(tmp_path, *args)
        assert result.returncode == 0, result.stderr
        lines = result.stdout.splitlines()
        assert lines[0] == SEED_ID
        assert any(line.endswith("est. 80% · you 2/2") for line in lines)
        assert any(line.endswith("est. 85% · you 0/1") for line in lines)
        assert any(line.endswith("est. fails ~60% · you failed 1/1") for line in lines)


def test_a_bad_line_is_reported_and_the_rest_still_counts(tmp_path: Path) -> None:
    log = mark()
    with open(log.path, "ab") as handle:
        handle.write(b"{oops\n")
    result = run(tmp_path, "outcomes")
    assert result.returncode == 0
    assert "outcomes.jsonl:5: warning" in result.stderr and "not an outcome" in result.stderr
    assert "you 2/2" in result.stdout


def test_export_holds_counts_only_and_a_kb_folder_reads_it_as_team_counts(tmp_path: Path) -> None:
    mark()
    result = run(tmp_path, "outcomes", "export")
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == 3
    assert all(set(line) == {"record_id", "hash", "kind", "worked", "failed", "first", "last"} for line in lines)
    assert str(Path.home()) not in result.stdout and getpass.getuser() not in result.stdout.replace(SEED_ID, "")
    second = next(line for line in lines if line["hash"] == item_hash(SECOND))
    assert (second["worked"], second["failed"], second["first"], second["last"]) == (2, 0, "2026-11-01", "2026-11-20")

    team = tmp_path / "team-kb"
    write_json(team / "acme" / "thing.json", seed_record(
        "acme/thing", signature="Acme widget exploded: code X", regex=r"Acme widget exploded: code \d+"))
    written = run(tmp_path, "outcomes", "export", "--output", str(team / TEAM_FILE))
    assert written.returncode == 0 and "Wrote 3" in written.stderr
    again = run(tmp_path, "outcomes", "export", "--output", str(team / TEAM_FILE))
    assert again.returncode == 2 and "--merge" in again.stderr
    merged = run(tmp_path, "outcomes", "export", "--merge", "--output", str(team / TEAM_FILE))
    assert merged.returncode == 0, merged.stderr

    # The team file is not a KB file: the folder validates, and it holds one record.
    checked = run(tmp_path, "validate", str(team))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "1 record(s) checked" in checked.stdout and TEAM_FILE not in checked.stdout

    matched = run(tmp_path, "match", "--json", "--limit", "1", "--data", str(team), str(DDP_CORPUS))
    assert matched.returncode == 0, matched.stderr
    [top] = json.loads(matched.stdout)["matches"]
    assert top["id"] == SEED_ID
    best = top["workarounds"][0]
    assert best["index"] == 1 and best["hash"] == item_hash(SECOND)
    assert best["user"] == {"worked": 2, "failed": 0} and best["team"] == {"worked": 4, "failed": 0}
    assert best["label"] == "est. 80% · you 2/2 · team 4/4"
    assert best["combined"] > top["workarounds"][1]["combined"]
    assert top["dead_ends"][0]["label"] == "est. fails ~60% · you failed 1/1 · team failed 2/2"


def test_match_json_without_outcomes_keeps_the_kb_order_and_estimates(tmp_path: Path) -> None:
    result = run(tmp_path, "match", "--json", "--limit", "1", str(DDP_CORPUS))
    [top] = json.loads(result.stdout)["matches"]
    assert [w["index"] for w in top["workarounds"]] == [0, 1]
    assert [w["combined"] for w in top["workarounds"]] == [0.85, 0.8]
    assert [w["label"] for w in top["workarounds"]] == ["est. 85%", "est. 80%"]
    assert all(w["user"] == w["team"] == {"worked": 0, "failed": 0} for w in top["workarounds"])


def test_export_since_counts_only_later_outcomes(tmp_path: Path) -> None:
    mark()
    result = run(tmp_path, "outcomes", "export", "--since", "2026-11-15")
    [line] = [json.loads(line) for line in result.stdout.splitlines()]
    assert (line["hash"], line["worked"], line["failed"]) == (item_hash(SECOND), 1, 0)
    bad = run(tmp_path, "outcomes", "export", "--since", "soon")
    assert bad.returncode == 2 and "YYYY-MM-DD" in bad.stderr


def test_validate_help_gives_each_tier_its_meaning(tmp_path: Path) -> None:
    result = run(tmp_path, "validate", "--help")
    text = " ".join(result.stdout.split())
    for tier in ("ai_generated", "source_checked", "community_verified", "expert_verified"):
        assert f"{tier}:" in text
    assert "Not fully checked" in text


def test_validate_reports_a_bad_line_of_a_team_file(tmp_path: Path) -> None:
    team = tmp_path / "team-kb"
    write_json(team / "acme" / "thing.json", seed_record(
        "acme/thing", signature="Acme widget exploded: code X", regex=r"Acme widget exploded: code \d+"))
    (team / TEAM_FILE).write_text('{"record_id": "acme/thing"}\n', encoding="utf-8")
    result = run(tmp_path, "validate", "--strict", str(team))
    assert result.returncode == 1
    assert "outcomes.jsonl:1: warning" in result.stdout and "not a team count" in result.stdout
