"""The main screen: facets, filter and list, detail."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Input

from ..messages import FacetChosen, MatchRequested, RecordChosen
from ..state import ALL, Facet
from ..widgets.detail import DetailPane
from ..widgets.facets import FacetTree
from ..widgets.filter import FilterInput, FilterStatus
from ..widgets.header import StatusHeader
from ..widgets.record_list import ROW_HEIGHT, RecordList
from .record import RECORD_BINDINGS, RecordScreen

#: Below this width the detail has no room beside the list: Enter opens it full screen.
NARROW = 100


class BrowserScreen(RecordScreen):
    """Browse and filter records; read the selected one in the detail pane."""

    BINDINGS = [
        # A priority binding, seen before the key is handed to the focused widget: the keys
        # typed straight after it must already find the filter focused.
        Binding("slash", "focus_filter", "Filter", tooltip="Type to filter the records", id="browser.filter",
                priority=True),
        Binding("escape", "escape", "Clear", show=False,
                tooltip="In the list: clear the query, then the domain/category", id="browser.escape"),
        Binding("t", "toggle_facets", "Domains", show=False,
                tooltip="Show or hide the domain/category tree", id="browser.facets"),
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

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # (results, id) of the last row asked for by ↑/↓ in the filter, for keys pressed
        # faster than the App echoes the selection back.
        self._asked_while_typing: tuple[object, str | None] = (None, None)

    def compose(self) -> ComposeResult:
        screen = type(self)
        yield StatusHeader(id="status").data_bind(screen.kb, screen.loaded, screen.results, screen.records_read,
                                                  screen.watching, screen.lang, screen.evidence)
        with Horizontal(id="body"):
            yield FacetTree(id="facets").data_bind(screen.kb, screen.facet)
            with Vertical(id="middle"):
                yield FilterInput(placeholder="Copy an error anywhere (or p to paste) · / filters", id="filter")
                yield FilterStatus(id="filter-status").data_bind(screen.kb, screen.facet, screen.search_text,
                                                                 screen.results)
                yield RecordList(id="list").data_bind(screen.results, screen.selection, screen.evidence)
            yield DetailPane(today=self.today, id="detail").data_bind(
                screen.kb, screen.selection, screen.lang, screen.last_match, screen.evidence, screen.followup,
                screen.search_text)
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

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "focus_filter" and isinstance(self.focused, Input):
            return False  # typing: a "/" is part of the text (paths, a/b)
        return super().check_action(action, parameters)

    def action_focus_filter(self) -> None:
        # At once, not after the keys already queued (Widget.focus waits its turn): what is
        # typed straight after / must land in the filter, not act as keys on the list.
        self.set_focus(self.query_one("#filter", Input))

    @on(Input.Submitted, "#filter")
    def _accept(self, event: Input.Submitted) -> None:
        """Enter in the filter: the list takes the keys, on the selected row (the top
        one if the selection is not listed); the query stays."""
        event.stop()
        if self.results.row_of(self.selection.id) is None and len(self.results):
            self.post_message(RecordChosen(self.results.id_at(0), "cursor"))
        self.query_one(RecordList).focus()

    @on(FilterInput.Move)
    def _move_while_typing(self, event: FilterInput.Move) -> None:
        """↑/↓, ctrl+p/ctrl+n, PgUp/PgDn while typing: select a neighbour row of the results."""
        if not len(self.results):
            return
        asked_in, asked = self._asked_while_typing
        current = asked if asked_in is self.results else self.selection.id  # keys faster than the echo
        row = self.results.row_of(current)
        page = max(1, self.query_one(RecordList).size.height // ROW_HEIGHT - 1)  # as the list's PgDn
        step = event.rows * (page if event.pages else 1)
        row = 0 if row is None else max(0, min(row + step, len(self.results) - 1))
        record_id = self.results.id_at(row)
        self._asked_while_typing = (self.results, record_id)
        if record_id != self.selection.id:
            # Posted from here, not by the list: a message a child posts while this screen
            # handles one would stop bubbling at the screen (Textual stops it at its sender).
            self.post_message(RecordChosen(record_id, "cursor"))

    @on(FilterInput.Leave)
    def _leave_filter(self) -> None:
        self.query_one(RecordList).focus()

    def action_escape(self) -> None:
        """Outside the filter: clear the query first, then the domain/category."""
        filter_input = self.query_one("#filter", Input)
        if filter_input.value:
            filter_input.value = ""
        elif self.facet != ALL:
            self.post_message(FacetChosen(ALL))

    def action_toggle_facets(self) -> None:
        """Show the facet tree where it is hidden for room (below 150 columns), or hide it."""
        self.toggle_class("-facets-toggled")

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
