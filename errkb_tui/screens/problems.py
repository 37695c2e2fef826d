"""The problems: every file, record and field that could not be used, and why.

It opens on what loading found and at once runs the check ``errkb-tui validate`` runs
(:func:`errkb_tui.lint.check_kb`) over the loaded sources in a worker, then lists exactly
what that reports (with the config file's and the outcomes files' problems around it).
Enter on a problem asks the App to open its file at its line in the user's editor.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..kb import Problem, Source
from ..messages import OpenFileRequested
from ..text import plain

#: Problems shown at most (the rest are counted).
SHOW_AT_MOST = 500


def severity_styles(theme_variables: Mapping[str, str]) -> dict[str, Style]:
    """Each severity's style in the current theme (its error and warning colours)."""
    def colour(name: str) -> Style:
        value = theme_variables.get(name)
        try:
            return Style(color=value, bold=True) if value else Style(bold=True)
        except Exception:  # a theme value Rich cannot parse: still readable, just plain
            return Style(bold=True)

    return {"error": colour("error"), "warning": colour("warning"), "info": Style(dim=True)}


def problem_prompt(problem: Problem, styles: Mapping[str, Style]) -> Text:
    """One problem as two lines of plain text (record text is never read as markup)."""
    text = Text()
    text.append(f"{problem.severity:<8}", style=styles.get(problem.severity, Style()))
    text.append(plain(problem.location()), style="bold")
    text.append(f"\n        {plain(problem.record_id or '-')}  {plain(problem.field or '-')}: ", style="dim")
    text.append(plain(problem.message))
    return text


class ProblemsScreen(ModalScreen[None]):
    """A navigable list of problems; Enter opens one's file at its line."""

    BINDINGS = [Binding("escape,q,exclamation_mark", "dismiss", "Close", tooltip="Close the list", id="problems.close")]

    @dataclass
    class Checked(Message):
        """The full check of the loaded sources finished (a worker's result)."""

        problems: list[Problem]

    def __init__(self, problems: list[Problem], *, before: Sequence[Problem] = (), after: Sequence[Problem] = (),
                 sources: Sequence[Source] | None = None) -> None:
        super().__init__()
        self.problems = list(problems)
        self.before, self.after = list(before), list(after)
        self.sources = list(sources) if sources is not None else None

    def compose(self) -> ComposeResult:
        with Vertical(id="problems-box"):
            yield Static(self._title(), id="problems-title")
            yield OptionList(*self._options(), id="problems-list")
            yield Static(self._status(), id="problems-status")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        if self.sources is not None:
            self._check(self.sources)

    def _title(self) -> Text:
        return Text(f"Problems: {len(self.problems)}", style="bold")

    def _status(self) -> Text:
        if self.sources is not None:
            return Text("Loading found these; running the full check (as errkb-tui validate)…", style="italic")
        return self._help()

    @staticmethod
    def _help() -> Text:
        return Text("What errkb-tui validate reports for the loaded KBs. Records with errors were skipped. "
                    "Enter opens the file at the line in $VISUAL/$EDITOR; Escape closes.", style="italic")

    def _options(self) -> list[Option]:
        if not self.problems:
            return [Option(Text("None: every file loaded cleanly.", style=Style(italic=True)), disabled=True)]
        styles = severity_styles(self.app.theme_variables)
        options = [Option(problem_prompt(p, styles), id=str(i)) for i, p in enumerate(self.problems[:SHOW_AT_MOST])]
        if len(self.problems) > SHOW_AT_MOST:
            more = len(self.problems) - SHOW_AT_MOST
            options.append(Option(Text(f"… and {more} more; run errkb-tui validate for all."), disabled=True))
        return options

    @work(thread=True, exclusive=True, group="problems-check", exit_on_error=False, name="checking the KB")
    def _check(self, sources: list[Source]) -> None:
        from ..lint import check_kb

        self.post_message(self.Checked(check_kb(sources).problems))

    @on(Checked)
    def _checked(self, message: Checked) -> None:
        self.problems = [*self.before, *message.problems, *self.after]
        options = self.query_one(OptionList)
        highlighted = options.highlighted
        options.set_options(self._options())
        if highlighted is not None and options.option_count:
            options.highlighted = min(highlighted, options.option_count - 1)
        self.query_one("#problems-title", Static).update(self._title())
        self.query_one("#problems-status", Static).update(self._help())

    @on(OptionList.OptionSelected, "#problems-list")
    def _open(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is None:
            return
        problem = self.problems[int(event.option.id)]
        self.post_message(OpenFileRequested(problem.file, problem.line))
