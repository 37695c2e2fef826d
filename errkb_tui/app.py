"""The Textual application: state, loading, the clipboard, and the screens."""

from __future__ import annotations

import datetime
import os
from collections.abc import Sequence

# Repaint up to 240 times a second (Textual's default is 60): a keystroke's new results
# reach the screen within ~4 ms of being ready instead of ~17 (measured in benchmarks/;
# the update timer only runs while something changed). Must precede Textual's import.
os.environ.setdefault("TEXTUAL_FPS", "240")

from textual import on, work
from textual.app import App
from textual.binding import Binding
from textual.reactive import reactive
from textual.worker import Worker, WorkerState

from .clipboard import GuardedClipboard, PyperclipBackend
from .commands import ErrKBCommands
from .kb import KB, Source
from .loader import load_kb
from .kbcache import default_cache_dir
from .match import Matcher
from .messages import KBLoaded, LoadProgress
from .screens.browser import BrowserScreen
from .search import SearchIndex
from .watcher import WatcherMixin


class ErrKBApp(WatcherMixin, App[None]):
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
        Binding("exclamation_mark", "problems", "Problems", show=False, tooltip="List the KB's load problems", id="app.problems"),
        Binding("ctrl+q", "quit", "Quit", id="app.quit"),
    ]
    ENABLE_COMMAND_PALETTE = True

    lang: reactive[str] = reactive("en")
    """``en`` or ``zh``: the language of the detail pane."""
    kb: reactive[KB | None] = reactive(None)
    """The loaded KB (None while loading)."""
    watching: reactive[bool] = reactive(False, init=False)
    """Whether the clipboard watcher runs."""

    def __init__(
        self,
        sources: Sequence[Source],
        *,
        watch: bool = True,
        watch_interval: float = 0.5,
        clipboard: GuardedClipboard | None = None,
        kb: KB | None = None,
        today: datetime.date | None = None,
    ) -> None:
        super().__init__()
        self.today = today or datetime.date.today()  # fixed in tests, for freshness hints
        self.sources = list(sources)
        self.system_clipboard = clipboard or GuardedClipboard(PyperclipBackend())
        self.index: SearchIndex | None = None
        self.browser: BrowserScreen | None = None  # set when the main screen mounts
        self._matcher: Matcher | None = None
        self._preloaded = kb
        self.init_watcher(watch, watch_interval)

    # -- start-up ------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.push_screen(BrowserScreen())
        if self._preloaded is not None:
            self._install(self._preloaded, SearchIndex(self._preloaded.records))
        else:
            self._load()
        self.start_watcher()

    @work(thread=True, exclusive=True, group="load", exit_on_error=False)
    def _load(self) -> None:
        kb = load_kb(self.sources, progress=lambda count: self.post_message(LoadProgress(count)),
                     cache_dir=default_cache_dir())
        index = SearchIndex(kb.records)
        self.post_message(KBLoaded(kb, index))

    @on(LoadProgress)
    def _progress(self, message: LoadProgress) -> None:
        if self.kb is None and self.browser is not None:
            self.browser.query_one("StatusHeader").records_read = message.count

    @on(KBLoaded)
    def _loaded(self, message: KBLoaded) -> None:
        self._install(message.kb, message.index)

    def _install(self, kb: KB, index: SearchIndex) -> None:
        self.index = index
        self._matcher = None
        self.kb = kb
        errors = sum(1 for p in kb.problems if p.severity != "info")
        if errors:
            self.notify(f"{errors} problem(s) while loading the KB; press ! to see them",
                        severity="warning", markup=False)

    def matcher(self) -> Matcher:
        """The matcher for the loaded KB, built on first use (call from a worker)."""
        if self._matcher is None and self.kb is not None:
            self._matcher = Matcher(self.kb.records)
        return self._matcher or Matcher([])

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A failed worker becomes a notification, never a crash."""
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            error = event.worker.error
            self.notify(f"{event.worker.name or 'background task'} failed: {type(error).__name__}: {error}",
                        severity="error", markup=False, timeout=8)

    # -- clipboard -----------------------------------------------------------------------

    def copy_to_clipboard(self, text: str) -> None:
        """System clipboard first; where it is unreachable, OSC 52 through the terminal."""
        self.ignore_own_copy(text)
        self._copy(text)

    @work(thread=True, group="copy", exit_on_error=False)
    def _copy(self, text: str) -> None:
        from .clipboard import ClipboardError

        try:
            self.system_clipboard.write(text)
        except ClipboardError as exc:
            self.call_from_thread(super().copy_to_clipboard, text)
            self.call_from_thread(
                self.notify, f"Sent to the terminal's clipboard (OSC 52): {exc}",
                severity="warning", markup=False,
            )

    def copy_and_tell(self, text: str, what: str) -> None:
        """Copy ``text`` and show a short toast of what was copied."""
        self.copy_to_clipboard(text)
        preview = " ".join(text.split())
        if len(preview) > 70:
            preview = preview[:69] + "…"
        self.notify(preview or "(empty)", title=f"Copied {what}", markup=False, timeout=3)

    # -- actions -------------------------------------------------------------------------

    def action_toggle_lang(self) -> None:
        self.lang = "zh" if self.lang == "en" else "en"

    def action_help(self) -> None:
        from .screens.help import HelpScreen

        self.push_screen(HelpScreen())

    def action_problems(self) -> None:
        from .screens.problems import ProblemsScreen

        if self.kb is not None:
            self.push_screen(ProblemsScreen(self.kb.problems))


def make_app(sources: Sequence[Source], **options) -> ErrKBApp:
    """Build the app from parsed inputs; the CLI and the tests share this wiring."""
    return ErrKBApp(sources, **options)


def run_app(sources: Sequence[Source], **options) -> int:
    """Run the browser; returns the exit code."""
    make_app(sources, **options).run()
    return 0


__all__ = ["ErrKBApp", "make_app", "run_app"]
