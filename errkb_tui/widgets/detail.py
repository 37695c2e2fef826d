"""The detail pane: everything a record says, loudest where it saves the most time."""

from __future__ import annotations

import datetime
import time
from collections.abc import Mapping
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
from ..messages import OutcomeMarked
from ..model import Record, Workaround
from ..state import FollowUp, MatchContext, Selection
from ..placeholders import Filled, fill, find, shown
from ..text import plain
from ..trust import Evidence
from ..wrap import CONTINUATION
from .evidence import (
    ESTIMATES_NOTE, DeadEndCard, fix_order, followup_text, trust_badge, trust_text, workaround_rate_text,
)
from .timeline import VersionTimeline
from .wrapped import WrappedText

#: Detail updates closer together than this (seconds) are merged into one.
DETAIL_COALESCE = 0.08
#: After a keystroke in the filter, the detail follows the top row once typing pauses.
DETAIL_AFTER_TYPING = 0.15

Palette = dict[str, Style]

EDGE_WORDS = {
    "leads_to": "leads to",
    "preceded_by": "preceded by",
    "frequently_confused_with": "confused with",
}


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


def placeholder_text(filled: Filled, palette: Palette, style: str = "", multiline: bool = False) -> Text:
    """``filled`` as display text: values put in from the error marked ``filled``, values
    still to ask for shown as ``⟨name⟩`` marked ``placeholder``."""
    text = Text(style=style)
    position = 0
    source = filled.text
    marks = [(start, end, "filled", source[start:end]) for start, end, _ in filled.spans]
    marks += [(p.start, p.end, "placeholder", f"⟨{p.name}⟩") for p in find(source)
              if not any(s <= p.start < e for s, e, _, _ in marks)]
    for start, end, kind, shown in sorted(marks):
        text.append(plain(source[position:start], multiline=multiline))
        text.append(plain(shown, multiline=multiline), style=palette[kind])
        position = end
    text.append(plain(source[position:], multiline=multiline))
    return text


class WorkaroundCard(Vertical, can_focus=True):
    """One workaround: number, action, success bar, ``how`` as a code block, condition.

    Its three parts are updated in place (:meth:`set`, :meth:`show_evidence`) when the
    record changes, which is far cheaper than mounting new widgets on every cursor move.
    ``number`` is its place on screen (1 = best by the evidence), ``index`` its place in
    the record's own list.
    """

    BINDINGS = [
        Binding("enter,c", "copy", "Copy command", tooltip="On a workaround: copy its command", id="workaround.copy"),
        Binding("plus", "mark('worked')", "It worked",
                tooltip="On a workaround: this worked for me (counted in your outcomes)", id="workaround.worked"),
        Binding("minus", "mark('failed')", "It failed",
                tooltip="On a workaround: this did not work for me (counted in your outcomes)",
                id="workaround.failed"),
    ]

    def __init__(self) -> None:
        super().__init__(classes="workaround")
        self.number = 0
        self.index = -1
        self.record_id = ""
        self.workaround: Workaround | None = None
        self.action_text = ""
        # Made here, not in compose, so set() can fill them before the card is mounted.
        self._title = Static(classes="workaround-title")
        self._rate = Static(classes="workaround-rate")
        self._code = WrappedText(mark=CONTINUATION, classes="code")

    def compose(self) -> ComposeResult:
        yield self._title
        yield self._rate
        yield self._code

    def set(self, number: int, workaround: Workaround, action_text: str, palette: Palette,
            values: Mapping[str, str] | None = None) -> None:
        """Show ``workaround`` as number ``number``, titled ``action_text``; its command's
        placeholders filled from ``values`` (a match's groups) and marked."""
        self.number, self.workaround, self.action_text = number, workaround, action_text
        values = values or {}
        title = Text()
        title.append(f" {number} ", style="bold reverse")
        title.append(" ")
        title.append(placeholder_text(fill(action_text, values), palette, "bold"))
        self._title.update(title)
        how = workaround.how.strip()
        self._code.display = bool(how) and how != workaround.action.strip()
        self._code.update(placeholder_text(fill(workaround.how, values), palette, multiline=True),
                          palette["faint"])

    def action_copy(self) -> None:
        if self.workaround is not None:
            self.post_message(CopyWorkaround(self.number))

    def show_evidence(self, record: Record, index: int, evidence: Evidence | None, palette: Palette) -> None:
        """The rate line of workaround ``index`` of ``record``: the KB's estimate, marked
        ``est.``, with the user's and the team's counts beside it."""
        self.record_id, self.index = record.id, index
        self._rate.update(workaround_rate_text(evidence, record, record.workarounds[index], palette))

    def action_mark(self, verdict: str) -> None:
        """Record an outcome of this workaround (``worked`` or ``failed``)."""
        if self.workaround is not None and self.index >= 0:
            self.post_message(OutcomeMarked(self.record_id, "workaround", self.index, verdict))


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
            text.append("  " + plain(shown(signature)), style=palette["muted"])
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
        "detail--filled", "detail--placeholder",
    }
    DEFAULT_CSS = """
    DetailPane {
        & > .detail--muted { color: $foreground-muted; }
        & > .detail--faint { color: $foreground-muted; text-style: italic; }
        & > .detail--good { color: $success; }
        & > .detail--bad { color: $error; }
        & > .detail--caution { color: $warning; }
        & > .detail--link { color: $accent; text-style: underline; }
        & > .detail--filled { color: $accent; text-style: bold underline; }
        & > .detail--placeholder { color: $warning; text-style: bold italic; }
    }
    """

    kb: reactive[KB | None] = reactive(None, init=False)
    """The KB the selected record comes from."""
    selection: reactive[Selection] = reactive(Selection(), init=False)
    """The selected record (its id and how it was chosen)."""
    lang: reactive[str] = reactive("en", init=False)
    """``en`` or ``zh``: Chinese fields where the record has them, English otherwise."""
    last_match: reactive[MatchContext | None] = reactive(None, init=False)
    """The last match: its captured values fill the commands of the record it selected."""
    evidence: reactive[Evidence | None] = reactive(None, init=False)
    """The user's outcomes and a team's counts (None while they are read): the rates'
    labels and the order of the workarounds."""
    followup: reactive[FollowUp | None] = reactive(None, init=False)
    """The question "did the fix you copied work?", shown when it is about this record."""
    search_text: reactive[str] = reactive("", init=False)
    """The filter's text: each key typed postpones a fill that waits for typing to pause."""

    def __init__(self, today: datetime.date | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.today = today
        self.record: Record | None = None
        self.selected_workaround = 0
        self._order: list[int] = []  # indices of record.workarounds, as displayed
        self._pending = False
        self._timer: Timer | None = None
        self._typing = False  # the scheduled fill waits for a pause in typing
        self._shown_at = 0.0

    def compose(self) -> ComposeResult:
        yield Static(classes="d-empty")
        with Vertical(classes="d-body"):
            yield Static(classes="d-followup")
            yield Static(classes="d-signature")
            yield Static(classes="d-meta")
            yield Static(classes="d-badge")
            yield Static(classes="heading d-cause-heading")
            yield WrappedText(classes="d-cause")  # Chinese wraps by character, not at its last space
            yield Static(classes="heading d-versions-heading")
            yield VersionTimeline(classes="d-timeline")
            yield Static(classes="heading warning-heading d-dead-ends-heading")
            with Vertical(classes="d-dead-ends dead-ends"):
                yield Static("No dead ends recorded.", classes="d-no-dead-ends")
                yield Vertical(classes="d-dead-end-cards")
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
            self._typing = True
        elif time.monotonic() - self._shown_at >= DETAIL_COALESCE and self._timer is None:
            self.flush()
        else:
            self._schedule(DETAIL_COALESCE, restart=False)

    def watch_search_text(self) -> None:
        # A key that leaves the top row as it was is typing all the same: the fill waits
        # on (it used to land between two keys and cost one of them 50-100 ms).
        if self._pending and self._typing and self._timer is not None:
            self._schedule(DETAIL_AFTER_TYPING, restart=True)

    def watch_kb(self) -> None:
        self._pending = True
        self.flush()

    def watch_lang(self) -> None:
        self._pending = True
        self.flush()

    def watch_evidence(self) -> None:
        self._pending = True
        self.flush()

    def watch_followup(self) -> None:
        if self.is_mounted:
            self._show_followup()

    def _show_followup(self) -> None:
        bar = self._part("d-followup")
        followup = self.followup
        bar.display = followup is not None and self.record is not None and followup.record_id == self.record.id
        if bar.display:
            bar.update(followup_text(followup, self._palette()))

    def displayed_workarounds(self) -> list[Workaround]:
        """The shown record's workarounds in the order on screen: number N (and key N)
        is item N-1 of this list. Best first by the evidence (the KB's order while there
        are no outcomes), so it can differ from ``record.workarounds``: copy and mark
        through this list, never by indexing ``record.workarounds`` with a number."""
        record = self.flush()
        if record is None:
            return []
        return [record.workarounds[index] for index in self._order]

    def watch_last_match(self, old: MatchContext | None, new: MatchContext | None) -> None:
        shown = self.record.id if self.record is not None else None
        if any(context is not None and context.applies_to(shown) for context in (old, new)):
            self._pending = True
            self.flush()

    def match_values(self, record: Record | None) -> dict[str, str]:
        """The values the last match captured, when that match explains ``record``."""
        context = self.last_match
        if record is None or context is None or not context.applies_to(record.id):
            return {}
        return dict(context.match.groups)

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
        self._typing = False
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
                message = "No record selected: nothing matches the filter. ctrl+u (or Escape in the list) clears it."
            else:
                message = "Copy an error anywhere (or press p to paste one): the record that explains it opens here."
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
        return {name: self._style(name) for name in ("muted", "faint", "good", "bad", "caution", "link", "filled",
                                                     "placeholder")}

    def _fill(self, r: Record) -> None:
        zh = self.lang == "zh"
        palette = self._palette()
        self._part("d-signature").update(Text(plain(shown(self._zh(r.signature_zh, r.signature))), style="bold"))
        meta = Text()
        meta.append(plain(r.id), style="bold")
        path = " / ".join(plain(p) for p in (r.domain, r.category, r.subcategory) if p)
        meta.append(f"   {path}", style=self._style("muted"))
        if r.error_code:
            meta.append("   code ", style=self._style("muted"))
            meta.append(plain(r.error_code), style="bold")
        self._part("d-meta").update(meta)
        self._part("d-badge").update(trust_badge(self.evidence, r, palette))
        self._show_followup()

        self._part("d-cause-heading").update("原因" if zh else "Root cause")
        cause = Text(plain(self._zh(r.root_cause_zh, r.root_cause), multiline=True) or "(not given)")
        cause.append(f"\ntype: {plain(r.root_cause_type)}", style=self._style("muted"))
        self._part("d-cause").update(cause)

        self._part("d-versions-heading").update("版本" if zh else "Versions")
        self.query_one(VersionTimeline).show(r.sorted_versions)

        self._part("d-dead-ends-heading").update(
            ("死路：别试这些" if zh else "Dead ends: don't waste time on these") + f" ({len(r.dead_ends)})")
        self._part("d-no-dead-ends").display = not r.dead_ends
        dead_end_cards = self._sync(self.query_one(".d-dead-end-cards"), len(r.dead_ends), DeadEndCard)
        for index, dead_end_card in enumerate(dead_end_cards):
            dead_end_card.set(r, index, self.evidence, palette)

        heading = ("解决办法" if zh else "Workarounds") + f" ({len(r.workarounds)})"
        self._part("d-workarounds-heading").update(
            heading + (" · press 1-9 to copy" if r.workarounds else " · none recorded"))
        focused = self.screen.focused
        keep = focused.index if isinstance(focused, WorkaroundCard) and focused.record_id == r.id else None
        cards = self._sync(self.query_one(".d-workarounds"), len(r.workarounds), WorkaroundCard)
        values = self.match_values(r)
        # Best first by the evidence: number N on screen is workaround self._order[N - 1].
        self._order = fix_order(self.evidence, r)
        for number, (card, index) in enumerate(zip(cards, self._order), 1):
            workaround = r.workarounds[index]
            action = workaround.action
            if zh and index < len(r.workarounds_zh) and r.workarounds_zh[index].strip():
                action = r.workarounds_zh[index]
            card.set(number, workaround, action, palette, values)
            card.show_evidence(r, index, self.evidence, palette)
        if keep is not None and keep in self._order:  # a mark reordered them: focus follows the fix
            position = self._order.index(keep)
            self.selected_workaround = position
            if cards[position] is not focused:
                cards[position].focus()  # scrolled into view: the fix the user acts on

        edges = r.transition_graph.edges()
        self._part("d-related-heading").update("相关错误" if zh else "Related errors")
        self._part("d-related-heading").display = bool(edges)
        links = self._sync(self.query_one(".d-related"), len(edges), RelatedLink)
        for link, (kind, target) in zip(links, edges):
            other = self.kb.by_id.get(target) if self.kb is not None else None
            link.set(kind, target, other.signature if other else None, palette)

        self._part("d-more").update(self._more(r))
        self._part("d-trust").update(self._trust(r, palette))

    def _sync(self, container, count: int, factory) -> list:
        """``count`` children of ``container`` made by ``factory``: reuse, add or remove."""
        children = list(container.children)
        for extra in children[count:]:
            extra.remove()
        new = [factory() for _ in range(count - len(children))]
        if new:
            container.mount_all(new)
        return [*children[:count], *new]

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

    def _trust(self, r: Record, palette: Palette) -> Text:
        text = trust_text(self.evidence, r, palette)
        dates = [(label, getattr(r, name)) for label, name in
                 (("reported since", "first_seen"), ("last confirmed", "last_confirmed"), ("last updated", "last_updated"))]
        text.append("\n" + " · ".join(f"{label} {value or '—'}" for label, value in dates))
        text.append(f"\n{freshness(r.last_confirmed, self.today)}", style=self._style("faint"))
        text.append("\n" + ESTIMATES_NOTE, style=palette["faint"])
        return text
