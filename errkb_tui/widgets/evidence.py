"""How the detail shows evidence: rates as estimates beside the user's and a team's counts,
dead ends as cards that take an outcome key, the trust tier in plain words, and the one
quiet question after a copy.

The wording comes from :mod:`errkb_tui.trust` (the same everywhere: list, detail, palette,
``show``); this module only lays it out and colours it. ``evidence`` may be None while the
outcomes are still being read: everything then reads as the KB's estimate alone.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.widgets import Static

from ..messages import OutcomeMarked
from ..model import DeadEnd, Record, Workaround
from ..outcomes import Counts
from ..state import FollowUp
from ..text import cell_truncate, plain
from ..trust import CHECKED_TIERS, TIER_SHORT, Evidence, item_label, record_label, tier_meaning

Palette = dict[str, Style]


def rate_bar(rate: float, width: int = 10) -> str:
    """``███████░░░`` for a rate in [0, 1], in eighths."""
    eighths = round(max(0.0, min(1.0, rate)) * width * 8)
    full, part = divmod(eighths, 8)
    bar = "█" * full + ("▏▎▍▌▋▊▉"[part - 1] if part else "")
    return bar + "░" * (width - len(bar))


def rate_style(rate: float, palette: Palette) -> Style:
    """Good from 75%, caution from 50%, bad below (the record list's thresholds)."""
    return palette["good"] if rate >= 0.75 else palette["caution"] if rate >= 0.5 else palette["bad"]


def fix_order(evidence: Evidence | None, record: Record) -> list[int]:
    """Indices of ``record.workarounds`` in the order to show them: best first by the
    combined evidence, the KB's own order while there are no outcomes."""
    return evidence.order(record) if evidence is not None else list(range(len(record.workarounds)))


def fix_counts(evidence: Evidence | None, record: Record, item: Workaround | DeadEnd) -> Counts:
    """The user's and the team's outcomes of one fix, summed."""
    if evidence is None:
        return Counts()
    user, team = evidence.counts(record.id, item)
    return user + team


def fix_rate(evidence: Evidence | None, record: Record, item: Workaround | DeadEnd) -> float:
    """A workaround's chance to work, a dead end's chance to fail: the KB's estimate with
    the outcomes on top (:func:`errkb_tui.trust.combined_rate`)."""
    if evidence is not None:
        return evidence.rate(record, item)
    return item.fail_rate if isinstance(item, DeadEnd) else item.success_rate


def fix_label(evidence: Evidence | None, record: Record, item: Workaround | DeadEnd) -> str:
    """``est. 90% · you 3/4 · team 12/15``; a dead end ``est. fails ~95% · you failed 2/2``;
    with outcomes, the combined figure the order follows: ``→ 76% combined``."""
    label = evidence.label(record.id, item) if evidence is not None else item_label(item)
    if fix_counts(evidence, record, item).total:
        rate = round(fix_rate(evidence, record, item) * 100)
        label += f" → fails ~{rate}% combined" if isinstance(item, DeadEnd) else f" → {rate}% combined"
    return label


def workaround_rate_text(evidence: Evidence | None, record: Record, workaround: Workaround,
                         palette: Palette) -> Text:
    """A workaround card's rate line: bar, estimate and counts, condition, sources."""
    rate = fix_rate(evidence, record, workaround)
    style = rate_style(rate, palette)
    text = Text()
    text.append(rate_bar(rate), style=style)
    text.append(" " + fix_label(evidence, record, workaround), style=style)
    if workaround.condition.strip():
        text.append("   when: ", style=palette["muted"])
        text.append(plain(workaround.condition))
    for url in workaround.sources:
        text.append("\nsource: " + plain(url), style=palette["muted"])
    return text


def dead_end_text(evidence: Evidence | None, record: Record, dead_end: DeadEnd, palette: Palette) -> Text:
    """A dead end: what not to try, how often it fails (an estimate, with counts), why."""
    bad, muted = palette["bad"], palette["muted"]
    text = Text()
    text.append("✖ ", style=bad + Style(bold=True))
    if dead_end.action.strip():
        text.append(plain(dead_end.action), style="bold")
    else:
        text.append("(an approach the record does not name)", style="bold italic")
    text.append("\n  ")
    text.append(rate_bar(fix_rate(evidence, record, dead_end)), style=bad)
    text.append(" " + fix_label(evidence, record, dead_end), style=bad + Style(bold=True))
    if dead_end.why_fails.strip():
        text.append("\n  why: ", style=muted)
        text.append(plain(dead_end.why_fails))
    if dead_end.condition.strip():
        text.append("\n  when: ", style=muted)
        text.append(plain(dead_end.condition))
    for url in dead_end.sources:
        text.append("\n  source: " + plain(url), style=muted)
    return text


def record_evidence(evidence: Evidence | None, record: Record) -> str:
    """``est. fix rate 78% · evidence 2 · 2 sources · you 3/4 · team 12/15``."""
    return evidence.record_label(record) if evidence is not None else record_label(record)


def trust_badge(evidence: Evidence | None, record: Record, palette: Palette) -> Text:
    """The line under the title: the tier in a few words, then the record's figures.

    A check mark only for a tier that claims a check; ``ai_generated`` and any tier this
    version does not know get a warning sign."""
    tier = record.verification_tier
    checked = tier in CHECKED_TIERS
    style = (palette["good"] if checked else palette["caution"]) + Style(bold=True)
    text = Text()
    text.append("✔ " if checked else "⚠ ", style=style)
    text.append(TIER_SHORT.get(tier, f"unknown tier {plain(tier)!r}"), style=style)
    text.append(" · " + record_evidence(evidence, record), style=palette["muted"])
    return text


def trust_text(evidence: Evidence | None, record: Record, palette: Palette) -> Text:
    """The trust footer: what the tier means (what was checked), the figures as estimates."""
    text = Text()
    text.append("Trust  ", style="bold")
    text.append(TIER_SHORT.get(record.verification_tier, plain(record.verification_tier)), style="bold")
    text.append("\n" + plain(tier_meaning(record.verification_tier)))
    text.append(f"\n{record_evidence(evidence, record)} · the KB's confidence {record.confidence:.0%}"
                f" · resolvable: {plain(record.resolvable)}")
    return text


#: The last line of the trust footer: what ``est.``, ``you`` and ``team`` mean.
ESTIMATES_NOTE = ("Rates marked est. are the KB's estimates, not measurements; you and team count outcomes "
                  "(focus a workaround or dead end to mark yours).")


def followup_text(followup: FollowUp, palette: Palette) -> Text:
    """The one quiet question after a copy, with its keys."""
    text = Text()
    text.append("? ", style=palette["caution"] + Style(bold=True))
    text.append("You copied ", style=palette["muted"])
    text.append(f"“{cell_truncate(plain(followup.action), 48)}”", style="bold")
    text.append(" for this error. Did it work?  ", style=palette["muted"])
    text.append(" + ", style="bold reverse")
    text.append(" yes  ")
    text.append(" - ", style="bold reverse")
    text.append(" no  ")
    text.append("(asked once; ignore it freely)", style=palette["faint"])
    return text


class DeadEndCard(Static, can_focus=True):
    """One dead end; on it, ``x`` records "I tried this, it failed" in the outcomes log."""

    BINDINGS = [
        Binding("x", "mark('tried_failed')", "Tried it, failed",
                tooltip="On a dead end: I tried this and it failed (counted in your outcomes)",
                id="dead_end.tried_failed"),
    ]

    def __init__(self) -> None:
        super().__init__(classes="dead-end")
        self.record_id = ""
        self.index = -1
        self.dead_end: DeadEnd | None = None

    def set(self, record: Record, index: int, evidence: Evidence | None, palette: Palette) -> None:
        """Show dead end ``index`` of ``record`` (its position in the record's own list)."""
        self.record_id, self.index, self.dead_end = record.id, index, record.dead_ends[index]
        self.update(dead_end_text(evidence, record, self.dead_end, palette))

    def action_mark(self, verdict: str) -> None:
        if self.dead_end is not None:
            self.post_message(OutcomeMarked(self.record_id, "dead_end", self.index, verdict))


__all__ = ["ESTIMATES_NOTE", "DeadEndCard", "fix_counts", "fix_label", "fix_order", "fix_rate", "followup_text", "rate_bar",
           "rate_style", "record_evidence", "trust_badge", "trust_text", "workaround_rate_text"]
