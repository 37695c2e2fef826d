"""Running the user's editor on a file, at a line when the editor takes one (no Textual).

The app suspends itself around :func:`run_editor` (``App.suspend``); ``errkb-tui new``
runs it on the terminal it opened. :func:`at_line` knows how the common editors are told a
line: ``+LINE FILE`` (vi, vim, nvim, nano, emacs, micro, kakoune, joe, ...),
``--goto FILE:LINE`` (VS Code and its kin), ``FILE:LINE`` (Sublime Text, Zed, Helix).
An editor it does not know gets the file alone.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from pathlib import Path

#: Editors that take ``+LINE`` before the file.
PLUS_LINE = {"vi", "vim", "nvim", "gvim", "view", "vim.basic", "vim.tiny", "nano", "pico", "emacs", "emacsclient",
             "micro", "kak", "joe", "jed", "ne", "mg", "mcedit", "ee"}
#: Editors that take ``--goto FILE:LINE``.
GOTO = {"code", "code-insiders", "codium", "vscodium", "cursor", "windsurf"}
#: Editors that take ``FILE:LINE``.
COLON_LINE = {"subl", "sublime_text", "zed", "hx", "helix"}


def at_line(editor: Sequence[str], path: str | Path, line: int | None = None) -> list[str]:
    """The command that opens ``path`` in ``editor`` (a command and its options, as
    :func:`errkb_tui.draft.editor_command` gives it), at ``line`` when the editor takes one."""
    command = list(editor)
    file = str(path)
    if line is None or line < 1 or not command:
        return [*command, file]
    name = os.path.basename(command[0]).lower().removesuffix(".exe")
    if name in PLUS_LINE:
        return [*command, f"+{line}", file]
    if name in GOTO:
        return [*command, "--goto", f"{file}:{line}"]
    if name in COLON_LINE:
        return [*command, f"{file}:{line}"]
    return [*command, file]


def run_editor(editor: Sequence[str], path: str | Path, line: int | None = None) -> int:
    """Run the editor on ``path`` and wait for it; its exit code. Raises ``OSError`` when
    it cannot be started (no such program)."""
    return subprocess.run(at_line(editor, path, line), check=False).returncode


__all__ = ["at_line", "run_editor"]
