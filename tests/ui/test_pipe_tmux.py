"""End to end in tmux, as a user types it: a pipe into the browser, and ``run -- CMD``.

Each test runs a shell in its own tmux server (its own socket, this test's environment),
types the command line, and reads the screen. Skips cleanly where tmux is missing.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not shutil.which("tmux"), reason="needs tmux")
ROOT = Path(__file__).resolve().parents[2]
ERRKB = f"{shlex.quote(sys.executable)} -m errkb_tui --no-watch"
MATCHED_LINE = "No module named 'torchvisionx'"


class Tmux:
    def __init__(self) -> None:
        self.socket = f"errkb-test-{uuid.uuid4().hex[:8]}"
        self._tmux("new-session", "-d", "-s", "main", "-x", "120", "-y", "36", "-c", str(ROOT),
                   "bash --norc --noprofile")

    def _tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True,
                              check=True, timeout=20).stdout

    def type(self, line: str) -> None:
        self._tmux("send-keys", "-t", "main", "-l", line)
        self._tmux("send-keys", "-t", "main", "Enter")

    def keys(self, *keys: str) -> None:
        self._tmux("send-keys", "-t", "main", *keys)

    def screen(self) -> str:
        return self._tmux("capture-pane", "-p", "-J", "-S", "-200", "-t", "main")

    def wait_for(self, predicate, seconds: float = 60) -> str:
        deadline = time.monotonic() + seconds
        while True:
            text = self.screen()
            if predicate(text):
                return text
            assert time.monotonic() < deadline, f"timed out; the screen:\n{text}"
            time.sleep(0.2)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=20)


@pytest.fixture
def tmux():
    session = Tmux()
    try:
        yield session
    finally:
        session.close()


def exit_code(text: str) -> int | None:
    """The code the shell echoed after the command (``EXIT=N``), once it has."""
    found = re.findall(r"^EXIT=(\d+)$", text, flags=re.MULTILINE)
    return int(found[-1]) if found else None


def _in_app(text: str) -> bool:
    return "^q" in text or "ctrl+q" in text.lower()


def test_a_piped_traceback_opens_its_record_and_is_never_read_as_keys(tmux: Tmux) -> None:
    # Letters the app binds (p: paste box, q: quit, /: filter, 1: copy, o: open a URL) are
    # in the piped text; none of them may act.
    traceback = (
        "p q / 1 o w z ?\\n"
        "Traceback (most recent call last):\\n"
        '  File \\"train.py\\", line 1, in <module>\\n'
        "ModuleNotFoundError: No module named 'torchvisionx'\\n"
    )
    tmux.type(f"printf \"{traceback}\" | {ERRKB}; echo EXIT=$?")
    screen = tmux.wait_for(lambda s: _in_app(s) and MATCHED_LINE in s and "python/module-not-found" in s)
    assert "Paste an error" not in screen  # no paste box
    assert exit_code(screen) is None  # still running: q did not quit it
    tmux.keys("C-q")
    assert exit_code(tmux.wait_for(lambda s: exit_code(s) is not None)) == 0


def test_run_passes_the_traceback_through_opens_the_record_and_keeps_the_exit_code(tmux: Tmux) -> None:
    command = f"{shlex.quote(sys.executable)} -c 'import torchvisionx'"
    tmux.type(f"{ERRKB} run -- {command}; echo EXIT=$?")
    tmux.wait_for(lambda s: _in_app(s) and MATCHED_LINE in s and "python/module-not-found" in s)
    tmux.keys("C-q")
    screen = tmux.wait_for(lambda s: exit_code(s) is not None)
    assert exit_code(screen) == 1
    assert "ModuleNotFoundError: No module named 'torchvisionx'" in screen  # passed through


def test_run_of_a_successful_command_opens_nothing(tmux: Tmux) -> None:
    tmux.type(f"{ERRKB} run -- {shlex.quote(sys.executable)} -c 'print(6 * 7)'; echo EXIT=$?")
    screen = tmux.wait_for(lambda s: exit_code(s) is not None)
    assert exit_code(screen) == 0 and "\n42\n" in screen
    assert not _in_app(screen)


def test_run_keeps_colour_on_a_terminal(tmux: Tmux) -> None:
    script = "import sys; print('\\033[31mred\\033[0m' if sys.stdout.isatty() else 'no tty')"
    tmux.type(f"{ERRKB} run -- {shlex.quote(sys.executable)} -c {shlex.quote(script)}; echo EXIT=$?")
    assert exit_code(tmux.wait_for(lambda s: exit_code(s) is not None)) == 0
    coloured = subprocess.run(["tmux", "-L", tmux.socket, "capture-pane", "-p", "-e", "-t", "main"],
                              capture_output=True, text=True, timeout=20).stdout
    assert "\x1b[31mred" in coloured
