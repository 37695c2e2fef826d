"""``some-command | errkb-tui``: piped text is data; with no terminal at all, it prints."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from errkb_tui import terminal

TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "x.py", line 1, in <module>\n'
    "ModuleNotFoundError: No module named 'torchvisionx'\n"
)


def browse_without_a_terminal(tmp_path: Path, text: bytes, *args: str) -> subprocess.CompletedProcess[str]:
    """``errkb-tui`` with ``text`` piped in and no controlling terminal (as under cron or CI)."""
    done = subprocess.run(
        [sys.executable, "-m", "errkb_tui", "--no-watch", *args], input=text, capture_output=True,
        cwd=tmp_path, start_new_session=True, timeout=120,
    )
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(), done.stderr.decode())


@pytest.mark.skipif(os.name != "posix", reason="sessions without a terminal are POSIX")
def test_piped_traceback_without_a_terminal_prints_what_match_prints(tmp_path: Path) -> None:
    done = browse_without_a_terminal(tmp_path, TRACEBACK.encode())
    match = subprocess.run([sys.executable, "-m", "errkb_tui", "match"], input=TRACEBACK.encode(),
                           capture_output=True, cwd=tmp_path, timeout=120)
    assert done.returncode == match.returncode == 0
    assert done.stdout == match.stdout.decode()
    assert "python/module-not-found" in done.stdout.splitlines()[1]
    assert "\x1b" not in done.stdout + done.stderr  # no UI was started


@pytest.mark.skipif(os.name != "posix", reason="sessions without a terminal are POSIX")
def test_piped_prose_without_a_terminal_exits_1(tmp_path: Path) -> None:
    done = browse_without_a_terminal(tmp_path, b"lunch at noon? the usual place\n")
    assert done.returncode == 1
    assert done.stdout == "No record matches this text.\n"


@pytest.mark.skipif(os.name != "posix", reason="sessions without a terminal are POSIX")
def test_empty_pipe_without_a_terminal_says_no_match(tmp_path: Path) -> None:
    done = browse_without_a_terminal(tmp_path, b"")
    assert done.returncode == 1
    assert "No record matches" in done.stdout


def test_read_tail_keeps_the_end_of_a_long_pipe() -> None:
    read_fd, write_fd = os.pipe()
    payload = b"a" * 300_000 + b"\nModuleNotFoundError: No module named 'x'\n"

    def writer() -> None:
        with os.fdopen(write_fd, "wb") as pipe:
            pipe.write(payload)

    import threading

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        data = terminal.read_tail(read_fd, limit=1000)
    finally:
        thread.join()
        os.close(read_fd)
    assert data == payload[-1000:]


def test_tail_counts_what_it_dropped() -> None:
    tail = terminal.Tail(10)
    for _ in range(5):
        tail.add(b"0123456789")
    assert tail.value() == b"0123456789" and tail.truncated and tail.total == 50


@pytest.mark.skipif(os.name != "posix", reason="/dev/tty")
def test_attach_terminal_fails_cleanly_without_a_controlling_terminal(tmp_path: Path) -> None:
    script = (
        "import sys; from errkb_tui import terminal;"
        "before = sys.stdin;"
        "print(terminal.has_terminal(), terminal.attach_terminal(), sys.stdin is before)"
    )
    done = subprocess.run([sys.executable, "-c", script], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, start_new_session=True, timeout=60)
    assert done.stdout.split() == ["False", "False", "True"]


@pytest.mark.skipif(os.name != "posix", reason="POSIX pseudo-terminals")
def test_attach_terminal_puts_the_controlling_terminal_on_stdin(tmp_path: Path) -> None:
    import fcntl
    import termios

    result = tmp_path / "result.txt"
    script = (
        "import os, sys; from errkb_tui import terminal\n"
        "data = terminal.read_tail(0)\n"
        "ok = terminal.attach_terminal()\n"
        "words = [data.decode(), ok, os.isatty(0), sys.stdin.isatty(), sys.__stdin__.fileno(),\n"
        "         os.tcgetpgrp(0) == os.getpgrp()]\n"
        "open(sys.argv[1], 'w').write(' '.join(map(str, words)))\n"
    )
    master, slave = os.openpty()

    def controlling() -> None:
        fcntl.ioctl(1, termios.TIOCSCTTY, 0)

    try:
        proc = subprocess.Popen([sys.executable, "-c", script, str(result)], stdin=subprocess.PIPE,
                                stdout=slave, stderr=slave, start_new_session=True, preexec_fn=controlling)
        proc.communicate(b"piped", timeout=60)
    finally:
        os.close(master)
        os.close(slave)
    # the pipe was read as data; then fd 0 is the controlling terminal, and sys.stdin reads it
    assert result.read_text().split() == ["piped", "True", "True", "True", "0", "True"]


def test_the_shell_facing_modules_import_without_textual() -> None:
    probe = (
        "import sys\n"
        "import errkb_tui.terminal, errkb_tui.runner, errkb_tui.run_cli, errkb_tui.show, errkb_tui.mcp_server\n"
        "print(any(n == 'textual' or n.startswith('textual.') for n in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "False", done.stderr
