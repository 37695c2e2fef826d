"""The selected record, full screen (narrow terminals)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer

from ..widgets.detail import DetailPane
from ..widgets.header import StatusHeader
from .record import RECORD_BINDINGS, RecordScreen


class DetailScreen(RecordScreen):
    """The selected record over the whole terminal; Escape returns to the list."""

    BINDINGS = [Binding("escape,q", "app.pop_screen", "Back to list", tooltip="Back to the list",
                        id="detail.close"), *RECORD_BINDINGS]

    def compose(self) -> ComposeResult:
        screen = type(self)
        yield StatusHeader(id="status").data_bind(screen.kb, screen.loaded, screen.results, screen.records_read,
                                                  screen.watching, screen.lang, screen.evidence)
        yield DetailPane(today=self.today, id="detail-full").data_bind(
                screen.kb, screen.selection, screen.lang, screen.last_match, screen.evidence, screen.followup)
        yield Footer()

    def on_mount(self) -> None:
        self.detail.focus()
