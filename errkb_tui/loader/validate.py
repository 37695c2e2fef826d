"""Turning one JSON value into a valid record, or into the problems that stop it.

Everything here is pure: the same input gives the same record and problems, whatever was
validated before. Problems point at the record's file and at the line of the bad field
when the record's JSON text is at hand.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from ..kb import Problem
from ..model import DeadEnd, Record, TransitionGraph, TransitionRef, VersionEntry, Workaround, unknown_keys
from ..text import cell_truncate
from .jsontext import guess_line, key_parts

#: Longer text in any one field is refused: a KB field is a message or a paragraph.
MAX_FIELD_CHARS = 64 * 1024


class Place:
    """Where a record's JSON was read: file, and line (``.jsonl``, list item), index (list
    item), byte span (to read it again), and its text (for the line of a bad field)."""

    __slots__ = ("file", "line", "index", "offset", "length", "text", "start", "size")

    def __init__(self, file: str, *, line: int | None = None, index: int | None = None,
                 offset: int | None = None, length: int | None = None, text: str | None = None,
                 start: int = 0, size: int = 0) -> None:
        self.file = file
        self.line = line
        self.index = index
        self.offset = offset
        self.length = length
        self.text = text  # JSON text holding the record at ``start`` (None: no line guessing)
        self.start = start
        self.size = size  # length of the record's text: only a long one can hold a long field

    def line_of(self, loc: Sequence[Any]) -> int | None:
        """The line of field path ``loc``, or the record's own line."""
        if self.text is None:
            return self.line
        guessed = guess_line(self.text, loc, self.start)
        if guessed is None:
            return self.line
        return guessed + (self.line - 1 if self.line is not None else 0)


def from_json_bytes(raw: bytes) -> Record | None:
    """Fast path for one record's JSON text: parsed and validated in one step by pydantic.

    None when it fails in any way (or is long enough to need the long-text rule); the
    caller then parses it and calls :func:`check`, which says why.
    """
    if len(raw) > MAX_FIELD_CHARS:  # no string in a shorter text can be longer
        return None
    try:
        return Record.model_validate_json(raw)
    except (ValidationError, ValueError, RecursionError):
        return None


def check(data: Any, place: Place) -> tuple[Record | None, list[Problem]]:
    """``data`` as a valid record, or None and the problems that stop it."""
    where: dict[str, Any] = {"line": place.line, "index": place.index}
    if not isinstance(data, dict):
        return None, [Problem("error", place.file, f"a record must be a JSON object, not {type(data).__name__}",
                              **where)]
    raw_id = data.get("id")
    record_id = raw_id if isinstance(raw_id, str) else None
    if place.size > MAX_FIELD_CHARS:  # only a long text can hold a long field
        long_field = _find_long_text(data)
        if long_field is not None:
            return None, [Problem("error", place.file, f"text longer than {MAX_FIELD_CHARS:,} characters",
                                  record_id=record_id, field=long_field, **where)]
    try:
        return Record.model_validate(data), []
    except ValidationError as exc:
        problems = []
        for error in exc.errors(include_url=False):
            problems.append(Problem("error", place.file, _error_message(error), record_id=record_id,
                                    field=_field_path(error["loc"]), line=place.line_of(error["loc"]),
                                    index=place.index))
        return None, problems
    except RecursionError:
        return None, [Problem("error", place.file, "record is nested too deeply", record_id=record_id, **where)]


def key_warnings(record: Record, place: Place) -> list[Problem]:
    """A warning for each key of ``record`` the model does not know (a typo? with the
    closest known key), and an ``info`` for each key starting with ``_`` (a comment, such
    as a draft's ``_draft`` and example entries)."""
    out = []
    for key in unknown_keys(record):
        name = key.rsplit(".", 1)[-1]
        line = place.line_of(tuple(key_parts(key)))
        if name.startswith("_"):
            out.append(Problem("info", place.file, "a comment key (it starts with _): kept, not used",
                               record_id=record.id, field=key, line=line, index=place.index))
            continue
        close = difflib.get_close_matches(name, _known_keys(key), n=1, cutoff=0.6)
        hint = f"did you mean {close[0]!r}?" if close else "a typo?"
        out.append(Problem("warning", place.file, f"unknown key ({hint}); it is kept but not used",
                           record_id=record.id, field=key, line=line, index=place.index))
    return out


_PARTS = {"versions": VersionEntry, "dead_ends": DeadEnd, "workarounds": Workaround,
          "transition_graph": TransitionGraph}


def _known_keys(path: str) -> list[str]:
    """The field names of the model that holds the last key of ``path``."""
    parts = [part for part in key_parts(path) if isinstance(part, str)][:-1]
    if not parts:
        return list(Record.model_fields)
    if parts[0] == "transition_graph" and len(parts) > 1:
        return list(TransitionRef.model_fields)
    return list(_PARTS.get(parts[0], Record).model_fields)


def links(record: Record) -> list[tuple[str, str]] | None:
    """``(kind, target id)`` of the record's transition links; None when it has none."""
    return record.transition_graph.edges() or None


def _find_long_text(data: Any, path: str = "", depth: int = 0) -> str | None:
    """The path of the first string longer than MAX_FIELD_CHARS inside ``data``, or None."""
    if isinstance(data, str):
        return (path or "-") if len(data) > MAX_FIELD_CHARS else None
    if depth > 20:
        return None
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        where = f"{path}[{key}]" if isinstance(key, int) else (f"{path}.{key}" if path else str(key))
        found = _find_long_text(value, where, depth + 1)
        if found is not None:
            return found
    return None


def _field_path(loc: Sequence[Any]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in ("str", "TransitionRef", "function-after[_domain_matches_id(), Record]"):
            continue  # pydantic's names for union branches and validators, not fields
        else:
            out += f".{part}" if out else str(part)
    return out


def _error_message(error: dict[str, Any]) -> str:
    message = str(error.get("msg", "invalid"))
    if message.startswith("Value error, "):
        message = message[len("Value error, "):]
    if error.get("type") not in ("missing",) and "input" in error:
        message += f" (got {cell_truncate(repr(error['input']), 60)})"
    return message
