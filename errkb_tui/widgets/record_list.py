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

from collections.abc import Sequence
from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from ..model import Record
from ..search import highlight_spans
from ..text import cell_truncate, plain

ROW_HEIGHT = 2


class RecordList(Widget, can_focus=True):
    """The filtered records, two lines each, with a cursor."""

    BINDINGS = [
        Binding("up,k", "cursor_up", "Up", show=False, id="list.up"),
        Binding("down,j", "cursor_down", "Down", show=False, id="list.down"),
        Binding("pageup", "page_up", "Page up", show=False, id="list.page_up"),
        Binding("pagedown", "page_down", "Page down", show=False, id="list.page_down"),
        Binding("home,g", "first", "First", show=False, id="list.first"),
        Binding("end,G", "last", "Last", show=False, id="list.last"),
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

    cursor: reactive[int] = reactive(0, always_update=True, init=False)
    """Index of the highlighted row in the current order."""

    @dataclass
    class Highlighted(Message):
        """The cursor moved to another record (only the newest waits in the queue)."""

        record_list: RecordList
        record_id: str | None
        by_filter: bool = False  # the rows changed under the cursor (typing), not a move

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, RecordList.Highlighted)

    @dataclass
    class Selected(Message):
        """Enter (or a click) on a record."""

        record_list: RecordList
        record_id: str

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._records: Sequence[Record] = ()
        self._order: Sequence[int] = ()
        self._query = ""
        self._cache: dict[tuple, Strip] = {}
        self._by_filter = False
        self._top = 0  # first row on screen

    # -- data ----------------------------------------------------------------------------

    def set_rows(self, records: Sequence[Record], order: Sequence[int], query: str,
                 keep_id: str | None = None) -> None:
        """Show ``records[i]`` for ``i`` in ``order``; keep the cursor on ``keep_id`` if shown."""
        self._records = records
        self._order = order
        self._query = query
        self._cache.clear()
        self._top = 0
        position = 0
        if keep_id is not None:
            position = self.position_of(keep_id)
            position = 0 if position is None else position
        self._by_filter = True
        try:
            self.cursor = position
        finally:
            self._by_filter = False
        self.refresh()

    def position_of(self, record_id: str) -> int | None:
        """Row of ``record_id`` in the current order, or None."""
        for row, index in enumerate(self._order):
            if self._records[index].id == record_id:
                return row
        return None

    @property
    def filter_text(self) -> str:
        """The filter text the rows were found for."""
        return self._query

    @property
    def row_count(self) -> int:
        """How many records are listed."""
        return len(self._order)

    @property
    def current(self) -> Record | None:
        """The record under the cursor."""
        if 0 <= self.cursor < len(self._order):
            return self._records[self._order[self.cursor]]
        return None

    # -- cursor --------------------------------------------------------------------------

    def validate_cursor(self, value: int) -> int:
        return max(0, min(value, len(self._order) - 1)) if self._order else 0

    def watch_cursor(self, old: int, new: int) -> None:
        self._cache.clear()
        visible = self._visible_rows()
        if not self._top <= new < self._top + visible:
            if abs(new - old) >= visible:  # a jump: put the row mid-screen, with context
                self._top = max(0, min(new - visible // 2, len(self._order) - visible))
            elif new < self._top:
                self._top = new
            else:
                self._top = new - visible + 1
        self.refresh()
        current = self.current
        self.post_message(self.Highlighted(self, current.id if current else None, self._by_filter))

    def _visible_rows(self) -> int:
        return max(1, self.size.height // ROW_HEIGHT)

    def _page(self) -> int:
        return max(1, self._visible_rows() - 1)

    def scroll_rows(self, rows: int) -> None:
        """Scroll the view by ``rows`` records without moving the cursor."""
        top = max(0, min(self._top + rows, len(self._order) - self._visible_rows()))
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

    def action_cursor_up(self) -> None:
        self.cursor -= 1

    def action_cursor_down(self) -> None:
        self.cursor += 1

    def action_page_up(self) -> None:
        self.cursor -= self._page()

    def action_page_down(self) -> None:
        self.cursor += self._page()

    def action_first(self) -> None:
        self.cursor = 0

    def action_last(self) -> None:
        self.cursor = len(self._order) - 1

    def action_select(self) -> None:
        current = self.current
        if current is not None:
            self.post_message(self.Selected(self, current.id))

    def _on_click(self, event: events.Click) -> None:
        row = self._top + event.y // ROW_HEIGHT
        if 0 <= row < len(self._order):
            if row == self.cursor and event.chain >= 2:
                self.action_select()
            self.cursor = row

    def on_focus(self) -> None:
        self._cache.clear()
        self.refresh()

    def on_blur(self) -> None:
        self._cache.clear()
        self.refresh()

    def on_resize(self) -> None:
        self._cache.clear()
        self._top = max(0, min(self._top, self.cursor))
        if self.cursor >= self._top + self._visible_rows():
            self._top = self.cursor - self._visible_rows() + 1

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._cache.clear()

    # -- rendering -----------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        bar = 1 if len(self._order) > self._visible_rows() else 0
        inner = width - bar
        row, part = divmod(y, ROW_HEIGHT)
        row += self._top
        if row >= len(self._order):
            strip = Strip.blank(inner, self.rich_style)
        else:
            selected = row == self.cursor
            key = (row, part, inner, selected, self.has_focus)
            strip = self._cache.get(key)
            if strip is None:
                record = self._records[self._order[row]]
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
        total = len(self._order)
        visible = self._visible_rows()
        thumb = max(1, round(height * visible / total))
        start = round((height - thumb) * self._top / max(1, total - visible))
        name = "record-list--scrollbar-thumb" if start <= y < start + thumb else "record-list--scrollbar"
        return Segment("▐", self.rich_style + self.get_component_rich_style(name))

    def _render_row(self, record: Record, part: int, width: int, selected: bool) -> Strip:
        base = self.rich_style
        if selected:
            name = "record-list--cursor" if self.has_focus else "record-list--cursor-blurred"
            base = base + self.get_component_rich_style(name)
        marker = Segment("▌ " if selected and part == 0 else "  ", base + Style(bold=True))
        inner = max(0, width - 2)
        if part == 0:
            signature = plain(record.signature)
            style = base + self.get_component_rich_style("record-list--signature")
            match_style = style + self.get_component_rich_style("record-list--match")
            segments = [marker, *_highlighted(signature, highlight_spans(signature, self._query), style, match_style, inner)]
        else:
            rate = record.fix_success_rate
            rate_class = "record-list--rate-good" if rate >= 0.75 else "record-list--rate-mid" if rate >= 0.5 else "record-list--rate-bad"
            meta = base + self.get_component_rich_style("record-list--meta")
            rate_text = f"fix {rate:.0%}"
            info = cell_truncate(f"{record.id} · {record.category}", max(0, inner - len(rate_text) - 2))
            segments = [
                marker,
                Segment(info, meta),
                Segment(" " * max(1, inner - len(info) - len(rate_text)), meta),
                Segment(rate_text, meta + self.get_component_rich_style(rate_class)),
            ]
        return Strip(segments).adjust_cell_length(width, base)


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
