"""Several records explain the copied text about equally well: the user picks."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..kb import KB
from ..match import Match
from ..placeholders import shown
from ..text import plain


class PickerScreen(ModalScreen[str | None]):
    """The close candidates with their scores; Enter picks, Escape picks none."""

    BINDINGS = [Binding("escape", "dismiss_none", "Cancel", id="picker.cancel")]

    def __init__(self, matches: list[Match], kb: KB | None) -> None:
        super().__init__()
        self.matches = matches
        self.kb = kb

    def compose(self) -> ComposeResult:
        options = []
        for match in self.matches:
            record = self.kb.get(match.id) if self.kb else None
            prompt = Text()
            prompt.append(f"{match.score:.2f}  ", style="bold")
            prompt.append(plain(match.id), style="bold")
            if record is not None:
                prompt.append("\n      " + plain(shown(record.signature)), style="dim")
            options.append(Option(prompt, id=match.id))
        with Vertical(id="picker-box"):
            yield Static(Text("Several records match the copied error. Which one?", style="bold"))
            yield Static(Text(plain(self.matches[0].line), style="italic dim"))
            yield OptionList(*options, id="picker-list")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
