"""The base of every screen that shows the selected record: its state and its keys.

A record screen holds no state of its own: the App binds its state reactives to the
screen's (``App.bind_state``), and the screen binds them on to its widgets. Its keys act
on what the detail pane shows, which is always the App's selected record.
"""

from __future__ import annotations

import datetime

from textual import on, work
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen

from ..appstate import AppState
from ..messages import CopyRequested, FixCopied, FollowUpAnswered, HistoryStep, RecordChosen
from ..model import Record
from ..opener import open_quietly
from ..outcomes import item_hash
from ..placeholders import fill, prompts, record_examples
from ..widgets.detail import CopyWorkaround, DetailPane, OpenRecord, WorkaroundCard

RECORD_BINDINGS = [
    Binding("backspace,alt+left", "back", "Back", show=False, tooltip="Back to the record you came from", id="record.back"),
    Binding("alt+right", "forward", "Forward", show=False, tooltip="Forward again", id="record.forward"),
    Binding("o", "open_doc", "Open docs", show=False, tooltip="Open the official documentation", id="record.open_doc"),
    Binding("f", "workarounds", "Fixes", tooltip="Jump to the workarounds (the fixes) and focus the first",
            id="record.workarounds"),
    Binding("c", "copy_selected", "Copy fix", tooltip="Copy the selected workaround's command", id="record.copy"),
    Binding("y", "copy_signature", "Copy signature", show=False, tooltip="Copy the error's signature", id="record.copy_signature"),
    Binding("Y", "copy_id", "Copy id", show=False, tooltip="Copy the record's id", id="record.copy_id"),
    *[Binding(str(n), f"copy_workaround({n})", f"Copy workaround {n}", show=False,
              tooltip=f"Copy workaround {n}'s command", id=f"record.copy_{n}")
      for n in range(1, 10)],
    # Only while the detail asks "did the fix you copied work?" (see check_action); on a
    # focused workaround its own + and - mark that workaround instead.
    Binding("plus", "answer_followup('worked')", "Copied fix worked",
            tooltip="Answer the question after a copy: the fix you copied worked", id="record.followup_worked"),
    Binding("minus", "answer_followup('failed')", "Copied fix failed",
            tooltip="Answer the question after a copy: the fix you copied did not work", id="record.followup_failed"),
]


class RecordScreen(AppState, Screen[None]):
    """A screen with a :class:`DetailPane` showing the App's selected record."""

    def __init__(self, today: datetime.date | None = None) -> None:
        super().__init__()
        self.today = today

    @property
    def detail(self) -> DetailPane:
        return self.query_one(DetailPane)

    def shown_record(self) -> Record | None:
        """The record on screen: the selected one (the detail catches up first if it lags)."""
        return self.detail.flush()

    @on(OpenRecord)
    def _open_record(self, event: OpenRecord) -> None:
        event.stop()
        self.post_message(RecordChosen(event.record_id, "link", reveal=True))

    @on(CopyWorkaround)
    def _copy_card(self, event: CopyWorkaround) -> None:
        event.stop()
        self.action_copy_workaround(event.number)

    def watch_followup(self) -> None:
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "answer_followup":
            followup = self.followup
            return followup is not None and followup.record_id == self.selection.id
        return True

    def action_answer_followup(self, verdict: str) -> None:
        """Answer "did the fix you copied work?" (``worked`` or ``failed``)."""
        if self.followup is not None:
            self.post_message(FollowUpAnswered(verdict))

    def action_back(self) -> None:
        self.post_message(HistoryStep(-1))

    def action_forward(self) -> None:
        self.post_message(HistoryStep(1))

    def _record_or_say(self) -> Record | None:
        record = self.shown_record()
        if record is None:
            self.notify("No record selected: nothing to copy.", severity="warning", markup=False)
        return record

    def action_open_doc(self) -> None:
        record = self.shown_record()
        if record is None:
            self.notify("No record selected.", severity="warning", markup=False)
        elif record.official_doc_url:
            self._open_doc(record.official_doc_url)
        else:
            self.notify("This record has no documentation link.", severity="warning")

    @work(thread=True, group="open", exit_on_error=False, name="opening the docs")
    def _open_doc(self, url: str) -> None:
        """Open ``url`` with nothing written over the screen; with no browser, copy it."""
        failure = open_quietly(url)
        if failure is None:
            self.app.call_from_thread(self.notify, url, title="Opened the docs in your browser", markup=False,
                                      timeout=3)
        else:
            self.post_message(CopyRequested(url, f"the docs link ({failure})"))

    def action_workarounds(self) -> None:
        """Scroll the detail to its workarounds and focus the first one."""
        record = self.shown_record()
        cards = list(self.detail.query(WorkaroundCard))
        if record is None or not cards:
            self.notify("No workarounds here." if record else "No record selected.", severity="warning",
                        markup=False)
            return
        cards[0].focus(scroll_visible=False)
        self.detail.scroll_to_widget(self.detail.query_one(".d-workarounds-heading"), top=True, animate=False)

    def action_copy_workaround(self, number: int) -> None:
        record = self._record_or_say()
        if record is None:
            return
        workarounds = self.detail.displayed_workarounds()  # numbered as shown: best first
        if not 1 <= number <= len(workarounds):
            self.notify(f"No workaround {number} here.", severity="warning")
            return
        workaround = workarounds[number - 1]
        self.copy_filled(record, workaround.copy_text, f"workaround {number}",
                         then=FixCopied(record.id, item_hash(workaround)))

    def copy_filled(self, record: Record, text: str, what: str, then: Message | None = None) -> None:
        """Copy ``text`` with its placeholders filled from the match; values the match did
        not give are asked for first (never is a literal placeholder copied). ``then`` is
        posted once the copy is made (not when the user cancels the prompt)."""
        values = self.detail.match_values(record)  # what the detail shows filled in
        asks = prompts(text, values, record_examples(record))

        def copy(filled: str) -> None:
            self.post_message(CopyRequested(filled, what))
            if then is not None:
                self.post_message(then)

        if not asks:
            copy(fill(text, values).text)
            return
        from .prompt import ValuePrompt

        def answered(given: dict[str, str] | None) -> None:
            if given is None:
                self.notify("Nothing copied.", markup=False, timeout=2)
            else:
                copy(fill(text, given).text)

        self.app.push_screen(ValuePrompt(text, asks, values, what=what.capitalize()), callback=answered)

    def action_copy_selected(self) -> None:
        self.action_copy_workaround(self.detail.selected_workaround + 1)

    def action_copy_signature(self) -> None:
        record = self._record_or_say()
        if record is not None:
            self.post_message(CopyRequested(record.signature, "signature"))

    def action_copy_id(self) -> None:
        record = self._record_or_say()
        if record is not None:
            self.post_message(CopyRequested(record.id, "id"))
