"""The clipboard watcher: a component of its own, in plain Python.

A daemon thread polls the clipboard through :class:`~errkb_tui.clipboard.ClipboardWatcher`
and reports through three callbacks, called from that thread (so they must be thread-safe:
the app passes functions that post messages). It knows nothing of screens or records:
what a copied text means is the app's business.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from .clipboard import ClipboardWatcher, GuardedClipboard

#: Consecutive failed reads before the watcher says so (hangs, transient errors).
FAILURES_BEFORE_NOTICE = 3
#: The longest wait between reads while they keep failing, as a multiple of the interval.
MAX_BACKOFF = 8


@dataclass
class WatcherCallbacks:
    """Where the watcher reports; each is called from the watcher's thread."""

    text: Callable[[str], None]  # new text on the clipboard
    unavailable: Callable[[str], None]  # no clipboard at all: the watcher has stopped
    failing: Callable[[str], None]  # reads keep failing; still trying


class ClipboardPoller:
    """Starts and stops one polling thread; :meth:`ignore` marks the app's own copies."""

    def __init__(self, clipboard: GuardedClipboard, interval: float, callbacks: WatcherCallbacks) -> None:
        if interval <= 0:
            raise ValueError("the watch interval must be positive")
        self.interval = interval
        self.callbacks = callbacks
        self._watcher = ClipboardWatcher(clipboard)
        self._stop: threading.Event | None = None
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive() and not self._stop.is_set()

    def start(self, skip_first: bool = False) -> None:
        """Start polling (no-op while running). The first read reports what the clipboard
        already holds, unless ``skip_first``: then only later copies count."""
        if self.running:
            return
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, args=(self._stop, skip_first),
                                        name="clipboard watcher", daemon=True)
        self._thread.start()

    def stop(self, wait: float = 0.0) -> None:
        """Stop polling; a read under way finishes on its own (it has a timeout)."""
        if self._stop is not None:
            self._stop.set()
        if wait and self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(wait)

    def ignore(self, text: str) -> None:
        """The app copied ``text`` itself: seeing it on the clipboard is not news."""
        self._watcher.ignore(text)

    def _loop(self, stop: threading.Event, skip_first: bool) -> None:
        failures = 0
        while not stop.is_set():
            poll = self._watcher.poll()
            if stop.is_set():
                return
            if poll.unavailable:
                stop.set()
                self.callbacks.unavailable(poll.error or "no clipboard")
                return
            if poll.error:
                failures += 1
                if failures == FAILURES_BEFORE_NOTICE:
                    self.callbacks.failing(poll.error)
            else:
                failures = 0
                if poll.text is not None and not skip_first:
                    self.callbacks.text(poll.text)
                skip_first = False
            stop.wait(self.interval * (1 if failures == 0 else min(MAX_BACKOFF, 2**failures)))


__all__ = ["ClipboardPoller", "FAILURES_BEFORE_NOTICE", "WatcherCallbacks"]
