"""The detail of one record, full screen (narrow terminals)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer

from ..widgets.detail import DetailPane
from ..widgets.header import StatusHeader
from .record_actions import RECORD_BINDINGS, RecordScreenMixin


class DetailScreen(RecordScreenMixin, Screen[None]):
    """One record over the whole terminal; Escape returns to the list."""

    BINDINGS = [Binding("escape,q", "app.pop_screen", "Back to list", id="detail.close"), *RECORD_BINDINGS]

    def __init__(self, record_id: str) -> None:
        super().__init__()
        self.init_history(record_id)

    def compose(self) -> ComposeResult:
        header = StatusHeader(id="status")
        header.kb = self.app.kb
        header.shown = self.app.browser.query_one("RecordList").row_count
        header.watching = self.app.watching
        yield header
        yield DetailPane(id="detail-full")
        yield Footer()

    def on_mount(self) -> None:
        self.show_in_detail(self.history[0])
        self.detail.focus()
