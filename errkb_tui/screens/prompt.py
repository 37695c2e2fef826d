"""Ask for the values a command still needs before it is copied.

A workaround's command may name values the error did not carry (``{=pod:my-pod}``). Rather
than copy a literal placeholder, the copy keys open this small prompt: one line per value,
prefilled with the record's example, asked one after the other. Enter takes the value (the
last one copies), Escape cancels and nothing is copied.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from ..placeholders import fill, find
from ..text import cell_truncate, plain


class ValuePrompt(ModalScreen[dict[str, str] | None]):
    """Ask for ``asks`` (``(name, prefill)``, in order); dismiss with every value, or None."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", tooltip="Cancel: copy nothing", id="prompt.cancel")]
    DEFAULT_CSS = """
    ValuePrompt { align: center bottom; background: $background 40%; }
    #prompt-box {
        width: 100%; height: auto; max-height: 12;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    #prompt-command { color: $foreground-muted; }
    #prompt-value { border: tall $accent; }
    """

    def __init__(self, command: str, asks: Sequence[tuple[str, str]], values: Mapping[str, str] | None = None,
                 what: str = "the command") -> None:
        super().__init__()
        self.command = command
        self.asks = list(asks)
        self.values: dict[str, str] = dict(values or {})
        self.what = what
        self.step = 0

    def compose(self) -> ComposeResult:
        with Vertical(id="prompt-box"):
            yield Static(id="prompt-question")
            yield Static(id="prompt-command")
            yield Input(id="prompt-value", select_on_focus=False)
            yield Static(Text("Enter: use this value · Escape: cancel, copy nothing", style="italic"),
                         id="prompt-hint")

    def on_mount(self) -> None:
        self._ask()

    def _ask(self) -> None:
        name, prefill = self.asks[self.step]
        question = Text()
        question.append(f"{self.what} needs a value for ", style="bold")
        question.append(name, style="bold reverse")
        if len(self.asks) > 1:
            question.append(f"   ({self.step + 1} of {len(self.asks)})")
        self.query_one("#prompt-question", Static).update(question)
        box = self.query_one("#prompt-value", Input)
        box.value = prefill
        box.focus()
        box.select_all()  # typing replaces the example; Enter keeps it
        self._preview(prefill)

    def _preview(self, value: str) -> None:
        values = dict(self.values)
        name = self.asks[self.step][0]
        values[name] = value
        text = fill(self.command, values).text
        for placeholder in reversed(find(text)):  # values still to come, as the detail shows them
            text = text[:placeholder.start] + f"⟨{placeholder.name}⟩" + text[placeholder.end:]
        shown = " ⏎ ".join(line for line in text.splitlines() if line.strip())
        self.query_one("#prompt-command", Static).update(Text(plain(cell_truncate(shown, 400))))

    @on(Input.Changed, "#prompt-value")
    def _changed(self, event: Input.Changed) -> None:
        self._preview(event.value)

    @on(Input.Submitted, "#prompt-value")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.values[self.asks[self.step][0]] = event.value
        self.step += 1
        if self.step < len(self.asks):
            self._ask()
        else:
            self.dismiss(self.values)

    def action_cancel(self) -> None:
        self.dismiss(None)
