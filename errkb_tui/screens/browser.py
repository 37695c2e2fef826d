"""The main screen: facets, filter and list, detail."""

from __future__ import annotations

import time
from dataclasses import dataclass

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Input
from textual.worker import get_current_worker

from ..search import SearchResult
from ..widgets.detail import DetailPane
from ..widgets.facets import Facet, FacetTree
from ..widgets.header import StatusHeader
from .record_actions import RECORD_BINDINGS, RecordScreenMixin
from ..widgets.record_list import RecordList


#: Detail updates closer together than this (seconds) are merged into one.
DETAIL_COALESCE = 0.08
#: KBs up to this size are searched on the event loop (a search takes a few ms at most);
#: larger ones in a worker thread, so the UI never waits for one.
INLINE_SEARCH_RECORDS = 20_000
#: After a keystroke in the filter, the detail follows the top row once typing pauses.
DETAIL_AFTER_TYPING = 0.15


@dataclass
class SearchDone(Message):
    """A search finished in a worker; dropped if its query is no longer current."""

    result: SearchResult
    facet: Facet
    keep_id: str | None


class BrowserScreen(RecordScreenMixin, Screen[None]):
    """Browse and filter records; read one in the detail pane."""

    BINDINGS = [
        Binding("slash", "focus_filter", "Filter", tooltip="Type to filter the records", id="browser.filter"),
        Binding("escape", "escape", "Clear/leave", show=False, id="browser.escape"),
        Binding("left_square_bracket", "domain(-1)", "Prev domain", show=False, id="browser.prev_domain"),
        Binding("right_square_bracket", "domain(1)", "Next domain", show=False, id="browser.next_domain"),
        Binding("left_curly_bracket", "category(-1)", "Prev category", show=False, id="browser.prev_category"),
        Binding("right_curly_bracket", "category(1)", "Next category", show=False, id="browser.next_category"),
        *RECORD_BINDINGS,
    ]

    def __init__(self) -> None:
        super().__init__()
        self.facet: Facet = (None, None)
        self.init_history()
        self._detail_pending: str | None = None
        self._detail_timer: Timer | None = None
        self._detail_shown_at = 0.0
        self._search_serial = 0

    def compose(self) -> ComposeResult:
        yield StatusHeader(id="status")
        with Horizontal(id="body"):
            yield FacetTree(id="facets")
            with Vertical(id="middle"):
                yield Input(placeholder="/ filter: words, domain:, tag:", id="filter")
                yield RecordList(id="list")
            yield DetailPane(id="detail")
        yield Footer()

    def on_mount(self) -> None:
        self.app.browser = self
        self.watch(self.app, "kb", self._kb_changed)
        self.watch(self.app, "watching", self._watching_changed)
        self.query_one(RecordList).focus()

    # -- state from the app --------------------------------------------------------------

    def _kb_changed(self, kb) -> None:
        header = self.query_one(StatusHeader)
        header.kb = kb
        if kb is None:
            return
        self.query_one(FacetTree).load(kb)
        self._run_search(keep_id=None)

    def _watching_changed(self, watching: bool) -> None:
        self.query_one(StatusHeader).watching = watching

    # -- searching -----------------------------------------------------------------------

    @on(Input.Changed, "#filter")
    def _filter_changed(self) -> None:
        self._run_search(keep_id=None)

    @on(FacetTree.Changed)
    def _facet_changed(self, event: FacetTree.Changed) -> None:
        facet = (event.domain, event.category)
        if facet != self.facet:
            self.facet = facet
            self._run_search(keep_id=None)

    def _run_search(self, keep_id: str | None) -> None:
        if self.app.index is None:
            return
        self._search_serial += 1
        text = self.query_one("#filter", Input).value
        if len(self.app.index.records) <= INLINE_SEARCH_RECORDS:
            # A few milliseconds at most: a worker thread's hand-offs would cost more.
            self.post_message(SearchDone(self.app.index.search(text, *self.facet), self.facet, keep_id))
        else:
            self._search(text, self.facet, keep_id, self._search_serial)

    @work(thread=True, exclusive=True, group="search", exit_on_error=False, name="search")
    def _search(self, text: str, facet: Facet, keep_id: str | None, serial: int) -> None:
        worker = get_current_worker()

        def post(result: SearchResult) -> None:
            if not worker.is_cancelled and serial == self._search_serial:
                self.post_message(SearchDone(result, facet, keep_id))

        post(self.app.index.search(text, *facet, on_partial=post,
                                   should_stop=lambda: worker.is_cancelled or serial != self._search_serial))

    @on(SearchDone)
    def _search_done(self, message: SearchDone) -> None:
        current = self.query_one("#filter", Input).value
        if message.result.query != current or message.facet != self.facet:
            return  # a newer keystroke or facet is on its way
        record_list = self.query_one(RecordList)
        keep_id = message.keep_id
        if keep_id is None and record_list.filter_text == current and record_list.current is not None:
            keep_id = record_list.current.id  # the rest of a result whose head is shown
        record_list.set_rows(self.app.kb.records, message.result.indices, current, keep_id=keep_id)

        self.query_one(StatusHeader).shown = record_list.row_count
        self.query_one(StatusHeader).fuzzy = message.result.fuzzy

    # -- showing records -----------------------------------------------------------------

    @on(RecordList.Highlighted)
    def _highlighted(self, event: RecordList.Highlighted) -> None:
        if event.record_id is None:
            self.show_in_detail(None)
            return
        # Moving in the list replaces the current history entry; links push new ones.
        if self.history_at >= 0:
            self.history[self.history_at] = event.record_id
            del self.history[self.history_at + 1 :]
        else:
            self.history = [event.record_id]
            self.history_at = 0
        if event.by_filter:
            # While the user types, the top row changes with every key: show its detail once
            # they pause, so keystrokes only pay for the list.
            self._detail_pending = event.record_id
            if self._detail_timer is not None:
                self._detail_timer.stop()
            self._detail_timer = self.set_timer(DETAIL_AFTER_TYPING, self._flush_detail)
        else:
            self._queue_detail(event.record_id)

    def _queue_detail(self, record_id: str) -> None:
        """Show ``record_id`` in the detail now, or, while the cursor races (a held key),
        once it pauses: rebuilding the detail for every row passed would lag the list."""
        self._detail_pending = record_id
        if self._detail_timer is not None:
            return
        if time.monotonic() - self._detail_shown_at >= DETAIL_COALESCE:
            self._flush_detail()
        else:
            self._detail_timer = self.set_timer(DETAIL_COALESCE, self._flush_detail)

    def _flush_detail(self) -> None:
        self._detail_timer = None
        self._detail_shown_at = time.monotonic()
        self.show_in_detail(self._detail_pending)

    @on(RecordList.Selected)
    def _selected(self, event: RecordList.Selected) -> None:
        if self.app.size.width < 100:
            from .detail import DetailScreen

            self.app.push_screen(DetailScreen(event.record_id))
        else:
            self.query_one(DetailPane).focus()

    def show_record(self, record_id: str) -> None:
        """Select ``record_id`` in the list (clearing filter and facet if they hide it)."""
        record_list = self.query_one(RecordList)
        row = record_list.position_of(record_id)
        if row is not None:
            record_list.cursor = row
            return
        filter_input = self.query_one("#filter", Input)
        with filter_input.prevent(Input.Changed):  # this search, not the one a change would start
            filter_input.value = ""
        self.facet = (None, None)
        self.query_one(FacetTree).select_facet((None, None))
        self._run_search(keep_id=record_id)

    def action_focus_filter(self) -> None:
        self.query_one("#filter", Input).focus()

    def action_escape(self) -> None:
        filter_input = self.query_one("#filter", Input)
        if filter_input.has_focus and filter_input.value:
            filter_input.value = ""
        else:
            self.query_one(RecordList).focus()

    def _step_facet(self, facets: list[Facet], step: int) -> None:
        """Move to the next/previous facet of ``facets`` from the current one."""
        if not facets:
            return
        if self.facet in facets:
            position = (facets.index(self.facet) + step) % len(facets)
        else:  # on "All" or a domain: enter its first (or last) category
            inside = [i for i, f in enumerate(facets) if self.facet[0] in (None, f[0])]
            position = inside[0] if step > 0 else inside[-1]
        self.query_one(FacetTree).select_facet(facets[position])

    def action_domain(self, step: int) -> None:
        if self.app.kb is not None:
            self._step_facet([(None, None), *[(d, None) for d in self.app.kb.domains]], step)

    def action_category(self, step: int) -> None:
        kb = self.app.kb
        if kb is not None:
            facets = [(d, c) for d in kb.domains for c in kb.categories(d)]
            self._step_facet(facets, step)

    def on_paste(self, event) -> None:
        """A terminal paste outside the filter: match it as an error."""
        if event.text.strip():
            self.app.match_text(event.text, "paste")
