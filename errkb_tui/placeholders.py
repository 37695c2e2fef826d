"""Placeholders in a record's commands: found, listed, and filled (no Textual).

Syntax: ``{=name}`` or ``{=name:example}``.

- ``name`` is an identifier (``[A-Za-z_][A-Za-z0-9_]*``; house style: snake_case). When
  the record's ``regex`` has a named group of that name (``(?P<module>[\\w.]+)``), a match
  fills it from the error; otherwise the value is asked for (a *prompted* placeholder).
- ``example`` (after the first ``:``, up to the closing ``}``; no braces, no newline) is
  the value the prompt starts with. ``{=ns:default}`` asks for ``ns`` and offers
  ``default``. Every occurrence of a name is one value; the first example given wins.
- ``{=`` right after ``$`` or ``{`` is not a placeholder: zsh's ``${=var}`` and doT's
  ``{{=x}}`` stay code.

Why this form: ``{=`` is an error in Python (dicts and f-strings do not parse,
``str.format`` raises), JavaScript and TypeScript (objects, template literals, generics), Go, Rust, Java, C#,
PowerShell (``@{}``, script blocks) and JSON, and is plain, never-written text in shell
(``${VAR}``, ``$(...)``), Go templates and Jinja (``{{ }}``, ``{% %}``), printf (``%s``),
HTML/XML and TS generics (``<T>``). The ``<name>`` of navi, the anchor, cannot be used:
``<p>``, ``<T>`` and ``List<Item>`` are everyday code in the KB's commands.

Filling: values are inserted literally, as given (never scanned for placeholders again,
never quoted): commands are shell, Python, YAML, Go..., so no single quoting rule fits;
a record puts quotes around a placeholder where its language needs them, and its regex
bounds what a group can capture (``[\\w.]+`` for a module). :func:`needs_quoting` tells
a caller (the UI marks filled values) when a value holds characters a POSIX shell would
interpret.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .model import Record

#: A placeholder: ``{=name}`` or ``{=name:example}``, not right after ``$`` or ``{``.
PLACEHOLDER = re.compile(r"(?<![${])\{=([A-Za-z_][A-Za-z0-9_]*)(?::([^{}\n]*))?\}")
#: Anything that starts like a placeholder (for the lint: a malformed one stays text).
OPENER = re.compile(r"(?<![${])\{=")
#: A valid placeholder (and named group) name.
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
#: Characters a POSIX shell leaves alone in an unquoted word (as :func:`shlex.quote`).
_SHELL_SAFE = re.compile(r"[\w@%+=:,./-]+\Z", re.ASCII)


@dataclass(frozen=True)
class Placeholder:
    """One placeholder as written in a text: ``text[start:end]`` is ``{=name...}``."""

    name: str
    example: str | None  # None when no ``:example`` is written
    start: int
    end: int

    @property
    def written(self) -> str:
        """The placeholder as written."""
        return "{=" + self.name + ("" if self.example is None else ":" + self.example) + "}"


@dataclass(frozen=True)
class Filled:
    """A text with values put in for its placeholders."""

    text: str
    #: Names still without a value, in order of first appearance (each once).
    missing: tuple[str, ...]
    #: ``(start, end, name)`` of each value put in, as positions in :attr:`text`.
    spans: tuple[tuple[int, int, str], ...]

    @property
    def runnable(self) -> bool:
        """Whether no placeholder is left: the text can be copied as a command."""
        return not self.missing


def find(text: str) -> list[Placeholder]:
    """The placeholders of ``text``, in order."""
    if "{=" not in text:  # the common case, cheaply
        return []
    return [Placeholder(m.group(1), m.group(2), m.start(), m.end()) for m in PLACEHOLDER.finditer(text)]


def names(text: str) -> list[str]:
    """Placeholder names of ``text``, in order of first appearance, each once."""
    return list(dict.fromkeys(p.name for p in find(text)))


def examples(*texts: str) -> dict[str, str]:
    """``name -> example`` over ``texts``: the first non-empty example written for each name."""
    out: dict[str, str] = {}
    for text in texts:
        for placeholder in find(text):
            if placeholder.example and placeholder.name not in out:
                out[placeholder.name] = placeholder.example
    return out


def has_placeholders(text: str) -> bool:
    """Whether ``text`` holds at least one placeholder."""
    return "{=" in text and PLACEHOLDER.search(text) is not None


def shown(text: str) -> str:
    """``text`` for reading, each placeholder as ``‹name›``.

    A signature names the parts of a message that vary (``{=resource} is forbidden``); the
    list and the detail pane show them as ``‹resource› is forbidden`` rather than as the
    syntax that commands are filled through. Other text is left as it is.
    """
    if "{=" not in text:
        return text
    return PLACEHOLDER.sub(lambda m: f"\u2039{m.group(1)}\u203a", text)


def malformed(text: str) -> list[int]:
    """Offsets of ``{=`` openers that do not form a placeholder (a typo, or code)."""
    if "{=" not in text:
        return []
    good = {p.start for p in find(text)}
    return [m.start() for m in OPENER.finditer(text) if m.start() not in good]


def fill(text: str, values: Mapping[str, str]) -> Filled:
    """``text`` with each placeholder whose name is in ``values`` replaced by that value.

    Values are taken literally. A placeholder without a value stays as written and its
    name is listed in :attr:`Filled.missing`. An empty string is a value.
    """
    found = find(text)
    if not found:
        return Filled(text, (), ())
    parts: list[str] = []
    spans: list[tuple[int, int, str]] = []
    missing: dict[str, None] = {}
    position = 0  # in text
    length = 0  # of the output so far
    for placeholder in found:
        before = text[position:placeholder.start]
        parts.append(before)
        length += len(before)
        value = values.get(placeholder.name)
        if value is None:
            written = text[placeholder.start:placeholder.end]
            parts.append(written)
            length += len(written)
            missing[placeholder.name] = None
        else:
            value = str(value)
            parts.append(value)
            spans.append((length, length + len(value), placeholder.name))
            length += len(value)
        position = placeholder.end
    parts.append(text[position:])
    return Filled("".join(parts), tuple(missing), tuple(spans))


def prompts(text: str, values: Mapping[str, str], examples: Mapping[str, str]) -> list[tuple[str, str]]:
    """``(name, prefill)`` for each placeholder of ``text`` that ``values`` lacks, in order
    of first appearance: what to ask before copying (prefill: the example, or ``""``).
    Pass :func:`record_examples` as ``examples`` so an example written in any of the
    record's texts serves."""
    return [(name, examples.get(name, "")) for name in fill(text, values).missing]


def fill_all(texts: Iterable[str], values: Mapping[str, str]) -> list[Filled]:
    """:func:`fill` for each of ``texts``."""
    return [fill(text, values) for text in texts]


def needs_quoting(value: str) -> bool:
    """Whether ``value`` holds characters a POSIX shell would interpret (spaces, ``$``...)."""
    return not _SHELL_SAFE.match(value)


def valid_name(name: str) -> bool:
    """Whether ``name`` can be a placeholder (and named group) name."""
    return bool(NAME.match(name))


# -- records ------------------------------------------------------------------------------

#: Named groups as written in a regex: ``(?P<name>`` or ``(?<name>`` (not look-behinds).
_GROUP = re.compile(r"(?<!\\)\(\?P?<([^>=!][^>]*)>")


def group_names(pattern: str | None) -> list[str]:
    """Names of the named groups of ``pattern``, in order (as written, valid or not)."""
    if not pattern or "(?" not in pattern:
        return []
    from .model import compile_regex

    try:
        index = compile_regex(pattern).groupindex
    except (ValueError, TypeError):
        return list(dict.fromkeys(_GROUP.findall(pattern)))
    return sorted(index, key=index.__getitem__)


def record_texts(record: "Record") -> list[tuple[str, str]]:
    """``(field, text)`` of every text of ``record`` that may hold placeholders.

    Commands (``workarounds[i].how``) first, then actions (workarounds', dead ends'),
    then the signature.
    """
    out = [(f"workarounds[{i}].how", w.how) for i, w in enumerate(record.workarounds)]
    out += [(f"workarounds[{i}].action", w.action) for i, w in enumerate(record.workarounds)]
    out += [(f"dead_ends[{i}].action", d.action) for i, d in enumerate(record.dead_ends)]
    out.append(("signature", record.signature))
    return out


def record_examples(record: "Record") -> dict[str, str]:
    """``name -> example`` over all of ``record``'s texts: what a prompt starts with."""
    return examples(*(text for _, text in record_texts(record)))


def record_names(record: "Record") -> list[str]:
    """Every placeholder name used in ``record``'s texts, in order, each once."""
    return list(dict.fromkeys(n for _, text in record_texts(record) for n in names(text)))


# -- lint rules ---------------------------------------------------------------------------

#: Placeholders written the old way, which nothing fills: ``<pod>``, ``<LOCK_ID>``,
#: ``<version from README>``; not HTML/XML elements (a closing tag, a known tag name) and
#: not generics (``List<Item>``: ``<`` right after a name).
_ANGLE = re.compile(r"(?<![\w<>)\]])<([a-z][a-z0-9]*(?:[-_ ./][A-Za-z0-9]+)*|[A-Z][A-Z0-9]*(?:[-_][A-Z0-9]+)*)>")
#: ``X``, ``N``... standing alone where a value goes (``pip install X``), but not code
#: (``X = ...``, ``f(X)``, ``a.X``, ``X_train``) nor a shape (``(N, C, H, W)``).
_LETTER = re.compile(r"(?:(?<=^)|(?<=[\s='\"]))[XYNM](?=$|[\s'\",;])(?!\s*[=:(\[])", re.MULTILINE)
#: ``YOUR_TOKEN``, ``your_script.py``, ``your-index``.
_YOUR = re.compile(r"\b(?:YOUR|[Yy]our)[-_][\w.-]+")
_HTML_TAGS = frozenset(
    "a abbr address article aside audio b body br button canvas caption code col dd details "
    "dialog div dl dt em fieldset figure footer form h1 h2 h3 h4 h5 h6 head header hr html i "
    "iframe img input label legend li link main meta nav ol option p pre script section select "
    "small source span strong style sub summary sup table tbody td template textarea tfoot th "
    "thead time title tr u ul video".split()
)


def literal_placeholders(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, text)`` of old-style placeholders in ``text`` that nothing fills:
    ``<pod>``, a lone ``X``/``N``, ``YOUR_TOKEN``. Heuristic, for the lint."""
    out = []
    for match in _ANGLE.finditer(text):
        name = match.group(1)
        tag = name.split(" ", 1)[0]
        if tag.lower() in _HTML_TAGS or f"</{tag}>" in text:
            continue
        out.append((match.start(), match.end(), match.group()))
    for regex in (_LETTER, _YOUR):
        out += [(m.start(), m.end(), m.group()) for m in regex.finditer(text)
                if not any(start <= m.start() < end for start, end, _ in out)]
    return sorted(out)


def group_bodies(pattern: str | None) -> dict[str, str]:
    """``name -> body`` of each named group as written in ``pattern`` (the first of a name)."""
    out: dict[str, str] = {}
    for match in _GROUP.finditer(pattern or ""):
        start = i = match.end()
        depth, in_class = 1, False
        while i < len(pattern) and depth:
            c = pattern[i]
            if c == "\\":
                i += 2
                continue
            if in_class:
                in_class = c != "]"
            elif c == "[":
                in_class = True
                if pattern.startswith("^]", i + 1) or pattern.startswith("]", i + 1):
                    i += 1 + pattern.startswith("^]", i + 1)
            elif c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            i += 1
        out.setdefault(match.group(1), pattern[start:i - 1])
    return out


def wide_part(body: str) -> str | None:
    """The part of a group's body that lets it capture shell metacharacters or spaces
    (``.``, ``\\S``, ``\\s``, ``\\W``, ``\\D``, ``[^...]``), or None if the group is narrow."""
    i, in_class = 0, False
    while i < len(body):
        c = body[i]
        if c == "\\":
            escaped = body[i + 1:i + 2]
            if escaped in ("S", "s", "W", "D"):
                return "\\" + escaped
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            if body.startswith("^", i + 1):
                return "[^...]"
            in_class = True
            if body.startswith("]", i + 1):
                i += 1
        elif c == ".":
            return "."
        i += 1
    return None


def group_characters(body: str) -> set[str]:
    """The characters that a group's body names one by one: class members (``[\\w.:\\[\\]-]``
    gives ``. : [ ] -``) and literals outside classes. Ranges, ``\\w``-style escapes and
    negated classes are left out; :func:`wide_part` covers groups that take any character."""
    out: set[str] = set()
    i, in_class, negated = 0, False, False
    while i < len(body):
        c = body[i]
        if c == "\\":
            escaped = body[i + 1:i + 2]
            if escaped and not escaped.isalnum() and not negated:
                out.add(escaped)
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = negated = False
            elif not negated and not (c == "-" and body[i - 1] != "[" and body[i + 1:i + 2] != "]"):
                out.add(c)
        elif c == "[":
            in_class = True
            negated = body.startswith("^", i + 1)
            i += negated
            if body.startswith("]", i + 1):
                if not negated:
                    out.add("]")
                i += 1
        elif c not in "()|?*+{}.^$":
            out.add(c)
        i += 1
    return out


def placeholder_rules(record: "Record") -> list[tuple[str, str, str]]:
    """``(severity, field, message)`` for the record's placeholders and named groups:
    old-style placeholders left in commands, placeholders that nothing fills and that have
    no example to prompt with, named groups that are not identifiers, repeated (RE2 keeps
    the first) or used by no text, and ``{=`` that does not form a placeholder."""
    out: list[tuple[str, str, str]] = []
    written = _GROUP.findall(record.regex or "")
    for name in dict.fromkeys(written):
        if not valid_name(name):
            out.append(("warning", "regex", f"named group {name!r} is not an identifier"))
        if written.count(name) > 1:
            out.append(("warning", "regex",
                        f"named group {name!r} appears {written.count(name)} times: RE2 fills only the first"))
    for name, body in group_bodies(record.regex).items():
        wide = wide_part(body)
        if wide:
            out.append(("warning", "regex",
                        f"named group {name!r} can capture any character ({wide}): its value goes into a "
                        f"command as is, so allow only the characters it needs (e.g. [\\w.-]+)"))
    groups = set(group_names(record.regex))
    prompts = record_examples(record)
    used: set[str] = set()
    for field, text in record_texts(record):
        if field.endswith(".how"):
            for _, _, literal in literal_placeholders(text):
                out.append(("warning", field, f"{literal!r} looks like a placeholder that nothing fills: "
                                              "write {=name} (a regex group) or {=name:example}"))
        for offset in malformed(text):
            out.append(("warning", field, f"{text[offset:offset + 20]!r} starts like a placeholder but is not "
                                          "one: {=name} or {=name:example}"))
        for name in names(text):
            used.add(name)
            if name not in groups and name not in prompts:
                out.append(("warning", field, f"placeholder {{={name}}}: no regex group captures it and no "
                                              f"example is given to prompt with ({{={name}:example}})"))
    for name in sorted(groups - used):
        out.append(("warning", "regex", f"named group {name!r} fills no placeholder"))
    return out


__all__ = ["Filled", "Placeholder", "examples", "fill", "fill_all", "find", "group_bodies", "group_characters",
           "group_names", "has_placeholders", "literal_placeholders", "malformed", "names", "needs_quoting",
           "placeholder_rules", "prompts", "record_examples", "record_names", "record_texts",
           "valid_name", "wide_part"]
