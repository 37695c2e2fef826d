"""How far to trust a number or a record: combining, ordering, labels, tier meanings.

Plain Python, no Textual: the one place every surface (detail, list, palette, ``show``,
``match``, the agent server) takes its wording from, so a rate with nothing behind it is
called an estimate everywhere.

The KB's rates (``success_rate``, ``fail_rate``, ``fix_success_rate``) are estimates
written with the record, with no sample behind them; outcomes (the user's own and a
team's, :mod:`errkb_tui.outcomes`) are counts. :func:`combined_rate` puts the two together.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from .kb import Problem, Source
from .model import DeadEnd, Record, Workaround
from .outcomes import Counts, Event, OutcomeCounts, OutcomeLog, item_hash
from .team import TeamOutcomes

#: How many outcomes the KB's estimate is worth in :func:`combined_rate`.
PRIOR_WEIGHT = 2.0

#: What each verification tier means: one sentence, used by the README, ``validate`` and
#: the detail pane ("what was checked").
TIER_MEANINGS: dict[str, str] = {
    "ai_generated": "Not fully checked: written by an AI model, and at least one dead end or "
                    "workaround has no source that says it. Any fact or fix may be wrong; treat "
                    "the fixes as suggestions.",
    "user_written": "Written by a person from an error they hit: the regex was checked against "
                    "that real output (kept as the record's example); the fixes are their own "
                    "experience, not checked by anyone else.",
    "source_checked": "The message and regex were checked against the tool's source or a real "
                      "report, and every dead end and workaround cites a source that says so.",
    "community_verified": "Checked as for source_checked, and confirmed by people who hit the "
                          "error and tried the fixes.",
    "expert_verified": "Checked as for source_checked, and reviewed by someone who knows the "
                       "tool well (a maintainer or an expert user).",
}
#: A few words per tier for narrow places (a header, a list row).
TIER_SHORT: dict[str, str] = {
    "ai_generated": "unconfirmed (AI-written)",
    "user_written": "user-written",
    "source_checked": "source-checked",
    "community_verified": "community-verified",
    "expert_verified": "expert-verified",
}
#: Tiers that claim something was checked.
CHECKED_TIERS = ("source_checked", "community_verified", "expert_verified")


def tier_meaning(tier: str) -> str:
    """The plain-words sentence of what ``tier`` checked; an unknown tier says so."""
    return TIER_MEANINGS.get(tier, f"Unknown tier {tier!r}: treat it as unchecked.")


def combined_rate(estimate: float | None, worked: int, failed: int, prior_weight: float = PRIOR_WEIGHT) -> float:
    """The chance a fix works, from the KB's estimate and observed outcomes.

    A Beta-Binomial posterior mean. The estimate ``p`` is a Beta prior worth
    ``prior_weight`` outcomes: ``Beta(p * w, (1 - p) * w)``; after ``worked`` successes and
    ``failed`` failures the posterior mean is::

        (p * w + worked) / (w + worked + failed)

    So: no outcomes gives the estimate itself; each outcome counts as much as ``1 / w`` of
    the estimate, and many outcomes dominate it; the result always lies in [0, 1]. With no
    estimate (``None``) the prior is neutral, 0.5. An estimate outside [0, 1] is clamped.

    For a dead end pass its ``fail_rate`` as the estimate, tried-and-failed as ``worked``
    and worked-after-all as ``failed``: the result is then the chance it fails.
    """
    if worked < 0 or failed < 0:
        raise ValueError("outcome counts cannot be negative")
    if not prior_weight >= 0 or math.isinf(prior_weight):
        raise ValueError("prior_weight must be a finite number >= 0")
    if estimate is None or math.isnan(estimate):
        estimate = 0.5
    estimate = min(1.0, max(0.0, float(estimate)))
    if worked + failed == 0:  # exactly the estimate (no rounding through a tiny weight)
        return estimate
    total = prior_weight + worked + failed
    return min(1.0, max(0.0, (estimate * prior_weight + worked) / total))


def evidence(item: Workaround | DeadEnd, *counts: Mapping[str, Counts] | None) -> Counts:
    """The item's counts summed over the given ``{hash: Counts}`` maps (user, team, ...)."""
    key = item_hash(item)
    total = Counts()
    for mapping in counts:
        if mapping:
            total = total + mapping.get(key, Counts())
    return total


def workaround_rate(item: Workaround, *counts: Mapping[str, Counts] | None,
                    prior_weight: float = PRIOR_WEIGHT) -> float:
    """:func:`combined_rate` of a workaround: its ``success_rate`` with the counts given."""
    seen = evidence(item, *counts)
    return combined_rate(item.success_rate, seen.worked, seen.failed, prior_weight)


def dead_end_fail_rate(item: DeadEnd, *counts: Mapping[str, Counts] | None,
                       prior_weight: float = PRIOR_WEIGHT) -> float:
    """The chance a dead end fails: its ``fail_rate`` with the counts given."""
    seen = evidence(item, *counts)
    return combined_rate(item.fail_rate, seen.failed, seen.worked, prior_weight)


def order_workarounds(workarounds: Sequence[Workaround], *counts: Mapping[str, Counts] | None,
                      prior_weight: float = PRIOR_WEIGHT) -> list[int]:
    """Indices of ``workarounds``, best first by :func:`workaround_rate`.

    With no outcomes for any of them, the KB's own order is kept as it is (even if its
    estimates are not sorted). With some, all are sorted by combined rate, and ties keep
    the KB's order (a stable sort).
    """
    indices = list(range(len(workarounds)))
    if not any(evidence(w, *counts).total for w in workarounds):
        return indices
    rates = [workaround_rate(w, *counts, prior_weight=prior_weight) for w in workarounds]
    return sorted(indices, key=lambda i: -rates[i])


def _percent(rate: float) -> str:
    return f"{round(min(1.0, max(0.0, rate)) * 100)}%"


def _part(name: str, counts: Counts | None, dead_end: bool) -> str:
    if not counts or not counts.total:
        return ""
    if dead_end:
        return f"{name} failed {counts.failed}/{counts.total}"
    return f"{name} {counts.worked}/{counts.total}"


def rate_label(estimate: float | None, user: Counts | None = None, team: Counts | None = None, *,
               dead_end: bool = False) -> str:
    """The rate of a workaround (or dead end) as it should read everywhere.

    ``est. 90%``; with outcomes ``est. 90% · you 3/4 · team 12/15`` (worked out of tried).
    A dead end: ``est. fails ~95%``, ``est. fails ~95% · you failed 2/2``. The KB's figure is
    always marked ``est.``: it has no sample behind it. No estimate: ``no estimate``.
    """
    if estimate is None:
        head = "no estimate"
    elif dead_end:
        head = f"est. fails ~{_percent(estimate)}"
    else:
        head = f"est. {_percent(estimate)}"
    parts = [head, _part("you", user, dead_end), _part("team", team, dead_end)]
    return " · ".join(p for p in parts if p)


def item_label(item: Workaround | DeadEnd, user: Mapping[str, Counts] | None = None,
               team: Mapping[str, Counts] | None = None) -> str:
    """:func:`rate_label` of a workaround or dead end, given ``{hash: Counts}`` maps."""
    key = item_hash(item)
    mine = user.get(key) if user else None
    theirs = team.get(key) if team else None
    if isinstance(item, DeadEnd):
        return rate_label(item.fail_rate, mine, theirs, dead_end=True)
    return rate_label(item.success_rate, mine, theirs)


def short_rate_label(estimate: float | None, user: Counts | None = None, team: Counts | None = None) -> str:
    """A few cells for a list row: ``est. 78%``, or the user's (else team's) count ``you 3/4``."""
    for name, counts in (("you", user), ("team", team)):
        if counts and counts.total:
            return f"{name} {counts.worked}/{counts.total}"
    return "no est." if estimate is None else f"est. {_percent(estimate)}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def record_label(record: Record, user: Mapping[str, Counts] | None = None,
                 team: Mapping[str, Counts] | None = None) -> str:
    """The record-level phrase: its fix rate as an estimate, with what stands behind it.

    ``est. fix rate 78% · evidence 2 · 2 sources``; with outcomes on any of its workarounds
    ``... · you 3/4 · team 12/15`` (summed over the workarounds).
    """
    mine, theirs = Counts(), Counts()
    for workaround in record.workarounds:
        mine = mine + evidence(workaround, user)
        theirs = theirs + evidence(workaround, team)
    return record_phrase(record.fix_success_rate, record.evidence_count, len(record.sources), mine, theirs)


def record_phrase(fix_rate: float | None, evidence_count: int, source_count: int,
                  user: Counts | None = None, team: Counts | None = None) -> str:
    """:func:`record_label` from plain values (for callers holding only a summary)."""
    head = "no fix estimate" if fix_rate is None else f"est. fix rate {_percent(fix_rate)}"
    parts = [head, f"evidence {evidence_count}", _plural(source_count, "source"),
             _part("you", user, False), _part("team", team, False)]
    return " · ".join(p for p in parts if p)


class Evidence:
    """The user's outcomes and a team's counts together: what the UI asks about a record.

    ``Evidence.load(kb.sources)`` reads both (call it in a worker: it reads files).
    :meth:`mark` appends an outcome (slow: an fsync; call it in a worker too); every other
    method only looks at counts in memory and is cheap enough for a keystroke.
    """

    def __init__(self, user: OutcomeLog, team: OutcomeCounts | None = None) -> None:
        self.user = user
        self.team = team if team is not None else TeamOutcomes()

    @classmethod
    def load(cls, sources: Iterable[Source] = (), path: Path | None = None) -> Evidence:
        """The log at ``path`` (default: :func:`errkb_tui.userdata.outcomes_file`) and the
        team files at the top of the folder ``sources``."""
        from .userdata import outcomes_file

        return cls(OutcomeLog(path or outcomes_file()), TeamOutcomes.from_sources(sources))

    @property
    def problems(self) -> list[Problem]:
        """Bad lines of the log and the team files (add them to the problems report)."""
        return [*self.user.problems, *self.team.problems]

    def reload(self) -> None:
        """Read what another instance appended to the log since."""
        self.user.reload()

    def mark(self, record_id: str, item: Workaround | DeadEnd, verdict: str) -> Event:
        """Record an outcome: ``worked``/``failed`` on a workaround, ``tried_failed`` on a dead end."""
        return self.user.record(record_id, item, verdict)

    def counts(self, record_id: str, item: Workaround | DeadEnd) -> tuple[Counts, Counts]:
        """``(user, team)`` counts of one fix."""
        return self.user.counts_for(record_id, item), self.team.counts_for(record_id, item)

    def order(self, record: Record) -> list[int]:
        """Indices of the record's workarounds, best first (:func:`order_workarounds`)."""
        return order_workarounds(record.workarounds, self.user.counts(record.id), self.team.counts(record.id))

    def rate(self, record: Record, item: Workaround | DeadEnd) -> float:
        """The combined rate: a workaround's chance to work, a dead end's chance to fail."""
        user, team = self.user.counts(record.id), self.team.counts(record.id)
        if isinstance(item, DeadEnd):
            return dead_end_fail_rate(item, user, team)
        return workaround_rate(item, user, team)

    def label(self, record_id: str, item: Workaround | DeadEnd) -> str:
        """:func:`item_label`: ``est. 90% · you 3/4 · team 12/15``."""
        return item_label(item, self.user.counts(record_id), self.team.counts(record_id))

    def record_label(self, record: Record) -> str:
        """:func:`record_label`: ``est. fix rate 78% · evidence 2 · 2 sources · you 3/4``."""
        return record_label(record, self.user.counts(record.id), self.team.counts(record.id))

    def short_label(self, record_id: str, fix_rate: float | None) -> str:
        """:func:`short_rate_label` for a list row, from a summary's ``fix_success_rate``."""
        return short_rate_label(fix_rate, self.user.record_totals(record_id), self.team.record_totals(record_id))


__all__ = ["Evidence", "CHECKED_TIERS", "PRIOR_WEIGHT", "TIER_MEANINGS", "TIER_SHORT", "combined_rate",
           "dead_end_fail_rate", "evidence", "item_label", "order_workarounds", "rate_label",
           "record_label", "record_phrase", "short_rate_label", "tier_meaning", "workaround_rate"]
