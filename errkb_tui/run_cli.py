"""``errkb-tui run [--print] -- CMD ARGS...``: the command, then the record if it failed.

The command runs with its output passed through (:mod:`errkb_tui.runner`). When it fails,
its kept output is matched: the browser opens on it when there is a terminal to show it
on, else (or with ``--print``) the match and the first fix are printed to standard error,
where they do not mix with the command's own output if that was redirected. The exit code
is always the command's own, so the wrapper can stand in scripts and Makefiles.

A command stopped with Ctrl-C (killed by SIGINT, or exiting 130 as shells do after it)
opens nothing: it did not fail, the user stopped it.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable
from typing import Any, TextIO

from .kb import KB

EXIT_NOT_FOUND, EXIT_NOT_EXECUTABLE, EXIT_USAGE = 127, 126, 2


def command_of(args: Any) -> list[str]:
    """The wrapped command from the parsed ``run`` arguments (a leading ``--`` dropped)."""
    command = list(args.argv or [])
    if command and command[0] == "--":
        command = command[1:]
    return command


def report(output: bytes, returncode: int, load: Callable[[], KB], err: TextIO) -> None:
    """Print the best record for ``output`` and its first fix (or that none explains it)."""
    from .match import Matcher
    from .show import page_width, render_brief, use_color

    kb = load()
    match = Matcher(kb.records).best(output)
    record = kb.get(match.id) if match else None
    print(f"errkb-tui: the command failed (exit {returncode}).", file=err)
    if match is None or record is None:
        print("errkb-tui: no record explains its output.", file=err)
        return
    err.write(render_brief(record, match, width=page_width(err), color=use_color(err)))
    err.flush()


def can_open_browser() -> bool:
    """Whether the browser can run: output to a terminal and keys from one (standard input,
    or the controlling terminal put there in its place)."""
    from .terminal import attach_terminal, stdin_is_terminal

    try:
        if not sys.__stderr__ or not sys.__stderr__.isatty():
            return False
    except (ValueError, OSError):
        return False
    return stdin_is_terminal() or attach_terminal()


def cmd_run(args: Any, load: Callable[[], KB], open_browser: Callable[[str], object],
            err: TextIO | None = None) -> int:
    """Run the command; on failure open the browser on its output (or print the match)."""
    from .runner import CommandNotExecutable, CommandNotFound, run_command
    from .terminal import decode

    err = err or sys.stderr
    command = command_of(args)
    if not command:
        print("errkb-tui run: no command given; usage: errkb-tui run [--print] -- CMD [ARGS...]",
              file=err)
        return EXIT_USAGE
    try:
        result = run_command(command)
    except CommandNotFound:
        print(f"errkb-tui run: {command[0]}: command not found", file=err)
        return EXIT_NOT_FOUND
    except CommandNotExecutable as exc:
        print(f"errkb-tui run: {command[0]}: cannot run it ({exc.strerror})", file=err)
        return EXIT_NOT_EXECUTABLE
    if not result.failed or result.signal == signal.SIGINT or result.returncode == 128 + signal.SIGINT:
        return result.returncode
    if args.print or not can_open_browser():
        report(result.output, result.returncode, load, err)
    else:
        open_browser(decode(result.output))
    return result.returncode


__all__ = ["can_open_browser", "cmd_run", "command_of", "report"]
