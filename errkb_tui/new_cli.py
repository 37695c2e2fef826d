"""``errkb-tui new [FILE]``: a new record for an error the KB does not know.

Reads the error (FILE, or standard input), builds a draft record from it
(:mod:`errkb_tui.draft`), saves it as a working copy in the drafts folder, opens it in
``$VISUAL``/``$EDITOR`` when there is a terminal, and validates it on return. A record with
no errors is moved into the writable KB (``--write-to``, the config's ``write_to``, else the
user's own KB), atomically and never over an existing record without asking; otherwise the
choice is to edit again, keep it as a draft (it stays in the drafts folder, never matched;
``--resume`` takes it up again) or discard it. Nothing typed is lost in between: the working
copy stays until it is installed or discarded.

Exit codes as for ``validate``: 0 the record is in the KB (or ``--print`` printed it), 1 it
was kept as a draft or discarded, 2 a usage problem (no text, no such file).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

from .config import from_args
from .userdata import drafts_dir

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    """The ``new`` subcommand."""
    new = sub.add_parser(
        "new", parents=[common], help="write a new record for an error (a draft to edit)",
        description="Build a draft record from an error (a traceback, a log), open it in $VISUAL or "
                    "$EDITOR, validate it, and put it in your KB. Exit 0 when the record is in the KB, "
                    "1 when it was kept as a draft or discarded, 2 on a usage problem.",
        epilog="The draft's regex matches the error with its numbers, paths, quoted names, versions "
               "and durations made groups; fill in root_cause and at least one workaround.")
    new.add_argument("file", nargs="?", help="file holding the error (default: standard input)")
    new.add_argument("--print", action="store_true",
                     help="print the draft record to standard output; write nothing")
    new.add_argument("--no-editor", action="store_true",
                     help="do not open an editor: save the draft in the drafts folder and say where")
    new.add_argument("--resume", metavar="DRAFT",
                     help="take up a draft kept earlier (a file in the drafts folder) instead of reading an error")
    new.add_argument("--write-to", metavar="FOLDER", default=argparse.SUPPRESS,
                     help="the KB folder the record goes to (default: the config's write_to, else your own KB)")


class Terminal:
    """Where the editor runs and questions are asked: the controlling terminal, also when
    standard input was a pipe (the error). ``None`` from :func:`open_terminal`: no terminal."""

    def __init__(self, reader: IO[str], writer: IO[str], owned: bool = False) -> None:
        self.reader, self.writer, self._owned = reader, writer, owned

    def ask(self, question: str) -> str | None:
        """The answer (stripped, lower case), or None at end of input."""
        self.writer.write(question)
        self.writer.flush()
        line = self.reader.readline()
        return line.strip().lower() if line else None

    def editor_streams(self) -> dict[str, Any]:
        """``stdin=``/``stdout=`` for the editor's process: the terminal, when it is not ours already."""
        if not self._owned:
            return {}
        return {"stdin": self.reader, "stdout": self.writer}

    def close(self) -> None:
        if self._owned:
            self.reader.close()
            self.writer.close()


def open_terminal() -> Terminal | None:
    """The terminal to edit and ask on, or None (cron, CI, a test without a tty)."""
    if sys.stdin.isatty() and sys.stdout.isatty():
        return Terminal(sys.stdin, sys.stderr)
    try:
        reader = open("/dev/tty", encoding="utf-8")  # noqa: SIM115 - kept open for the session
    except OSError:
        return None
    try:
        writer = open("/dev/tty", "w", encoding="utf-8")  # noqa: SIM115
    except OSError:
        reader.close()
        return None
    return Terminal(reader, writer, owned=True)


def _read(args: argparse.Namespace) -> bytes | None:
    try:
        if args.file and args.file != "-":
            return Path(args.file).expanduser().read_bytes()
        if sys.stdin.isatty():
            print("Paste the error, then press Ctrl-D.", file=sys.stderr)
        return sys.stdin.buffer.read()
    except OSError as exc:
        print(f"errkb-tui new: cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return None


def cmd_new(args: argparse.Namespace, terminal: Terminal | None | bool = True,
            out: IO[str] | None = None, err: IO[str] | None = None) -> int:
    """Run ``errkb-tui new``; ``terminal`` True opens the real one (tests pass their own)."""
    from . import draft as drafts
    from .kb import bundled_data_dir

    out, err = out or sys.stdout, err or sys.stderr
    config = from_args(args)
    target = config.write_folder()
    if args.resume:
        path = Path(args.resume).expanduser()
        if not path.is_file():
            print(f"errkb-tui new: no draft at {path}", file=err)
            return EXIT_USAGE
    else:
        data = _read(args)
        if data is None:
            return EXIT_USAGE
        if args.print:
            built = drafts.build_draft(data, taken=drafts.taken_in(target, bundled_data_dir()))
            if built is None:
                print("errkb-tui new: the text holds no line to build a record from", file=err)
                return EXIT_USAGE
            out.write(built.to_json())
            return EXIT_OK
        started = drafts.start(data, target, drafts_dir())
        if started is None:
            print("errkb-tui new: the text holds no line to build a record from", file=err)
            return EXIT_USAGE
        built, path = started
        print(f"errkb-tui new: draft {built.id} from the line: {built.line.clean[:120]}", file=err)
    editor = None if args.no_editor else drafts.editor_command()
    if terminal is True:
        terminal = open_terminal() if editor else None
    try:
        return _session(path, target, editor, terminal or None, out, err, no_editor=args.no_editor)
    finally:
        if isinstance(terminal, Terminal):
            terminal.close()


def _session(path: Path, target: Path, editor: list[str] | None, terminal: Terminal | None,
             out: IO[str], err: IO[str], *, no_editor: bool = False) -> int:
    """Edit, validate, then install, keep or discard the working copy at ``path``."""
    from . import draft as drafts

    interactive = editor is not None and terminal is not None
    while True:
        if interactive:
            _edit(editor, path, terminal, err)
        problems = drafts.check(path, target)
        for problem in problems:
            if problem.severity != "info":  # house-style notes: validate lists them
                print(problem.format(), file=err)
        if not drafts.blocking(problems):
            return _install(path, target, terminal if interactive else None, out, err, problems)
        if not interactive:
            why = ("--no-editor" if no_editor else
                   "no $VISUAL or $EDITOR is set" if editor is None else "there is no terminal to edit on")
            print(f"errkb-tui new: {why}; the draft is kept, not matched, at:", file=err)
            print(path, file=out)
            print(f"Fill in root_cause and a workaround, then: errkb-tui new --resume {path}", file=err)
            return EXIT_PROBLEMS
        count = sum(1 for p in problems if p.severity == "error")
        answer = terminal.ask(f"{count} error(s). [e]dit again, [k]eep as a draft, [d]iscard? [e] ")
        if answer in ("", "e", "edit"):
            continue
        if answer in ("d", "discard"):
            sure = terminal.ask("Discard the draft and what you wrote in it? [y/N] ")
            if sure in ("y", "yes"):
                drafts.discard(path)
                print("errkb-tui new: discarded", file=err)
                return EXIT_PROBLEMS
            continue
        print("errkb-tui new: kept as a draft (not matched); take it up again with "
              f"errkb-tui new --resume {path}", file=err)
        print(path, file=out)
        return EXIT_PROBLEMS


def _edit(editor: list[str], path: Path, terminal: Terminal, err: IO[str]) -> None:
    try:
        result = subprocess.run([*editor, str(path)], check=False, **terminal.editor_streams())
    except OSError as exc:
        print(f"errkb-tui new: cannot run the editor {editor[0]!r}: {exc.strerror or exc}", file=err)
        return
    if result.returncode != 0:
        print(f"errkb-tui new: the editor exited with {result.returncode}; the file is checked as it is",
              file=err)


def _install(path: Path, target: Path, terminal: Terminal | None, out: IO[str], err: IO[str],
             problems: list) -> int:
    from . import draft as drafts

    try:
        destination = drafts.install(path, target)
    except FileExistsError:
        existing = drafts.record_path(target, drafts.record_id_of(path) or "misc/record")
        answer = terminal.ask(f"{existing} already exists. Replace it? [y/N] ") if terminal else None
        if answer not in ("y", "yes"):
            print(f"errkb-tui new: a record with this id is already in {target}; the draft is kept, "
                  "not matched (change its id, then --resume):", file=err)
            print(path, file=out)
            return EXIT_PROBLEMS
        destination = drafts.install(path, target, replace=True)
    except (OSError, ValueError) as exc:
        print(f"errkb-tui new: cannot write into {target}: {exc}; the draft is kept at {path}", file=err)
        return EXIT_PROBLEMS
    warnings = sum(1 for p in problems if p.severity == "warning")
    note = f" ({warnings} warning(s): errkb-tui validate {destination})" if warnings else ""
    print(f"errkb-tui new: the record is in your KB{note}:", file=err)
    print(destination, file=out)
    return EXIT_OK


__all__ = ["Terminal", "add_parser", "cmd_new", "open_terminal"]
