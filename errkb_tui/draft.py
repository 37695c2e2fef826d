"""A draft record from an error text: the error line, a generalised regex, a signature with
placeholders, a guessed domain and category, versions seen in the text (no Textual).

The regex is the error line with its variable parts made classes (numbers, hex addresses,
UUIDs, quoted names, file paths, versions, durations, sizes, URLs, IP addresses) and the
rest literal and escaped. Parts a command could use become named groups with narrow classes
(``module``, ``package``, ``path``, ``port``, ``version``, ``command``, ...), and the
signature names them as ``{=name}`` placeholders (:mod:`errkb_tui.placeholders`); other
parts read ``N`` (a number) or ``X``. The result always compiles with RE2, matches the
line it came from, and has at least :data:`~errkb_tui.patterns.CONFIDENT_LITERALS` fixed
characters (else the line is kept literal, cut at a word).

A draft is written as a record file, ``<kb>/<domain>/<slug>.json``, with the text it came
from beside it, ``<slug>.example.txt`` (``validate`` checks the regex still matches it).
JSON has no comments, so the draft's guidance lives in keys starting with ``_``:
``_draft`` (what to fill in), ``_example_dead_end`` and ``_example_workaround`` (one example
entry each; ``dead_ends`` and ``workarounds`` start empty). The loader reports such keys as
``info``, never as typos; while ``_draft`` is there and ``workarounds`` is empty, the lint
reports an error, so ``validate`` accepts the draft once a workaround is filled in.

``verification_tier`` is ``user_written``: a person wrote it from an error they hit, and its
regex was checked against that real output (the example file); nothing else was checked.
``ai_generated`` would claim a model wrote it; ``source_checked`` needs a cited source for
every fix. Like ``ai_generated`` it is not a checked tier.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import tempfile
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .match import clean_text, is_error_line, is_wrapper_line, strip_prefix
from .model import compile_regex
from .patterns import CONFIDENT_LITERALS, literal_length

#: The tier of a record a user writes (see the module's docstring).
USER_TIER = "user_written"
#: Keys of a draft that carry guidance, not data (the loader reports ``_`` keys as info).
DRAFT_KEY, EXAMPLE_DEAD_END_KEY, EXAMPLE_WORKAROUND_KEY = "_draft", "_example_dead_end", "_example_workaround"
#: The example text saved beside a record: ``<slug>.example.txt``.
EXAMPLE_SUFFIX = ".example.txt"
#: The error line is cut to this many characters (at a word) before it becomes a regex.
MAX_LINE_CHARS = 200
#: The text saved as the example is at most this long (its end: tracebacks end with the error).
MAX_EXAMPLE_CHARS = 64 * 1024


# -- the error line ---------------------------------------------------------------------

#: Lines that say an error happened but not which: summaries, stack frames, shell prompts.
_NOISE = re.compile(
    r"""^(?:\$\ |>>>\ |\#\#\[|\+\ |Traceback\ |File\ "|at\ [\w.$<]|\.\.\.\ \d+\ more
      | During\ handling | The\ above\ exception)
    | Process\ completed\ with\ exit\ code | ^make(?:\[\d+\])?:\ \*\*\* | could\ not\ compile
    | ^exit\ status\ \d+$ | A\ complete\ log\ of\ this\ run | For\ more\ information\ about
    | \d+\ errors?\ generated | ^error:\ aborting | ^Aborting | returned\ (?:a\ )?non-zero\ exit
    | ^ERROR:\ Job\ failed | ^\s*\^+\s*$ | ^Error:\ Process\ completed | npm\ ERR!\ (?:code|errno|path|syscall)\b
    | ^(?:npm|yarn|pnpm)\ ERR!\s*$ | ^note: | ^help: | command\ failed:?\s*$ | ^FAILED\ \(
    | to\ learn\ more | ^Visit\ https?:// | ^\w+\ @\ \S+:\d+$ | ChildFailedError:?$ | failed\ \(exitcode:
    | ^Fix\ the\ upstream | --legacy-peer-deps | ^(?:cwd|node\ -v|node-gyp\ -v|not\ ok|argv|System|command\ ")
    | ^Consider\ adding\ an\ error\ boundary | ^Check\ the\ render\ method
    """,
    re.VERBOSE,
)
#: The forms of a specific error message, best first.
_STRONG = re.compile(
    r"""^(?:[\w.$]+\.)?[A-Z]\w*(?:Error|Exception|Fault|Failure)\b:? | ^error\[E\d+\] | ^panic: | ^fatal\ error:
    | ^fatal: | ^FATAL: | ^Caused\ by: | ^error\ TS\d+ | ^Error:\ | ^ERROR\ \d+ | ^\(error\)\ | ^E:\ | ^error:
    | ^Error\ from\ server | ^Error\ response\ from\ daemon | ^thread\ '[^']*'\ panicked | Exception\ in\ thread
    | ^ERROR:\ | \berror\ TS\d+: | ^E[A-Z]{3,}\b | \bUncaught\ (?:\w+)?Error\b | ^(?:\S+\ )?Warning:\ 
    """,
    re.VERBOSE,
)


#: Lines that match's rules miss but that still read as errors: ``Error [ERR_X]:``, a
#: compiler's ``file.go:18:2: message``, words of failure.
_WEAK_ERROR = re.compile(
    r"""\b(?:error|Error|ERROR)\b | ^[\w./-]+\.\w+:\d+(?::\d+)?:\ \w
    | \b(?:insufficient|unable|Unable|invalid|Invalid|unsupported|not\ supported|missing|No\ such|no\ such
    | exceeded|timed\ out|[Kk]illed|[Aa]bort|fail|[Ff]ailed|refused|can't|couldn't|could\ not|[Uu]nknown
    | mismatch|incompatible|[Cc]onflict|violation|[Ff]orbidden|[Uu]nauthorized|expired|out\ of\ memory
    | declared\ and\ not\ used|undefined|not\ defined|[Dd]eprecated|[Nn]o\ space)\b
    """,
    re.VERBOSE,
)


@dataclass(frozen=True)
class ErrorLine:
    """The line a draft is built from: as written, without log prefixes, its 1-based number."""

    raw: str
    clean: str
    number: int


def error_line(text: str | bytes) -> ErrorLine | None:
    """The line of ``text`` that names the error best, or None for text with no words.

    Among lines that look like errors (:func:`errkb_tui.match.is_error_line`), a specific
    form (``XError: ...``, ``error[E0502]:``, ``panic:``, ``Caused by:``) beats a generic
    one, a summary (``could not compile``, ``exit code 2``, a wrapper line such as ``npm ERR!
    code 1``) or a stack frame loses, and a
    later line beats an earlier one (the final exception of a chain). Without any error
    line, the last line with words that is not a shell command.
    """
    lines = clean_text(text).split("\n")
    best: tuple[float, ErrorLine] | None = None
    fallback: ErrorLine | None = None
    for number, raw in enumerate(lines, start=1):
        raw = raw.strip()
        clean = strip_prefix(raw)
        if len(clean) < 4 or not re.search(r"[A-Za-z]{2}", clean):
            continue
        noise = bool(_NOISE.search(clean))
        candidate = ErrorLine(raw, clean, number)
        if not noise:
            fallback = candidate
        if _STRONG.search(clean) or _STRONG.search(raw):
            score = 10.0
        elif is_error_line(clean) or is_error_line(raw):
            score = 5.0
        elif _WEAK_ERROR.search(clean):
            score = 3.0
        else:
            continue
        if _STRONG.search(raw) and not _STRONG.search(clean):
            candidate = ErrorLine(raw, raw, number)  # the prefix was the error's name: ERROR 1045
        if noise or is_wrapper_line(raw) or is_wrapper_line(clean):
            score -= 8  # a summary a tool prints under the real error (npm ERR! code 1)
        if clean.startswith("Caused by:"):
            score += 1  # the root of a Java chain
        if len(clean) < 12:
            score -= 3
        score += number / max(1, len(lines))  # later wins a tie
        if best is None or score >= best[0]:
            best = (score, candidate)
    if best is not None and best[0] > 0:
        return _message_after(best[1], lines)
    return fallback if fallback is not None else (best[1] if best else None)


def _message_after(line: ErrorLine, lines: list[str]) -> ErrorLine:
    """The line after ``line`` when ``line`` only introduces the message (it ends with ``:``:
    ``thread 'main' panicked at src/main.rs:27:44:``, ``TSError: Unable to compile
    TypeScript:``) and the next line reads as one (a few words, not noise)."""
    if not line.clean.endswith(":") or line.number >= len(lines):
        return line
    raw = lines[line.number].strip()
    clean = strip_prefix(raw)
    if len(clean.split()) < 3 or len(re.findall(r"[A-Za-z]{2,}", clean)) < 3 or _NOISE.search(clean):
        return line  # a file list, a separator: not the message
    exception = re.match(r"(?:[\w.$]+\.)?[A-Z]\w*(?:Error|Exception)\b", line.clean)
    if exception and not (_STRONG.search(clean) or is_error_line(clean)):
        return line  # RuntimeError: Error(s) in loading state_dict for X: the details follow
    return ErrorLine(raw, clean, line.number + 1)


# -- generalising a line -----------------------------------------------------------------


@dataclass(frozen=True)
class Generalised:
    """A line made into a regex: ``regex`` matches ``line``; ``signature`` shows the same
    parts as placeholders; ``groups`` are the named groups' values in ``line``."""

    line: str
    regex: str
    signature: str
    groups: dict[str, str] = field(default_factory=dict)


@dataclass
class _Part:
    start: int
    end: int
    pattern: str  # the regex for the part, RE2 syntax
    name: str | None = None  # a named group, when a command could use it
    shown: str = "X"  # how the signature shows an unnamed part
    prefix: str = ""  # literal text kept before the variable part (inside the span)
    suffix: str = ""


#: Quoted text: '...', "...", `...`, ‘...’, “...” (not an apostrophe inside a word).
_QUOTED = re.compile(r"""(?<![\w'"`])(?:'([^'\n]{1,200})'|"([^"\n]{1,200})"|`([^`\n]{1,200})`"""
                     r"""|‘([^’\n]{1,200})’|“([^”\n]{1,200})”)(?!\w)""")
_URL = re.compile(r"\b(?:https?|wss?|s3|gs|file)://[^\s'\"<>()\[\]{}]+")
_UUID = re.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b")
_WIN_PATH = re.compile(r"\b[A-Za-z]:\\(?:[\w.@+~-]+\\)*[\w.@+~-]+")
_POSIX_PATH = re.compile(r"(?<![\w/.:])(?:~|\.{1,2})?/(?:[\w.@+~-]+/)*[\w.@+~-]+/?|"
                         r"(?<![\w/.:@-])(?:[\w.@+~-]+/)+[\w@+~-]+\.[A-Za-z]\w{0,7}\b")
_HOST_PORT = re.compile(r"\b(?:\d{1,3}(?:\.\d{1,3}){3}|localhost|\[[0-9a-fA-F:]+\]|"
                        r"[a-z][\w-]*(?:\.[\w-]+)+):(\d{2,5})\b")
_IP = re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}\b")
_HEX = re.compile(r"\b0x[0-9a-fA-F]+\b")
_SHA = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,64}\b")
_DURATION = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(\s?)(ms|us|µs|ns|s|secs?|seconds?|m|mins?|minutes?|h|hours?)\b")
_SIZE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(\s?)([KMGTP]i?B|[kKMGT]|bytes?|B)\b")
_VERSION = re.compile(r"(?<![\w.])(v?)(\d+(?:\.\d+){1,3}(?:[-.]?(?:a|b|rc|alpha|beta|dev|post)\d*)?)(?![\w.]?\d)")
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w]|\.\d)")
#: Unquoted names some tools print: ``bash: foo: command not found``, pip's requirement.
_UNQUOTED = [
    (re.compile(r"(?:^|: )([\w.+-]+): command not found"), "command", r"[\w.+-]+"),
    (re.compile(r"No matching distribution found for ([\w.-]+)"), "package", r"[\w.-]+"),
    (re.compile(r"satisfies the requirement ([\w.-]+)"), "package", r"[\w.-]+"),
    (re.compile(r"pull access denied for ([\w./-]+)"), "image", r"[\w./-]+"),
    (re.compile(r"on endpoint ([\w.-]+)"), "container", r"[\w.-]+"),
    (re.compile(r"(?:ClassNotFoundException|NoClassDefFoundError): ([\w$]+(?:[./][\w$]+)+)"), "class", r"[\w./$]+"),
    (re.compile(r"(?:unknown|invalid) (?:option|flag|argument)[: ]+(-{1,2}[\w-]+)"), "option", r"-{1,2}[\w-]+"),
]
#: Words that name a number as the error's identity (kept literal): ``[Errno 13]``, ``ERROR 1045``.
_CODE_WORDS = re.compile(r"\b(?:errno|error|code|status|signal|exit|http|sqlstate|ora|err|returned)\W{0,2}$", re.I)
#: Random ids (build refs, request ids): long runs of letters and digits mixed.
_RANDOM_ID = re.compile(r"\b(?=[a-z0-9]*\d[a-z0-9]*\d)(?=[a-z0-9]*[a-z])[a-z0-9]{16,}\b|"
                        r"\b(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[a-z])(?=[A-Za-z0-9]*[A-Z])[A-Za-z0-9]{20,}\b")
#: Words before a quoted value that make it no command's business (``thread "main"``).
_UNNAMED_CONTEXT = {"thread"}
#: A word before a quoted name -> the group's name (and the class of its value).
_CONTEXT_NAMES = {
    "module": "module", "modules": "module", "import": "module", "package": "package", "packages": "package",
    "distribution": "package", "requirement": "package", "attribute": "attribute", "column": "column",
    "columns": "column", "key": "key", "table": "table", "database": "database", "user": "user",
    "host": "host", "file": "path", "directory": "path", "path": "path", "folder": "path", "command": "command",
    "image": "image", "container": "container", "pod": "pod", "pods": "pod", "namespace": "namespace",
    "namespaces": "namespace", "service": "service", "services": "service", "secret": "secret",
    "secrets": "secret", "deployment": "deployment", "deployments": "deployment", "node": "node",
    "nodes": "node", "bucket": "bucket", "branch": "branch", "repository": "repository", "repo": "repository",
    "remote": "remote", "class": "class", "function": "function", "method": "method", "argument": "argument",
    "parameter": "argument", "field": "field", "property": "property", "type": "type", "variable": "variable",
    "resource": "resource", "volume": "volume", "network": "network", "library": "library", "role": "role",
    "crate": "crate", "feature": "feature", "symbol": "symbol", "index": "index", "topic": "topic",
    "queue": "queue", "provider": "provider", "plugin": "plugin", "extension": "extension", "dtype": "dtype",
    "device": "device", "configmap": "configmap", "configmaps": "configmap", "object": "object",
}
#: The class of a named group's value, by name (narrow: no space, quote or shell metacharacter).
_CLASSES = {
    "module": r"[\w./@-]+", "package": r"[\w.-]+", "path": r"[\w./~@+-]+", "command": r"[\w.+-]+",
    "image": r"[\w./:@-]+", "class": r"[\w./$]+", "host": r"[\w.-]+", "version": None, "port": r"\d+",
}
_DEFAULT_CLASS = r"[\w.:/@+-]+"
_WORDS_BEFORE = re.compile(r"([A-Za-z_]+)\W*$")
_IGNORED_WORDS = {"named", "the", "a", "an", "for", "of", "to", "in", "on", "called", "with", "as", "at", "by", "is"}


def _escape(text: str) -> str:
    """``text`` as a literal in RE2 syntax; runs of 2+ spaces match any run of spaces."""
    out = []
    for chunk in re.split(r"( {2,})", text):
        if chunk.startswith("  ") and not chunk.strip():
            out.append(" +")
        else:
            out.append(re.sub(r"([\\.^$|?*+()\[\]{}])", r"\\\1", chunk))
    return "".join(out)


def _context_name(line: str, start: int) -> str | None:
    before = line[max(0, start - 40):start]
    if before.rstrip("'\"`").endswith("@"):
        return "host"
    words = re.findall(r"[A-Za-z_]+", before)
    while words and words[-1].lower() in _IGNORED_WORDS:
        words.pop()
    if not words:
        return "host" if before.endswith("@") else None
    return _CONTEXT_NAMES.get(words[-1].lower())


def _last_word(line: str, start: int) -> str:
    words = re.findall(r"[A-Za-z_]+", line[max(0, start - 40):start])
    return words[-1].lower() if words else ""


def _looks_like_path(value: str) -> bool:
    return bool(re.fullmatch(r"(?:~|\.{1,2})?/[\w./~@+-]*|[A-Za-z]:\\[\w.\\~@+-]*|(?:[\w.@+~-]+/)+[\w.@+~-]+", value))


def _parts(line: str) -> list[_Part]:
    """The variable parts of ``line``, left to right, not overlapping."""
    found: list[_Part] = []
    taken: list[tuple[int, int]] = []

    def free(start: int, end: int) -> bool:
        return all(end <= s or start >= e for s, e in taken)

    def add(part: _Part) -> None:
        if part.end > part.start and free(part.start, part.end):
            found.append(part)
            taken.append((part.start, part.end))

    for regex, name, cls in _UNQUOTED:
        for m in regex.finditer(line):
            add(_Part(m.start(1), m.end(1), cls, name))
    for m in _QUOTED.finditer(line):
        group = next(i for i in range(1, 6) if m.group(i) is not None)
        value, start, end = m.group(group), m.start(group), m.end(group)
        if not free(start, end):
            continue
        quote_close = line[end]
        name = _context_name(line, m.start())
        unnamed = _last_word(line, m.start()) in _UNNAMED_CONTEXT
        if name is None and _looks_like_path(value):
            name = "path"
        cls = _CLASSES.get(name or "", _DEFAULT_CLASS) or _DEFAULT_CLASS
        if name == "path" and "\\" in value:
            cls = r"[\w.\\:~@+-]+"
        if unnamed or re.fullmatch(cls, value) is None:  # spaces, odd characters: any text to the quote
            add(_Part(start, end, "[^" + _escape(quote_close) + r"\n]*", None, "X"))
        else:
            add(_Part(start, end, cls, name or "name", "X"))
        taken.append((m.start(), m.end()))  # the quotes stay literal, nothing else goes inside
    for m in _URL.finditer(line):
        scheme = m.group().split("://", 1)[0]
        add(_Part(m.start(), m.end(), r"[^\s'\"<>]+", None, "X", prefix=scheme + "://"))
    for m in _UUID.finditer(line):
        add(_Part(m.start(), m.end(), r"[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}"))
    for m in _WIN_PATH.finditer(line):
        add(_Part(m.start(), m.end(), r"[A-Za-z]:\\[\w.\\~@+-]+", "path"))
    for m in _POSIX_PATH.finditer(line):
        if m.group().count("/") == 1 and m.group().startswith("/") and len(m.group()) < 3:
            continue
        add(_Part(m.start(), m.end(), _CLASSES["path"], "path"))
    for m in _HOST_PORT.finditer(line):
        if not free(m.start(), m.end()):
            continue
        host_end = m.start(1) - 1
        host = line[m.start():host_end]
        if host != "localhost":
            add(_Part(m.start(), host_end, r"\d+(?:\.\d+){3}" if _IP.fullmatch(host) else r"[\w.\[\]:-]+"))
        add(_Part(m.start(1), m.end(1), r"\d+", "port", "N"))
    for m in _IP.finditer(line):
        add(_Part(m.start(), m.end(), r"\d+(?:\.\d+){3}"))
    for m in _HEX.finditer(line):
        add(_Part(m.start(), m.end(), r"0x[0-9a-fA-F]+"))
    for m in _SHA.finditer(line):
        add(_Part(m.start(), m.end(), r"[0-9a-f]{7,64}"))
    for m in _RANDOM_ID.finditer(line):
        add(_Part(m.start(), m.end(), r"[A-Za-z0-9]+"))
    for m in re.finditer(r"\bport (\d+)\b", line):
        add(_Part(m.start(1), m.end(1), r"\d+", "port", "N"))
    for m in _DURATION.finditer(line):
        number = r"\d+(?:\.\d+)?" if "." in m.group(1) else r"\d+"
        if m.group(3) in ("ms", "us", "µs", "ns", "s", "m", "h"):  # 9s, 2m, 500ms: the unit varies too
            add(_Part(m.start(), m.end(), number + (" ?" if m.group(2) else "") + "(?:[mnuµ]?s|m|h)", None, "N"))
        else:
            add(_Part(m.start(1), m.end(1), number, None, "N"))
    for m in re.finditer(r"\bx(\d+)\b", line):  # (x8 over 73s): a repeat count
        add(_Part(m.start(1), m.end(1), r"\d+", None, "N"))
    for m in _SIZE.finditer(line):
        number = r"\d+(?:\.\d+)?" if "." in m.group(1) else r"\d+"
        if re.fullmatch(r"[kKMGTP]?i?B", m.group(3)):  # 1.95 GiB, 512.00 MiB: the unit varies too
            add(_Part(m.start(), m.end(), number + (" ?" if m.group(2) else "") + r"[kKMGTP]?i?B", None, "N"))
        else:
            add(_Part(m.start(1), m.end(1), number, None, "N"))
    for m in _VERSION.finditer(line):
        value = m.group(2)
        before = line[max(0, m.start() - 12):m.start()]
        contextual = bool(m.group(1)) or re.search(r"(?:version|==|>=|<=|@|python|node|go|v)\s*$", before, re.I)
        if value.count(".") >= 2 or contextual or re.search(r"[-_]$", before):
            add(_Part(m.start(2), m.end(2), r"\d+(?:\.\d+)+(?:[-.]?[a-z]+\d*)?", "version", "X"))
    for m in _NUMBER.finditer(line):
        before = line[:m.start()]
        if _CODE_WORDS.search(before) or re.search(r"\(\d{5}\)$", line[m.start() - 1:m.end() + 1]):
            continue  # an error code: the error's identity, kept literal
        value = m.group().lstrip("-")
        start = m.start() + (len(m.group()) - len(value))
        add(_Part(start, m.end(), r"\d+(?:\.\d+)?" if "." in value else r"\d+", None, "N"))
    found.sort(key=lambda p: p.start)
    return found


def _cut(line: str, limit: int = MAX_LINE_CHARS) -> str:
    """``line`` up to ``limit`` characters: at the end of a sentence after 60, else at a word."""
    if len(line) <= limit:
        return line
    head = line[:limit]
    sentence = max(head.rfind(". "), head.rfind("; "))
    if sentence >= 60:
        return head[:sentence + 1]
    space = head.rfind(" ")
    return head[:space] if space >= 60 else head


def generalise(line: str) -> Generalised:
    """``line`` as a regex with its variable parts as classes (see the module's docstring).

    Always RE2-valid and matching ``line`` (cut to ``MAX_LINE_CHARS``); if the generalised
    form would be too generic or fail, the line itself, escaped, is used instead.
    """
    line = _cut(" ".join(line.split()) if "\t" in line else line.strip())
    regex_parts: list[str] = []
    shown: list[str] = []
    groups: dict[str, str] = {}
    position = 0
    for part in _parts(line):
        literal = line[position:part.start]
        regex_parts.append(_escape(literal))
        shown.append(literal)
        value = line[part.start:part.end]
        body = part.pattern
        if part.prefix and value.startswith(part.prefix):
            regex_parts.append(_escape(part.prefix))
            shown.append(part.prefix)
        name = part.name
        if name is not None and name in groups:
            name = None  # each name once: RE2 fills only the first group of a name
        if name is not None:
            groups[name] = value
            regex_parts.append(f"(?P<{name}>{body})")
            shown.append("{=" + name + "}")
        else:
            regex_parts.append(body)
            shown.append(part.shown)
        position = part.end
    regex_parts.append(_escape(line[position:]))
    shown.append(line[position:])
    regex = "".join(regex_parts)
    signature = "".join(shown)
    if not _usable(regex, line):
        return Generalised(line, _escape(line), line, {})
    return Generalised(line, regex, signature, groups)


def _usable(regex: str, line: str) -> bool:
    try:
        compiled = compile_regex(regex)
    except ValueError:
        return False
    return literal_length(regex) >= CONFIDENT_LITERALS and compiled.search(line) is not None


# -- domain, category, versions ----------------------------------------------------------

#: ``(domain, evidence)``: the first whose pattern is found in the text names the domain.
_DOMAINS: list[tuple[str, re.Pattern[str]]] = [
    ("rust", re.compile(r"^error\[E\d{4}\]|linker `cc` not found|\bcargo (?:build|run|test)\b|^\s*--> [\w/.-]+\.rs:\d+|"
                        r"thread '[^']*' panicked at", re.M)),
    ("typescript", re.compile(r"\berror TS\d+:|\btsc\b|\bTSError\b|\bts-node\b|Unable to compile TypeScript")),
    ("terraform", re.compile(r"\bterraform\b|^│ Error:|registry\.terraform\.io", re.M)),
    ("gha", re.compile(r"Process completed with exit code|Resource not accessible by integration|^##\[error\]|"
                       r"\bGITHUB_[A-Z_]+\b|\buses: [\w-]+/[\w-]+@",
                       re.M)),
    ("helm", re.compile(r"\bhelm\b|Error: (?:INSTALLATION|UPGRADE) FAILED")),
    ("kubernetes", re.compile(r"\bkubectl\b|Error from server \(|\bCrashLoopBackOff\b|\bImagePullBackOff\b|"
                              r"\bkubelet\b|no matches for kind|\bFailedScheduling\b|default-scheduler|"
                              r"untolerated taint")),
    ("docker", re.compile(r"\bdocker\b|Dockerfile|Error response from daemon|failed to solve:|\bBuildKit\b|"
                          r"no matching manifest for|port is already allocated|Ports are not available|"
                          r"OCI runtime create failed|failed to create task for container", re.I)),
    ("aws", re.compile(r"\baws (?:s3|sts|ec2|iam|lambda|ecr|eks|configure)\b|InvalidClientTokenId|"
                       r"An error occurred \(\w+\) when calling|arn:aws:")),
    ("nextjs", re.compile(r"\bnext (?:build|dev|start)\b|\bNext\.js\b|\.next/|\bnext/\w+|getServerSideProps|"
                          r"Error occurred prerendering page")),
    ("react", re.compile(r"\bHydration failed\b|\breact-dom\b|Minified React error|Invalid hook call|"
                         r"\bReact\b|\bJSX\b|Element type is invalid|Maximum update depth exceeded|"
                         r"Too many re-renders|does not match server-rendered HTML|unique \"key\" prop|"
                         r"\(reading 'use[A-Z]\w*'\)")),
    ("javascript", re.compile(r"is not valid JSON|Unexpected token '<'|\bUncaught (?:TypeError|ReferenceError|"
                              r"SyntaxError)\b|Cannot read propert(?:y|ies) of (?:undefined|null)|"
                              r"blocked by CORS policy|Access-Control-Allow-Origin")),
    ("vite", re.compile(r"\bvite\b|\[vite\]|\[plugin:vite", re.I)),
    ("webpack", re.compile(r"\bwebpack\b|Module not found: (?:Error: )?Can't resolve|\bModule build failed\b")),
    ("tailwind", re.compile(r"\btailwind(?:css)?\b", re.I)),
    ("eslint", re.compile(r"\beslint\b|\bESLint\b")),
    ("jest", re.compile(r"\bjest\b|\bJest\b")),
    ("gradle", re.compile(r"\bgradle\b|\bGradle\b|FAILURE: Build failed with an exception|"
                          r"Unsupported class file major version")),
    ("maven", re.compile(r"\[ERROR\] Failed to execute goal|\bmvn\b|\bmaven\b|\bBUILD FAILURE\b", re.I)),
    ("java", re.compile(r"\bjava\.\w+\.|Exception in thread \"|^\s+at [\w.$]+\([\w$]+\.java:\d+\)|\bJAVA_HOME\b|"
                        r"\bjava\b", re.M)),
    ("spring", re.compile(r"\bspringframework\b|Spring Boot|APPLICATION FAILED TO START|\bSpringApplication\b")),
    ("mongodb", re.compile(r"\bMongo\w*Error\b|\bmongo(?:d|ose|sh)?\b|:27017\b", re.I)),
    ("conda", re.compile(r"\bconda\b|\bCondaError\b|\bPackagesNotFoundError\b")),
    ("poetry", re.compile(r"\bpoetry\b|poetry\.lock", re.I)),
    ("uv", re.compile(r"\buv (?:pip|sync|lock|add|run|venv)\b|No solution found when resolving dependencies|"
                      r"we can conclude that your requirements are unsatisfiable")),
    ("gcp", re.compile(r"\bgcloud\b|googleapis\.com|\bGoogle Cloud\b|\bgoogle\.auth\b")),
    ("azure", re.compile(r"\baz (?:login|account|webapp|aks|group|storage)\b|\bAzure\b|\bAADSTS\d+")),
    ("windows", re.compile(r"is not recognized as an internal or external command|is not recognized as the name of a "
                           r"cmdlet|cannot be loaded because running scripts|\bPowerShell\b")),
    ("composer", re.compile(r"\bcomposer(?:\.json|\.lock)?\b")),
    ("php", re.compile(r"\bPHP (?:Fatal|Warning|Parse|Notice)|\.php\b|\bphp\b")),
    ("ruby", re.compile(r"\bGem::|\bgem install\b|\bbundle (?:install|exec)\b|\bBundler\b|\.rb:\d+|\bruby\b")),
    ("cmake", re.compile(r"\bCMake\b|CMakeLists\.txt|\bcmake\b")),
    ("cpp", re.compile(r"\bundefined reference to\b|\bcollect2\b|\bld: |\.(?:cpp|cc|cxx|hpp|hh|c|h):\d+:\d+: "
                       r"(?:fatal )?error:|\b(?:g\+\+|clang\+\+)\b")),
    ("node", re.compile(r"npm ERR!|npm error|node:internal|JavaScript heap|\bERESOLVE\b|Lifecycle script|ELIFECYCLE|"
                        r"\bEBADENGINE\b|Unsupported engine|digital envelope routines|\bERR_OSSL|ES module scope|"
                        r"\bconnect ECONNREFUSED\b|System limit for number of file watchers|"
                        r"^\s+at .*\.[cm]?js:\d+:\d+\)?$|Cannot find module|\bNode\.js v\d+|\bat Module\._|"
                        r"\bnode_modules/|Require stack:|\bnode v?\d+|ERR_[A-Z_]+\b", re.M)),
    ("go", re.compile(r"^panic: |^goroutine \d+ \[|\bgo: |\.go:\d+|\bgo\.sum\b|^fatal error: all goroutines", re.M)),
    ("redis", re.compile(r"^\(error\) |\bredis-cli\b|\bMISCONF\b|\bWRONGTYPE\b|:6379\b|\bredis\.exceptions\b", re.M)),
    ("mysql", re.compile(r"^ERROR \d{4} \(\w{5}\)|\bmysql\b|\bMariaDB\b", re.M)),
    ("pip", re.compile(r"\bpip3? (?:install|download)\b|externally-managed-environment|"
                       r"pip's dependency resolver|No matching distribution found|"
                       r"Could not build wheels|\bpip\._internal|requires a different Python|"
                       r"subprocess-exited-with-error|pg_config executable not found|ResolutionImpossible|"
                       r"conflicting dependencies|Microsoft Visual C\+\+ 14\.0")),
    ("postgres", re.compile(r"\bpsql\b|\bpsycopg2?\b|\bpostgres(?:ql)?\b|\bpg_\w+|asyncpg|"
                            r"role \"[^\"]+\" does not exist|"
                            r"violates unique constraint|relation \"[^\"]+\" does not exist",
                            re.I)),
    ("sqlite", re.compile(r"\bsqlite3?\b", re.I)),
    ("git", re.compile(r"^fatal: |^error: (?:failed to push|pathspec|Your local changes)|\bgit (?:push|pull|"
                       r"clone|fetch|checkout|merge|rebase|commit|describe)\b", re.M)),
]
#: Python packages (in paths or module names) whose errors have a domain of their own.
_PY_PACKAGES = [("pytorch", "torch"), ("tensorflow", "tensorflow"), ("jax", "jax"), ("transformers", "transformers"),
                ("sklearn", "sklearn"), ("pandas", "pandas"), ("numpy", "numpy"), ("aws", "botocore"),
                ("aws", "boto3"), ("datasets", "datasets"), ("bitsandbytes", "bitsandbytes"), ("vllm", "vllm"),
                ("onnx", "onnxruntime")]
# Web frameworks, test runners and plotting sit in most tracebacks of their users' own bugs,
# so they name the domain only by the words of the error line (below), never by a path.
#: Words of an error line that name the Python library it comes from.
_PY_LINE_WORDS = [
    ("pytorch", re.compile(r"\b[Tt]orch\b|re-initialize CUDA in forked|no kernel image is available|\bTensor\b|"
                           r"\bnccl\b|\bNCCL\b|\blocal_rank\b|view size is not compatible|"
                           r"The size of tensor a|device-side assert|illegal memory access|\bc10::|same device|"
                           r"expected scalar type|useIpv6|DistNetworkError|\bc10d\b|numpy\(\) on Tensor")),
    ("tensorflow", re.compile(r"\btensorflow\b|\btf\.|\bkeras\b|Failed to convert a NumPy array to a Tensor|"
                              r"Input \d+ of layer")),
    ("jax", re.compile(r"\bjaxlib\b|\bjax\b")),
    ("transformers", re.compile(r"\btransformers\b|\bAutoModel|\bAutoTokenizer\b|gated repo|trust_remote_code|"
                                r"attention mask|TOKENIZERS_PARALLELISM|newly initialized|requires `accelerate`|"
                                r"attention_mask|were not initialized from the model checkpoint")),
    ("sklearn", re.compile(r"\bsklearn\b|\bscikit-learn\b")),
    ("pandas", re.compile(r"\bpandas\b|\bDataFrame\b|SettingWithCopy")),
    ("numpy", re.compile(r"\bnumpy\b|compiled using NumPy 1\.x|_ARRAY_API|\bndarray\b|truth value of an array|"
                         r"setting an array element with a sequence|"
                         r"could not be broadcast|_ArrayMemoryError|for an array with shape")),
    ("aws", re.compile(r"\bbotocore\b|\bboto3\b")),
    ("django", re.compile(r"\bdjango\b|DJANGO_SETTINGS_MODULE|ALLOWED_HOSTS|CSRF verification|Origin checking failed")),
    ("flask", re.compile(r"\bflask\b|outside of application context", re.I)),
    ("fastapi", re.compile(r"\bfastapi\b|\b422 Unprocessable Entity\b", re.I)),
    ("pydantic", re.compile(r"\bpydantic(?:_core)?\b|validation errors? for \w+")),
    ("sqlalchemy", re.compile(r"\bsqlalchemy\b|Not an executable object", re.I)),
    ("pytest", re.compile(r"\bfixture '[^']+' not found|\bpytest\b")),
    ("jupyter", re.compile(r"\b[Kk]ernel (?:appears to have died|crashed|died)\b|\bjupyter\b", re.I)),
    ("datasets", re.compile(r"\bdatasets\.\w+|load_dataset")),
    ("bitsandbytes", re.compile(r"\bbitsandbytes\b", re.I)),
    ("vllm", re.compile(r"\bvllm\b|\bKV cache\b", re.I)),
    ("onnx", re.compile(r"\bonnxruntime\b|\bONNX(?:Runtime)?\b|\bonnx\b")),
    ("matplotlib", re.compile(r"\bmatplotlib\b", re.I)),
    ("opencv", re.compile(r"\bOpenCV\b|\bcv2\.error\b|libGL\.so")),
]
#: Evidence of Python itself (not just an ``XError:`` line, which JavaScript prints too).
_PYTHON = re.compile(r"Traceback \(most recent call last\)|^\s*File \"[^\"]+\", line \d+|"
                     r"\bpython\d?(?:\.\d+)?\b|\.py\b|site-packages|\bpip3? ", re.M)
_LINUX = re.compile(r"\bcommand not found\b|GLIBC(?:XX)?_[\d.]+' not found|\bNO_PUBKEY\b|\bssh\b|\bnc: |"
                    r"Connection refused|Permission denied|\bEACCES\b|"
                    r"No space left on device|Temporary failure (?:in name resolution|resolving)|\bcurl: \(\d+\)|"
                    r"No such file or directory|\bsudo\b|\bapt(?:-get)?\b|Segmentation fault|\bsystemctl\b")
#: An error line that is the shell's or the system's own.
_LINUX_LINE = re.compile(r"^(?:ba|z|fi)?sh: .*command not found|^sudo: |^E: |Segmentation fault|^ssh: |^nc: ")
_CUDA = re.compile(r"\bCUDA\b|\bcuDNN\b|\bCUBLAS\b|\bnvidia-smi\b|\bNVIDIA\b|\blibcudart\b|\bCUDA_HOME\b")


def guess_domain(text: str, line: str = "") -> str:
    """The KB domain the text's error most likely belongs to (``misc`` when nothing says).

    The error line's own words first (``error[E0502]``, ``npm ERR!``, ``command not
    found``), then Python's libraries (by the line's words, then by paths in a traceback),
    then the rest of the text."""
    text = clean_text(text)
    python = bool(_PYTHON.search(text)) and bool(re.search(r"^(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Warning)\b",
                                                          line) or re.search(r"\.py:\d+: \w+Warning", line))
    for domain, evidence in _DOMAINS:
        if python and domain in ("docker", "node", "git", "mysql", "aws", "pip"):
            continue  # a Python exception mentioning them (a client library) is Python's
        if evidence.search(line):
            return domain
    if _LINUX_LINE.search(line):
        return "linux"
    for domain, words in _PY_LINE_WORDS:
        if words.search(line):
            return domain  # a library's own words, with its traceback or pasted alone
    if python or _PYTHON.search(text):
        if _CUDA.search(line):
            return "cuda"  # the CUDA runtime's words, raised through torch or tensorflow
        for domain, package in _PY_PACKAGES:
            if re.search(rf"(?:site-packages|dist-packages)[/\\]{package}[/\\]|\b{package}\.\w+(?:Error|"
                         rf"Exception)\b|^\s*import {package}\b", text, re.M):
                return domain
        if python:
            return "python"
    for domain, evidence in _DOMAINS:
        if evidence.search(text):
            return domain
    if _PYTHON.search(text) or re.search(r"^(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception): ", line):
        return "python"  # a lone exception line, and nothing names another language
    if _CUDA.search(text):
        return "cuda"
    if _LINUX.search(text):
        return "linux"
    return "misc"


#: Exception types (or words of the message) -> category, as the bundled KB names them.
_CATEGORIES = [
    (r"^panic: |panicked|called `(?:Option|Result)::unwrap\(\)`", "panic"),
    (r"Warning\b(?!.*\bError\b)|^WARN\b|is obsolete|trying to be set on a copy|ITERATIONS REACHED LIMIT|"
     r"TOKENIZERS_PARALLELISM|newly initialized|TRAIN this model", "runtime_warning"),
    (r"ModuleNotFoundError|ImportError|Cannot find module|ClassNotFoundException|NoClassDefFoundError|"
     r"cannot find package|unresolved import|error TS2307|declaration file for module|ERR_REQUIRE_ESM|"
     r"Cannot dlopen|cannot open shared object", "import_error"),
    (r"could not build wheels|Could not build wheels|metadata-generation-failed|Failed building wheel|"
     r"linker `?\w+`? not found|failed to solve|\bgyp\b|build failed|BUILD FAILED|collect2: error|ld returned|"
     r"CMake Error|Compatibility with CMake|CMAKE_MODULE_PATH|Process completed with exit code|"
     r"subprocess-exited-with-error|Failed to execute goal|Failed to resolve import|Module not found|Can't resolve|"
     r"prerendering page|Lifecycle script|Bundler cannot continue|go\.mod file not found|failed with exit status",
     "build_error"),
    (r"error\[E\d+\]|could not compile|^[\w./-]+\.go:\d+:\d+: |compilation failed|\bcompil", "compile_error"),
    (r"SyntaxError|IndentationError|TabError|ParseError|Unexpected token", "syntax_error"),
    (r"TypeError|ClassCastException|mismatched types|\berror TS\d+|expected scalar type|dtype", "type_error"),
    (r"AttributeError|has no attribute", "attribute_error"),
    (r"UnicodeDecodeError|UnicodeEncodeError|codec can't", "encoding_error"),
    (r"deadlock|database is locked|\block\b|race condition|concurrent|ConcurrentModification", "concurrency_error"),
    (r"Unauthorized|\b401\b|authentication failed|ExpiredToken|credentials|Host key verification|"
     r"Access denied for user|publickey|InvalidClientTokenId|security token|az login|pull access denied|"
     r"repository '[^']*' not found|Could not read from remote repository|role \"[^\"]*\" does not exist|"
     r"NoCredentialProviders|gated repo", "auth_error"),
    (r"PermissionError|Permission denied|EACCES|AccessDenied|Access denied|not authorized|Forbidden|"
     r"\b403\b|dubious ownership|bad permissions|not in the sudoers|Resource not accessible|running scripts|"
     r"trusted origins|CSRF", "permission_error"),
    (r"EADDRINUSE|[Aa]ddress already in use|ConnectionRefused|Connection refused|ECONNREFUSED|ConnectTimeout|"
     r"timed out|ETIMEDOUT|getaddrinfo|Name or service not known|SSLError|CERTIFICATE_VERIFY_FAILED|"
     r"\bdial tcp\b|DistNetworkError|Cannot connect to the Docker daemon|port is already allocated|"
     r"external connectivity|already in use|fetch-pack|SSLHandshakeException|CORS policy|failed to download|"
     r"Temporary failure|Can't connect to local MySQL|local issuer certificate", "network_error"),
    (r"MemoryError|OutOfMemory|out of memory|OOMKilled|No space left|ENOSPC|Too many open files|"
     r"resource exhausted|System limit|exited unexpectedly|\bKilled\b", "resource_error"),
    (r"ValueError|NumberFormatException|IllegalArgumentException", "value_error"),
    (r"KeyError|IndexError|ArrayIndexOutOfBounds|index out of range", "runtime_error"),
    (r"dependency|resolver|conflict|ResolutionImpossible|ERESOLVE|No matching distribution|"
     r"externally-managed-environment|installable set of packages|PackagesNotFoundError|requires a different Python|"
     r"unsatisfiable|no matching manifest|NO_PUBKEY|signatures couldn't be verified", "install_error"),
    (r"[Cc]onfig|invalid option|unknown flag|Unrecognized|NoRegionError|specify a region|Backend initialization|"
     r"DisallowedHost|HTTP_HOST|NoReverseMatch|TemplateDoesNotExist|no such table|fixture '[^']*' not found|"
     r"no matches for kind|divergent branches|suitable driver class|padding token|@typescript-eslint/parser",
     "config_error"),
    (r"command not found|not recognized as", "environment_error"),
]


def guess_category(line: str) -> str:
    """The category the error line's exception type (or wording) suggests; ``runtime_error``."""
    for pattern, category in _CATEGORIES:
        if re.search(pattern, line):
            return category
    return "runtime_error"


_VERSION_CLUES = {
    "python": [re.compile(r"python(\d\.\d{1,2})\b"), re.compile(r"\bPython (\d\.\d{1,2})(?:\.\d+)?\b")],
    "node": [re.compile(r"\bnode(?:\.js)? ?v(\d+(?:\.\d+)?)", re.I)],
    "go": [re.compile(r"\bgo(1\.\d+)(?:\.\d+)?\b")],
    "rust": [re.compile(r"\brustc (1\.\d+)(?:\.\d+)?\b")],
}


def guess_versions(text: str, domain: str) -> list[str]:
    """Versions the text shows: of the interpreter (``python3.11`` in paths, ``node v20``,
    ``go1.22``) and of the domain's own package in paths (``torch-2.3.1``, ``numpy/1.26``)."""
    text = clean_text(text)
    found: dict[str, None] = {}
    package = dict(_PY_PACKAGES).get(domain, domain)
    own = re.compile(rf"\b{re.escape(package)}[-=@ /]=?v?(\d+\.\d+(?:\.\d+)?)\b", re.I)
    if domain not in _INTERPRETER:  # a package's own versions: torch-2.3.1, numpy/1.26
        for match in own.finditer(text):
            found.setdefault(match.group(1), None)
    for clue in _VERSION_CLUES.get(_INTERPRETER.get(domain, ""), ()):
        for match in clue.finditer(text):
            found.setdefault(match.group(1), None)
    return list(found)[:8]


#: The domains whose versions are those of an interpreter or toolchain the text may show.
_INTERPRETER = {"python": "python", "pip": "python", "node": "node", "react": "node", "typescript": "node",
                "go": "go", "rust": "rust"}


# -- the record ----------------------------------------------------------------------------

_STOP = {"a", "an", "the", "of", "to", "in", "on", "for", "is", "was", "be", "and", "or", "at", "by", "with",
         "from", "this", "that", "it", "x", "n", "error", "errors"}


def slug_for(signature: str, limit: int = 6) -> str:
    """A file-safe slug from the fixed words of ``signature``: ``no-module-named``."""
    text = re.sub(r"\{=[^}]*\}", " ", signature)
    words = [w for w in re.findall(r"[a-z0-9]+", re.sub(r"([a-z])([A-Z])", r"\1 \2", text).lower())
             if w not in _STOP and not w.isdigit()]
    slug = "-".join(words[:limit])[:60].strip("-")
    return slug or "error"


def unique_id(domain: str, slug: str, taken: Callable[[str], bool]) -> str:
    """``domain/slug``, or ``domain/slug-2``, ``-3``... : the first for which ``taken`` is False."""
    candidate, number = f"{domain}/{slug}", 1
    while taken(candidate):
        number += 1
        candidate = f"{domain}/{slug}-{number}"
    return candidate


def record_path(folder: Path, record_id: str) -> Path:
    """Where record ``record_id`` lives in a KB folder: ``<folder>/<domain>/<slug>.json``."""
    domain, slug = record_id.split("/", 1)
    return Path(folder) / domain / f"{slug}.json"


def example_path(path: Path) -> Path:
    """The example text beside record file ``path``: ``<slug>.example.txt``."""
    stem = path.name[: -len(path.suffix)] if path.suffix else path.name
    return path.with_name(stem + EXAMPLE_SUFFIX)


@dataclass
class Draft:
    """A draft record (``record``, JSON data in the seed's key order), the text it came from
    (``example``), its error line and the generalised form of that line."""

    record: dict[str, Any]
    example: str
    line: ErrorLine
    generalised: Generalised

    @property
    def id(self) -> str:
        return self.record["id"]

    def to_json(self) -> str:
        """The record as the JSON text written to its file (2-space indent, UTF-8 as is)."""
        return json.dumps(self.record, ensure_ascii=False, indent=2) + "\n"


#: The example entries' texts (the lint rejects them left as they are: lint.EXAMPLE_TEXTS).
_EXAMPLE_ACTION, _EXAMPLE_DEAD_END, _EXAMPLE_HOW = ("What worked, in one sentence",
                                                   "An approach people try that does not fix it",
                                                   "the command or code to copy")


def build_draft(text: str | bytes, *, taken: Callable[[str], bool] | Collection[str] = (),
                today: datetime.date | None = None) -> Draft | None:
    """A draft record for the error in ``text``; None when the text holds no line with words.

    ``taken`` says which ids are in use (a set of ids, or a function such as
    ``lambda id: id in kb.by_id or record_path(folder, id).exists()``); the draft's id is
    the first of ``domain/slug``, ``-2``, ``-3``... not taken.
    """
    cleaned = clean_text(text)
    line = error_line(cleaned)
    if line is None:
        return None
    general = generalise(line.clean)
    domain = guess_domain(cleaned, line.clean)
    category = guess_category(line.clean)
    is_taken = taken if callable(taken) else (lambda value, ids=frozenset(taken): value in ids)
    record_id = unique_id(domain, slug_for(general.signature), is_taken)
    today = today or datetime.date.today()
    versions = [{"version": v, "introduced": None, "deprecated": None, "removed": None,
                 "behavior_change": None, "status": "active"} for v in guess_versions(cleaned, domain)]
    group = next(iter(general.groups), None)
    how = (f"{_EXAMPLE_HOW}; {{={group}}} is filled from the error ({group} = "
           f"{general.groups[group]!r} here)" if group else _EXAMPLE_HOW)
    record: dict[str, Any] = {
        DRAFT_KEY: ("A draft: write root_cause and at least one workaround (copy "
                    f"{EXAMPLE_WORKAROUND_KEY} into workarounds, then edit it), check that regex "
                    "and signature say what every copy of this error says, then delete the keys "
                    "that start with _. The error's text is in the .example.txt file beside this one."),
        "id": record_id,
        "signature": general.signature,
        "signature_zh": None,
        "regex": general.regex,
        "domain": domain,
        "category": category,
        "subcategory": None,
        "root_cause": "",
        "root_cause_type": "generic",
        "root_cause_zh": None,
        "versions": versions,
        "os_specific": {},
        "dead_ends": [],
        EXAMPLE_DEAD_END_KEY: {"action": _EXAMPLE_DEAD_END, "why_fails":
                               "Why it does not help", "fail_rate": 0.7, "condition": "", "sources": []},
        "workarounds": [],
        EXAMPLE_WORKAROUND_KEY: {"action": _EXAMPLE_ACTION, "success_rate": 0.8, "how": how,
                                 "condition": "", "sources": []},
        "workarounds_zh": [],
        "transition_graph": {"leads_to": [], "preceded_by": [], "frequently_confused_with": []},
        "official_doc_url": None,
        "official_doc_section": None,
        "error_code": _error_code(line.clean),
        "verification_tier": USER_TIER,
        "confidence": 0.5,
        "fix_success_rate": 0.0,
        "resolvable": "partial",
        "first_seen": today.isoformat(),
        "last_confirmed": today.isoformat(),
        "last_updated": today.isoformat(),
        "evidence_count": 0,
        "tags": [],
        "locale": "en",
        "aliases": [],
    }
    return Draft(record, cleaned[-MAX_EXAMPLE_CHARS:].strip("\n") + "\n", line, general)


def _error_code(line: str) -> str | None:
    found = re.search(r"error\[(E\d{4})\]|error (TS\d+)|^ERROR (\d{4})\b|\[Errno (\d+)\]|\b(ERR_[A-Z_]+)\b|"
                      r"\b(E[A-Z]{3,})\b:", line)
    if not found:
        return None
    value = next(g for g in found.groups() if g)
    return f"Errno {value}" if "[Errno" in found.group() else value


def is_draft(record: Any) -> bool:
    """Whether a record (a :class:`~errkb_tui.model.Record` or its JSON data) is still marked a draft."""
    extra = record if isinstance(record, dict) else (getattr(record, "__pydantic_extra__", None) or {})
    return DRAFT_KEY in extra


# -- writing -------------------------------------------------------------------------------


def atomic_write(path: Path, text: str, *, overwrite: bool = True) -> Path:
    """Write ``text`` to ``path`` through a temporary file in its folder and ``os.replace``
    (a reader sees the old file or the new one, never half of one). With ``overwrite``
    False, raise ``FileExistsError`` if ``path`` exists (checked last, just before the
    rename; not a lock). Creates the folder."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        if not overwrite:
            try:
                os.link(temp, path)  # fails if path exists: no race with another writer
            except FileExistsError:
                raise
            except OSError:  # no hard links here (some filesystems): a plain check
                if path.exists():
                    raise FileExistsError(str(path)) from None
                os.replace(temp, path)
            else:
                os.unlink(temp)
        else:
            os.replace(temp, path)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise
    return path


def write_draft(draft: Draft, folder: Path, *, text: str | None = None, overwrite: bool = False) -> Path:
    """Write the draft's record (``text``: its JSON as edited, else :meth:`Draft.to_json`)
    to ``<folder>/<domain>/<slug>.json`` and its example beside it; the record's path.
    Never replaces an existing record unless ``overwrite`` (``FileExistsError``)."""
    path = record_path(folder, draft.id)
    atomic_write(path, text if text is not None else draft.to_json(), overwrite=overwrite)
    atomic_write(example_path(path), draft.example)
    return path


def save_to_drafts(text: str, example: str, record_id: str, drafts: Path) -> Path:
    """Keep a record's text (valid or not) under the drafts folder, never matched: the
    path written. A name already used gets ``-2``, ``-3``...: nothing is overwritten. An
    empty ``example`` writes no example file."""
    base = record_path(drafts, record_id if "/" in record_id else f"misc/{record_id}")
    path, number = base, 1
    while path.exists() or example_path(path).exists():
        number += 1
        path = base.with_name(f"{base.stem}-{number}{base.suffix}")
    atomic_write(path, text, overwrite=False)
    if example:
        atomic_write(example_path(path), example)
    return path


def example_matches(regex: str, example: str) -> bool:
    """Whether ``regex`` matches a line of ``example`` as the matcher reads it (each line as
    written and without log prefixes)."""
    try:
        compiled = compile_regex(regex)
    except ValueError:
        return False
    for raw in clean_text(example).split("\n"):
        raw = raw.strip()
        if compiled.search(raw) is not None or compiled.search(strip_prefix(raw)) is not None:
            return True
    return False


# -- the capture flow: a working copy in the drafts folder, installed once valid ---------------
#
# The same steps serve ``errkb-tui new`` and the app's ``a`` key. The text being edited is
# always a file in the drafts folder (never matched), so whatever the editor or the
# validation does, nothing typed is lost; only a record without errors is written into
# the KB folder, atomically, and never over an existing record unless asked.


def taken_in(*folders: Path) -> Callable[[str], bool]:
    """A ``taken`` test for :func:`build_draft`: an id is taken when any of ``folders`` (a
    KB folder: the target, the bundled KB) has a file for it."""
    return lambda record_id: any(record_path(folder, record_id).exists() for folder in folders)


def start(text: str | bytes, target: Path, drafts: Path, *, also_taken: Callable[[str], bool] | None = None,
          today: datetime.date | None = None) -> tuple[Draft, Path] | None:
    """Build the draft for the error in ``text`` (its id free in ``target``, in the bundled
    KB and for ``also_taken``, e.g. ``kb.by_id.__contains__``) and save it as a working copy
    under ``drafts``; the draft and the copy's path. None when the text has no line to use."""
    from .kb import bundled_data_dir

    in_folders = taken_in(Path(target), bundled_data_dir())
    draft = build_draft(text, taken=lambda i: in_folders(i) or bool(also_taken and also_taken(i)), today=today)
    if draft is None:
        return None
    return draft, save_to_drafts(draft.to_json(), draft.example, draft.id, Path(drafts))


def editor_command(environ: dict[str, str] | None = None) -> list[str] | None:
    """``$VISUAL``, else ``$EDITOR``, split as a shell would (``code --wait``); None if unset."""
    import shlex

    env = os.environ if environ is None else environ
    for name in ("VISUAL", "EDITOR"):
        value = (env.get(name) or "").strip()
        if value:
            try:
                return shlex.split(value)
            except ValueError:
                return [value]
    return None


def check(path: Path, target: Path | None = None) -> list[Any]:
    """Everything ``validate`` says about the record file ``path`` (problems of that file
    only, each at its line), with the bundled KB and ``target`` loaded as context."""
    from .kb import Source, bundled_data_dir
    from .lint import check_kb

    sources = [Source(bundled_data_dir(), "bundled", report=False)]
    if target is not None and Path(target).is_dir():
        sources.append(Source(Path(target), "target", report=False))
    sources.append(Source(Path(path), "draft"))
    kb = check_kb(sources)
    return [p for p in kb.problems if os.path.realpath(p.file) == os.path.realpath(path)]


def blocking(problems: Iterable[Any], *, strict: bool = False) -> bool:
    """Whether ``problems`` stop a record from going into the KB: any error (or, with
    ``strict``, any warning), as for ``validate``."""
    severities = {p.severity for p in problems}
    return "error" in severities or (strict and "warning" in severities)


def record_id_of(path: Path) -> str | None:
    """The ``id`` in the record file ``path``, or None if it cannot be read."""
    try:
        data = json.loads(Path(path).read_text("utf-8-sig"))
    except (OSError, ValueError):
        return None
    value = data.get("id") if isinstance(data, dict) else None
    return value if isinstance(value, str) and "/" in value else None


def install(path: Path, target: Path, *, replace: bool = False) -> Path:
    """Move the working copy ``path`` (and its example) into KB folder ``target`` as
    ``<domain>/<slug>.json`` by its id; the new path. Raises ``FileExistsError`` when a
    record with that id is already there (unless ``replace``), ``ValueError`` when the file
    has no id. The record is written atomically before the copy is removed."""
    record_id = record_id_of(path)
    if record_id is None:
        raise ValueError(f"{path}: no record id to name the file by")
    text = Path(path).read_text("utf-8")
    destination = record_path(Path(target), record_id)
    atomic_write(destination, text, overwrite=replace)
    example = example_path(Path(path))
    if example.exists():
        atomic_write(example_path(destination), example.read_text("utf-8", errors="replace"))
    discard(path)
    return destination


def start_edit(kb: Any, record_id: str, drafts: Path) -> Path | None:
    """A working copy under ``drafts`` of record ``record_id`` of ``kb`` (the ``e`` key):
    its file's text as written when it has a file of its own, else the record as JSON; its
    example too. Edit it, :func:`check` it, then :func:`install` it with ``replace=True``
    into its writable KB, or into the user's own KB for a bundled record (an override of
    the same id). None when the record cannot be read."""
    origin = kb.origins.get(record_id)
    record = kb.get(record_id)
    if origin is None or record is None:
        return None
    text = None
    if origin.offset is None and origin.file.endswith(".json"):
        try:
            text = Path(origin.file).read_text("utf-8-sig")
        except (OSError, UnicodeDecodeError):
            text = None
    if text is None:
        data = record.to_json_dict()
        data.update(record.__pydantic_extra__ or {})
        text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    example = ""
    if origin.offset is None and origin.file.endswith(".json"):
        try:
            example = example_path(Path(origin.file)).read_text("utf-8", errors="replace")
        except OSError:
            example = ""
    return save_to_drafts(text, example, record_id, Path(drafts))


def discard(path: Path) -> None:
    """Delete a working copy and its example (missing files are fine)."""
    for file in (Path(path), example_path(Path(path))):
        try:
            file.unlink()
        except FileNotFoundError:
            pass


def ids_in(folder: Path) -> Iterable[str]:
    """Ids of the one-record files of a KB folder (``<domain>/<slug>.json``), by file name."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    return [f"{p.parent.name}/{p.stem}" for p in folder.glob("*/*.json")]


__all__ = ["atomic_write", "blocking", "build_draft", "check", "discard", "Draft", "DRAFT_KEY", "editor_command",
           "error_line", "ErrorLine", "EXAMPLE_DEAD_END_KEY", "example_matches", "example_path", "EXAMPLE_SUFFIX",
           "EXAMPLE_WORKAROUND_KEY", "generalise", "Generalised", "guess_category", "guess_domain", "guess_versions",
           "ids_in", "install", "is_draft", "record_id_of", "record_path", "save_to_drafts", "slug_for", "start",
           "start_edit", "taken_in", "unique_id", "USER_TIER", "write_draft"]
