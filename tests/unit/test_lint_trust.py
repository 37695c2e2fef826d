"""``validate``'s trust rules: sources behind a checked tier, and dates stamped in bulk."""

from __future__ import annotations

import datetime

from errkb_tui.kb import KB, Origin
from errkb_tui.lint import SHARED_CONFIRMED_MAX, lint_kb, lint_record
from errkb_tui.model import Record

from ..helpers import seed_record

TODAY = datetime.date(2026, 11, 30)
URL = "https://example.org/issue/1"


def sourced(record_id: str = "acme/thing", **changes) -> Record:
    data = seed_record(record_id, **changes)
    for item in [*data["dead_ends"], *data["workarounds"]]:
        item["sources"] = [URL]
    data["evidence_count"] = 1
    return Record.model_validate(data)


def trust_problems(record: Record) -> list[tuple[str, str]]:
    return [(severity, field) for severity, field, message in lint_record(record, TODAY)
            if field.endswith(".sources")]


def test_a_checked_tier_needs_a_source_on_every_dead_end_and_workaround() -> None:
    assert trust_problems(sourced(verification_tier="source_checked")) == []
    record = sourced(verification_tier="source_checked")
    record.dead_ends[1].sources = []
    record.workarounds[0].sources = []
    assert trust_problems(record) == [("warning", "dead_ends[1].sources"), ("warning", "workarounds[0].sources")]
    record.verification_tier = "expert_verified"
    assert len(trust_problems(record)) == 2
    record.verification_tier = "ai_generated"  # claims nothing: no source is needed
    assert trust_problems(record) == []


def kb_of(records: list[Record]) -> KB:
    origins = {r.id: Origin(f"/kb/{r.id}.json") for r in records}
    return KB(records=records, origins=origins)


def shared_date_problems(records: list[Record]) -> list[tuple[str, str]]:
    return [(p.severity, p.message) for p in lint_kb(kb_of(records), today=TODAY) if p.record_id is None]


def test_many_checked_records_on_one_date_are_a_warning() -> None:
    many = [sourced(f"acme/r{i}", verification_tier="source_checked", last_confirmed="2026-11-29")
            for i in range(SHARED_CONFIRMED_MAX + 1)]
    [(severity, message)] = shared_date_problems(many)
    assert severity == "warning" and f"{SHARED_CONFIRMED_MAX + 1} records" in message and "2026-11-29" in message
    assert shared_date_problems(many[:-1]) == []


def test_a_days_checks_are_counted_per_checker() -> None:
    half = SHARED_CONFIRMED_MAX // 2 + 1
    ann = [sourced(f"acme/a{i}", verification_tier="source_checked", last_confirmed="2026-11-29",
                   checked_by="ann") for i in range(half)]
    bo = [sourced(f"acme/b{i}", verification_tier="source_checked", last_confirmed="2026-11-29",
                  checked_by="bo") for i in range(half)]
    assert len(ann + bo) > SHARED_CONFIRMED_MAX and shared_date_problems(ann + bo) == []
    many = [sourced(f"acme/c{i}", verification_tier="source_checked", last_confirmed="2026-11-29",
                    checked_by="ann") for i in range(SHARED_CONFIRMED_MAX + 1)]
    [(severity, message)] = shared_date_problems(many)
    assert severity == "warning" and "checked_by 'ann'" in message


def test_unchecked_records_sharing_a_date_are_only_noted() -> None:
    records = [sourced(f"acme/r{i}", verification_tier="ai_generated", last_confirmed="2026-11-29")
               for i in range(SHARED_CONFIRMED_MAX + 1)]
    records += [sourced(f"acme/c{i}", verification_tier="source_checked", last_confirmed="2026-11-29")
                for i in range(10)]
    [(severity, message)] = shared_date_problems(records)
    assert severity == "info" and "only when they were written" in message
    spread = [sourced(f"acme/d{i}", verification_tier="source_checked",
                      last_confirmed=(datetime.date(2026, 1, 1) + datetime.timedelta(days=i % 20)).isoformat())
              for i in range(200)]
    assert shared_date_problems(spread) == []
