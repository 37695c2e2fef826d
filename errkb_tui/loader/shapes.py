"""Reading each shape of KB file: a ``.json`` file holding one record or a list of them,
and a ``.jsonl`` file of any size, streamed one line at a time.

Each record's JSON goes to a :class:`Sink` with its :class:`~.validate.Place` (file, line,
index and byte span, so it can be read again alone); what cannot be read becomes a
problem. Nothing here validates records.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Protocol

from ..kb import Problem
from .jsontext import ListError, ListReader, explain_syntax_error, line_at
from .validate import Place

#: A ``.json`` file holding one record is not read past this size (it is parsed whole).
#: ``.jsonl`` files and ``.json`` lists have no limit: they are read one record at a time.
MAX_FILE_BYTES = 64 * 1024 * 1024
#: A record (a ``.jsonl`` line, an item of a list) longer than this is skipped unread.
MAX_RECORD_BYTES = 8 * 1024 * 1024
_BOM = b"\xef\xbb\xbf"
#: A ``.json`` file is first read this far: all of a one-record file, the start of a list.
_HEAD_BYTES = 1 << 20
_MIB = 1024 * 1024


class Sink(Protocol):
    """Where a file's records and problems go."""

    def problem(self, problem: Problem) -> None: ...

    def raw(self, raw: bytes, place: Place) -> bool:
        """Take one record's JSON text if it is a valid record; False leaves it unread."""

    def value(self, data: Any, place: Place) -> None:
        """Take one parsed JSON value (a record, or the reasons it is not one)."""


#: Where reading a part of a ``.json`` list stopped: the next item's byte offset and line,
#: and how many items the part held.
Stop = tuple[int, int, int]


def read_file(file: Path, sink: Sink, part: tuple[int, int | None] | None = None) -> Stop | None:
    """Read every record of ``file`` into ``sink``; never raises for bad input.

    ``part`` is a byte range ``(start, end)`` of the file (``end`` None: to its end). For a
    ``.jsonl`` file: the lines that begin in it; reading a file in parts, each line is read
    by exactly one part, with its true line number and offset. For a ``.json`` list: from
    ``(0, end)``, the items that begin before ``end``, and the return value says where the
    next one starts (:data:`Stop`; None if the list ended or broke first); from
    ``(start, None)``, the items from byte ``start``, which must be where an item starts
    (their indexes then count from 0 there: the caller adds the items before).
    """
    name = str(file)
    try:
        if file.suffix == ".jsonl":
            _read_lines(file, name, sink, *(part or (0, None)))
            return None
        return _read_document(file, name, sink, part)
    except OSError as exc:
        sink.problem(Problem("error", name, f"cannot read file: {exc.strerror or exc}"))
        return None


def _read_lines(file: Path, name: str, sink: Sink, begin: int = 0, stop: int | None = None) -> None:
    """A ``.jsonl`` file (or the lines that begin in ``[begin, stop)``), one line at a time:
    memory stays that of one line, whatever the file's size."""
    with open(file, "rb") as handle:
        offset, number = (_line_start(handle, begin) if begin else (0, 0))
        blank = True
        while stop is None or offset < stop:
            line = handle.readline(MAX_RECORD_BYTES + 1)
            if not line:
                break
            number += 1
            start = offset
            offset += len(line)
            if len(line) > MAX_RECORD_BYTES and not line.endswith(b"\n"):
                offset += _skip_line(handle)
                blank = False
                sink.problem(Problem("error", name, f"line is longer than {_size(MAX_RECORD_BYTES)}; skipped",
                                     line=number))
                continue
            body = line[:-1] if line.endswith(b"\n") else line
            if start == 0 and body.startswith(_BOM):
                body, start = body[3:], start + 3
            if not body.strip():
                continue
            blank = False
            place = Place(name, line=number, offset=start, length=len(body), size=len(body))
            if sink.raw(body, place):
                continue
            try:
                text = body.decode("utf-8")
            except UnicodeDecodeError as exc:
                sink.problem(_not_utf8(name, body, exc, number, start))
                continue
            data = _parse(name, text, sink, line=number)
            if data is not _BAD:
                sink.value(data, place)
    if blank and begin == 0 and stop is None:
        sink.problem(Problem("error", name, "file is empty"))


def _line_start(handle, begin: int) -> tuple[int, int]:
    """Move ``handle`` to the first line that begins at or after byte ``begin``; that
    line's offset, and how many lines come before it."""
    lines, read = 0, 0
    while read < begin - 1:  # count the newlines before ``begin - 1``
        chunk = handle.read(min(_MIB, begin - 1 - read))
        if not chunk:
            break
        lines += chunk.count(b"\n")
        read += len(chunk)
    previous = handle.read(1)
    if previous == b"\n" or not previous:
        return read + len(previous), lines + len(previous)
    rest = _skip_line(handle)  # begin is mid-line: that line belongs to the part before
    return read + 1 + rest, lines + 1
def _skip_line(handle) -> int:
    """Read past the rest of an over-long line; how many bytes that was."""
    skipped = 0
    while True:
        chunk = handle.readline(_MIB)
        skipped += len(chunk)
        if not chunk or chunk.endswith(b"\n"):
            return skipped


def _read_document(file: Path, name: str, sink: Sink, part: tuple[int, int | None] | None) -> Stop | None:
    """A ``.json`` file: a list of records, streamed item by item with their spans; or one
    record, read whole (up to ``MAX_FILE_BYTES``)."""
    with open(file, "rb") as handle:
        if part is not None and part[0] > 0:
            reader = ListReader(handle, MAX_RECORD_BYTES)
            reader.start_at(part[0], 1 + _count_lines(handle, part[0]))
            return _read_list(name, reader, sink)
        size = os.fstat(handle.fileno()).st_size
        raw = handle.read() if size < _HEAD_BYTES else handle.read(_HEAD_BYTES)  # all of a small file
        first = (raw[3:] if raw.startswith(_BOM) else raw).lstrip(b" \t\r\n")[:1]
        if first == b"[" or (not first and len(raw) == _HEAD_BYTES):  # a list (or a lot of space)
            handle.seek(0)
            reader = ListReader(handle, MAX_RECORD_BYTES)
            try:
                first = reader.peek().encode()
            except ListError as exc:
                sink.problem(Problem("error", name, exc.message, line=exc.line))
                return None
            if first == b"[":
                return _read_list(name, reader, sink, part[1] if part is not None else None)
            handle.seek(0)
            raw = b""
        if not first:
            sink.problem(Problem("error", name, "file is empty"))
            return None
        if size > MAX_FILE_BYTES:
            sink.problem(Problem("error", name, f"file is {_size(size)}; the limit for a .json file "
                                                f"holding one record is {_size(MAX_FILE_BYTES)}"))
            return None
        if len(raw) < size:
            raw += handle.read()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        sink.problem(_not_utf8(name, raw, exc))
        return None
    place = Place(name, text=text, size=len(text))
    if sink.raw(raw[3:] if raw.startswith(_BOM) else raw, place):
        return None
    data = _parse(name, text, sink)
    if data is not _BAD:
        sink.value(data, place)
    return None


def _count_lines(handle, end: int) -> int:
    """How many newlines the first ``end`` bytes of the file hold."""
    handle.seek(0)
    count, read = 0, 0
    while read < end:
        chunk = handle.read(min(_MIB, end - read))
        if not chunk:
            break
        count += chunk.count(b"\n")
        read += len(chunk)
    return count


def _read_list(name: str, reader: ListReader, sink: Sink, stop: int | None = None) -> Stop | None:
    index = -1
    try:
        for index, item in enumerate(reader.items(stop)):
            if item.byte_length > MAX_RECORD_BYTES:
                sink.problem(Problem("error", name, f"record is longer than {_size(MAX_RECORD_BYTES)}; skipped",
                                     line=item.line, index=index))
                continue
            sink.value(item.value, Place(name, line=item.line, index=index, offset=item.byte_start,
                                         length=item.byte_length, text=item.text, start=item.start,
                                         size=item.end - item.start))
    except ListError as exc:
        column = f" (column {exc.column})" if exc.column is not None else ""
        sink.problem(Problem("error", name, f"invalid JSON: {exc.message}{column}" if column else exc.message,
                             line=exc.line))
        return None
    if reader.stopped_at is not None:
        return (*reader.stopped_at, index + 1)
    if index < 0 and not reader.inside:
        sink.problem(Problem("warning", name, "file holds an empty list: no records"))
    return None


def _not_utf8(name: str, raw: bytes, exc: UnicodeDecodeError, first_line: int = 1, base: int = 0) -> Problem:
    line = first_line + raw[: exc.start].count(b"\n")
    return Problem("error", name, f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {base + exc.start})",
                   line=line)


_BAD = object()


def _size(count: int) -> str:
    return f"{count // _MIB} MiB" if count >= _MIB else f"{count // 1024} KiB"


def syntax_problem(name: str, text: str, position: int, message: str, first_line: int = 1) -> Problem:
    """The problem for a JSON syntax error at ``position`` of ``text`` (which starts on line
    ``first_line`` of file ``name``): at the line of its likely cause, saying what it is."""
    where = line_at(text, position)
    column = position - text.rfind("\n", 0, position)
    explained = explain_syntax_error(text, position, message)
    if explained is None:
        return Problem("error", name, f"invalid JSON: {message.removesuffix(' at')} (column {column})",
                       line=where + first_line - 1)
    hint, at = explained
    cause = line_at(text, at)
    hint = hint.replace("{at}", f"line {cause + first_line - 1}")
    message = message.removesuffix(" at")
    said = f"line {where + first_line - 1}, column {column}" if cause != where else f"column {column}"
    return Problem("error", name, f"invalid JSON: {hint} (the parser: {message} at {said})",
                   line=cause + first_line - 1)


def _parse(name: str, text: str, sink: Sink, line: int | None = None) -> Any:
    """``text`` (which starts on ``line``, if a line of a bigger file) parsed as JSON;
    ``_BAD``, and a problem with its line, if it is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        sink.problem(syntax_problem(name, text, exc.pos, exc.msg, line or 1))
    except RecursionError:
        sink.problem(Problem("error", name, "invalid JSON: nested too deeply", line=line))
    return _BAD
