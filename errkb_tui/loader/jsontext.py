"""Reading JSON text by position: the items of a list document with their spans, and the
line a field of a record sits on (for problems that point at ``file:line``).

Plain functions over text; nothing here knows about records or KB files.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

_DECODER = json.JSONDecoder()
_SPACE = " \t\r\n"


class ListItem(NamedTuple):
    """One item of a JSON list document: its value, where its text starts and ends
    (characters and UTF-8 bytes) and the line it starts on."""

    value: Any
    start: int  # character offset of the item's first character
    end: int  # character offset just past it
    byte_start: int
    byte_length: int
    line: int


def skip_space(text: str, position: int) -> int:
    """The first position at or after ``position`` that is not JSON whitespace."""
    while position < len(text) and text[position] in _SPACE:
        position += 1
    return position


def starts_list(text: str) -> bool:
    """Whether the JSON document in ``text`` is a list (its first non-space is ``[``)."""
    return text.startswith("[", skip_space(text, 0))


def list_items(text: str, byte_base: int = 0) -> Iterator[ListItem]:
    """The items of the JSON list in ``text``, one at a time, each with its span.

    ``byte_base`` is added to byte offsets (3 when a byte-order mark preceded ``text``).
    Raises :class:`json.JSONDecodeError` (positions relative to ``text``, so its line is
    right) where the document stops being a valid list; the items before it were yielded.
    Byte offsets are exact for any text: non-ASCII text between items is encoded to count.
    """
    ascii_only = text.isascii()
    position = skip_space(text, 0)
    if not text.startswith("[", position):
        raise json.JSONDecodeError("Expecting '['", text, position)
    position = skip_space(text, position + 1)
    if text.startswith("]", position):
        _expect_end(text, position + 1)
        return
    line, counted_to = 1, 0
    byte_at, bytes_to = byte_base, 0  # byte offset of character ``bytes_to``
    while True:
        value, end = _DECODER.raw_decode(text, position)
        line += text.count("\n", counted_to, position)
        counted_to = position
        if ascii_only:
            byte_start, byte_length = byte_base + position, end - position
        else:
            byte_at += len(text[bytes_to:position].encode("utf-8"))
            bytes_to = position
            byte_start, byte_length = byte_at, len(text[position:end].encode("utf-8"))
        yield ListItem(value, position, end, byte_start, byte_length, line)
        position = skip_space(text, end)
        if text.startswith(",", position):
            position = skip_space(text, position + 1)
            continue
        if text.startswith("]", position):
            _expect_end(text, position + 1)
            return
        raise json.JSONDecodeError("Expecting ',' delimiter", text, position)


def _expect_end(text: str, position: int) -> None:
    position = skip_space(text, position)
    if position < len(text):
        raise json.JSONDecodeError("Extra data", text, position)


def key_parts(path: str) -> Iterator[Any]:
    """``dead_ends[1].why_fails`` -> ``"dead_ends", 1, "why_fails"``."""
    for chunk in path.replace("]", "").replace("[", ".").split("."):
        if chunk:
            yield int(chunk) if chunk.isdigit() else chunk


def guess_line(text: str, loc: Sequence[Any], start: int = 0) -> int | None:
    """Line of a field path in the JSON object at ``start`` of ``text``, counted from the
    line ``start`` is on (1): the line of the deepest part of the path found in it.

    Walks the JSON text itself (keys, then list items by position), so a key missing from
    earlier list items, or present only in one item, still gets its own line. Parts that
    are not keys of the object at hand (pydantic's union branch names) are skipped.
    """
    position, found = skip_space(text, start), None
    try:
        for part in loc:
            if isinstance(part, int) and text.startswith("[", position):
                position = skip_space(text, position + 1)
                for _ in range(part):
                    position = skip_space(text, _DECODER.raw_decode(text, position)[1])
                    position = skip_space(text, position + 1)  # past the comma
                if text.startswith("]", position):
                    break
                found = position
            elif isinstance(part, str) and text.startswith("{", position):
                cursor = skip_space(text, position + 1)
                while text.startswith('"', cursor):
                    key_start = cursor
                    key, cursor = _DECODER.raw_decode(text, cursor)
                    cursor = skip_space(text, skip_space(text, cursor) + 1)  # past the colon
                    if key == part:
                        found, position = key_start, cursor
                        break
                    cursor = skip_space(text, _DECODER.raw_decode(text, cursor)[1])
                    cursor = skip_space(text, cursor + 1)  # past the comma
            else:
                break
    except (ValueError, IndexError):
        pass
    return None if found is None else text.count("\n", start, found) + 1
