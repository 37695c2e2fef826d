"""Standard input that is not a keyboard: read it as data, then take keys from the terminal.

``some-command 2>&1 | errkb-tui`` hands the browser a pipe on standard input, and Textual
reads keys from file descriptor 0 (``sys.__stdin__.fileno()`` in its Linux driver). So the
pipe is read to its end first, then the controlling terminal (``/dev/tty``; ``CONIN$`` on
Windows) is put on descriptor 0, as ``less`` does. Where there is no controlling terminal
(cron, CI, ``setsid``), opening it fails and the caller prints instead of starting a UI.

No Textual import here: the CLI decides what to do before the UI exists.
"""

from __future__ import annotations

import os
import select
import sys
from collections.abc import Callable

#: Only the end of the input is kept: tracebacks end with the error (as ``match`` does).
MAX_PIPED_BYTES = 256 * 1024
#: Read this much at a time.
CHUNK = 64 * 1024


class Tail:
    """The last ``limit`` bytes of a stream, however long the stream is."""

    def __init__(self, limit: int = MAX_PIPED_BYTES) -> None:
        self.limit = limit
        self._data = bytearray()
        self.total = 0  # bytes seen, kept or not

    def add(self, chunk: bytes) -> None:
        """Append ``chunk``, forgetting what falls out of the window."""
        self.total += len(chunk)
        self._data += chunk
        if len(self._data) > 2 * self.limit:  # trim now and then, not on every chunk
            del self._data[: len(self._data) - self.limit]

    @property
    def truncated(self) -> bool:
        """Whether the start of the stream was dropped."""
        return self.total > self.limit

    def value(self) -> bytes:
        """The kept bytes (at most ``limit``)."""
        return bytes(self._data[-self.limit:]) if self.limit else b""


def read_tail(fd: int, limit: int = MAX_PIPED_BYTES,
              on_slow: Callable[[], None] | None = None, slow_after: float = 1.0) -> bytes:
    """Read ``fd`` to its end and return the last ``limit`` bytes.

    ``on_slow`` is called once if nothing has ended the input after ``slow_after``
    seconds (the writer is still running), so the caller can say what it waits for.
    """
    tail = Tail(limit)
    waiting = on_slow is not None and hasattr(select, "select") and sys.platform != "win32"
    while True:
        if waiting:
            try:
                ready, _, _ = select.select([fd], [], [], slow_after)
            except (OSError, ValueError):
                ready = [fd]
            if not ready:
                on_slow()  # type: ignore[misc]
            waiting = False
        try:
            chunk = os.read(fd, CHUNK)
        except InterruptedError:  # pragma: no cover - PEP 475 retries; kept for safety
            continue
        except OSError:
            break  # e.g. EIO from a terminal that went away: what was read is the input
        if not chunk:
            break
        tail.add(chunk)
    return tail.value()


def decode(data: bytes) -> str:
    """Bytes from a pipe as text (UTF-8; undecodable bytes become U+FFFD)."""
    return data.decode("utf-8", "replace")


def _terminal_path() -> str:
    return "CONIN$" if sys.platform == "win32" else "/dev/tty"


def has_terminal() -> bool:
    """Whether this process has a controlling terminal to take keys from."""
    try:
        fd = os.open(_terminal_path(), os.O_RDWR | getattr(os, "O_NOCTTY", 0))
    except OSError:
        return False
    os.close(fd)
    return True


_kept_streams: list[object] = []  # the replaced stdin objects: never closed behind anyone's back


def attach_terminal() -> bool:
    """Make the controlling terminal this process's standard input.

    The terminal is opened and duplicated onto descriptor 0, and ``sys.stdin`` and
    ``sys.__stdin__`` are rebound to a fresh reader of it, so anything that reads keys
    from standard input (Textual's driver reads ``sys.__stdin__.fileno()``) reads the
    keyboard. Returns False, changing nothing, when there is no controlling terminal.
    """
    try:
        fd = os.open(_terminal_path(), os.O_RDWR | getattr(os, "O_NOCTTY", 0))
    except OSError:
        return False
    try:
        if fd != 0:
            os.dup2(fd, 0)
    except OSError:
        os.close(fd)
        return False
    if fd != 0:
        os.close(fd)
    encoding = getattr(sys.stdin, "encoding", None) or "utf-8"
    fresh = open(0, "r", encoding=encoding, errors="replace", closefd=False)  # noqa: SIM115
    _kept_streams.extend(s for s in (sys.stdin, sys.__stdin__) if s is not None)
    sys.stdin = sys.__stdin__ = fresh
    return True


def stdin_is_terminal() -> bool:
    """Whether descriptor 0 is a terminal (False when it is closed)."""
    try:
        return os.isatty(0)
    except OSError:
        return False


__all__ = ["MAX_PIPED_BYTES", "Tail", "attach_terminal", "decode", "has_terminal", "read_tail",
           "stdin_is_terminal"]
