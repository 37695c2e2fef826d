"""The ``errkb-tui`` command: the browser, ``match`` and ``validate``."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from . import __version__, new_cli, outcomes_cli
from .config import add_arguments as add_config_arguments
from .config import app_options, from_args, print_config, warn_problems
from .kb import KB, Problem, Source, bundled_data_dir, default_sources
from .loader import load_kb
from .terminal import attach_terminal, decode, read_tail, stdin_is_terminal
from .text import cell_truncate

EXIT_OK, EXIT_NO_MATCH, EXIT_USAGE = 0, 1, 2
#: Repaints a second for the browser (Textual's default is 60): a keystroke's new rows reach
#: the screen within ~4 ms of being ready instead of ~17 (measured in benchmarks/).
UI_FPS = "240"


def _common(top: bool) -> argparse.ArgumentParser:
    """Options every subcommand takes; on subcommands they add to the top level's values."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--data", metavar="PATH", action="append", default=[] if top else argparse.SUPPRESS,
        help="also load this KB: a folder, a .json file (one record or a list) or a .jsonl "
             "file; repeatable; later ones override earlier ones by id",
    )
    common.add_argument("--no-bundled", action="store_true", default=False if top else argparse.SUPPRESS,
                        help="do not load the bundled KB")
    return common


def _parser() -> argparse.ArgumentParser:
    common = _common(top=True)

    parser = argparse.ArgumentParser(
        prog="errkb-tui", parents=[common],
        description="Browse an error knowledge base; match copied errors to records.",
        epilog="Without a subcommand, opens the browser. KBs load in this order, a later record "
               "with the same id winning: the bundled one, your own (the data folder's kb, "
               "when it exists), ERRKB_PATH (os.pathsep-separated), "
               "the config file's kb_paths, --data. The config file (ERRKB_CONFIG, else "
               "config.toml in the platform's config folder) sets defaults that flags override.",
    )
    parser.add_argument("--version", action="version", version=f"errkb-tui {__version__}")
    parser.add_argument("--watch", dest="watch", action="store_true", default=None,
                        help="watch the clipboard for errors (default: the config file's, else on)")
    parser.add_argument("--no-watch", dest="watch", action="store_false",
                        help="do not watch the clipboard")
    parser.add_argument("--watch-interval", type=float, default=None, metavar="SECONDS",
                        help="how often the clipboard is read (default: the config file's, else 0.5)")
    parser.add_argument("--no-editor", dest="editor", action="store_false", default=True,
                        help="write and edit records (a, e) in the app's own editor, never $VISUAL/$EDITOR")
    add_config_arguments(parser)
    sub = parser.add_subparsers(dest="command", metavar="{match,show,run,validate,new,outcomes,mcp}")

    match = sub.add_parser("match", parents=[_common(top=False)], help="print the records that explain an error",
                           description="Read an error (a traceback, a log) and print the best records.")
    match.add_argument("file", nargs="?", help="file to read (default: standard input)")
    match.add_argument("--json", action="store_true", help="print JSON for scripts")
    match.add_argument("--limit", type=int, default=5, metavar="N", help="at most N records (default 5)")
    match.add_argument("--show", action="store_true", help="then print the best record (as 'show' does)")
    _add_shell_parsers(sub)

    validate = sub.add_parser("validate", parents=[_common(top=False)], help="check KB files",
                              description="Check KB files; exit 1 on any error (with --strict, on any warning).",
                              epilog=outcomes_cli.tiers_help())
    validate.add_argument("paths", nargs="*", metavar="PATH",
                          help="files or folders to check (default: the bundled KB)")
    validate.add_argument("--strict", action="store_true", help="fail on warnings too")
    new_cli.add_parser(sub, _common(top=False))
    outcomes_cli.add_parser(sub, _common(top=False))
    return parser


def _load(args: argparse.Namespace) -> KB:
    from .kbcache import default_cache_dir

    return load_kb(from_args(args).sources(args.data, bundled=not args.no_bundled), cache_dir=default_cache_dir())


def cmd_match(args: argparse.Namespace) -> int:
    if args.limit < 1:
        print("errkb-tui match: --limit must be at least 1", file=sys.stderr)
        return EXIT_USAGE
    try:
        if args.file and args.file != "-":
            data = Path(args.file).read_bytes()
        else:
            if sys.stdin.isatty():
                print("Paste the error, then press Ctrl-D.", file=sys.stderr)
            data = sys.stdin.buffer.read()
    except OSError as exc:
        print(f"errkb-tui match: cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    return _print_matches(args, data)


def _print_matches(args: argparse.Namespace, data: bytes) -> int:
    """What ``match`` prints for ``data``, and its exit code."""
    from .match import Matcher

    kb = _load(args)
    errors = kb.problem_counts()["error"]
    if errors:
        print(f"errkb-tui: {errors} KB problem(s) skipped; see 'errkb-tui validate'", file=sys.stderr)
    matches = Matcher(kb.records).match(data, limit=args.limit)
    if args.json:
        print(json.dumps({"matches": outcomes_cli.match_json(kb, matches)}, ensure_ascii=False))
    elif not matches:
        print("No record matches this text.")
    else:
        width = max(len(m.id) for m in matches)
        print(f"{'score':>5}  {'method':<6}  {'id':<{width}}  line")
        for m in matches:
            mark = "" if m.confident else "  (not confident)"
            line = cell_truncate(m.line, 70)
            print(f"{m.score:>5.2f}  {m.method:<6}  {m.id:<{width}}  {line}{mark}")
        if getattr(args, "show", False):
            from .show import show_match

            show_match(kb, matches[0], sys.stdout)
    return EXIT_OK if matches and matches[0].confident else EXIT_NO_MATCH


def cmd_validate(args: argparse.Namespace) -> int:
    from .lint import check_kb

    bundled = bundled_data_dir()
    if args.paths:
        targets = [Path(p).expanduser() for p in args.paths]
        checks_bundled = any(t.resolve() == bundled.resolve() for t in targets)
        # The bundled KB is context (links may point into it), not under review.
        sources = [] if checks_bundled or args.no_bundled else [Source(bundled, "bundled", report=False)]
        sources += [Source(t, "argument") for t in targets]
    else:
        sources = [Source(bundled, "bundled")]
    sources += [Source(Path(p).expanduser(), "--data") for p in args.data]
    kb = check_kb(sources)
    relative = _Relative()
    for problem in kb.problems:
        print(relative(problem).format())
    return report_verdict(kb, strict=args.strict)


def report_verdict(kb: KB, *, strict: bool, out=None) -> int:
    """Print the one-line verdict of a checked KB; ``validate``'s exit code (1: failed)."""
    counts = kb.problem_counts()
    checked = sum(1 for r in kb.records if kb.reportable(r.id))
    failed = counts["error"] or (strict and counts["warning"])
    verdict = "FAILED" if failed else "OK"
    print(f"{verdict}: {checked} record(s) checked; {counts['error']} error(s), "
          f"{counts['warning']} warning(s), {counts['info']} info", file=out or sys.stdout)
    return EXIT_NO_MATCH if failed else EXIT_OK


class _Relative:
    """Problems with their file named relative to the working folder, when inside it; each
    file is resolved once (resolving it for every problem cost most of a large validate)."""

    def __init__(self) -> None:
        self._cwd = Path.cwd().resolve()
        self._files: dict[str, str] = {}

    def __call__(self, problem: Problem) -> Problem:
        name = self._files.get(problem.file)
        if name is None:
            try:
                name = str(Path(problem.file).resolve().relative_to(self._cwd))
            except (ValueError, OSError):
                name = problem.file
            self._files[problem.file] = name
        return problem if name == problem.file else dataclasses.replace(problem, file=name)


def _relative(problem: Problem) -> Problem:
    """The problem with its file named relative to the working folder, when inside it."""
    return _Relative()(problem)


def cmd_browse(args: argparse.Namespace) -> int:
    if args.watch_interval is not None and args.watch_interval <= 0:
        print("errkb-tui: --watch-interval must be positive", file=sys.stderr)
        return EXIT_USAGE
    text = None
    if not stdin_is_terminal():  # piped text is data, never keys: read it, then the terminal
        text = decode(read_tail(0, on_slow=_waiting_for_pipe))
        if not attach_terminal():  # no terminal at all (cron, CI): print what match prints
            return _print_matches(argparse.Namespace(**{**vars(args), "json": False, "limit": 5}), text.encode())
    return _browse(args, text if text and text.strip() else None)


def _waiting_for_pipe() -> None:
    if sys.stderr.isatty():
        print("errkb-tui: reading the piped input; the browser opens when it ends", file=sys.stderr)


def _browse(args: argparse.Namespace, text: str | None, origin: str = "pipe") -> int:
    # Set here, in the program's entry, not when a module is imported: Textual reads it once,
    # when it is first imported.
    os.environ.setdefault("TEXTUAL_FPS", UI_FPS)
    from .app import run_app

    config = from_args(args)
    warn_problems(config)
    options = {"initial_text": text, "initial_origin": origin} if text is not None else {}
    accepted = _app_parameters()
    options.update(app_options(config, accepted=accepted))
    if "write_folder" in accepted:  # where a and e write records
        options["write_folder"] = config.write_folder()
    if "editor" in accepted and not getattr(args, "editor", True):
        options["editor"] = False
    if "config_problems" in accepted:  # shown under ! in the app, with the keymap's unknown ids
        from .app import ErrKBApp
        from .config import keymap_problems
        from .keys import binding_ids

        problems = [*config.problems, *keymap_problems(config, binding_ids(ErrKBApp.BINDINGS))]
        if problems:
            options["config_problems"] = problems
    if "own_process" in accepted:  # the app is this whole process
        options["own_process"] = True
    return run_app(config.sources(args.data, bundled=not args.no_bundled),
                   watch=config.watch, watch_interval=config.watch_interval, **options)


def _app_parameters() -> set[str]:
    """The keyword options the app takes (theme=, lang=, keymap= are passed only if taken)."""
    import inspect

    from .app import ErrKBApp

    return set(inspect.signature(ErrKBApp.__init__).parameters)


def _add_shell_parsers(sub) -> None:
    """The ``show``, ``run`` and ``mcp`` subcommands (their logic lives in their modules)."""
    show = sub.add_parser("show", parents=[_common(top=False)], help="print a record for the terminal",
                          description="Print a record: root cause, dead ends, workarounds.")
    show.add_argument("id", help="record id, e.g. python/module-not-found")
    show.add_argument("--json", action="store_true", help="print the record as JSON")
    show.add_argument("--from", dest="source", metavar="FILE",
                      help="the error text ('-': standard input); its values fill the commands")
    run = sub.add_parser("run", parents=[_common(top=False)], help="run a command; explain it if it fails",
                         description="Run CMD with its output passed through; if it fails, open the "
                                     "browser on its output. Exits with CMD's exit code.",
                         usage="errkb-tui run [--print] -- CMD [ARGS...]")
    run.add_argument("--print", action="store_true",
                     help="print the match and the first fix (to standard error) instead of opening the browser")
    run.add_argument("argv", nargs=argparse.REMAINDER, metavar="CMD", help="the command and its arguments")
    sub.add_parser("mcp", parents=[_common(top=False)], help="serve the KB to coding agents (MCP, stdio)",
                   description="Serve the KB over the Model Context Protocol on standard input and "
                               "output. Needs the extra: pip install 'errkb-tui[mcp]'.")


def cmd_mcp(args: argparse.Namespace) -> int:
    from .mcp_server import sdk_available, serve

    if not sdk_available():
        print("errkb-tui mcp needs the MCP SDK: pip install 'errkb-tui[mcp]'", file=sys.stderr)
        return EXIT_USAGE
    return serve(lambda: _load(args))


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``errkb-tui`` command; returns the exit code."""
    args = _parser().parse_args(argv)
    if getattr(args, "print_config", False):
        return print_config(args)
    try:
        if args.command == "match":
            return cmd_match(args)
        if args.command == "validate":
            return cmd_validate(args)
        if args.command == "show":
            from .show import cmd_show

            return cmd_show(args, lambda: _load(args))
        if args.command == "run":
            from .run_cli import cmd_run

            return cmd_run(args, lambda: _load(args), lambda text: _browse(args, text, "command"))
        if args.command == "mcp":
            return cmd_mcp(args)
        if args.command == "new":
            return new_cli.cmd_new(args)
        if args.command == "outcomes":
            return outcomes_cli.cmd_outcomes(args, _load)
        return cmd_browse(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK


__all__ = ["main", "Problem"]
