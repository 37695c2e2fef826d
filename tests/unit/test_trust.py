"""Combining the KB's estimate with outcomes, ordering fixes, and the words for rates and tiers."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from errkb_tui.model import VERIFICATION_TIERS, DeadEnd, Record, Workaround
from errkb_tui.outcomes import Counts, item_hash
from errkb_tui.trust import (
    TIER_MEANINGS, combined_rate, dead_end_fail_rate, item_label, order_workarounds, rate_label,
    record_label, record_phrase, short_rate_label, tier_meaning,
)

from ..helpers import seed_record

rates = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
counts = st.integers(min_value=0, max_value=10**6)
weights = st.floats(min_value=0.0, max_value=1000.0, allow_nan=False)


@given(rates, weights)
def test_no_outcomes_gives_the_estimate(estimate: float, weight: float) -> None:
    assert combined_rate(estimate, 0, 0, weight) == pytest.approx(estimate)


@given(st.one_of(st.none(), rates, st.floats(allow_nan=True)), counts, counts, weights)
def test_always_inside_zero_and_one(estimate, worked: int, failed: int, weight: float) -> None:
    assert 0.0 <= combined_rate(estimate, worked, failed, weight) <= 1.0


@given(rates, st.integers(min_value=1000, max_value=10**6), st.floats(min_value=0.0, max_value=1.0))
def test_many_outcomes_dominate_the_estimate(estimate: float, total: int, share: float) -> None:
    worked = round(total * share)
    observed = worked / total
    # The prior is worth 2 outcomes: after n of them it moves the result by at most 2/(n+2).
    assert abs(combined_rate(estimate, worked, total - worked) - observed) <= 2 / (total + 2) + 1e-12


@given(st.one_of(st.none(), rates), counts, counts)
def test_a_success_never_lowers_and_a_failure_never_raises_the_rate(estimate, worked: int, failed: int) -> None:
    now = combined_rate(estimate, worked, failed)
    assert combined_rate(estimate, worked + 1, failed) >= now
    assert combined_rate(estimate, worked, failed + 1) <= now


def test_worked_examples_and_a_neutral_prior() -> None:
    assert combined_rate(0.9, 0, 0) == pytest.approx(0.9)
    assert combined_rate(0.9, 0, 1) == pytest.approx(1.8 / 3)  # one failure weighs a third
    assert combined_rate(0.9, 3, 1) == pytest.approx((1.8 + 3) / 6)
    assert combined_rate(None, 0, 0) == 0.5
    assert combined_rate(math.nan, 1, 0) == pytest.approx(2 / 3)
    assert combined_rate(0.2, 5, 0, prior_weight=0) == 1.0
    assert combined_rate(1.7, 0, 0) == 1.0  # clamped


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError):
        combined_rate(0.5, -1, 0)
    with pytest.raises(ValueError):
        combined_rate(0.5, 0, 0, prior_weight=-1)
    with pytest.raises(ValueError):
        combined_rate(0.5, 0, 0, prior_weight=math.nan)


def fixes(*rates: float) -> list[Workaround]:
    return [Workaround(action=f"fix {i}", success_rate=rate) for i, rate in enumerate(rates)]


def test_order_keeps_the_kb_order_without_outcomes_even_unsorted() -> None:
    items = fixes(0.5, 0.9, 0.7)
    assert order_workarounds(items) == [0, 1, 2]
    assert order_workarounds(items, {}, None) == [0, 1, 2]


def test_order_follows_the_evidence_and_ties_keep_the_kb_order() -> None:
    items = fixes(0.9, 0.8, 0.8, 0.6)
    user = {item_hash(items[0]): Counts(0, 2), item_hash(items[3]): Counts(5, 0)}
    # 0: (1.8+0)/4 = .45; 1 and 2: .8 (tie, KB order); 3: (1.2+5)/7 = .886
    assert order_workarounds(items, user) == [3, 1, 2, 0]
    team = {item_hash(items[2]): Counts(10, 0)}
    assert order_workarounds(items, user, team) == [2, 3, 1, 0]


def test_a_dead_ends_fail_rate_rises_with_tried_and_failed() -> None:
    dead = DeadEnd(action="reinstall", why_fails="not the cause", fail_rate=0.6)
    assert dead_end_fail_rate(dead) == pytest.approx(0.6)
    assert dead_end_fail_rate(dead, {item_hash(dead): Counts(0, 4)}) == pytest.approx((1.2 + 4) / 6)


def test_rate_labels_mark_estimates_and_show_counts_apart() -> None:
    assert rate_label(0.9) == "est. 90%"
    assert rate_label(0.9, Counts(3, 1), Counts(12, 3)) == "est. 90% · you 3/4 · team 12/15"
    assert rate_label(0.9, Counts(0, 0), Counts(1, 0)) == "est. 90% · team 1/1"
    assert rate_label(0.95, dead_end=True) == "est. fails ~95%"
    assert rate_label(0.95, Counts(0, 2), dead_end=True) == "est. fails ~95% · you failed 2/2"
    assert rate_label(None) == "no estimate"
    assert short_rate_label(0.78) == "est. 78%"
    assert short_rate_label(0.78, Counts(3, 1)) == "you 3/4"
    assert short_rate_label(0.78, None, Counts(2, 0)) == "team 2/2"


def test_every_rate_without_outcomes_reads_as_an_estimate() -> None:
    for value in (0.0, 0.5, 0.85, 1.0):
        assert rate_label(value).startswith("est. ")
        assert rate_label(value, dead_end=True).startswith("est. fails ~")
        assert short_rate_label(value).startswith("est. ")
        assert record_phrase(value, 0, 0).startswith("est. ")


def test_item_and_record_labels_from_hash_maps() -> None:
    record = Record.model_validate(seed_record("acme/thing"))
    first, second = record.workarounds
    user = {item_hash(first): Counts(3, 1), item_hash(record.dead_ends[0]): Counts(0, 1)}
    team = {item_hash(second): Counts(12, 3)}
    assert item_label(first, user, team) == "est. 85% · you 3/4"
    assert item_label(second, user, team) == "est. 80% · team 12/15"
    assert item_label(record.dead_ends[0], user) == "est. fails ~60% · you failed 1/1"
    assert record_label(record) == "est. fix rate 78% · evidence 1 · 0 sources"
    assert record_label(record, user, team) == "est. fix rate 78% · evidence 1 · 0 sources · you 3/4 · team 12/15"
    assert record_phrase(0.5, 2, 1) == "est. fix rate 50% · evidence 2 · 1 source"


def test_every_tier_has_one_meaning() -> None:
    assert set(TIER_MEANINGS) == set(VERIFICATION_TIERS)
    assert tier_meaning("ai_generated").startswith("Not fully checked")
    assert "every dead end and workaround" in tier_meaning("source_checked")
    assert "Unknown tier" in tier_meaning("made_up")


def test_evidence_puts_the_users_log_and_the_team_counts_together(tmp_path) -> None:
    from errkb_tui.kb import Source
    from errkb_tui.outcomes import TEAM_FILE
    from errkb_tui.trust import Evidence

    record = Record.model_validate(seed_record("acme/thing"))
    first, second = record.workarounds
    team = tmp_path / "team"
    team.mkdir()
    (team / TEAM_FILE).write_text(
        '{"record_id": "acme/thing", "hash": "%s", "kind": "workaround", "worked": 4, "failed": 0}\n'
        % item_hash(second), encoding="utf-8")
    evidence = Evidence.load([Source(team, "--data")], path=tmp_path / "me" / "outcomes.jsonl")
    assert evidence.problems == []
    assert evidence.order(record) == [1, 0]
    assert evidence.short_label(record.id, 0.78) == "team 4/4"
    evidence.mark(record.id, first, "failed")
    evidence.mark(record.id, record.dead_ends[0], "tried_failed")
    assert evidence.counts(record.id, first) == (Counts(0, 1), Counts(0, 0))
    assert evidence.label(record.id, second) == "est. 80% · team 4/4"
    assert evidence.label(record.id, first) == "est. 85% · you 0/1"
    assert evidence.rate(record, first) == pytest.approx(1.7 / 3)
    assert evidence.rate(record, record.dead_ends[0]) == pytest.approx((1.2 + 1) / 3)
    assert evidence.short_label(record.id, 0.78) == "you 0/1"  # a dead end is not in the row's count
    assert evidence.record_label(record) == "est. fix rate 78% · evidence 1 · 0 sources · you 0/1 · team 4/4"

    other = Evidence.load([], path=tmp_path / "me" / "outcomes.jsonl")  # a second app instance
    other.mark(record.id, second, "worked")
    evidence.reload()
    assert evidence.counts(record.id, second) == (Counts(1, 0), Counts(4, 0))
