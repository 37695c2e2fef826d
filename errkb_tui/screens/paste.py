"""Paste-to-match: for places where the clipboard is out of reach (SSH, containers)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static, TextArea

from ..match import MAX_INPUT_BYTES


class PasteScreen(ModalScreen[str | None]):
    """Paste an error with the terminal's paste; ctrl+s matches it, Escape cancels."""

    BINDINGS = [
        Binding("ctrl+s", "submit", "Match", id="paste.submit"),
        Binding("escape", "cancel", "Cancel", id="paste.cancel"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="paste-box"):
            yield Static(Text("Paste an error (your terminal's paste), then press ctrl+s to match it.",
                              style="bold"))
            yield TextArea(id="paste-text", soft_wrap=True, show_line_numbers=False)

    def action_submit(self) -> None:
        text = self.query_one(TextArea).text
        self.dismiss(text[-MAX_INPUT_BYTES:])

    def action_cancel(self) -> None:
        self.dismiss(None)
