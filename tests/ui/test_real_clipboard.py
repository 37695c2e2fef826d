"""End to end: the real app in tmux, the real clipboard through xclip on Xvfb.

Skips cleanly where tmux, Xvfb or xclip is missing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.corpus_cases import read_case

TOOLS = ("tmux", "Xvfb", "xclip")
pytestmark = pytest.mark.skipif(
    not all(shutil.which(t) for t in TOOLS), reason="needs tmux, Xvfb and xclip"
)
CORPUS = Path(__file__).parent.parent / "corpus"


def _wait_for(predicate, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return predicate()


@pytest.fixture
def display():
    number = 90 + os.getpid() % 900
    xvfb = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "640x480x16"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(0.5)
        if xvfb.poll() is not None:
            pytest.skip("Xvfb could not start")
        yield f":{number}"
    finally:
        xvfb.terminate()
        xvfb.wait(5)


def _copy(text: str, env: dict[str, str]) -> None:
    subprocess.run(["xclip", "-selection", "clipboard"], input=text.encode(), env=env,
                   check=True, timeout=10)


def test_copying_a_traceback_in_another_program_selects_the_record(display, tmp_path):
    env = {**os.environ, "DISPLAY": display}
    session = f"errkb-{uuid.uuid4().hex[:8]}"
    command = f"{sys.executable} -m errkb_tui --watch-interval 0.3"
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "140", "-y", "40",
                    "-e", f"DISPLAY={display}", command], check=True, env=env, timeout=10)

    def screen() -> str:
        return subprocess.run(["tmux", "capture-pane", "-p", "-t", session],
                              capture_output=True, text=True, timeout=10).stdout

    try:
        assert _wait_for(lambda: "watching clipboard" in screen(), 20), screen()
        _copy("lunch at noon? the usual place", env)  # prose: nothing happens
        time.sleep(1.0)
        assert "Matched copied error" not in screen()
        _copy(read_case(CORPUS / "docker" / "daemon-not-running.txt", "").text, env)
        assert _wait_for(lambda: "Matched copied error" in screen(), 10), screen()
        assert "docker/daemon-not-running" in screen()
        assert "Traceback" not in screen()
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], timeout=10)
