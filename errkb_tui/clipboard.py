"""Clipboard backends and the watcher's polling logic (no Textual here).

Every call into a backend is guarded: it may raise (no xclip/xsel/wl-clipboard, no
display, SSH) or hang (a clipboard owner that never answers), so reads and writes run in a
helper thread with a timeout, and failures come back as :class:`ClipboardError`.
"""

from __future__ import annotations

import hashlib
import threading
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Protocol

#: Only the end of the clipboard is looked at: errors end tracebacks.
MAX_CLIPBOARD_CHARS = 256 * 1024
#: How long one backend call may take before it counts as hung.
CALL_TIMEOUT = 2.0
INSTALL_HINT = "install xclip, xsel or wl-clipboard (or use p to paste an error)"


class ClipboardError(Exception):
    """The clipboard could not be read or written; the message says why, for users."""


class NoClipboardTool(ClipboardError):
    """There is no clipboard to reach at all (no xclip/xsel/wl-clipboard, no display):
    retrying will not help, unlike a hung or failing read."""


class Backend(Protocol):
    """Something that reads and writes the system clipboard."""

    name: str

    def read(self) -> object: ...

    def write(self, text: str) -> None: ...


class PyperclipBackend:
    """The system clipboard through pyperclip (xclip, xsel, wl-clipboard, pbcopy, Windows)."""

    name = "system clipboard"

    def read(self) -> object:
        import pyperclip

        try:
            return pyperclip.paste()
        except pyperclip.PyperclipException as exc:
            raise NoClipboardTool(f"no clipboard tool found: {INSTALL_HINT}") from exc

    def write(self, text: str) -> None:
        import pyperclip

        try:
            pyperclip.copy(text)
        except pyperclip.PyperclipException as exc:
            raise NoClipboardTool(f"no clipboard tool found: {INSTALL_HINT}") from exc


class MemoryBackend:
    """An in-memory clipboard, for tests and for places with no system clipboard."""

    name = "memory clipboard"

    def __init__(self, text: object = "") -> None:
        self.text = text
        self.writes: list[str] = []

    def read(self) -> object:
        return self.text

    def write(self, text: str) -> None:
        self.text = text
        self.writes.append(text)


class GuardedClipboard:
    """Runs backend calls in a helper thread with a timeout; never raises anything else
    than :class:`ClipboardError`."""

    def __init__(self, backend: Backend, timeout: float = CALL_TIMEOUT) -> None:
        self.backend = backend
        self.timeout = timeout
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    def _call(self, function, *args):
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="clipboard")
            pool = self._pool
        future = pool.submit(function, *args)
        try:
            return future.result(timeout=self.timeout)
        except FutureTimeout:
            with self._lock:  # the stuck thread is abandoned; the next call gets a new one
                if self._pool is pool:
                    self._pool = None
            pool.shutdown(wait=False)
            raise ClipboardError(f"the {self.backend.name} did not answer within {self.timeout:g} s") from None
        except ClipboardError:
            raise
        except Exception as exc:  # a backend bug or an OS error: reported, never fatal
            raise ClipboardError(f"the {self.backend.name} failed: {type(exc).__name__}: {exc}") from None

    def read(self) -> object:
        return self._call(self.backend.read)

    def write(self, text: str) -> None:
        self._call(self.backend.write, text)


def digest(text: str) -> str:
    """A short fingerprint of clipboard text (the text itself is never stored)."""
    return hashlib.blake2b(text.encode("utf-8", "replace"), digest_size=16).hexdigest()


@dataclass
class Poll:
    """What one look at the clipboard found."""

    text: str | None = None  # new text to match (already capped), or None
    error: str | None = None  # why the clipboard could not be read
    unavailable: bool = False  # there is no clipboard at all: stop polling


class ClipboardWatcher:
    """Decides, poll by poll, whether the clipboard holds something new to match.

    Skips unchanged content (by digest), the app's own copies (:meth:`ignore`), non-text
    contents and empty text; keeps only the last :data:`MAX_CLIPBOARD_CHARS` characters.
    """

    def __init__(self, clipboard: GuardedClipboard) -> None:
        self.clipboard = clipboard
        self._last: str | None = None
        self._ignored: set[str] = set()
        self._lock = threading.Lock()

    def ignore(self, text: str) -> None:
        """The app itself copied ``text``: seeing it on the clipboard is not news."""
        with self._lock:
            self._ignored.add(digest(text))
            if len(self._ignored) > 64:
                self._ignored = {digest(text)}

    def poll(self) -> Poll:
        """Read the clipboard once."""
        try:
            content = self.clipboard.read()
        except ClipboardError as exc:
            return Poll(error=str(exc), unavailable=isinstance(exc, NoClipboardTool))
        if not isinstance(content, str) or not content.strip():
            return Poll()
        text = content[-MAX_CLIPBOARD_CHARS:]
        key = digest(text)
        if key == self._last:
            return Poll()
        self._last = key
        with self._lock:
            if key in self._ignored:
                return Poll()
        if "\x00" in text[:4096]:  # binary data pasted as text
            return Poll()
        return Poll(text=text)
