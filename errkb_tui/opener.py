"""Open a URL in a browser without writing over the terminal (no Textual).

``webbrowser.open`` runs helpers (``xdg-open``, ``gio``, ``www-browser``...) that print their
errors to the terminal the TUI is drawing on, and on a machine with no browser (SSH, a
container) it may even start a text browser in it. Here the opener's output goes nowhere,
and a missing or failing opener is reported so the caller can copy the URL instead.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Mapping

#: How long to wait for the opener to fail (xdg-open exits at once with no handler);
#: an opener still running after this is taken to have found a browser.
WAIT = 3.0


def opener_command(url: str, environ: Mapping[str, str] | None = None, platform: str | None = None) -> list[str] | None:
    """The command that opens ``url`` here, or None when there is no graphical opener."""
    env = os.environ if environ is None else environ
    platform = platform or sys.platform
    if platform == "darwin":
        tool = shutil.which("open")
        return [tool, url] if tool else None
    if platform.startswith("win"):
        return ["cmd", "/c", "start", "", url]
    if not (env.get("DISPLAY") or env.get("WAYLAND_DISPLAY")):
        return None  # a terminal-only session: xdg-open would start a text browser here
    tool = shutil.which("xdg-open")
    return [tool, url] if tool else None


def open_quietly(url: str, environ: Mapping[str, str] | None = None, wait: float = WAIT) -> str | None:
    """Open ``url``; None on success, else why not (for a toast). Blocks up to ``wait`` s:
    call it from a worker thread."""
    command = opener_command(url, environ)
    if command is None:
        return "no browser here"
    try:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, start_new_session=True)
    except OSError as exc:
        return f"could not start {os.path.basename(command[0])}: {exc.strerror or exc}"
    try:
        code = process.wait(wait)
    except subprocess.TimeoutExpired:
        return None  # still running: a browser is starting
    return None if code == 0 else f"{os.path.basename(command[0])} found no browser (exit {code})"


__all__ = ["WAIT", "open_quietly", "opener_command"]
