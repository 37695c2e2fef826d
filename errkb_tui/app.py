"""The Textual application: the one owner of the browser's state.

State (the KB, query, facet, results, the selected record, language, watching, the last
match) lives here, as the reactives declared in :mod:`errkb_tui.appstate`, and flows
down: every screen is given it with ``data_bind`` and passes it on to its widgets the same
way. Events flow up as messages (:mod:`errkb_tui.messages`); only this class changes the
state. Slow work (loading, searching a large KB, matching, clipboard calls) runs in
workers that post messages.
"""

from __future__ import annotations

import datetime
import gc
import os
import threading
from collections.abc import Mapping, Sequence
from contextlib import contextmanager

from textual import events, on, work
from textual.actions import SkipAction
from textual.app import App
from textual.binding import Binding
from textual.widgets import Input
from textual.worker import Worker, WorkerState, get_current_worker

from .appstate import STATE, AppState
from .capture import Capture, saved_note, with_source
from .clipboard import ClipboardError, GuardedClipboard, PyperclipBackend
from .commands import ErrKBCommands
from .history import History
from .kb import KB, Problem, Source
from .loader import load_kb
from .match import Match, Matcher, is_error_line, strip_prefix
from .messages import (
    CaptureRequested, ClipboardChanged, CopyRequested, EditRequested, EvidenceLoaded, FacetChosen, FileEdited,
    FixCopied, FollowUpAnswered, HistoryStep, KBLoaded, LoadProgress, MatchesFound, MatchRequested,
    OpenFileRequested, OutcomeMarked, QueryChanged, RecordChosen, RecordSaved, SearchDone, WatcherFailing,
    WatcherStopped,
)
from .model import DeadEnd, Record, Workaround
from .outcomes import item_hash
from .search import SearchIndex, SearchResult
from .state import ALL, Cause, Facet, FollowUp, MatchContext, Results, Selection
from .text import cell_truncate
from .trust import Evidence
from .userdata import cache_dir
from .watcher import ClipboardPoller, WatcherCallbacks

#: KBs up to this size are searched on the event loop (a search takes a few ms at most);
#: larger ones in a worker thread, so the UI never waits for one.
INLINE_SEARCH_RECORDS = 20_000
#: Seconds between two early parts of a large KB put on screen while it loads (each costs a
#: snapshot and an index build in the loading thread and a new search on screen).
PARTIAL_EVERY = 4.0
#: How long the loading thread waits, after handing over the first part of a large KB,
#: for its rows to be painted: the two share one interpreter, and a load that runs on
#: meanwhile slows the first paint several times over.
FIRST_ROWS_WAIT = 1.0
#: Candidates within this score of the best one are "close": the user picks.
CLOSE_SCORE = 0.04
#: Seconds between checks of the outcomes log for lines another instance appended.
OUTCOMES_RECHECK = 5.0
#: How a recorded outcome is put in its toast.
VERDICT_WORDS = {"worked": "worked", "failed": "did not work", "tried_failed": "was tried and failed"}


class ErrKBApp(AppState, App[int]):
    """errkb-tui: browse the KB; match what you copy."""

    CSS_PATH = "app.tcss"
    TITLE = "errkb-tui"
    COMMANDS = App.COMMANDS | {ErrKBCommands}
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-medium"), (150, "-wide")]
    BINDINGS = [
        Binding("question_mark", "help", "Help", tooltip="Every key, explained", id="app.help"),
        Binding("z", "toggle_lang", "中文/EN", tooltip="Switch the detail between English and Chinese", id="app.lang"),
        Binding("w", "toggle_watch", "Watch", tooltip="Turn the clipboard watcher on or off", id="app.watch"),
        Binding("p", "paste", "Paste error", tooltip="Paste an error to match (no clipboard access)", id="app.paste"),
        Binding("a", "add", "Add record", tooltip="Write a new record for the error no record explains "
                "(the last one copied or pasted, else the clipboard's)", id="app.add"),
        Binding("e", "edit", "Edit", show=False, tooltip="Edit the selected record (a bundled one: as your own copy)",
                id="app.edit"),
        Binding("exclamation_mark", "problems", "Problems", show=False,
                tooltip="List the KB's problems (what validate reports)", id="app.problems"),
        Binding("ctrl+q,q", "quit", "Quit", tooltip="Quit errkb-tui (q: not while typing)", id="app.quit"),
    ]
    ENABLE_COMMAND_PALETTE = True

    def __init__(
        self,
        sources: Sequence[Source],
        *,
        watch: bool = True,
        watch_interval: float = 0.5,
        clipboard: GuardedClipboard | None = None,
        kb: KB | None = None,
        today: datetime.date | None = None,
        initial_text: str | None = None,
        initial_origin: str = "pipe",
        lang: str | None = None,
        theme: str | None = None,
        keymap: Mapping[str, str] | None = None,
        config_problems: Sequence[Problem] = (),
        write_folder: os.PathLike | str | None = None,
        editor: bool = True,
        own_process: bool = False,
    ) -> None:
        """``own_process``: the app is the whole program (the CLI), so once the KB is
        loaded it may move what is loaded out of the garbage collector's scans
        (``gc.freeze``); else a full collection walks every object, a pause in the middle
        of typing: 50-60 ms with the bundled KB (Textual's own objects), a tenth of a
        second and more at 100,000 records. Tests, running many apps in one process,
        leave it off."""
        super().__init__()
        self._own_process = own_process
        self.today = today or datetime.date.today()  # fixed in tests, for freshness hints
        self.sources = list(sources)
        self.system_clipboard = clipboard or GuardedClipboard(PyperclipBackend())
        self.index: SearchIndex | None = None
        self.history = History()
        self.initial_text = initial_text
        self.initial_origin = initial_origin if initial_origin in _ORIGIN_WORDS else "pipe"
        self.keymap_overrides: dict[str, str] = dict(keymap or {})
        self.config_problems = list(config_problems)  # shown with the KB's under !
        self._initial_lang = lang
        self._initial_theme = theme
        self._want_watch = watch
        self._matcher: Matcher | None = None
        self._preloaded = kb
        self._search_serial = 0
        self._search_keep: str | None = None
        self._search_held = 0
        self._search_wanted = False
        self._copied: dict[str, str] = {}  # record id -> hash of the workaround last copied
        self._outcomes_stamp: tuple[int, int, int] | None = None
        #: The a and e flows: new records, edits, problems opened in the editor.
        self.capture = Capture(self, write_folder=write_folder, use_editor=editor,
                               read_clipboard=self.system_clipboard.read)
        self._select_after_load: str | None = None  # a record just written: selected once loaded
        self._first_rows: threading.Event | None = None  # set once a partial KB's rows are painted
        self.poller = ClipboardPoller(self.system_clipboard, watch_interval, WatcherCallbacks(
            text=lambda text: self.post_message(ClipboardChanged(text)),
            unavailable=lambda reason: self.post_message(WatcherStopped(reason)),
            failing=lambda reason: self.post_message(WatcherFailing(reason)),
        ))

    # -- start-up ------------------------------------------------------------------------

    def on_mount(self) -> None:
        from .screens.browser import BrowserScreen

        if self.config_problems:
            self.notify(f"{len(self.config_problems)} problem(s) in the config file; press ! to see them",
                        severity="warning", markup=False)
        if self.keymap_overrides:
            self.set_keymap(self.keymap_overrides)
        if self._initial_theme:
            if self._initial_theme in self.available_themes:
                self.theme = self._initial_theme
            else:
                self.notify(f"Unknown theme {self._initial_theme!r}; using {self.theme}.",
                            severity="warning", markup=False)
        if self._initial_lang in ("en", "zh"):
            self.lang = self._initial_lang
        self.push_screen(self.bind_state(BrowserScreen(today=self.today)))
        if self._preloaded is not None:
            self._install(self._preloaded, SearchIndex(self._preloaded.records), final=True)
        else:
            self._load()
        self.watching = self._want_watch
        self.set_interval(OUTCOMES_RECHECK, self.reload_outcomes, name="outcomes recheck")

    def on_unmount(self) -> None:
        self.poller.stop()

    def bind_state(self, screen):
        """``screen`` with every state reactive bound to this app's (call on the app's pump)."""
        return screen.data_bind(**{name: getattr(ErrKBApp, name) for name in STATE})

    @work(thread=True, exclusive=True, group="load", exit_on_error=False, name="loading the KB")
    def _load(self) -> None:
        shown = self._first_rows = threading.Event()
        first = True

        def partial(kb: KB) -> None:
            nonlocal first
            self.post_message(KBLoaded(kb, SearchIndex(kb.records), final=False))
            if first:  # the first rows on screen before reading on
                first = False
                shown.wait(FIRST_ROWS_WAIT)

        kb = load_kb(self.sources, progress=lambda count: self.post_message(LoadProgress(count)),
                     cache_dir=cache_dir(), partial=partial,
                     partial_every=PARTIAL_EVERY)
        self.post_message(KBLoaded(kb, SearchIndex(kb.records)))

    @on(LoadProgress)
    def _progress(self, message: LoadProgress) -> None:
        self.records_read = message.count

    @on(KBLoaded)
    def _loaded(self, message: KBLoaded) -> None:
        if not message.final and self.kb is not None and len(self.kb.records) >= len(message.kb.records):
            return  # an early part arriving after a larger one
        self._install(message.kb, message.index, message.final)
        if message.final and self._select_after_load is not None:
            record_id, self._select_after_load = self._select_after_load, None
            if record_id in message.kb.by_id:
                self.select(record_id, "match", reveal=True)

    def _install(self, kb: KB, index: SearchIndex, final: bool) -> None:
        self.index = index
        self._matcher = None
        self.kb = kb  # the watcher re-runs the search, keeping the selection
        self.loaded = final
        if not final:
            return
        if self._own_process:
            gc.freeze()
        errors = kb.attention_count()
        if errors:
            self.notify(f"{errors} problem(s) while loading the KB; press ! to see them",
                        severity="warning", markup=False)
        self._read_outcomes(list(kb.sources))
        given = self.initial_text is not None
        if given:
            text, self.initial_text = self.initial_text, None
            self.match_text(text, self.initial_origin)
        if self.watching:
            # The watcher starts once the whole KB is here, so its first read (copy, then
            # launch: what is already on the clipboard) is matched against all of it; with
            # piped text, that text is the error and the old clipboard is not news.
            self.poller.start(skip_first=given)

    def matcher(self) -> Matcher:
        """The matcher for the loaded KB, built on first use (call from a worker)."""
        matcher = self._matcher
        if matcher is None:
            matcher = Matcher(self.kb.records if self.kb is not None else [])
            self._matcher = matcher
        return matcher

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A failed worker becomes a notification, never a crash."""
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            error = event.worker.error
            self.notify(f"{event.worker.name or 'background task'} failed: {type(error).__name__}: {error}",
                        severity="error", markup=False, timeout=8)

    # -- searching: query + facet + kb -> results -> selection ----------------------------

    def watch_kb(self) -> None:
        self._search(keep=self.selection.id)

    def watch_search_text(self) -> None:
        self._search(keep=None)

    def watch_facet(self) -> None:
        self._search(keep=None)

    @contextmanager
    def _one_search(self):
        """Change several inputs of the search; search once, at the end."""
        self._search_held += 1
        try:
            yield
        finally:
            self._search_held -= 1
            if not self._search_held and self._search_wanted:
                self._search(keep=self._search_keep)

    def _search(self, keep: str | None) -> None:
        """Search for the current query and facet; select ``keep`` if listed, else the top row."""
        self._search_keep = keep
        if self._search_held:
            self._search_wanted = True
            return
        self._search_wanted = False
        if self.index is None or self.kb is None:
            return
        self._search_serial += 1
        if len(self.index.records) <= INLINE_SEARCH_RECORDS:
            # A few milliseconds at most: a worker thread's hand-offs would cost more.
            self._apply(self.index.search(self.search_text, *self.facet), self.facet, self._search_serial, True)
        else:
            self._search_worker(self.search_text, self.facet, self._search_serial)

    @work(thread=True, exclusive=True, group="search", exit_on_error=False, name="search")
    def _search_worker(self, text: str, facet: Facet, serial: int) -> None:
        worker = get_current_worker()

        def current() -> bool:
            return not worker.is_cancelled and serial == self._search_serial

        def head(result: SearchResult) -> None:
            if current():
                self.post_message(SearchDone(result, facet, serial, complete=False))

        result = self.index.search(text, *facet, on_partial=head, should_stop=lambda: not current())
        if current():
            self.post_message(SearchDone(result, facet, serial))

    @on(SearchDone)
    def _search_done(self, message: SearchDone) -> None:
        self._apply(message.result, message.facet, message.serial, message.complete)

    def _apply(self, result: SearchResult, facet: Facet, serial: int, complete: bool) -> None:
        if serial != self._search_serial or result.query != self.search_text or facet != self.facet or self.kb is None:
            return  # a newer keystroke or facet is on its way
        previous = self.results
        results = Results(self.kb.records, result.indices, result.query, facet, result.fuzzy, complete)
        keep = self._search_keep
        if previous.query == results.query and previous.facet == facet and not previous.complete:
            keep = self.selection.id  # the rest of a result whose head is shown: stay put
        self.results = results
        if self._first_rows is not None:
            self.call_after_refresh(self._first_rows.set)
            self._first_rows = None
        if keep is not None and (results.row_of(keep) is not None or self._outside_list_ok(keep)):
            if keep != self.selection.id:
                self.selection = Selection(keep, "reload")
            return
        self._search_keep = None
        self.selection = Selection(results.id_at(0), "filter")

    def _outside_list_ok(self, record_id: str) -> bool:
        """A record chosen outside the list (a link, a match while typing) stays selected
        across a reload, as long as the KB still has it."""
        return self.selection.id == record_id and self.kb is not None and record_id in self.kb.by_id \
            and self.selection.cause in ("link", "match", "history", "palette")

    @on(QueryChanged)
    def _query_changed(self, message: QueryChanged) -> None:
        self.search_text = message.query

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.search_text = event.value

    @on(FacetChosen)
    def _facet_chosen(self, message: FacetChosen) -> None:
        self.facet = message.facet

    # -- selecting -----------------------------------------------------------------------

    @on(RecordChosen)
    def _record_chosen(self, message: RecordChosen) -> None:
        self.select(message.record_id, message.cause, reveal=message.reveal)

    def select(self, record_id: str | None, cause: Cause = "cursor", *, reveal: bool = False) -> None:
        """Make ``record_id`` the selected record (every screen shows it).

        With ``reveal``, a record the filter or facet hides is made visible by clearing
        them, unless the user is typing in the filter (their query is never taken away).
        """
        if record_id is not None and (self.kb is None or record_id not in self.kb.by_id):
            self.notify(f"{record_id} is not in the loaded KB", severity="warning", markup=False)
            return
        if record_id is not None:
            if cause in ("link", "match", "palette"):
                self.history.visit(record_id)
            elif cause != "history":
                self.history.replace(record_id)
        hidden = record_id is not None and self.results.row_of(record_id) is None
        if reveal and hidden and not self._typing():
            self.selection = Selection(record_id, cause)
            with self._one_search():
                self.search_text = ""
                self.facet = ALL
                self._search_keep = record_id
            return
        self.selection = Selection(record_id, cause)

    def _typing(self) -> bool:
        return isinstance(self.focused, Input) and self.focused.id == "filter"

    @on(HistoryStep)
    def _history_step(self, message: HistoryStep) -> None:
        record_id = self.history.back() if message.step < 0 else self.history.forward()
        if record_id is not None:
            self.select(record_id, "history", reveal=True)

    # -- clipboard -----------------------------------------------------------------------

    def copy_to_clipboard(self, text: str) -> None:
        """System clipboard first; where it is unreachable, OSC 52 through the terminal."""
        self.poller.ignore(text)
        self._copy(text)

    @work(thread=True, group="copy", exit_on_error=False, name="copying")
    def _copy(self, text: str) -> None:
        try:
            self.system_clipboard.write(text)
        except ClipboardError as exc:
            self.call_from_thread(super().copy_to_clipboard, text)
            self.call_from_thread(
                self.notify, f"Sent to the terminal's clipboard (OSC 52): {exc}",
                severity="warning", markup=False,
            )

    @on(CopyRequested)
    def _copy_requested(self, message: CopyRequested) -> None:
        self.copy_and_tell(message.text, message.what)

    def copy_and_tell(self, text: str, what: str) -> None:
        """Copy ``text`` and show a short toast of what was copied."""
        self.copy_to_clipboard(text)
        preview = cell_truncate(" ".join(text.split()), 70)
        self.notify(preview or "(empty)", title=f"Copied {what}", markup=False, timeout=3)

    def watch_watching(self, watching: bool) -> None:
        if watching:
            if self.loaded:  # before that, _install starts it
                self.poller.start()
        else:
            self.poller.stop()

    @on(WatcherStopped)
    def _watcher_stopped(self, message: WatcherStopped) -> None:
        self.watching = False
        self.notify(f"Clipboard watching is off: {message.reason}.", title="No clipboard",
                    severity="warning", markup=False, timeout=10)

    @on(WatcherFailing)
    def _watcher_failing(self, message: WatcherFailing) -> None:
        self.notify(f"Clipboard watcher: {message.reason}; still trying", severity="warning", markup=False)

    @on(ClipboardChanged)
    def _clipboard_changed(self, message: ClipboardChanged) -> None:
        self.match_text(message.text, "clipboard")

    # -- matching ------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="match", exit_on_error=False, name="matcher")
    def match_text(self, text: str, origin: str) -> None:
        """Rank records for ``text`` in a worker; the result arrives as MatchesFound."""
        matches = self.matcher().match(text, limit=6)
        if not get_current_worker().is_cancelled:
            self.post_message(MatchesFound(matches, origin, text))

    @on(MatchRequested)
    def _match_requested(self, message: MatchRequested) -> None:
        self.match_text(message.text, message.origin)

    @on(MatchesFound)
    def _matches_found(self, message: MatchesFound) -> None:
        matches = message.matches
        confident = bool(matches) and matches[0].confident
        self.capture.unmatched = None if confident else message.text  # what a adds
        if not confident:
            if message.origin == "clipboard" and self.loaded:
                self._say_no_record(message.text, matches[0] if matches else None)
            elif message.origin != "clipboard":
                self.notify(f"No record explains the {_ORIGIN_WORDS[message.origin]}; press a to add one.",
                            severity="warning", markup=False, timeout=8)
            return
        close = [m for m in matches if m.confident and matches[0].score - m.score <= CLOSE_SCORE]
        if len(close) > 1:
            from .screens.picker import PickerScreen

            def picked(record_id: str | None) -> None:
                chosen = next((m for m in close if m.id == record_id), None)
                if chosen is not None:
                    self._select_match(chosen, message.origin)

            self.push_screen(PickerScreen(close, self.kb), callback=picked)
            return
        self._select_match(matches[0], message.origin)

    def _say_no_record(self, text: str, closest: Match | None) -> None:
        """A copied error with no record: say so quietly, so "no match" is not mistaken for
        "the watcher is broken". Copied prose and code (no error line) stay silent."""
        lines = [strip_prefix(line) for line in text[-20_000:].splitlines()[-400:]]
        errors = [line for line in lines if line and is_error_line(line)]
        if not errors:
            return
        message = f"No record for “{cell_truncate(errors[-1], 60)}”"
        if closest is not None:
            message += f"; closest: {closest.id}"
        message += ". Press a to add a record for it."
        self.notify(message, title="Copied error", markup=False, timeout=5)

    def _select_match(self, match: Match, origin: str) -> None:
        already = self.selection.id == match.id
        previous = self.last_match
        if not (already and previous is not None and previous.applies_to(match.id)
                and previous.match.groups == match.groups):
            self.last_match = MatchContext(match, origin)  # new values: the detail refills
        self._ask_about_copied_fix(match.id)
        if already and origin == "clipboard":
            return  # already in front of the user: no jump, no toast
        self.select(match.id, "match", reveal=True)
        line = cell_truncate(match.line, 90)
        self.notify(line, title=f"Matched {_ORIGIN_WORDS[origin]} → {match.id}", markup=False, timeout=6)

    # -- outcomes: what worked for the user, what a team counted -------------------------

    @work(thread=True, exclusive=True, group="outcomes", exit_on_error=False, name="reading outcomes")
    def _read_outcomes(self, sources: list[Source]) -> None:
        """Read the user's log and the team files of ``sources`` (after each full KB load)."""
        evidence = Evidence.load(sources)
        self.post_message(EvidenceLoaded(evidence, _stamp(evidence.user.path)))

    def reload_outcomes(self) -> None:
        """Pick up lines another running instance appended to the log (timer, app focus)."""
        if self.evidence is not None:
            self._reread_outcomes(self.evidence, self._outcomes_stamp)

    def on_app_focus(self, event: events.AppFocus) -> None:
        self.reload_outcomes()

    @work(thread=True, exclusive=True, group="outcomes-reread", exit_on_error=False, name="re-reading outcomes")
    def _reread_outcomes(self, evidence: Evidence, stamp: tuple[int, int, int] | None) -> None:
        now = _stamp(evidence.user.path)  # before reading: a line appended meanwhile is read next time
        if now == stamp:
            return
        evidence.reload()
        self.post_message(EvidenceLoaded(Evidence(evidence.user, evidence.team), now))

    @on(EvidenceLoaded)
    def _evidence_loaded(self, message: EvidenceLoaded) -> None:
        first = self.evidence is None
        self._outcomes_stamp = message.stamp
        self.evidence = message.evidence  # a new object: bound views re-render
        if message.marked:
            self.notify(message.marked, title="Recorded in your outcomes", markup=False, timeout=4)
        bad = len(message.evidence.problems)
        if first and bad:
            self.notify(f"{bad} bad line(s) in the outcomes files were skipped; press ! to see them",
                        severity="warning", markup=False)

    @on(OutcomeMarked)
    def _outcome_marked(self, message: OutcomeMarked) -> None:
        record = self.kb.get(message.record_id) if self.kb is not None else None
        items: list = []
        if record is not None:
            items = record.workarounds if message.item_kind == "workaround" else record.dead_ends
        if not 0 <= message.index < len(items):
            self.notify("That fix is no longer in the record: nothing recorded.", severity="warning", markup=False)
        elif self.evidence is None:
            self.notify("Your outcomes are still being read: try again in a moment.", severity="warning",
                        markup=False)
        else:
            self._mark(self.evidence, record, items[message.index], message.verdict)

    @work(thread=True, group="outcomes-mark", exit_on_error=False, name="recording the outcome")
    def _mark(self, evidence: Evidence, record: Record, item: Workaround | DeadEnd, verdict: str) -> None:
        stamp = _stamp(evidence.user.path)
        try:
            evidence.mark(record.id, item, verdict)  # appends, fsyncs, then re-reads the log
        except (OSError, ValueError) as exc:
            self.call_from_thread(self.notify, f"Could not record the outcome in {evidence.user.path}: {exc}",
                                  severity="error", markup=False, timeout=8)
            return
        what = cell_truncate(" ".join((item.action or item.why_fails).split()), 32)
        marked = f"“{what}” {VERDICT_WORDS.get(verdict, verdict)}\n{evidence.label(record.id, item)}"
        self.post_message(EvidenceLoaded(Evidence(evidence.user, evidence.team), stamp, marked))

    @on(FixCopied)
    def _fix_copied(self, message: FixCopied) -> None:
        self._copied[message.record_id] = message.fix_hash

    def _ask_about_copied_fix(self, record_id: str) -> None:
        """The same error again after a fix was copied for it: ask once whether it worked."""
        fix_hash = self._copied.pop(record_id, None)
        record = self.kb.get(record_id) if fix_hash and self.kb is not None else None
        if record is not None:
            workaround = next((w for w in record.workarounds if item_hash(w) == fix_hash), None)
            if workaround is not None:
                self.followup = FollowUp(record_id, fix_hash, workaround.action)

    def watch_selection(self, selection: Selection) -> None:
        if self.followup is not None and selection.id != self.followup.record_id:
            self.followup = None  # asked once, not answered: dropped

    @on(FollowUpAnswered)
    def _followup_answered(self, message: FollowUpAnswered) -> None:
        followup, self.followup = self.followup, None
        record = self.kb.get(followup.record_id) if followup is not None and self.kb is not None else None
        if record is not None:
            hashes = [item_hash(w) for w in record.workarounds]
            if followup.fix_hash in hashes:
                self.post_message(OutcomeMarked(record.id, "workaround", hashes.index(followup.fix_hash),
                                                message.verdict))

    # -- actions -------------------------------------------------------------------------

    def action_toggle_lang(self) -> None:
        self.lang = "zh" if self.lang == "en" else "en"

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

    def action_help(self) -> None:
        from .screens.help import HelpScreen

        self.push_screen(HelpScreen())

    def action_problems(self) -> None:
        from .screens.problems import ProblemsScreen

        if self.kb is not None:
            outcomes = self.evidence.problems if self.evidence is not None else []
            self.push_screen(ProblemsScreen([*self.config_problems, *self.kb.problems, *outcomes],
                                            before=self.config_problems, after=outcomes, sources=self.kb.sources))

    # -- writing records: a, e, and a problem's file (see errkb_tui/capture.py) -----------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("add", "edit"):
            from .screens.record import RecordScreen

            return isinstance(self.screen, RecordScreen)  # not over a modal: its keys are its own
        return True

    def action_add(self) -> None:
        """A new record for the last error no record explained (else the clipboard's)."""
        self.capture.add(self.kb, self.sources)

    def action_edit(self) -> None:
        """Edit the selected record; a bundled one as an override in your KB."""
        self.capture.edit(self.kb, self.sources, self.selection.id)

    @on(CaptureRequested)
    def _capture_requested(self, message: CaptureRequested) -> None:
        self.capture.add(self.kb, self.sources, message.text)

    @on(EditRequested)
    def _edit_requested(self, message: EditRequested) -> None:
        self.capture.edit(self.kb, self.sources, message.record_id)

    @on(OpenFileRequested)
    def _open_file_requested(self, message: OpenFileRequested) -> None:
        self.capture.open_file(message.file, message.line)

    @on(FileEdited)
    def _file_edited(self, message: FileEdited) -> None:
        self.notify(f"Reloading the KB: {message.file} changed.", markup=False, timeout=4)
        self._load()

    @on(RecordSaved)
    def _record_saved(self, message: RecordSaved) -> None:
        """A record went into a KB folder: load it (the folder too, if new) and select it."""
        self.sources = with_source(self.sources, message.folder)
        self._select_after_load = message.record_id
        self.notify(saved_note(message), title=f"Saved {message.record_id or 'the record'} in your KB",
                    markup=False, timeout=8)
        self._load()

    def action_command_palette(self) -> None:
        """The palette, except while typing in the filter: there ctrl+p moves up, as in fzf."""
        if self._typing():
            raise SkipAction()
        super().action_command_palette()

    def action_open_detail(self) -> None:
        """Show the selected record over the whole terminal (narrow terminals)."""
        from .screens.detail import DetailScreen

        if self.selection.id is not None and not isinstance(self.screen, DetailScreen):
            self.push_screen(self.bind_state(DetailScreen(today=self.today)))


def _stamp(path) -> tuple[int, int, int] | None:
    """The file's (inode, size, mtime in ns); None if it is missing or unreadable."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_ino, stat.st_size, stat.st_mtime_ns


_ORIGIN_WORDS = {"clipboard": "copied error", "paste": "pasted text", "pipe": "piped text",
                 "command": "command's output"}


def make_app(sources: Sequence[Source], **options) -> ErrKBApp:
    """Build the app from parsed inputs; the CLI and the tests share this wiring."""
    return ErrKBApp(sources, **options)


def run_app(sources: Sequence[Source], **options) -> int:
    """Run the browser; returns the exit code."""
    result = make_app(sources, **options).run()
    return result if isinstance(result, int) else 0


__all__ = ["ErrKBApp", "make_app", "run_app"]
