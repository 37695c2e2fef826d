"""The main screen: facets, filter and list, detail."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Input

from ..messages import FacetChosen, MatchRequested
from ..state import ALL, Facet
from ..widgets.detail import DetailPane
from ..widgets.facets import FacetTree
from ..widgets.header import StatusHeader
from ..widgets.record_list import RecordList
from .record import RECORD_BINDINGS, RecordScreen

#: Below this width the detail has no room beside the list: Enter opens it full screen.
NARROW = 100


class BrowserScreen(RecordScreen):
    """Browse and filter records; read the selected one in the detail pane."""

    BINDINGS = [
        Binding("slash", "focus_filter", "Filter", tooltip="Type to filter the records", id="browser.filter"),
        Binding("escape", "escape", "Clear/leave", show=False, tooltip="Clear the filter, then leave it",
                id="browser.escape"),
        Binding("left_square_bracket", "domain(-1)", "Prev domain", show=False, tooltip="Previous domain",
                id="browser.prev_domain"),
        Binding("right_square_bracket", "domain(1)", "Next domain", show=False, tooltip="Next domain",
                id="browser.next_domain"),
        Binding("left_curly_bracket", "category(-1)", "Prev category", show=False, tooltip="Previous category",
                id="browser.prev_category"),
        Binding("right_curly_bracket", "category(1)", "Next category", show=False, tooltip="Next category",
                id="browser.next_category"),
        *RECORD_BINDINGS,
    ]

    def compose(self) -> ComposeResult:
        screen = type(self)
        yield StatusHeader(id="status").data_bind(screen.kb, screen.loaded, screen.results, screen.records_read,
                                                  screen.watching)
        with Horizontal(id="body"):
            yield FacetTree(id="facets").data_bind(screen.kb, screen.facet)
            with Vertical(id="middle"):
                yield Input(placeholder="/ filter: words, domain:, tag:", id="filter")
                yield RecordList(id="list").data_bind(screen.results, screen.selection, screen.evidence)
            yield DetailPane(today=self.today, id="detail").data_bind(
                screen.kb, screen.selection, screen.lang, screen.last_match, screen.evidence, screen.followup)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(RecordList).focus()

    def watch_search_text(self, query: str) -> None:
        """The App changed the query (a match revealing its record): show it in the filter.

        While the filter has focus its text is the user's and only they change it: the
        App's query follows the filter, never the other way round."""
        if not self.is_mounted:
            return
        filter_input = self.query_one("#filter", Input)
        if filter_input.value != query and not filter_input.has_focus:
            with filter_input.prevent(Input.Changed):
                filter_input.value = query

    @on(RecordList.Selected)
    def _open(self, event: RecordList.Selected) -> None:
        if self.app.size.width < NARROW:
            self.app.call_later(self.app.action_open_detail)
        else:
            self.query_one(DetailPane).focus()

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
        self.post_message(FacetChosen(facets[position]))

    def action_domain(self, step: int) -> None:
        if self.kb is not None:
            self._step_facet([ALL, *[(d, None) for d in self.kb.domains]], step)

    def action_category(self, step: int) -> None:
        if self.kb is not None:
            self._step_facet([(d, c) for d in self.kb.domains for c in self.kb.categories(d)], step)

    def on_paste(self, event) -> None:
        """A terminal paste outside the filter: match it as an error."""
        if event.text.strip():
            self.post_message(MatchRequested(event.text, "paste"))
