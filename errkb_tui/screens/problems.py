"""The load problems: every file, record and field that could not be used, and why."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..kb import Problem
from ..text import plain

#: Problems shown at most (the rest are counted).
SHOW_AT_MOST = 500
STYLE = {"error": "bold red", "warning": "bold yellow", "info": "dim"}


class ProblemsScreen(ModalScreen[None]):
    """A scrollable list of load problems."""

    BINDINGS = [Binding("escape,q,exclamation_mark", "dismiss", "Close", id="problems.close")]

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__()
        self.problems = problems

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="problems-box"):
            yield Static(Text(f"Load problems: {len(self.problems)}", style="bold"), id="problems-title")
            text = Text()
            if not self.problems:
                text.append("None: every file loaded cleanly.", style="green")
            for problem in self.problems[:SHOW_AT_MOST]:
                text.append(f"{problem.severity:<8}", style=STYLE.get(problem.severity, ""))
                text.append(plain(problem.location()) + "\n", style="bold")
                text.append(f"        {plain(problem.record_id or '-')}  {plain(problem.field or '-')}: ", style="dim")
                text.append(plain(problem.message) + "\n")
            if len(self.problems) > SHOW_AT_MOST:
                text.append(f"… and {len(self.problems) - SHOW_AT_MOST} more; run errkb-tui validate for all.")
            yield Static(text, id="problems-list")
            yield Static(Text("Records with errors were skipped; the rest loaded. Escape closes.", style="italic"))
