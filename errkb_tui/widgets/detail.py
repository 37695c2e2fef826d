"""The detail pane: everything a record says, loudest where it saves the most time."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static

from ..model import Record, Workaround
from ..text import plain
from .timeline import VersionTimeline

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
class CopyRequest(Message):
    """Put ``text`` on the clipboard; ``what`` names it in the toast."""

    text: str
    what: str


class WorkaroundCard(Vertical, can_focus=True):
    """One workaround: number, action, success bar, ``how`` as a code block, condition.

    Its three parts are updated in place (:meth:`set`) when the record changes, which is
    far cheaper than mounting new widgets on every cursor move.
    """

    BINDINGS = [Binding("enter,c", "copy", "Copy command", id="workaround.copy")]

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

    def set(self, number: int, workaround: Workaround, action_text: str) -> None:
        """Show ``workaround`` as number ``number``, titled ``action_text``."""
        self.number, self.workaround, self.action_text = number, workaround, action_text
        title = Text()
        title.append(f" {number} ", style="bold reverse")
        title.append(" ")
        title.append(plain(action_text), style="bold")
        rate = Text()
        rate.append(rate_bar(workaround.success_rate), style="green3")
        rate.append(f" {workaround.success_rate:.0%} success", style="green3")
        if workaround.condition.strip():
            rate.append("   when: ", style="grey62")
            rate.append(plain(workaround.condition))
        for url in workaround.sources:
            rate.append("\nsource: " + plain(url), style="grey62")
        self._title.update(title)
        self._rate.update(rate)
        how = workaround.how.strip()
        self._code.display = bool(how) and how != workaround.action.strip()
        self._code.update(Text(plain(workaround.how, multiline=True)))

    def action_copy(self) -> None:
        if self.workaround is not None:
            self.post_message(CopyRequest(self.workaround.copy_text, f"workaround {self.number}"))


class RelatedLink(Static, can_focus=True):
    """A link to a related record; Enter or a click opens it."""

    BINDINGS = [Binding("enter", "open", "Open related", id="related.open")]

    def __init__(self) -> None:
        super().__init__(classes="related")
        self.record_id = ""
        self.exists = False

    def set(self, kind: str, record_id: str, signature: str | None) -> None:
        """Point at ``record_id`` (``signature`` None: not in the loaded KB)."""
        text = Text()
        text.append(f"{EDGE_WORDS.get(kind, kind):>14}  ", style="grey62")
        text.append(plain(record_id), style="underline bold")
        if signature is None:
            text.append("  (not in the KB)", style="italic grey50")
        else:
            text.append("  " + plain(signature), style="grey70")
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
    """Shows one record; rebuilt when the record or the language changes."""

    BINDINGS = [
        Binding("up,k", "scroll_up", "Scroll up", show=False),
        Binding("down,j", "scroll_down", "Scroll down", show=False),
    ]

    record: reactive[Record | None] = reactive(None, init=False)
    """The record shown."""
    lang: reactive[str] = reactive("en", init=False)
    """``en`` or ``zh``: Chinese fields where the record has them, English otherwise."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.lookup: dict[str, Record] = {}
        self.selected_workaround = 0

    def on_mount(self) -> None:
        self.watch(self.app, "lang", self._set_lang)

    def _set_lang(self, lang: str) -> None:
        self.lang = lang

    def compose(self) -> ComposeResult:
        yield Static(Text("Select a record to see what it means and how to fix it.", style="italic"),
                     classes="d-empty")
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

    def show(self, record: Record | None, lookup: dict[str, Record]) -> None:
        """Display ``record``; ``lookup`` resolves related ids."""
        self.lookup = lookup
        self.record = record

    def watch_record(self) -> None:
        self.selected_workaround = 0
        self._rebuild()
        self.scroll_home(animate=False)

    def watch_lang(self) -> None:
        self._rebuild()

    def on_descendant_focus(self, event) -> None:
        widget = event.widget
        if isinstance(widget, WorkaroundCard):
            self.selected_workaround = widget.number - 1

    def _zh(self, chinese: str | None, english: str) -> str:
        return chinese if self.lang == "zh" and chinese and chinese.strip() else english

    def _rebuild(self) -> None:
        if not self.is_mounted:
            return
        record = self.record
        body = self.query_one(".d-body")
        self.query_one(".d-empty").display = record is None
        body.display = record is not None
        if record is not None:
            with self.app.batch_update():
                self._fill(record)

    def _part(self, name: str) -> Static:
        return self.query_one(f".{name}", Static)

    def _fill(self, r: Record) -> None:
        zh = self.lang == "zh"
        self._part("d-signature").update(Text(plain(self._zh(r.signature_zh, r.signature)), style="bold"))
        meta = Text()
        meta.append(plain(r.id), style="bold")
        path = " / ".join(plain(p) for p in (r.domain, r.category, r.subcategory) if p)
        meta.append(f"   {path}", style="grey70")
        if r.error_code:
            meta.append("   code ", style="grey62")
            meta.append(plain(r.error_code), style="bold")
        self._part("d-meta").update(meta)
        self._part("d-badge").update(self._trust_badge(r))

        self._part("d-cause-heading").update("原因" if zh else "Root cause")
        cause = Text(plain(self._zh(r.root_cause_zh, r.root_cause), multiline=True) or "(not given)")
        cause.append(f"\ntype: {plain(r.root_cause_type)}", style="grey62")
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
            card.set(number, workaround, action)

        edges = r.transition_graph.edges()
        self._part("d-related-heading").update("相关错误" if zh else "Related errors")
        self._part("d-related-heading").display = bool(edges)
        links = self._sync(self.query_one(".d-related"), len(edges), RelatedLink)
        for link, (kind, target) in zip(links, edges):
            other = self.lookup.get(target)
            link.set(kind, target, other.signature if other else None)

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
        style = "bold yellow3" if r.verification_tier == "ai_generated" else "bold green3"
        text.append("⚠ " if r.verification_tier == "ai_generated" else "✔ ", style=style)
        text.append(words, style=style)
        text.append(f" · confidence {r.confidence:.0%} · fix success {r.fix_success_rate:.0%}"
                    f" · {r.evidence_count} evidence", style="grey70")
        return text

    def _dead_ends(self, r: Record) -> Text:
        text = Text()
        if not r.dead_ends:
            text.append("No dead ends recorded.", style="italic")
            return text
        for number, d in enumerate(r.dead_ends):
            if number:
                text.append("\n\n")
            text.append("✖ ", style="bold red3")
            if d.action.strip():
                text.append(plain(d.action), style="bold")
            else:
                text.append("(an approach the record does not name)", style="bold italic")
            text.append("\n  ")
            text.append(rate_bar(d.fail_rate), style="red3")
            text.append(f" fails {d.fail_rate:.0%} of the time", style="bold red3")
            if d.why_fails.strip():
                text.append("\n  why: ", style="grey62")
                text.append(plain(d.why_fails))
            if d.condition.strip():
                text.append("\n  when: ", style="grey62")
                text.append(plain(d.condition))
            for url in d.sources:
                text.append("\n  source: " + plain(url), style="grey62")
        return text

    def _more(self, r: Record) -> Text:
        text = Text()
        if r.official_doc_url:
            text.append("docs  ", style="bold")
            text.append(plain(r.official_doc_url), style="underline")
            if r.official_doc_section:
                text.append(f"  § {plain(r.official_doc_section)}", style="grey70")
            text.append("   (o opens it)\n", style="grey50")
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
        text.append(f"\n{freshness(r.last_confirmed, getattr(self.app, 'today', None))}", style="italic grey62")
        return text

    def copy_text_for(self, number: int) -> tuple[str, str] | None:
        """Text and name of workaround ``number`` (1-based), or None."""
        if self.record is None or not 1 <= number <= len(self.record.workarounds):
            return None
        return self.record.workarounds[number - 1].copy_text, f"workaround {number}"
