"""What the check of a draft found, each problem at its line, and what to do next: edit
again, keep it as a draft (saved, not matched) or discard it (asked first)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from ..kb import Problem
from ..text import plain
from .problems import severity_styles



def problem_lines(problems: list[Problem], styles: Mapping[str, Style]) -> Text:
    """The problems as plain text: severity, line, field, message (no markup)."""
    text = Text()
    for problem in problems:
        text.append(f"{problem.severity:<8}", style=styles.get(problem.severity, Style()))
        text.append(f"line {problem.line}" if problem.line is not None else "file", style="bold")
        text.append(f"  {plain(problem.field or '-')}: ", style="dim")
        text.append(plain(problem.message) + "\n")
    return text


class CaptureProblems(ModalScreen[str]):
    """The draft did not pass the check: dismisses with ``edit``, ``keep`` or ``discard``."""

    BINDINGS = [
        Binding("e,enter", "choose('edit')", "Edit again",
                tooltip="After a failed check: edit again, at the first problem",
                id="capture.edit"),
        Binding("k,escape", "choose('keep')", "Keep as draft",
                tooltip="After a failed check: keep it as a draft (not matched)", id="capture.keep"),
        Binding("d", "choose('discard')", "Discard", tooltip="After a failed check: discard the draft (asks first)",
                id="capture.discard"),
    ]

    def __init__(self, path: Path, problems: list[Problem], record_id: str | None = None) -> None:
        super().__init__()
        self.path = path
        self.problems = problems
        self.record_id = record_id

    def compose(self) -> ComposeResult:
        errors = sum(1 for p in self.problems if p.severity == "error")
        with Vertical(id="capture-box"):
            title = f"{errors} error(s) in the draft {plain(self.record_id or '')}".rstrip()
            yield Static(Text(title, style="bold"))
            yield Static(Text(plain(str(self.path)), style="dim"))
            with VerticalScroll(id="capture-problems"):
                yield Static(problem_lines([p for p in self.problems if p.severity != "info"],
                                           severity_styles(self.app.theme_variables)))
            yield Static(Text("e: edit again   k: keep as a draft (not matched)   d: discard", style="italic"))
        yield Footer()

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)
