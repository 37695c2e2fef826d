"""The filter line: the query input with fzf's keys, and what the filter is doing.

:class:`FilterInput` keeps the typed query safe: Enter accepts (the list takes the keys,
the query stays), Escape leaves without clearing, and only ctrl+u or a second Escape (in
the list) clears it. While typing, ↑/↓ (ctrl+p/ctrl+n) and PgUp/PgDn move the list's
selection, as in fzf. A paste of several lines is an error to match, not a query.

:class:`FilterStatus` says which domain/category is active (the facet tree may be hidden)
and when a facet or a qualifier matches nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from rapidfuzz import process
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Input

from ..kb import KB
from ..messages import MatchRequested
from ..search import Query
from ..state import ALL, EMPTY, Facet, Results


class FilterInput(Input):
    """The query, typed; its keys follow fzf's habits."""

    #: Input sets its virtual size (the text's width, for scrolling it sideways) on every
    #: key. As a layout reactive that re-laid out the whole screen per keystroke (the
    #: detail pane's cards and all); the filter's own box never changes size with its text
    #: (its width and height come from the stylesheet), so a repaint is enough.
    virtual_size = reactive(Size(0, 0), layout=False)

    BINDINGS = [
        Binding("enter", "submit", "Accept", tooltip="Accept: go to the list (the query stays)",
                id="filter.accept"),
        Binding("down,ctrl+n", "move(1)", "Next", tooltip="Select the next record while typing",
                id="filter.next"),
        Binding("up,ctrl+p", "move(-1)", "Previous", show=False, tooltip="Select the previous record while typing",
                id="filter.previous"),
        Binding("pagedown", "move_page(1)", "Page down", show=False,
                tooltip="Select a page further down while typing", id="filter.page_down"),
        Binding("pageup", "move_page(-1)", "Page up", show=False,
                tooltip="Select a page further up while typing", id="filter.page_up"),
        Binding("escape", "leave", "Leave", tooltip="Leave the filter, keeping the query", id="filter.leave"),
        Binding("ctrl+u", "clear", "Clear", tooltip="Clear the query", id="filter.clear"),
    ]

    @dataclass
    class Move(Message):
        """Move the list's selection by ``rows`` (``pages`` True: by pages) while typing."""

        rows: int
        pages: bool = False

    @dataclass
    class Leave(Message):
        """Escape in the filter: give the keys back to the list, the query kept."""

    def action_move(self, rows: int) -> None:
        self.post_message(self.Move(rows))

    def action_move_page(self, pages: int) -> None:
        self.post_message(self.Move(pages, pages=True))

    def action_leave(self) -> None:
        self.post_message(self.Leave())

    def action_clear(self) -> None:
        self.value = ""

    def _on_paste(self, event: events.Paste) -> None:
        """Several lines pasted: an error to match (as ``p`` does), not a query."""
        if len(event.text.strip().splitlines()) > 1:
            event.stop()
            event.prevent_default()  # Input's handler would keep only the first line
            self.post_message(MatchRequested(event.text, "paste"))
        # One line: Input's own handler (run next, as Textual calls each class's) types it.


class FilterStatus(Widget):
    """One line under the filter: the active facet, and a qualifier or facet that matches
    nothing (with the closest name). Hidden when there is nothing to say."""

    COMPONENT_CLASSES = {"filter-status--chip", "filter-status--warning", "filter-status--muted"}
    DEFAULT_CSS = """
    FilterStatus {
        height: 1; display: none;
        & > .filter-status--chip { background: $accent 30%; color: $foreground; text-style: bold; }
        & > .filter-status--warning { color: $warning; }
        & > .filter-status--muted { color: $foreground-muted; }
    }
    FilterStatus.-shown { display: block; }
    """

    kb: reactive[KB | None] = reactive(None)
    """The loaded KB (its domains and categories)."""
    facet: reactive[Facet] = reactive(ALL)
    """The domain/category being browsed."""
    search_text: reactive[str] = reactive("")
    """The query."""
    results: reactive[Results] = reactive(EMPTY)
    """What the list shows."""

    def _style(self, name: str):
        return self.get_component_rich_style(f"filter-status--{name}")

    def render(self) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        domain, category = self.facet
        if domain is not None:
            text.append(f" {domain}{' › ' + category if category else ''} ", style=self._style("chip"))
            text.append(" Escape in the list: all records", style=self._style("muted"))
        problem = self.problem()
        if problem:
            if text:
                text.append("  ")
            text.append(problem, style=self._style("warning"))
        return text

    def problem(self) -> str | None:
        """What in the query or facet matches nothing, with the closest name if any."""
        kb = self.kb
        if kb is None:
            return None
        query = Query.parse(self.search_text)
        if query.domain and not any(d.lower().startswith(query.domain) for d in kb.domains):
            return f"no domain starts with {query.domain!r}" + _closest(query.domain, kb.domains)
        if query.category:
            categories = sorted({c for d in kb.domains for c in kb.categories(d)})
            if not any(c.lower().startswith(query.category) for c in categories):
                return f"no category starts with {query.category!r}" + _closest(query.category, categories)
        if query.tag and self.results.complete and not len(self.results):
            return f"tag:{query.tag}: no record listed here has such a tag"
        if self.results.complete and not len(self.results) and self.facet != ALL and not self.search_text.strip():
            return "no records in this domain/category"
        return None

    def _refresh_shown(self) -> None:
        self.set_class(bool(self.facet != ALL or self.problem()), "-shown")
        self.refresh()

    def watch_facet(self) -> None:
        self._refresh_shown()

    def watch_search_text(self) -> None:
        self._refresh_shown()

    def watch_results(self) -> None:
        self._refresh_shown()

    def watch_kb(self) -> None:
        self._refresh_shown()


def _closest(word: str, names) -> str:
    best = process.extractOne(word, list(names), score_cutoff=60)
    return f": did you mean {best[0]}?" if best else ""


__all__ = ["FilterInput", "FilterStatus"]
