"""The help screen: every key, grouped by where it works."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

KEYS: list[tuple[str, list[tuple[str, str]]]] = [
    ("Anywhere", [
        ("?", "this help"),
        ("ctrl+p", "command palette: go to record, domains, language, clipboard watch, themes"),
        ("Tab / shift+Tab", "next / previous pane"),
        ("z", "switch the detail between English and 中文"),
        ("w", "turn the clipboard watcher on or off"),
        ("p", "paste an error to match (where the clipboard is out of reach)"),
        ("!", "list the KB's load problems"),
        ("ctrl+q", "quit"),
    ]),
    ("Record list", [
        ("/", "focus the filter (words, domain:, category:, tag:)"),
        ("Escape", "clear the filter, then leave it"),
        ("↑ ↓  j k", "move"),
        ("PgUp PgDn  Home End", "move by a page, to the first or last"),
        ("[ ]", "previous / next domain"),
        ("{ }", "previous / next category"),
        ("Enter", "open the record's detail"),
    ]),
    ("Detail", [
        ("1 … 9", "copy workaround N's command"),
        ("c", "copy the selected workaround (Tab to a workaround to select it)"),
        ("y / Y", "copy the signature / the id"),
        ("Enter on a related error", "open it"),
        ("Backspace  alt+←", "back"),
        ("alt+→", "forward"),
        ("o", "open the official documentation"),
        ("Escape", "back to the list (narrow terminals)"),
    ]),
]


def help_table() -> Table:
    """The keys as a table (built from plain text, no markup)."""
    table = Table(box=None, show_header=False, padding=(0, 2, 0, 0), expand=True)
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for group, keys in KEYS:
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
            yield Static(help_table())
            yield Static(Text("Copy a traceback anywhere while errkb-tui is open: the record that "
                              "explains it is selected.", style="italic"))
