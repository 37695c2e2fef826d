"""The detail pane: everything a record says, loudest where it saves the most time."""

from __future__ import annotations

import datetime
import time
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import Static

from ..kb import KB
from ..model import Record, Workaround
from ..state import Selection
from ..text import plain
from .timeline import VersionTimeline

#: Detail updates closer together than this (seconds) are merged into one.
DETAIL_COALESCE = 0.08
#: After a keystroke in the filter, the detail follows the top row once typing pauses.
DETAIL_AFTER_TYPING = 0.15
#: Tiers whose badge is a check mark rather than a warning; an unknown tier never is.
CHECKED_TIERS = ("source_checked", "community_verified", "expert_verified")

Palette = dict[str, Style]

TIER_WORDS = {
    "ai_generated": "AI-generated, not yet verified",
    "source_checked": "Checked against public sources",
    "community_verified": "Verified by the community",
    "expert_verified": "Verified by an expert",
}
EDGE_WORDS = {
    "leads_to": "leads to",
    "preceded_by": "preceded by",
    "frequently_confused_with": "confused with",
}


def rate_bar(rate: float, width: int = 10) -> str:
    """``███████░░░`` for a rate in [0, 1], in eighths."""
    eighths = round(max(0.0, min(1.0, rate)) * width * 8)
    full, part = divmod(eighths, 8)
    bar = "█" * full + ("▏▎▍▌▋▊▉"[part - 1] if part else "")
    return bar + "░" * (width - len(bar))


def freshness(last_confirmed: datetime.date | None, today: datetime.date | None = None) -> str:
    """A plain-words hint of how current ``last_confirmed`` is."""
    if last_confirmed is None:
        return "never confirmed"
    days = ((today or datetime.date.today()) - last_confirmed).days
    if days < 0:
        return "confirmed in the future (check the date)"
    if days <= 90:
        return "fresh: confirmed in the last 3 months"
    if days <= 365:
        return "confirmed within the last year"
    return f"stale: last confirmed {days // 365} year(s) ago"


@dataclass
class OpenRecord(Message):
    """Open another record in the detail (from a related-record link)."""

    record_id: str


@dataclass
class CopyWorkaround(Message):
    """Copy workaround ``number`` (1-based) of the record shown."""

    number: int


class WorkaroundCard(Vertical, can_focus=True):
    """One workaround: number, action, success bar, ``how`` as a code block, condition.

    Its three parts are updated in place (:meth:`set`) when the record changes, which is
    far cheaper than mounting new widgets on every cursor move.
    """

    BINDINGS = [Binding("enter,c", "copy", "Copy command", tooltip="On a workaround: copy its command", id="workaround.copy")]

    def __init__(self) -> None:
        super().__init__(classes="workaround")
        self.number = 0
        self.workaround: Workaround | None = None
        self.action_text = ""
        # Made here, not in compose, so set() can fill them before the card is mounted.
        self._title = Static(classes="workaround-title")
        self._rate = Static(classes="workaround-rate")
        self._code = Static(classes="code")

    def compose(self) -> ComposeResult:
        yield self._title
        yield self._rate
        yield self._code

    def set(self, number: int, workaround: Workaround, action_text: str, palette: Palette) -> None:
        """Show ``workaround`` as number ``number``, titled ``action_text``."""
        self.number, self.workaround, self.action_text = number, workaround, action_text
        title = Text()
        title.append(f" {number} ", style="bold reverse")
        title.append(" ")
        title.append(plain(action_text), style="bold")
        rate = Text()
        rate.append(rate_bar(workaround.success_rate), style=palette["good"])
        rate.append(f" {workaround.success_rate:.0%} success", style=palette["good"])
        if workaround.condition.strip():
            rate.append("   when: ", style=palette["muted"])
            rate.append(plain(workaround.condition))
        for url in workaround.sources:
            rate.append("\nsource: " + plain(url), style=palette["muted"])
        self._title.update(title)
        self._rate.update(rate)
        how = workaround.how.strip()
        self._code.display = bool(how) and how != workaround.action.strip()
        self._code.update(Text(plain(workaround.how, multiline=True)))

    def action_copy(self) -> None:
        if self.workaround is not None:
            self.post_message(CopyWorkaround(self.number))


class RelatedLink(Static, can_focus=True):
    """A link to a related record; Enter or a click opens it."""

    BINDINGS = [Binding("enter", "open", "Open related", tooltip="On a related error: open it", id="related.open")]

    def __init__(self) -> None:
        super().__init__(classes="related")
        self.record_id = ""
        self.exists = False

    def set(self, kind: str, record_id: str, signature: str | None, palette: Palette) -> None:
        """Point at ``record_id`` (``signature`` None: not in the loaded KB)."""
        text = Text()
        text.append(f"{EDGE_WORDS.get(kind, kind):>14}  ", style=palette["muted"])
        text.append(plain(record_id), style="underline bold")
        if signature is None:
            text.append("  (not in the KB)", style=palette["faint"])
        else:
            text.append("  " + plain(signature), style=palette["muted"])
        self.record_id = record_id
        self.exists = signature is not None
        self.update(text)

    def action_open(self) -> None:
        if self.exists:
            self.post_message(OpenRecord(self.record_id))
        else:
            self.notify(f"{self.record_id} is not in the loaded KB", severity="warning", markup=False)

    def on_click(self) -> None:
        self.action_open()


class DetailPane(VerticalScroll, can_focus=True):
    """Shows the selected record: state comes in through ``data_bind``, nothing is copied.

    The parts are filled in place when the selection or the language changes. While the
    selection races (a held key, typing in the filter) the fill waits for a pause;
    :meth:`flush` catches up at once, so a key always acts on what is then on screen.
    """

    BINDINGS = [
        Binding("up,k", "scroll_up", "Scroll up", show=False, tooltip="Scroll the detail up", id="detail.up"),
        Binding("down,j", "scroll_down", "Scroll down", show=False, tooltip="Scroll the detail down", id="detail.down"),
    ]
    COMPONENT_CLASSES = {
        "detail--muted", "detail--faint", "detail--good", "detail--bad", "detail--caution", "detail--link",
    }
    DEFAULT_CSS = """
    DetailPane {
        & > .detail--muted { color: $foreground-muted; }
        & > .detail--faint { color: $foreground-muted; text-style: italic; }
        & > .detail--good { color: $success; }
        & > .detail--bad { color: $error; }
        & > .detail--caution { color: $warning; }
        & > .detail--link { color: $accent; text-style: underline; }
    }
    """

    kb: reactive[KB | None] = reactive(None, init=False)
    """The KB the selected record comes from."""
    selection: reactive[Selection] = reactive(Selection(), init=False)
    """The selected record (its id and how it was chosen)."""
    lang: reactive[str] = reactive("en", init=False)
    """``en`` or ``zh``: Chinese fields where the record has them, English otherwise."""

    def __init__(self, today: datetime.date | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.today = today
        self.record: Record | None = None
        self.selected_workaround = 0
        self._pending = False
        self._timer: Timer | None = None
        self._shown_at = 0.0

    def compose(self) -> ComposeResult:
        yield Static(classes="d-empty")
        with Vertical(classes="d-body"):
            yield Static(classes="d-signature")
            yield Static(classes="d-meta")
            yield Static(classes="d-badge")
            yield Static(classes="heading d-cause-heading")
            yield Static(classes="d-cause")
            yield Static(classes="heading d-versions-heading")
            yield VersionTimeline(classes="d-timeline")
            yield Static(classes="heading warning-heading d-dead-ends-heading")
            yield Static(classes="d-dead-ends dead-ends")
            yield Static(classes="heading d-workarounds-heading")
            yield Vertical(classes="d-workarounds")
            yield Static(classes="heading d-related-heading")
            yield Vertical(classes="d-related")
            yield Static(classes="d-more")
            yield Static(classes="d-trust trust")

    def on_mount(self) -> None:
        self.flush()

    def watch_selection(self, old: Selection, new: Selection) -> None:
        if new.id == (self.record.id if self.record else None) and not self._pending:
            return
        self._pending = True
        if new.cause == "filter":
            # The top row changes with every key while the user types: follow it once they
            # pause, so keystrokes only pay for the list.
            self._schedule(DETAIL_AFTER_TYPING, restart=True)
        elif time.monotonic() - self._shown_at >= DETAIL_COALESCE and self._timer is None:
            self.flush()
        else:
            self._schedule(DETAIL_COALESCE, restart=False)

    def watch_kb(self) -> None:
        self._pending = True
        self.flush()

    def watch_lang(self) -> None:
        self._pending = True
        self.flush()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        if self.is_mounted and self.record is not None:  # a new theme: colours in code follow
            self._pending = True
            self.call_after_refresh(self.flush)

    def _schedule(self, delay: float, restart: bool) -> None:
        if self._timer is not None:
            if not restart:
                return
            self._timer.stop()
        self._timer = self.set_timer(delay, self.flush)

    def flush(self) -> Record | None:
        """Show the selected record now if the pane lags behind; return what is shown."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if not self._pending or not self.is_mounted:
            return self.record
        self._pending = False
        self._shown_at = time.monotonic()
        record_id = self.selection.id
        record = self.kb.get(record_id) if self.kb is not None and record_id else None
        changed = record is None or self.record is None or record.id != self.record.id
        self.record = record
        if changed:
            self.selected_workaround = 0
        self._rebuild()
        if changed:
            self.scroll_home(animate=False)
        return record

    def on_descendant_focus(self, event) -> None:
        widget = event.widget
        if isinstance(widget, WorkaroundCard):
            self.selected_workaround = widget.number - 1

    def _zh(self, chinese: str | None, english: str) -> str:
        return chinese if self.lang == "zh" and chinese and chinese.strip() else english

    def _rebuild(self) -> None:
        record = self.record
        empty = self.query_one(".d-empty", Static)
        empty.display = record is None
        self.query_one(".d-body").display = record is not None
        if record is None:
            if self.selection.id is not None and self.kb is not None:
                message = f"{self.selection.id} could not be read again from its file; see ! for problems."
            elif self.kb is not None and self.selection.cause != "start":
                message = "No record selected: nothing matches the filter. Escape clears it."
            else:
                message = "Select a record to see what it means and how to fix it."
            empty.update(Text(message, style="italic"))
            return
        with self.app.batch_update():
            self._fill(record)

    def _style(self, name: str) -> Style:
        """The theme's colour for ``name`` (a component class), without its background."""
        style = self.get_component_rich_style(f"detail--{name}")
        return Style(color=style.color, bold=style.bold, italic=style.italic, underline=style.underline)

    def _part(self, name: str) -> Static:
        return self.query_one(f".{name}", Static)

    def _palette(self) -> Palette:
        return {name: self._style(name) for name in ("muted", "faint", "good", "bad", "caution", "link")}

    def _fill(self, r: Record) -> None:
        zh = self.lang == "zh"
        palette = self._palette()
        self._part("d-signature").update(Text(plain(self._zh(r.signature_zh, r.signature)), style="bold"))
        meta = Text()
        meta.append(plain(r.id), style="bold")
        path = " / ".join(plain(p) for p in (r.domain, r.category, r.subcategory) if p)
        meta.append(f"   {path}", style=self._style("muted"))
        if r.error_code:
            meta.append("   code ", style=self._style("muted"))
            meta.append(plain(r.error_code), style="bold")
        self._part("d-meta").update(meta)
        self._part("d-badge").update(self._trust_badge(r))

        self._part("d-cause-heading").update("原因" if zh else "Root cause")
        cause = Text(plain(self._zh(r.root_cause_zh, r.root_cause), multiline=True) or "(not given)")
        cause.append(f"\ntype: {plain(r.root_cause_type)}", style=self._style("muted"))
        self._part("d-cause").update(cause)

        self._part("d-versions-heading").update("版本" if zh else "Versions")
        self.query_one(VersionTimeline).show(r.sorted_versions)

        self._part("d-dead-ends-heading").update(
            ("死路：别试这些" if zh else "Dead ends: don't waste time on these") + f" ({len(r.dead_ends)})")
        self._part("d-dead-ends").update(self._dead_ends(r))

        heading = ("解决办法" if zh else "Workarounds") + f" ({len(r.workarounds)})"
        self._part("d-workarounds-heading").update(
            heading + (" · press 1-9 to copy" if r.workarounds else " · none recorded"))
        cards = self._sync(self.query_one(".d-workarounds"), len(r.workarounds), WorkaroundCard)
        for number, (card, workaround) in enumerate(zip(cards, r.workarounds), 1):
            action = workaround.action
            if zh and number - 1 < len(r.workarounds_zh) and r.workarounds_zh[number - 1].strip():
                action = r.workarounds_zh[number - 1]
            card.set(number, workaround, action, palette)

        edges = r.transition_graph.edges()
        self._part("d-related-heading").update("相关错误" if zh else "Related errors")
        self._part("d-related-heading").display = bool(edges)
        links = self._sync(self.query_one(".d-related"), len(edges), RelatedLink)
        for link, (kind, target) in zip(links, edges):
            other = self.kb.by_id.get(target) if self.kb is not None else None
            link.set(kind, target, other.signature if other else None, palette)

        self._part("d-more").update(self._more(r))
        self._part("d-trust").update(self._trust(r))

    def _sync(self, container, count: int, factory) -> list:
        """``count`` children of ``container`` made by ``factory``: reuse, add or remove."""
        children = list(container.children)
        for extra in children[count:]:
            extra.remove()
        new = [factory() for _ in range(count - len(children))]
        if new:
            container.mount_all(new)
        return [*children[:count], *new]

    def _trust_badge(self, r: Record) -> Text:
        words = TIER_WORDS.get(r.verification_tier, plain(r.verification_tier))
        text = Text()
        style = self._style("caution" if r.verification_tier not in CHECKED_TIERS else "good") + Style(bold=True)
        text.append("⚠ " if r.verification_tier == "ai_generated" else "✔ ", style=style)
        text.append(words, style=style)
        text.append(f" · confidence {r.confidence:.0%} · fix success {r.fix_success_rate:.0%}"
                    f" · {r.evidence_count} evidence", style=self._style("muted"))
        return text

    def _dead_ends(self, r: Record) -> Text:
        bad, muted = self._style("bad"), self._style("muted")
        text = Text()
        if not r.dead_ends:
            text.append("No dead ends recorded.", style="italic")
            return text
        for number, d in enumerate(r.dead_ends):
            if number:
                text.append("\n\n")
            text.append("✖ ", style=bad + Style(bold=True))
            if d.action.strip():
                text.append(plain(d.action), style="bold")
            else:
                text.append("(an approach the record does not name)", style="bold italic")
            text.append("\n  ")
            text.append(rate_bar(d.fail_rate), style=bad)
            text.append(f" fails {d.fail_rate:.0%} of the time", style=bad + Style(bold=True))
            if d.why_fails.strip():
                text.append("\n  why: ", style=muted)
                text.append(plain(d.why_fails))
            if d.condition.strip():
                text.append("\n  when: ", style=muted)
                text.append(plain(d.condition))
            for url in d.sources:
                text.append("\n  source: " + plain(url), style=muted)
        return text

    def _more(self, r: Record) -> Text:
        text = Text()
        if r.official_doc_url:
            text.append("docs  ", style="bold")
            text.append(plain(r.official_doc_url), style="underline")
            if r.official_doc_section:
                text.append(f"  § {plain(r.official_doc_section)}", style=self._style("muted"))
            text.append("   (o opens it)\n", style=self._style("faint"))
        for system, note in r.os_specific.items():
            text.append(f"{plain(system)}  ", style="bold")
            text.append(plain(str(note)) + "\n")
        if r.tags:
            text.append("tags  ", style="bold")
            text.append(", ".join(plain(t) for t in r.tags) + "\n")
        if r.aliases:
            text.append("aka   ", style="bold")
            text.append(", ".join(plain(a) for a in r.aliases) + "\n")
        text.rstrip()
        return text

    def _trust(self, r: Record) -> Text:
        text = Text()
        text.append("Trust  ", style="bold")
        text.append(TIER_WORDS.get(r.verification_tier, plain(r.verification_tier)))
        text.append(f"\nconfidence {r.confidence:.0%} · fix success {r.fix_success_rate:.0%}"
                    f" · evidence {r.evidence_count} · resolvable: {plain(r.resolvable)}")
        dates = [(label, getattr(r, name)) for label, name in
                 (("first seen", "first_seen"), ("last confirmed", "last_confirmed"), ("last updated", "last_updated"))]
        text.append("\n" + " · ".join(f"{label} {value or '—'}" for label, value in dates))
        text.append(f"\n{freshness(r.last_confirmed, self.today)}", style=self._style("faint"))
        return text
