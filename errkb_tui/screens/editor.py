"""The in-app editor of a draft record: the JSON in a TextArea, for when no external
editor can run (no ``$VISUAL``/``$EDITOR``, ``--no-editor``, no terminal to hand over).

The screen only edits text: it dismisses with what to do and the text, and the capture
flow (:mod:`errkb_tui.capture`) writes it, so nothing typed is lost whichever key ends it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static, TextArea

from ..text import plain


@dataclass(frozen=True)
class EditorResult:
    """How the editor was left: ``save`` (check it and put it in the KB) or ``keep`` (keep
    it as a draft), with the text as it was then."""

    choice: str
    text: str


class DraftEditor(ModalScreen[EditorResult]):
    """Edit a draft's JSON; ctrl+s saves and checks it, Escape keeps it as a draft."""

    BINDINGS = [
        Binding("ctrl+s", "save", "Save & check",
                tooltip="In the editor: save and check; a valid record goes into your KB",
                id="editor.save"),
        Binding("escape", "keep", "Keep as draft",
                tooltip="In the editor: close it, keeping the text as a draft (not matched)",
                id="editor.keep"),
    ]

    def __init__(self, text: str, path: Path, *, line: int | None = None, note: str = "") -> None:
        super().__init__()
        self.text = text
        self.path = path
        self.line = line  # 1-based line to put the cursor on (a problem's)
        self.note = note

    def compose(self) -> ComposeResult:
        with Vertical(id="editor-box"):
            yield Static(Text(f"Draft: {plain(str(self.path))}", style="bold"), id="editor-title")
            hint = self.note or ("Fill in root_cause and at least one workaround (an _example_workaround shows "
                                 "the shape), then ctrl+s. Escape keeps it as a draft.")
            yield Static(Text(plain(hint, multiline=True), style="italic"), id="editor-hint")
            area = TextArea(self.text, id="editor-text", soft_wrap=True, show_line_numbers=True)
            yield area
        yield Footer()

    def on_mount(self) -> None:
        area = self.query_one(TextArea)
        if self.line is not None:
            row = max(0, min(self.line - 1, area.document.line_count - 1))
            area.move_cursor((row, 0), center=True)
        area.focus()

    def action_save(self) -> None:
        self.dismiss(EditorResult("save", self.query_one(TextArea).text))

    def action_keep(self) -> None:
        self.dismiss(EditorResult("keep", self.query_one(TextArea).text))
