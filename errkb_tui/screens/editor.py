"""The in-app editor of a draft record: the JSON in a TextArea, for when no external
editor can run (no ``$VISUAL``/``$EDITOR``, ``--no-editor``, no terminal to hand over).

The screen dismisses with what to do and the text, and the capture flow
(:mod:`errkb_tui.capture`) writes it. Meanwhile the text is saved to the draft's file a
second after typing stops and when the screen goes (the app quitting with ctrl+q), so
nothing typed is lost whichever way the editor ends. Those saves are a few KB written on
the event loop, not in a thread: a thread's late write could land after the final one.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Footer, Static, TextArea

from ..draft import atomic_write
from ..text import plain

#: Seconds without typing before the text is saved to the draft's file.
AUTOSAVE_AFTER = 1.0


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
        self._saved = text  # what the draft's file holds
        self._timer: Timer | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="editor-box"):
            yield Static(Text(f"Draft: {plain(str(self.path))}", style="bold"), id="editor-title")
            hint = self.note or ("Fill in root_cause and at least one workaround (an _example_workaround shows "
                                 "the shape), then ctrl+s. Escape keeps it as a draft.")
            yield Static(Text(plain(hint, multiline=True), style="italic"), id="editor-hint")
            # Kept: its text is still there while the screen unmounts (the app quitting).
            self._area = TextArea(self.text, id="editor-text", soft_wrap=True, show_line_numbers=True)
            yield self._area
        yield Footer()

    def on_mount(self) -> None:
        area = self.query_one(TextArea)
        if self.line is not None:
            row = max(0, min(self.line - 1, area.document.line_count - 1))
            area.move_cursor((row, 0), center=True)
        area.focus()

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(AUTOSAVE_AFTER, self._autosave, name="draft autosave")

    def _autosave(self) -> None:
        """Write the text to the draft's file if it changed (never raises)."""
        area = getattr(self, "_area", None)
        text = area.text if area is not None else self._saved
        if text != self._saved:
            try:
                atomic_write(self.path, text)
            except OSError as exc:
                self.notify(f"Could not save the draft to {self.path}: {exc}", severity="error", markup=False)
                return
            self._saved = text

    def on_unmount(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._autosave()

    def _leave(self, choice: str) -> None:
        if self._timer is not None:
            self._timer.stop()
        text = self.query_one(TextArea).text
        self._saved = text  # the capture flow writes it
        self.dismiss(EditorResult(choice, text))

    def action_save(self) -> None:
        self._leave("save")

    def action_keep(self) -> None:
        self._leave("keep")
