"""The clipboard watcher and paste-to-match, as part of the app.

One exclusive thread worker polls the clipboard; new text is posted as a replaceable
:class:`ClipboardChanged`; matching runs in another worker; the result selects the record,
offers a picker when several are close, or stays quiet when nothing is confident.
"""

from __future__ import annotations

import threading

from textual import work
from textual.worker import get_current_worker

from .clipboard import ClipboardWatcher, GuardedClipboard
from .match import Match
from .messages import ClipboardChanged, MatchesFound

#: Candidates within this score of the best one are "close": the user picks.
CLOSE_SCORE = 0.04
#: Consecutive failed reads before the watcher says so (hangs, transient errors).
FAILURES_BEFORE_NOTICE = 3


class WatcherMixin:
    """Clipboard watching for :class:`~errkb_tui.app.ErrKBApp` (which owns ``watching``)."""

    system_clipboard: GuardedClipboard

    def init_watcher(self, watch: bool, interval: float) -> None:
        self.watch_interval = interval
        self._want_watch = watch
        self._watcher = ClipboardWatcher(self.system_clipboard)
        self._wake = threading.Event()

    def start_watcher(self) -> None:
        self.watching = self._want_watch

    def watch_watching(self, watching: bool) -> None:
        self._wake.set()
        self.workers.cancel_group(self, "watch")
        if watching:
            self._wake = threading.Event()
            self._watch_loop()

    def ignore_own_copy(self, text: str) -> None:
        """Copies made by the app must not trigger the watcher."""
        self._watcher.ignore(text)

    @work(thread=True, exclusive=True, group="watch", exit_on_error=False, name="clipboard watcher")
    def _watch_loop(self) -> None:
        worker = get_current_worker()
        wake = self._wake
        failures = 0
        while not worker.is_cancelled:
            poll = self._watcher.poll()
            if worker.is_cancelled:
                return
            if poll.error:
                failures += 1
                if "no clipboard tool" in poll.error:
                    self.call_from_thread(self._watch_unavailable, poll.error)
                    return
                if failures == FAILURES_BEFORE_NOTICE:
                    self.call_from_thread(
                        self.notify, f"Clipboard watcher: {poll.error}; still trying",
                        severity="warning", markup=False,
                    )
            else:
                failures = 0
                if poll.text is not None:
                    self.post_message(ClipboardChanged(poll.text))
            wake.wait(self.watch_interval * (1 if failures == 0 else min(8, 2**failures)))

    def _watch_unavailable(self, reason: str) -> None:
        self.watching = False
        self.notify(f"Clipboard watching is off: {reason}.", title="No clipboard",
                    severity="warning", markup=False, timeout=10)

    def on_clipboard_changed(self, message: ClipboardChanged) -> None:  # by name: @on is not seen on mixins
        self.match_text(message.text, "clipboard")

    @work(thread=True, exclusive=True, group="match", exit_on_error=False, name="matcher")
    def match_text(self, text: str, origin: str) -> None:
        """Rank records for ``text`` in a worker; the result arrives as MatchesFound."""
        matches = self.matcher().match(text, limit=6)
        if not get_current_worker().is_cancelled:
            self.post_message(MatchesFound(matches, origin))

    def on_matches_found(self, message: MatchesFound) -> None:
        matches = message.matches
        if not matches or not matches[0].confident:
            if message.origin == "paste":
                self.notify("No record explains the pasted text.", severity="warning")
            return
        close = [m for m in matches if m.confident and matches[0].score - m.score <= CLOSE_SCORE]
        if len(close) > 1:
            from .screens.picker import PickerScreen

            self.push_screen(PickerScreen(close, self.kb), callback=self._picked)
            return
        self._select_match(matches[0], message.origin)

    def _picked(self, record_id: str | None) -> None:
        if record_id:
            self.browser.show_record(record_id)

    def _select_match(self, match: Match, origin: str) -> None:
        browser = self.browser
        shown = browser.shown_record
        if shown is not None and shown.id == match.id:
            return  # already in front of the user: no jump, no toast
        if browser.query_one("#filter").has_focus:
            browser.follow(match.id)  # the user is typing: keep the filter, show the record
        else:
            browser.show_record(match.id)
        what = "copied error" if origin == "clipboard" else "pasted error"
        line = match.line if len(match.line) <= 90 else match.line[:89] + "…"
        self.notify(line, title=f"Matched {what} → {match.id}", markup=False, timeout=6)

    def action_toggle_watch(self) -> None:
        self.watching = not self.watching
        self.notify("Watching the clipboard for errors." if self.watching else "Clipboard watching is off.",
                    markup=False, timeout=3)

    def action_paste(self) -> None:
        from .screens.paste import PasteScreen

        def submitted(text: str | None) -> None:
            if text and text.strip():
                self.match_text(text, "paste")

        self.push_screen(PasteScreen(), callback=submitted)
