"""The config file: KB paths, theme, language, clipboard watching, where to write, keys.

Plain Python, no Textual. The file is TOML at :func:`errkb_tui.userdata.config_file`
(``$ERRKB_CONFIG``, else ``config.toml`` in the platform's config folder)::

    kb_paths = ["~/team-kb", "~/notes/errors.jsonl"]  # loaded after ERRKB_PATH, before --data
    theme = "nord"                   # a Textual theme name
    language = "zh"                  # "en" or "zh": the detail's language at start
    watch = true                     # watch the clipboard for errors
    watch_interval = 0.5             # seconds between clipboard reads (> 0)
    write_to = "~/team-kb"           # the writable KB folder new records go to

    [keymap]                         # binding id -> keys, as Textual's App.set_keymap takes
    "app.lang" = "f2"
    "app.quit" = "ctrl+q,q"

A missing file means defaults. A file that cannot be read or parsed is one problem, and
defaults. An unknown key or a bad value is a problem too (that setting keeps its default);
nothing here raises. Relative paths are relative to the config file's folder; ``~`` is
expanded. Command-line flags override the file (:meth:`Config.with_flags`).
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .kb import USER_LABEL, Problem, Source, default_sources
from .userdata import config_file, user_kb_dir

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

LANGUAGES = ("en", "zh")
DEFAULT_WATCH_INTERVAL = 0.5
#: Where a setting's value came from.
ORIGINS = ("default", "file", "env", "flag")
SETTINGS = ("kb_paths", "theme", "language", "watch", "watch_interval", "write_to", "keymap")

#: One key of a binding as Textual writes it: ``ctrl+shift+a``, ``f5``, ``question_mark``, ``?``.
_KEY = re.compile(r"(?:(?:ctrl|shift|alt|meta|super|hyper)\+)*(?:[a-z0-9_]+|[!-~])\Z")
_LINE_IN_MESSAGE = re.compile(r"at line (\d+)")


@dataclass(frozen=True)
class Config:
    """The effective settings, where each came from, and what was wrong in the file."""

    kb_paths: tuple[Path, ...] = ()
    theme: str | None = None  # None: the app's own default theme
    language: str = "en"
    watch: bool = True
    watch_interval: float = DEFAULT_WATCH_INTERVAL
    write_to: Path | None = None  # None: :func:`errkb_tui.userdata.user_kb_dir`
    keymap: Mapping[str, str] = field(default_factory=dict, hash=False)
    #: The file that was looked for (read or not).
    file: Path | None = None
    #: Whether that file was found and parsed.
    file_read: bool = False
    #: ``setting -> origin`` (one of :data:`ORIGINS`); settings not listed are defaults.
    origins: Mapping[str, str] = field(default_factory=dict, hash=False)
    problems: tuple[Problem, ...] = ()

    def origin(self, name: str) -> str:
        """Where setting ``name`` came from: ``default``, ``file``, ``env`` or ``flag``."""
        return self.origins.get(name, "default")

    def with_flags(self, **flags: Any) -> Config:
        """A copy with the command-line values that were given (not None) set, as ``flag``."""
        given = {name: value for name, value in flags.items() if value is not None}
        unknown = set(given) - set(SETTINGS)
        if unknown:
            raise TypeError(f"not settings: {', '.join(sorted(unknown))}")
        if "kb_paths" in given:
            given["kb_paths"] = tuple(Path(p) for p in given["kb_paths"])
        if isinstance(given.get("write_to"), str):
            given["write_to"] = Path(given["write_to"]).expanduser()
        origins = dict(self.origins) | {name: "flag" for name in given}
        return dataclasses.replace(self, **given, origins=origins)

    def write_folder(self, environ: Mapping[str, str] | None = None) -> Path:
        """The writable KB folder: ``write_to``, else the user's own KB folder."""
        return self.write_to if self.write_to is not None else user_kb_dir(environ)

    def sources(self, data_paths: Sequence[str | Path] = (), *, bundled: bool = True,
                environ: Mapping[str, str] | None = None, user: bool = True) -> list[Source]:
        """KB sources in load order: bundled, the user's own KB, ``ERRKB_PATH``, the
        config's ``kb_paths``, then ``--data``. A later record with the same id overrides
        an earlier one, so the command line wins over the config file, which wins over the
        environment, which wins over the user's own records, which win over bundled ones.

        The user's own KB (:func:`errkb_tui.userdata.user_kb_dir`, label
        :data:`~errkb_tui.kb.USER_LABEL`) is loaded only when its folder exists (it is
        created on the first write; ``user=False`` leaves it out). The write folder
        (:meth:`write_folder`) is marked ``writable`` wherever it is loaded; when it is an
        existing folder that no other source loads, it is loaded right after the user KB
        (label ``write_to``), so a record written there shows at once.
        """
        env = dict(environ) if environ is not None else None
        found = default_sources((), bundled=bundled, environ=env)
        head, rest = found[:1] if bundled else [], found[1:] if bundled else found
        own: list[Source] = []
        if user:
            folder = user_kb_dir(environ)
            if folder.is_dir():
                own.append(Source(folder, USER_LABEL, writable=True))
        sources = head + own + rest
        sources += [Source(path, "config") for path in self.kb_paths]
        sources += [Source(Path(p).expanduser(), "--data") for p in data_paths]
        target = self.write_folder(environ)
        target_key = _same_path_key(target)
        marked = False
        for source in sources:
            if source.label != "bundled" and _same_path_key(source.path) == target_key:
                source.writable = marked = True
        if not marked and target.is_dir():
            sources.insert(len(head) + len(own), Source(target, "write_to", writable=True))
        return sources


def _same_path_key(path: Path) -> str:
    """A key under which two spellings of one path compare equal (as far as can be told)."""
    try:
        return os.path.normcase(os.path.realpath(path))
    except (OSError, ValueError):
        return str(path)


def load_config(path: str | Path | None = None, *, environ: Mapping[str, str] | None = None) -> Config:
    """Read the config file (``path``, else :func:`errkb_tui.userdata.config_file`).

    Never raises: problems are listed in :attr:`Config.problems`.
    """
    env = os.environ if environ is None else environ
    file = Path(path).expanduser() if path is not None else config_file(env)
    origins: dict[str, str] = {}
    if env.get("ERRKB_HOME"):
        origins["write_to"] = "env"  # the default write folder moves with ERRKB_HOME
    base = Config(file=file, origins=origins)
    try:
        raw = file.read_bytes()
    except FileNotFoundError:
        return base
    except OSError as exc:
        reason = exc.strerror or str(exc)
        return dataclasses.replace(base, problems=(Problem("error", str(file), f"cannot read the config file: {reason}; "
                                                                               "using the defaults"),))
    try:
        text = raw.decode("utf-8-sig")
        data = tomllib.loads(text)
    except UnicodeDecodeError as exc:
        return dataclasses.replace(base, problems=(Problem("error", str(file), f"not UTF-8 text ({exc.reason}); "
                                                                               "using the defaults"),))
    except tomllib.TOMLDecodeError as exc:
        found = _LINE_IN_MESSAGE.search(str(exc))
        return dataclasses.replace(base, problems=(Problem(
            "error", str(file), f"not valid TOML: {exc}; using the defaults",
            line=int(found.group(1)) if found else None),))
    return _apply(data, text, dataclasses.replace(base, file_read=True))


def _apply(data: dict[str, Any], text: str, config: Config) -> Config:
    file = config.file
    problems: list[Problem] = []
    values: dict[str, Any] = {}
    origins = dict(config.origins)

    def bad(key: str, message: str, table: str | None = None) -> None:
        problems.append(Problem("warning", str(file), message, line=_line_of(text, key, table), field=key))

    folder = file.parent if file is not None else Path.cwd()
    for key, value in data.items():
        if key == "kb_paths":
            if isinstance(value, str):
                value = [value]
            if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
                bad(key, "kb_paths must be a list of paths (strings); ignored")
                continue
            values[key] = tuple(_path(v, folder) for v in value)
        elif key == "theme":
            if not isinstance(value, str) or not value.strip():
                bad(key, "theme must be a theme name (a string); the default theme is used")
                continue
            values[key] = value.strip()
        elif key == "language":
            if value not in LANGUAGES:
                bad(key, f"language must be one of {', '.join(map(repr, LANGUAGES))}, not {value!r}; using 'en'")
                continue
            values[key] = value
        elif key == "watch":
            if not isinstance(value, bool):
                bad(key, f"watch must be true or false, not {value!r}; using true")
                continue
            values[key] = value
        elif key == "watch_interval":
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0 or value == float("inf"):
                bad(key, f"watch_interval must be a number of seconds above 0, not {value!r}; "
                         f"using {DEFAULT_WATCH_INTERVAL}")
                continue
            values[key] = float(value)
        elif key == "write_to":
            if not isinstance(value, str) or not value.strip():
                bad(key, "write_to must be the path of a folder (a string); using the default")
                continue
            path = _path(value, folder)
            if path.exists() and not path.is_dir():
                bad(key, f"write_to {str(path)!r} is a file, not a folder; using the default")
                continue
            values[key] = path
        elif key == "keymap":
            if not isinstance(value, dict):
                bad(key, "keymap must be a table: [keymap] then lines of binding-id = \"keys\"; ignored")
                continue
            keymap: dict[str, str] = {}
            for binding, keys in value.items():
                message = _keys_problem(binding, keys)
                if message:
                    problems.append(Problem("warning", str(file), message, line=_line_of(text, binding, "keymap"),
                                            field=f"keymap.{binding}"))
                else:
                    keymap[binding] = ",".join(part.strip() for part in keys.split(","))
            values[key] = keymap
        else:
            close = difflib.get_close_matches(key, SETTINGS, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else f"; known: {', '.join(SETTINGS)}"
            bad(key, f"unknown setting {key!r}{hint}")
    origins.update({name: "file" for name in values})
    return dataclasses.replace(config, **values, origins=origins, problems=config.problems + tuple(problems))


def _path(value: str, folder: Path) -> Path:
    path = Path(value.strip()).expanduser()
    return path if path.is_absolute() else folder / path


def _keys_problem(binding: Any, keys: Any) -> str | None:
    if not isinstance(keys, str) or not keys.strip():
        return f"keymap: {binding!r} must map to keys in a string, such as \"ctrl+o\" or \"f2,o\"; ignored"
    bad_keys = [part.strip() for part in keys.split(",") if not _KEY.match(part.strip())]
    if bad_keys:
        return (f"keymap: {binding!r}: {', '.join(map(repr, bad_keys))} is not a key as Textual names them "
                f"(\"ctrl+o\", \"f2\", \"question_mark\"); ignored")
    return None


def keymap_problems(config: Config, binding_ids: Sequence[str]) -> list[Problem]:
    """Problems for keymap entries naming no binding of ``binding_ids`` (the app knows them)."""
    known = set(binding_ids)
    text = _read_text(config.file)
    out = []
    for binding in config.keymap:
        if binding not in known:
            close = difflib.get_close_matches(binding, sorted(known), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            out.append(Problem("warning", str(config.file), f"keymap: no binding has the id {binding!r}{hint}",
                                line=_line_of(text, binding, "keymap"), field=f"keymap.{binding}"))
    return out


def _read_text(file: Path | None) -> str:
    try:
        return file.read_text("utf-8-sig") if file is not None else ""
    except (OSError, UnicodeDecodeError):
        return ""


_TABLE = re.compile(r"^\s*\[\s*([^\]]+?)\s*\]")


def _line_of(text: str, key: str, table: str | None = None) -> int | None:
    """The 1-based line where ``key`` is set (at the top level, or in ``[table]``)."""
    current: str | None = None
    pattern = re.compile(r"^\s*(?:" + re.escape(key) + r"|\"" + re.escape(key) + r"\"|'" + re.escape(key) + r"')\s*=")
    dotted = re.compile(r"^\s*" + re.escape(f"{table}.{key}") + r"\s*=") if table else None
    for number, line in enumerate(text.splitlines(), start=1):
        header = _TABLE.match(line)
        if header:
            current = header.group(1).strip("\"'")
            continue
        if current == table and pattern.match(line):
            return number
        if current is None and dotted is not None and dotted.match(line):
            return number
        if current is None and table is None and pattern.match(line):
            return number
    if table and key == table:
        for number, line in enumerate(text.splitlines(), start=1):
            if _TABLE.match(line) and _TABLE.match(line).group(1).strip("\"'") == table:
                return number
    return None


# -- --print-config ------------------------------------------------------------------------


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, Path):
        value = str(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return repr(value)


def describe(config: Config, sources: Sequence[Source] = (), *, environ: Mapping[str, str] | None = None) -> str:
    """The effective settings as TOML (pasteable into a config file), each with where it
    came from; then the KB sources in load order and the problems."""
    if config.file is None:
        where = "(none)"
    elif config.file_read:
        where = f"{config.file} (read)"
    else:
        where = f"{config.file} ({'not read' if config.problems else 'not found: defaults'})"
    lines = [f"# config file: {where}"]
    env = os.environ if environ is None else environ
    if env.get("ERRKB_CONFIG"):
        lines[0] += "  [ERRKB_CONFIG]"
    rows = [
        ("kb_paths", _toml(list(config.kb_paths))),
        ("theme", _toml(config.theme) if config.theme else None),
        ("language", _toml(config.language)),
        ("watch", _toml(config.watch)),
        ("watch_interval", _toml(config.watch_interval)),
        ("write_to", _toml(config.write_folder(environ))),
    ]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        setting = f"{name:<{width}} = {value}" if value is not None else f"# {name:<{width - 2}} = (the app's default)"
        lines.append(f"{setting:<60} # {config.origin(name)}")
    lines.append(f"{'[keymap]':<60} # {config.origin('keymap')}")
    for binding, keys in config.keymap.items():
        lines.append(f"{_toml(binding)} = {_toml(keys)}")
    if sources:
        lines.append("")
        lines.append("# KB sources, in load order (a later record with the same id wins):")
        lines += [f"#   {source.label:<10} {source.path}" for source in sources]
    lines.append("")
    if config.problems:
        lines.append(f"# {len(config.problems)} problem(s):")
        lines += [f"#   {problem.format()}" for problem in config.problems]
    else:
        lines.append("# no problems")
    return "\n".join(lines)


# -- the command line -----------------------------------------------------------------------


def add_arguments(parser: Any) -> None:
    """The top-level options that override the config file, and ``--print-config``."""
    parser.add_argument("--theme", metavar="NAME", default=None,
                        help="the Textual theme (default: the config file's, else the app's)")
    parser.add_argument("--lang", choices=LANGUAGES, default=None,
                        help="the detail's language at start (default: the config file's, else en)")
    parser.add_argument("--write-to", metavar="FOLDER", default=None,
                        help="the writable KB folder new records go to (default: the config file's "
                             "write_to, else your own KB folder)")
    parser.add_argument("--print-config", action="store_true",
                        help="print the effective settings, where each came from, and the config "
                             "file's problems; exit 1 if it has any")


def from_args(args: Any, *, environ: Mapping[str, str] | None = None) -> Config:
    """The config file's settings with the command line's flags on top (read once per ``args``)."""
    cached = getattr(args, "_config", None)
    if cached is not None:
        return cached
    config = load_config(environ=environ).with_flags(
        watch=getattr(args, "watch", None), watch_interval=getattr(args, "watch_interval", None),
        theme=getattr(args, "theme", None), language=getattr(args, "lang", None),
        write_to=getattr(args, "write_to", None),
    )
    args._config = config
    return config


def app_options(config: Config, accepted: Sequence[str] | None = None) -> dict[str, Any]:
    """``theme=``, ``lang=``, ``keymap=`` for ``run_app`` (only those set, and only those
    in ``accepted`` when given: an app that does not take one yet is not passed it)."""
    options: dict[str, Any] = {}
    if config.theme:
        options["theme"] = config.theme
    if config.origin("language") != "default":
        options["lang"] = config.language
    if config.keymap:
        options["keymap"] = dict(config.keymap)
    if accepted is not None:
        options = {name: value for name, value in options.items() if name in accepted}
    return options


def print_config(args: Any, out: Any = None, *, environ: Mapping[str, str] | None = None) -> int:
    """``errkb-tui --print-config``: the effective settings and problems; 1 if any problem."""
    config = from_args(args, environ=environ)
    sources = config.sources(getattr(args, "data", ()) or (), bundled=not getattr(args, "no_bundled", False),
                             environ=environ)
    print(describe(config, sources, environ=environ), file=out or sys.stdout)
    return 1 if config.problems else 0


def warn_problems(config: Config, err: Any = None) -> None:
    """One line on standard error when the config file has problems (before any UI starts)."""
    if config.problems:
        print(f"errkb-tui: {len(config.problems)} problem(s) in {config.file}; see errkb-tui --print-config",
              file=err or sys.stderr)


__all__ = ["Config", "DEFAULT_WATCH_INTERVAL", "LANGUAGES", "ORIGINS", "SETTINGS", "add_arguments",
           "app_options", "describe", "from_args", "keymap_problems", "load_config", "print_config",
           "warn_problems"]
