"""``errkb-tui run -- CMD ARGS...``: run a command, pass its output through, keep the end.

On POSIX, when standard output is a terminal, the command runs on a pseudo-terminal of its
own (like ``script``), so tools that check for a terminal still colour, page and prompt:

- the pseudo-terminal gets the real terminal's settings and window size, and a window
  resize (SIGWINCH) is copied to it;
- the real terminal is put in raw mode while the command runs and every key is forwarded,
  so Ctrl-C is a byte that the pseudo-terminal turns into SIGINT for the command; the
  wrapper never sees it. Signals sent to the wrapper itself (SIGTERM, SIGHUP, and SIGINT
  when keys are not forwarded) are passed on to the command;
- when standard input is not a terminal (a pipe, a file), the command reads it directly.

Elsewhere (no pty, or output redirected) the command's standard output and error are pipes,
each copied to ours; it stays in our process group, so Ctrl-C reaches it from the terminal.

The output goes through byte for byte; the last :data:`MAX_KEEP` bytes are kept for
matching. No Textual import: the caller decides what to open afterwards.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .terminal import Tail

#: How much of the command's output is kept for matching.
MAX_KEEP = 256 * 1024
#: Read this much at a time.
CHUNK = 64 * 1024
#: How often (seconds) the loop checks whether the command ended while something it
#: started in the background still holds its output open.
POLL = 0.2
#: Reads of output after the command ended before the wrapper stops waiting for more
#: (something the command left running in the background may keep writing).
MAX_DRAIN_READS = 64

_POSIX = os.name == "posix"
if _POSIX:
    import fcntl
    import select
    import termios
    import tty


class CommandNotFound(OSError):
    """The command does not exist (shells exit 127 for this)."""


class CommandNotExecutable(OSError):
    """The command exists but cannot be run (shells exit 126 for this)."""


@dataclass(frozen=True)
class RunResult:
    """How a command ended and the end of what it printed."""

    returncode: int
    """Shell-style exit status: the command's own code, or 128+N when signal N killed it."""
    output: bytes
    """The last :data:`MAX_KEEP` bytes it wrote (standard output and error, in order)."""
    signal: int | None = None
    """The signal that killed it, if one did."""
    truncated: bool = False
    """Whether the start of the output was dropped."""

    @property
    def failed(self) -> bool:
        """Whether the command failed: a non-zero exit or killed by a signal."""
        return self.returncode != 0


def exit_status(returncode: int) -> tuple[int, int | None]:
    """A ``Popen.returncode`` as a shell's exit status, and the killing signal if any."""
    if returncode < 0:
        return 128 - returncode, -returncode
    return returncode, None


def can_use_pty(stdout_fd: int = 1) -> bool:
    """Whether the command can get a pseudo-terminal: POSIX, and our output is a terminal."""
    if not _POSIX or not hasattr(os, "openpty"):
        return False
    try:
        return os.isatty(stdout_fd)
    except OSError:
        return False


def run_command(
    argv: Sequence[str],
    *,
    stdin_fd: int = 0,
    stdout_fd: int = 1,
    stderr_fd: int = 2,
    use_pty: bool | None = None,
    keep: int = MAX_KEEP,
    env: dict[str, str] | None = None,
) -> RunResult:
    """Run ``argv`` with its output passed through to ``stdout_fd``/``stderr_fd``.

    ``use_pty`` None picks a pseudo-terminal when :func:`can_use_pty`. Raises
    :class:`CommandNotFound` or :class:`CommandNotExecutable` when it cannot start.
    """
    if not argv:
        raise ValueError("no command given")
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()  # what we printed before goes out before the command's output
    if use_pty is None:
        use_pty = can_use_pty(stdout_fd)
    if use_pty:
        return _run_pty(list(argv), stdin_fd, stdout_fd, keep, env)
    return _run_pipes(list(argv), stdout_fd, stderr_fd, keep, env)


# -- starting ----------------------------------------------------------------------------

def _popen(argv: list[str], **kwargs) -> subprocess.Popen:
    try:
        return subprocess.Popen(argv, **kwargs)
    except FileNotFoundError as exc:
        raise CommandNotFound(errno.ENOENT, "command not found", argv[0]) from exc
    except PermissionError as exc:
        raise CommandNotExecutable(errno.EACCES, "permission denied", argv[0]) from exc
    except OSError as exc:
        if exc.errno in (errno.ENOEXEC, errno.EISDIR, errno.ENOTDIR):
            raise CommandNotExecutable(exc.errno, exc.strerror or "cannot execute", argv[0]) from exc
        raise


def _write_all(fd: int, data: bytes) -> bool:
    """Write all of ``data``; False when the reader went away (the output is still kept)."""
    view = memoryview(data)
    while view:
        try:
            written = os.write(fd, view)
        except BlockingIOError:
            if _POSIX:
                select.select([], [fd], [])
            continue
        except OSError:  # EPIPE, EIO: nobody reads our output any more
            return False
        view = view[written:]
    return True


@contextlib.contextmanager
def _signals(handlers: dict[int, object]) -> Iterator[None]:
    """Install signal handlers for the duration; restore the previous ones afterwards."""
    previous = {}
    if threading.current_thread() is threading.main_thread():
        for number, handler in handlers.items():
            with contextlib.suppress(OSError, ValueError):
                previous[number] = signal.signal(number, handler)
    try:
        yield
    finally:
        for number, handler in previous.items():
            with contextlib.suppress(OSError, ValueError, TypeError):
                signal.signal(number, handler)


# -- pipes (portable) --------------------------------------------------------------------

def _run_pipes(argv: list[str], stdout_fd: int, stderr_fd: int, keep: int,
               env: dict[str, str] | None) -> RunResult:
    tail = Tail(keep)
    lock = threading.Lock()
    proc = _popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)

    def pump(source, target_fd: int) -> None:
        alive = True
        fd = source.fileno()
        while True:
            try:
                chunk = os.read(fd, CHUNK)
            except OSError:
                break
            if not chunk:
                break
            with lock:
                tail.add(chunk)
                if alive:
                    alive = _write_all(target_fd, chunk)

    threads = [
        threading.Thread(target=pump, args=(proc.stdout, stdout_fd), daemon=True),
        threading.Thread(target=pump, args=(proc.stderr, stderr_fd), daemon=True),
    ]
    for thread in threads:
        thread.start()

    def forward(number: int, _frame: object) -> None:
        with contextlib.suppress(OSError):
            proc.send_signal(number)

    # The command shares our process group: Ctrl-C at the terminal reaches it directly, so
    # the wrapper only has to survive that SIGINT and wait for the command to end.
    handlers: dict[int, object] = {signal.SIGINT: lambda *_: None, signal.SIGTERM: forward}
    if _POSIX:
        handlers[signal.SIGHUP] = forward
    with _signals(handlers):
        proc.wait()
        for thread in threads:
            # Output still held open by something the command left running in the
            # background is not waited for beyond a moment.
            thread.join(timeout=POLL * 5)
    for stream in (proc.stdout, proc.stderr):
        with contextlib.suppress(OSError):
            stream.close()
    code, killed_by = exit_status(proc.returncode)
    with lock:
        return RunResult(code, tail.value(), killed_by, tail.truncated)


# -- pseudo-terminal (POSIX) -------------------------------------------------------------

def _copy_window_size(source_fd: int, target_fd: int) -> None:
    with contextlib.suppress(OSError):
        size = fcntl.ioctl(source_fd, termios.TIOCGWINSZ, b"\0" * 8)
        fcntl.ioctl(target_fd, termios.TIOCSWINSZ, size)


def _make_controlling_terminal() -> None:  # pragma: no cover - runs in the child
    """In the child, after ``setsid``: its standard output (the pty) becomes its terminal."""
    with contextlib.suppress(OSError):
        fcntl.ioctl(1, termios.TIOCSCTTY, 0)


def _in_foreground(fd: int) -> bool:
    """Whether ``fd`` is a terminal whose foreground process group is ours."""
    try:
        return os.isatty(fd) and os.tcgetpgrp(fd) == os.getpgrp()
    except OSError:
        return False


def _run_pty(argv: list[str], stdin_fd: int, stdout_fd: int, keep: int,
             env: dict[str, str] | None) -> RunResult:
    tail = Tail(keep)
    forward_keys = _in_foreground(stdin_fd)
    size_fd = stdout_fd if os.isatty(stdout_fd) else stdin_fd
    master, slave = os.openpty()
    try:
        if forward_keys:
            with contextlib.suppress(termios.error):
                termios.tcsetattr(slave, termios.TCSANOW, termios.tcgetattr(stdin_fd))
        _copy_window_size(size_fd, slave)
        proc = _popen(
            argv, stdin=slave if forward_keys else stdin_fd, stdout=slave, stderr=slave,
            start_new_session=True, preexec_fn=_make_controlling_terminal, env=env,
        )
    except BaseException:
        os.close(master)
        raise
    finally:
        os.close(slave)

    def command_group() -> int:
        with contextlib.suppress(OSError):
            group = os.tcgetpgrp(master)  # a shell's foreground job, if it runs one
            if group > 0:
                return group
        return proc.pid

    def forward(number: int, _frame: object) -> None:
        with contextlib.suppress(OSError):
            os.killpg(command_group(), number)

    def resized(_number: int, _frame: object) -> None:
        _copy_window_size(size_fd, master)

    saved_mode = None

    def raw() -> None:
        nonlocal saved_mode
        with contextlib.suppress(termios.error):
            saved_mode = termios.tcgetattr(stdin_fd)
            tty.setraw(stdin_fd, termios.TCSANOW)

    def restore() -> None:
        if saved_mode is not None:
            with contextlib.suppress(termios.error):
                termios.tcsetattr(stdin_fd, termios.TCSAFLUSH, saved_mode)

    handlers: dict[int, object] = {
        signal.SIGINT: forward, signal.SIGTERM: forward, signal.SIGHUP: forward,
        signal.SIGQUIT: forward, signal.SIGWINCH: resized,
    }
    if forward_keys:
        raw()
    try:
        with _signals(handlers):
            _pump_pty(proc, master, stdin_fd if forward_keys else None, stdout_fd, tail)
            proc.wait()
    finally:
        restore()
        os.close(master)
    code, killed_by = exit_status(proc.returncode)
    return RunResult(code, tail.value(), killed_by, tail.truncated)


def _pump_pty(proc: subprocess.Popen, master: int, keys_fd: int | None, stdout_fd: int,
              tail: Tail) -> None:
    """Copy the pty's output to ``stdout_fd`` (and ``tail``) and keys to the pty until the
    command ends and its output is drained."""
    os.set_blocking(master, False)
    pending = bytearray()  # keys not yet taken by the pty (its input buffer was full)
    output_alive = True
    ended = False
    drain_reads = 0  # reads since the command ended: something left running may never stop
    while True:
        readers = [master]
        if keys_fd is not None and not ended:
            readers.append(keys_fd)
        writers = [master] if pending else []
        try:
            readable, writable, _ = select.select(readers, writers, [], 0 if ended else POLL)
        except InterruptedError:  # pragma: no cover - PEP 475 retries select
            continue
        if master in readable:
            try:
                chunk = os.read(master, CHUNK)
            except BlockingIOError:
                chunk = None
            except OSError:  # EIO: every copy of the slave side is closed
                chunk = b""
            if chunk == b"":
                return
            if chunk:
                tail.add(chunk)
                if output_alive:
                    output_alive = _write_all(stdout_fd, chunk)
                if ended:
                    drain_reads += 1
                    if drain_reads > MAX_DRAIN_READS:
                        return
        if keys_fd is not None and keys_fd in readable:
            try:
                keys = os.read(keys_fd, CHUNK)
            except OSError:
                keys = b""
            if keys:
                pending += keys
            else:
                keys_fd = None  # the terminal went away; the command runs on without it
        if pending and (master in writable or not writers):
            try:
                written = os.write(master, pending)
                del pending[:written]
            except BlockingIOError:
                pass
            except OSError:
                pending.clear()
        if ended:
            if master not in readable:
                return  # the command ended and nothing more is waiting to be read
            continue
        if proc.poll() is not None:
            ended = True  # drain what is there, then stop (a background child may hold the pty)


__all__ = ["CommandNotExecutable", "CommandNotFound", "MAX_KEEP", "RunResult", "can_use_pty",
           "exit_status", "run_command"]
