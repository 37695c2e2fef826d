"""The help screen: every key, grouped by where it works, read from the live bindings."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..keys import key_groups

def help_table(groups: list[tuple[str, list[tuple[str, str]]]]) -> Table:
    """The keys as a table (built from plain text, no markup)."""
    table = Table(box=None, show_header=False, padding=(0, 2, 0, 0), expand=True)
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for group, keys in groups:
        table.add_row(Text(group, style="bold underline"), "")
        for key, what in keys:
            table.add_row(Text(key), Text(what))
        table.add_row("", "")
    return table


class HelpScreen(ModalScreen[None]):
    """Every key, explained; any of Escape, q or ? closes it."""

    BINDINGS = [Binding("escape,q,question_mark", "dismiss", "Close", id="help.close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Static(Text("errkb-tui keys", style="bold"), id="help-title")
            yield Static(help_table(key_groups(self.app.BINDINGS, self.app.COMMAND_PALETTE_BINDING, self.app.keymap_overrides)))
            yield Static(Text("Copy a traceback anywhere while errkb-tui is open: the record that "
                              "explains it is selected.", style="italic"))
