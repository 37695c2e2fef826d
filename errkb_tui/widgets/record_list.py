"""A virtual list of records: only the rows on screen are rendered.

Each record takes two lines: its signature (with the query's matches highlighted) and a
dim line with id, domain/category and fix success rate. Setting a new order is O(1) for
the widget; cost is proportional to the visible rows, not to the number of records.

It keeps its own scroll position and draws its own scrollbar instead of being a
ScrollView: a ScrollView's virtual size is a layout property, so every new result count
(every keystroke) would re-lay out and repaint the whole screen. Here a new result set
repaints only the list.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from ..messages import RecordChosen
from ..model import RecordSummary
from ..placeholders import shown
from ..state import EMPTY, Results, Selection
from ..search import highlight_spans
from ..text import cell_truncate, plain
from ..trust import Evidence, short_rate_label

ROW_HEIGHT = 2


class RecordList(Widget, can_focus=True):
    """The filtered records, two lines each, with a cursor."""

    BINDINGS = [
        Binding("up,k", "cursor_up", "Up", show=False, tooltip="Move up", id="list.up"),
        Binding("down,j", "cursor_down", "Down", show=False, tooltip="Move down", id="list.down"),
        Binding("pageup", "page_up", "Page up", show=False, tooltip="Move a page up", id="list.page_up"),
        Binding("pagedown", "page_down", "Page down", show=False, tooltip="Move a page down", id="list.page_down"),
        Binding("home,g", "first", "First", show=False, tooltip="To the first record", id="list.first"),
        Binding("end,G", "last", "Last", show=False, tooltip="To the last record", id="list.last"),
        Binding("enter", "select", "Open", tooltip="Open the record's detail", id="list.open"),
    ]

    COMPONENT_CLASSES = {
        "record-list--signature",
        "record-list--meta",
        "record-list--match",
        "record-list--cursor",
        "record-list--cursor-blurred",
        "record-list--rate-good",
        "record-list--rate-mid",
        "record-list--rate-bad",
        "record-list--scrollbar",
        "record-list--scrollbar-thumb",
    }

    DEFAULT_CSS = """
    RecordList {
        background: $surface;
        & > .record-list--signature { color: $foreground; }
        & > .record-list--meta { color: $foreground-muted; }
        & > .record-list--match { color: $accent; text-style: bold underline; }
        & > .record-list--cursor { background: $block-cursor-background; }
        & > .record-list--cursor-blurred { background: $block-cursor-blurred-background; }
        & > .record-list--rate-good { color: $success; }
        & > .record-list--rate-mid { color: $warning; }
        & > .record-list--rate-bad { color: $error; }
        & > .record-list--scrollbar { color: $scrollbar-background; }
        & > .record-list--scrollbar-thumb { color: $scrollbar; }
    }
    """

    results: reactive[Results] = reactive(EMPTY, init=False)
    """The rows: the App's current results."""
    selection: reactive[Selection] = reactive(Selection(), init=False)
    """The App's selected record; the cursor sits on its row (no cursor if it is not listed)."""
    evidence: reactive[Evidence | None] = reactive(None, init=False)
    """The user's outcomes and a team's counts: a row shows ``you 3/4`` where there are
    some, the KB's estimate (``est. 78%``) otherwise."""

    @dataclass
    class Selected(Message):
        """Enter (or a double click) on the selected record."""

        record_list: RecordList
        record_id: str

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.cursor: int | None = None  # row of the selected record, None if not listed
        self._cache: dict[tuple, Strip] = {}
        #: Rich styles by (component or "", focused): computing one walks the DOM, and
        #: every row and scrollbar cell asks for several on each key typed.
        self._styles: dict[tuple[str, bool], Style] = {}
        self._top = 0  # first row on screen
        # Ids this list asked for that the App has not echoed back yet, oldest first: while
        # a key is held, an older echo must not pull the cursor back.
        self._asked: deque[str] = deque(maxlen=64)

    # -- data ----------------------------------------------------------------------------

    def watch_results(self, old: Results, new: Results) -> None:
        self._cache.clear()
        if old.query != new.query or old.facet != new.facet:
            self._top = 0
        self._asked.clear()
        self._place_cursor()

    def watch_evidence(self) -> None:
        self._cache.clear()
        self.refresh()

    def watch_selection(self, selection: Selection) -> None:
        if selection.id in self._asked:
            while self._asked and self._asked.popleft() != selection.id:
                pass
            if self._asked:
                return  # a newer move is on its way; the cursor is already there
        else:
            self._asked.clear()
        self._place_cursor()

    def _place_cursor(self) -> None:
        row = self.results.row_of(self.selection.id)
        self._move_to(row)

    def _move_to(self, row: int | None) -> None:
        old, self.cursor = self.cursor, row
        self._cache.clear()
        if row is not None:
            visible = self._visible_rows()
            if not self._top <= row < self._top + visible:
                if old is None or abs(row - old) >= visible:  # a jump: mid-screen, with context
                    self._top = max(0, min(row - visible // 2, len(self.results) - visible))
                elif row < self._top:
                    self._top = row
                else:
                    self._top = row - visible + 1
        self._top = max(0, min(self._top, max(0, len(self.results) - self._visible_rows())))
        self.refresh()

    @property
    def row_count(self) -> int:
        """How many records are listed."""
        return len(self.results)

    @property
    def current(self) -> RecordSummary | None:
        """The record under the cursor."""
        if self.cursor is None:
            return None
        record_id = self.results.id_at(self.cursor)
        return None if record_id is None else self.results.records[self.results.indices[self.cursor]]

    # -- cursor --------------------------------------------------------------------------

    def move(self, row: int) -> None:
        """Put the cursor on ``row`` (clamped) and ask the App to select its record."""
        if not len(self.results):
            return
        row = max(0, min(row, len(self.results) - 1))
        record_id = self.results.id_at(row)
        if row == self.cursor and record_id == self.selection.id:
            return
        self._move_to(row)
        self._asked.append(record_id)
        self.post_message(RecordChosen(record_id, "cursor"))

    def _visible_rows(self) -> int:
        return max(1, self.size.height // ROW_HEIGHT)

    def _page(self) -> int:
        return max(1, self._visible_rows() - 1)

    def scroll_rows(self, rows: int) -> None:
        """Scroll the view by ``rows`` records without moving the cursor."""
        top = max(0, min(self._top + rows, len(self.results) - self._visible_rows()))
        if top != self._top:
            self._top = top
            self._cache.clear()
            self.refresh()

    def _on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self.scroll_rows(3)

    def _on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self.scroll_rows(-3)

    def _step(self, rows: int) -> None:
        if self.cursor is None:  # the selection is not listed: start at the top
            self.move(0)
        else:
            self.move(self.cursor + rows)

    def action_cursor_up(self) -> None:
        self._step(-1)

    def action_cursor_down(self) -> None:
        self._step(1)

    def action_page_up(self) -> None:
        self._step(-self._page())

    def action_page_down(self) -> None:
        self._step(self._page())

    def action_first(self) -> None:
        self.move(0)

    def action_last(self) -> None:
        self.move(len(self.results) - 1)

    def action_select(self) -> None:
        current = self.current
        if current is not None:
            self.post_message(self.Selected(self, current.id))

    def _on_click(self, event: events.Click) -> None:
        row = self._top + event.y // ROW_HEIGHT
        if 0 <= row < len(self.results):
            if row == self.cursor and event.chain >= 2:
                self.action_select()
            self.move(row)

    def on_focus(self) -> None:
        self._cache.clear()
        self.refresh()

    def on_blur(self) -> None:
        self._cache.clear()
        self.refresh()

    def on_resize(self) -> None:
        self._cache.clear()
        if self.cursor is not None:
            self._top = max(0, min(self._top, self.cursor))
            if self.cursor >= self._top + self._visible_rows():
                self._top = self.cursor - self._visible_rows() + 1

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._cache.clear()
        self._styles.clear()

    def _style(self, name: str = "") -> Style:
        """The widget's rich style (``name`` empty) or a component's, as CSS gives it now."""
        key = (name, self.has_focus)
        style = self._styles.get(key)
        if style is None:
            style = self._styles[key] = self.get_component_rich_style(name) if name else self.rich_style
        return style

    # -- rendering -----------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        results = self.results
        bar = 1 if len(results) > self._visible_rows() else 0
        inner = width - bar
        row, part = divmod(y, ROW_HEIGHT)
        row += self._top
        if row >= len(results):
            strip = Strip.blank(inner, self._style())
        else:
            selected = row == self.cursor
            key = (row, part, inner, selected, self.has_focus)
            strip = self._cache.get(key)
            if strip is None:
                record = results.records[results.indices[row]]
                strip = self._render_row(record, part, inner, selected)
                if len(self._cache) > 400:
                    self._cache.clear()
                self._cache[key] = strip
        if bar:
            strip = Strip.join([strip, Strip([self._scrollbar_cell(y)])])
        return strip

    def _scrollbar_cell(self, y: int) -> Segment:
        """One cell of the scrollbar: the thumb shows which part of the rows is on screen."""
        height = self.size.height
        total = len(self.results)
        visible = self._visible_rows()
        thumb = max(1, round(height * visible / total))
        start = round((height - thumb) * self._top / max(1, total - visible))
        name = "record-list--scrollbar-thumb" if start <= y < start + thumb else "record-list--scrollbar"
        return Segment("▐", self._style() + self._style(name))

    def _row_rate(self, record: RecordSummary) -> tuple[float, str]:
        return _short_rate(record, self.evidence)

    def _fg(self, name: str) -> Style:
        """A component's colour and text style without its background, so the cursor row's
        background shows under every part of the row."""
        style = self._style(name)
        return Style(color=style.color, bold=style.bold, italic=style.italic, underline=style.underline)

    def _render_row(self, record: RecordSummary, part: int, width: int, selected: bool) -> Strip:
        base = self._style()
        if selected:
            name = "record-list--cursor" if self.has_focus else "record-list--cursor-blurred"
            base = base + self._style(name)
        marker = Segment("▌ " if selected and part == 0 else "  ", base + Style(bold=True))
        inner = max(0, width - 2)
        if part == 0:
            signature = plain(shown(record.signature))
            style = base + self._fg("record-list--signature")
            match_style = style + self._fg("record-list--match")
            segments = [marker, *_highlighted(signature, highlight_spans(signature, self.results.query), style, match_style, inner)]
        else:
            rate, rate_text = self._row_rate(record)
            rate_class = "record-list--rate-good" if rate >= 0.75 else "record-list--rate-mid" if rate >= 0.5 else "record-list--rate-bad"
            meta = base + self._fg("record-list--meta")
            info = cell_truncate(f"{record.id} · {record.category}", max(0, inner - len(rate_text) - 2))
            segments = [
                marker,
                Segment(info, meta),
                Segment(" " * max(1, inner - len(info) - len(rate_text)), meta),
                Segment(rate_text, meta + self._fg(rate_class)),
            ]
        return Strip(segments).adjust_cell_length(width, base)


def _short_rate(record: RecordSummary, evidence: Evidence | None) -> tuple[float, str]:
    """A row's rate and its few cells: the user's (else the team's) worked/tried where there
    are outcomes, else the KB's fix rate marked as an estimate (``est. 78%``)."""
    estimate = record.fix_success_rate
    if evidence is None:
        return estimate, short_rate_label(estimate)
    for counts in (evidence.user.record_totals(record.id), evidence.team.record_totals(record.id)):
        if counts.total:
            return counts.worked / counts.total, evidence.short_label(record.id, estimate)
    return estimate, short_rate_label(estimate)


def _highlighted(text: str, spans: list[tuple[int, int]], style: Style, match_style: Style, width: int) -> list[Segment]:
    text = cell_truncate(text, width)
    segments: list[Segment] = []
    position = 0
    for start, end in spans:
        if start >= len(text):
            break
        end = min(end, len(text))
        if start > position:
            segments.append(Segment(text[position:start], style))
        segments.append(Segment(text[start:end], match_style))
        position = end
    if position < len(text):
        segments.append(Segment(text[position:], style))
    return segments
