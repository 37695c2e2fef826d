"""Paste-to-match: for places where the clipboard is out of reach (SSH, containers)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static, TextArea

from ..match import MAX_INPUT_BYTES
from ..messages import CaptureRequested


class PasteScreen(ModalScreen[str | None]):
    """Paste an error with the terminal's paste; ctrl+s matches it, ctrl+n writes a new
    record for it (the App's capture flow), Escape cancels."""

    BINDINGS = [
        Binding("ctrl+s", "submit", "Match", tooltip="Match the pasted text", id="paste.submit"),
        Binding("ctrl+n", "add", "New record", tooltip="Write a new record for the pasted error", id="paste.add"),
        Binding("escape", "cancel", "Cancel", tooltip="Close the paste box", id="paste.cancel"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="paste-box"):
            yield Static(Text("Paste an error (your terminal's paste), then ctrl+s to match it "
                              "(ctrl+n: a new record for it).",
                              style="bold"))
            yield TextArea(id="paste-text", soft_wrap=True, show_line_numbers=False)

    def action_submit(self) -> None:
        text = self.query_one(TextArea).text
        self.dismiss(text[-MAX_INPUT_BYTES:])

    def action_add(self) -> None:
        text = self.query_one(TextArea).text
        if not text.strip():
            self.notify("Paste an error first.", severity="warning", markup=False)
            return
        self.app.post_message(CaptureRequested(text[-MAX_INPUT_BYTES:]))  # this screen is closing
        self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)
