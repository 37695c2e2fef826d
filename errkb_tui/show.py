"""``errkb-tui show ID``: a record as a short page for the terminal, in the spirit of tldr.

The page is plain text wrapped to the terminal's width (at most :data:`MAX_WIDTH`), with a
little colour on a terminal (none when ``NO_COLOR`` is set or the output is not a
terminal). Rates are the KB's estimates and say so. Record text is data: terminal control
characters in it are shown as visible stand-ins (:func:`errkb_tui.text.plain`), never sent.

Given the error text (``--from FILE``, ``--from -``), the record's regex is run on it and
its named groups fill the ``{=name}`` placeholders of the commands
(:mod:`errkb_tui.placeholders`); a placeholder left without a value shows as ``<name>``.

No Textual import: also used by ``match --show``, ``run --print`` and the MCP server.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from .kb import KB
from .match import Match, Matcher
from .model import Record, RecordSummary
from .placeholders import PLACEHOLDER, fill
from .text import plain

#: Pages are never wider than this, however wide the terminal: long lines read badly.
MAX_WIDTH = 100
MIN_WIDTH = 40
INDENT = "  "
EXIT_OK, EXIT_NOT_FOUND, EXIT_USAGE = 0, 1, 2


# -- colour ------------------------------------------------------------------------------

def use_color(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set (no-color.org)."""
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR"):
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def page_width(stream: TextIO) -> int:
    """The terminal's width (80 when not a terminal), within MIN_WIDTH..MAX_WIDTH."""
    columns = 80
    try:
        if stream.isatty():
            columns = shutil.get_terminal_size((80, 24)).columns
    except (AttributeError, ValueError, OSError):
        pass
    return max(MIN_WIDTH, min(MAX_WIDTH, columns))


@dataclass(frozen=True)
class Style:
    """SGR colours when ``color``; plain text otherwise."""

    color: bool = False

    def _sgr(self, code: str, text: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.color and text else text

    def bold(self, text: str) -> str:
        return self._sgr("1", text)

    def dim(self, text: str) -> str:
        return self._sgr("2", text)

    def title(self, text: str) -> str:
        return self._sgr("1;36", text)

    def bad(self, text: str) -> str:
        return self._sgr("31", text)

    def good(self, text: str) -> str:
        return self._sgr("32", text)

    def code(self, text: str) -> str:
        return self._sgr("36", text)

    def blank(self, text: str) -> str:
        return self._sgr("4;33", text)


# -- filling -----------------------------------------------------------------------------

def match_record(record: Record | RecordSummary, text: str | bytes) -> Match | None:
    """Where ``record``'s regex (or signature, fuzzily) meets ``text``: line and groups."""
    return Matcher([record]).best(text)


def _unfilled(text: str) -> str:
    """Placeholders left in ``text`` as ``<name>``: readable, and not runnable by accident."""
    return PLACEHOLDER.sub(lambda m: f"<{m.group(1)}>", text)


def filled(text: str, values: Mapping[str, str]) -> str:
    """``text`` with its placeholders filled from ``values``, the rest as ``<name>``."""
    return _unfilled(fill(text, values).text)


def record_json(record: Record, values: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The record as JSON data; with ``values``, its placeholders filled where a value is
    known (the others stay as written, ``{=name}``)."""
    data = record.to_json_dict()
    if not values:
        return data
    data["signature"] = fill(record.signature, values).text
    for item, workaround in zip(data.get("workarounds", []), record.workarounds):
        item["action"] = fill(workaround.action, values).text
        item["how"] = fill(workaround.how, values).text
    for item, dead_end in zip(data.get("dead_ends", []), record.dead_ends):
        item["action"] = fill(dead_end.action, values).text
    return data


# -- the page ----------------------------------------------------------------------------

def _rate(value: float) -> str:
    return f"~{round(value * 100)}%"


def _wrap(text: str, width: int, indent: str, later: str | None = None) -> list[str]:
    """``text`` (safe, possibly several paragraphs) wrapped into lines of ``width``."""
    out: list[str] = []
    for paragraph in text.split("\n"):
        if not paragraph.strip():
            continue
        out += textwrap.wrap(paragraph, width=width, initial_indent=indent,
                             subsequent_indent=indent if later is None else later,
                             break_long_words=True, break_on_hyphens=False) or [indent]
        indent = later if later is not None else indent
    return out


def _command_lines(how: str, values: Mapping[str, str], style: Style, indent: str) -> list[str]:
    """A command, one line per line, never wrapped (it must stay copyable)."""
    text = plain(fill(how, values).text, multiline=True)
    lines = []
    for line in text.split("\n"):
        if not line.strip():
            continue
        parts, position = [], 0
        for found in PLACEHOLDER.finditer(line):
            parts.append(style.code(line[position:found.start()]))
            parts.append(style.blank(f"<{found.group(1)}>"))
            position = found.end()
        parts.append(style.code(line[position:]))
        lines.append(indent + "".join(parts))
    return lines


def render(record: Record, *, width: int = 80, color: bool = False,
           values: Mapping[str, str] | None = None, matched_line: str | None = None) -> str:
    """The page for ``record``: what it is, why, what not to try, what works, links."""
    style = Style(color)
    values = values or {}
    width = max(MIN_WIDTH, width)
    lines: list[str] = []

    def heading(text: str) -> None:
        lines.append("")
        lines.append(style.bold(text))

    where = " > ".join(plain(p) for p in (record.domain, record.category, record.subcategory or "") if p)
    lines.append(style.title(plain(record.id)))
    lines += [style.bold(line) for line in _wrap(plain(filled(record.signature, values)), width, "")]
    lines += [style.dim(line) for line in _wrap(where, width, "")]
    if matched_line:
        lines += [style.dim(line) for line in _wrap("matched: " + plain(matched_line), width, "", INDENT)]
    if record.root_cause.strip():
        lines.append("")
        lines += _wrap(plain(record.root_cause, multiline=True), width, INDENT)

    if record.dead_ends:
        heading("Don't (dead ends)")
        for dead_end in record.dead_ends:
            action = plain(filled(dead_end.action, values))
            why = plain(dead_end.why_fails)
            first = action or why
            lines += [style.bad(line) if n == 0 else line
                      for n, line in enumerate(_wrap(first, width, INDENT + "- ", INDENT + "  "))]
            facts = []
            if dead_end.fail_rate:
                facts.append(f"est. fails {_rate(dead_end.fail_rate)}")
            if dead_end.condition.strip():
                facts.append("when " + plain(dead_end.condition))
            if facts:
                lines += [style.dim(line) for line in _wrap(" · ".join(facts), width, INDENT * 2)]
            if action and why:
                lines += _wrap(why, width, INDENT * 2)

    if record.workarounds:
        heading("Do (workarounds)")
        for workaround in record.workarounds:
            action = plain(filled(workaround.action, values))
            lines += [style.good(line) if n == 0 else line
                      for n, line in enumerate(_wrap(action, width, INDENT + "- ", INDENT + "  "))]
            facts = []
            if workaround.success_rate:
                facts.append(f"est. works {_rate(workaround.success_rate)}")
            if workaround.condition.strip():
                facts.append("when " + plain(workaround.condition))
            if facts:
                lines += [style.dim(line) for line in _wrap(" · ".join(facts), width, INDENT * 2)]
            how = workaround.how.strip()
            if how and how != workaround.action.strip():
                lines += _command_lines(how, values, style, INDENT * 3)

    if record.os_specific:
        heading("By platform")
        for name, note in record.os_specific.items():
            lines += _wrap(f"{plain(name)}: {plain(note)}", width, INDENT, INDENT * 2)

    related = [
        (label, [plain(target) for kind, target in record.transition_graph.edges() if kind == key])
        for key, label in (("leads_to", "leads to"), ("preceded_by", "follows"),
                           ("frequently_confused_with", "confused with"))
    ]
    related = [(label, ids) for label, ids in related if ids]
    facts = [f"{record.verification_tier.replace('_', ' ')}",
             f"confidence {record.confidence:.2f}",
             f"fixes work {_rate(record.fix_success_rate)} (est.)"]
    if record.evidence_count:
        facts.append(f"{record.evidence_count} report(s)")
    lines.append("")
    for label, ids in related:
        lines += _wrap(f"{label}: " + ", ".join(ids), width, "", INDENT)
    if record.official_doc_url:
        lines += [style.dim(line) for line in _wrap("docs: " + plain(record.official_doc_url), width, "", INDENT)]
    lines += [style.dim(line) for line in _wrap("trust: " + ", ".join(facts), width, "", INDENT)]
    return "\n".join(lines).rstrip("\n") + "\n"


def render_brief(record: Record, match: Match, *, width: int = 80, color: bool = False) -> str:
    """What ``run --print`` says: the record, the matched line and the first fix."""
    style = Style(color)
    lines = [style.title(plain(record.id)) + "  "
             + style.bold(plain(filled(record.signature, match.groups)))]
    lines += [style.dim(line) for line in _wrap(
        f"matched (line {match.line_number}): {plain(match.line)}"
        + ("" if match.confident else "  (not confident)"), width, INDENT, INDENT * 2)]
    if record.workarounds:
        first = record.workarounds[0]
        label = "fix"
        if first.success_rate:
            label += f" (est. works {_rate(first.success_rate)})"
        lines += [style.good(line) if n == 0 else line for n, line in enumerate(
            _wrap(f"{label}: {plain(filled(first.action, match.groups))}", width, INDENT, INDENT * 2))]
        how = first.how.strip()
        if how and how != first.action.strip():
            lines += _command_lines(how, match.groups, style, INDENT * 3)
    lines.append(style.dim(f"{INDENT}more: errkb-tui show {plain(record.id)}"))
    return "\n".join(lines) + "\n"


def show_match(kb: KB, match: Match, out: TextIO) -> None:
    """``match --show``: the page of the best match's record, filled from its groups."""
    record = kb.get(match.id)
    if record is None:
        return
    _write(out, "\n" + render(record, width=page_width(out), color=use_color(out),
                              values=match.groups, matched_line=match.line))


# -- ids ---------------------------------------------------------------------------------

def suggest(kb: KB, wanted: str) -> str | None:
    """The id closest to ``wanted`` (a typo, a missing domain), or None."""
    from rapidfuzz import fuzz, process

    ids = [r.id for r in kb.records]
    if not ids:
        return None
    found = process.extractOne(wanted, ids, scorer=fuzz.WRatio, score_cutoff=60)
    return found[0] if found else None


# -- the command -------------------------------------------------------------------------

def _write(stream: TextIO, text: str) -> None:
    try:
        stream.write(text)
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", None) or "ascii"
        stream.write(text.encode(encoding, "replace").decode(encoding))
    stream.flush()


def read_error_text(source: str, stdin: TextIO | None = None) -> bytes:
    """The error text of ``--from``: a file, or ``-`` for standard input (its last 256 KiB)."""
    from .terminal import MAX_PIPED_BYTES, read_tail

    if source == "-":
        stream = stdin or sys.stdin
        if stream.isatty():
            print("Paste the error, then press Ctrl-D.", file=sys.stderr)
        try:
            return read_tail(stream.fileno())
        except (OSError, ValueError, AttributeError):  # a stream without a descriptor (tests)
            data = stream.read()
            return (data.encode("utf-8", "replace") if isinstance(data, str) else data)[-MAX_PIPED_BYTES:]
    with open(Path(source).expanduser(), "rb") as handle:
        return read_tail(handle.fileno())


def cmd_show(args: Any, load: Callable[[], KB], out: TextIO | None = None,
             err: TextIO | None = None) -> int:
    """``errkb-tui show ID [--json] [--from FILE|-]``."""
    out = out or sys.stdout
    err = err or sys.stderr
    text: bytes | None = None
    if args.source is not None:
        try:
            text = read_error_text(args.source)
        except OSError as exc:
            print(f"errkb-tui show: cannot read {args.source}: {exc.strerror or exc}", file=err)
            return EXIT_USAGE
    kb = load()
    record = kb.get(args.id)
    if record is None:
        closest = suggest(kb, args.id)
        hint = f"; did you mean {closest}?" if closest else ""
        print(f"errkb-tui show: no record {plain(args.id)}{hint}", file=err)
        return EXIT_NOT_FOUND
    match = match_record(kb.by_id[record.id], text) if text else None
    values = match.groups if match else {}
    if args.json:
        _write(out, json.dumps(record_json(record, values), ensure_ascii=False, indent=2) + "\n")
        return EXIT_OK
    if text and match is None:
        print(f"errkb-tui show: {record.id} does not match that text; placeholders stay unfilled",
              file=err)
    _write(out, render(record, width=page_width(out), color=use_color(out), values=values,
                       matched_line=match.line if match else None))
    return EXIT_OK


__all__ = ["Style", "cmd_show", "filled", "match_record", "page_width", "read_error_text",
           "record_json", "render", "render_brief", "show_match", "suggest", "use_color"]
