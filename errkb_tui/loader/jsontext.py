"""Reading JSON text by position: the items of a list document (streamed, with their byte
spans and lines), and the line a field of a record sits on (for ``file:line`` problems).

Plain functions over text; nothing here knows about records or KB files.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

_DECODER = json.JSONDecoder()
_SPACE = " \t\r\n"


class ListItem(NamedTuple):
    """One item of a JSON list document: its value, its JSON text (``text[start:end]``, for
    the line of a field in it), its UTF-8 byte span in the file and the line it starts on."""

    value: Any
    text: str
    start: int
    end: int
    byte_start: int
    byte_length: int
    line: int


class ListError(ValueError):
    """Where a JSON list document stops being readable: a message, a line and a column."""

    def __init__(self, message: str, line: int, column: int | None = None) -> None:
        super().__init__(message)
        self.message, self.line, self.column = message, line, column


def skip_space(text: str, position: int) -> int:
    """The first position at or after ``position`` that is not JSON whitespace."""
    while position < len(text) and text[position] in _SPACE:
        position += 1
    return position


#: Bytes read at a time from a list document.
CHUNK_BYTES = 1 << 20


class ListReader:
    """The items of a JSON list document read from a binary file, one at a time, in
    memory bounded by the largest item (plus a chunk), whatever the file's size.

    Call :meth:`items` after the caller has seen (with :meth:`peek`) that the document is
    a list. Raises :class:`ListError` where the document stops being a valid list (the
    items before it were yielded), or where one item is longer than ``max_item_bytes``
    (the rest cannot be told apart from it). ``UnicodeDecodeError`` is raised as
    :class:`ListError` too, naming the byte offset.
    """

    def __init__(self, handle: BinaryIO, max_item_bytes: int) -> None:
        self._handle = handle
        self._max = max_item_bytes
        self._decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self._buf = ""
        self._pos = 0
        self._eof = False
        self._broken: ListError | None = None  # where undecodable bytes stop the text
        self._fed = 0  # bytes read from the file
        # Marks: what is known at a position of the buffer (moved forward as items go by).
        self._byte_at, self._byte_mark = 0, 0  # byte offset of buffer index ``_byte_mark``
        self._line_no, self._line_mark = 1, 0  # line of buffer index ``_line_mark``
        self._column_base = 0  # characters before buffer index 0 on its line
        self.inside = False  # True: reading starts at an item, not at the "["
        self.stopped_at: tuple[int, int] | None = None

    def peek(self) -> str:
        """The document's first non-space character ("" for an empty document)."""
        self._skip()
        return self._buf[self._pos] if self._pos < len(self._buf) else ""

    def start_at(self, offset: int, line: int) -> None:
        """Read from byte ``offset`` (on line ``line``): the start of an item of the list,
        as if the items before it had been read (their count is not known here)."""
        self._handle.seek(offset)
        self._fed = self._byte_at = offset
        self._line_no = line
        self.inside = True

    def items(self, stop: int | None = None) -> Iterator[ListItem]:
        """The items, in order. With ``stop``, only those that start before byte ``stop``;
        :attr:`stopped_at` is then ``(byte offset, line)`` of the first one that does not."""
        self.stopped_at: tuple[int, int] | None = None
        if not self.inside:
            if self.peek() != "[":
                raise self._error("Expecting '['")
            self._pos += 1
            if self._skip() == "]":
                self._pos += 1
                self._expect_end()
                return
        while True:
            if self._skip() == "":
                raise self._error("Expecting value")
            start = self._pos
            if stop is not None and self._bytes_at(start) >= stop:
                self.stopped_at = (self._bytes_at(start), self._line_at(start))
                return
            value, end = self._decode(start)
            buf = self._buf
            line = self._line_at(start)
            byte_start = self._bytes_at(start)
            byte_length = self._bytes_at(end) - byte_start
            yield ListItem(value, buf, start, end, byte_start, byte_length, line)
            self._pos = end
            following = self._skip()
            if following == ",":
                self._pos += 1
                self._trim()
                continue
            if following == "]":
                self._pos += 1
                self._expect_end()
                return
            raise self._error("Expecting ',' delimiter")

    # -- reading -----------------------------------------------------------------------

    def _fill(self) -> None:
        if self._broken is not None:  # the text stops here: what came before it was read
            raise self._broken
        raw = self._handle.read(CHUNK_BYTES)
        base, self._fed = self._fed, self._fed + len(raw)
        chunk = raw
        if base == 0 and raw.startswith(b"\xef\xbb\xbf"):  # a byte-order mark: not text
            chunk, base, self._byte_at = raw[3:], 3, 3
        if not raw:
            self._eof = True
        try:
            self._buf += self._decoder.decode(chunk, final=self._eof)
        except UnicodeDecodeError as exc:
            good = exc.object[: exc.start]
            line = self._line_at(len(self._buf)) + good.count(b"\n")
            self._buf += good.decode("utf-8", "replace")
            pending = len(exc.object) - len(chunk)  # bytes the decoder kept from the last chunk
            self._broken = ListError(f"not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset "
                                     f"{base - pending + exc.start})", line)

    def _skip(self) -> str:
        """Move past whitespace (reading as needed); the next character, "" at the end."""
        while True:
            self._pos = skip_space(self._buf, self._pos)
            if self._pos < len(self._buf):
                return self._buf[self._pos]
            if self._eof:
                return ""
            self._fill()

    def _decode(self, start: int) -> tuple[Any, int]:
        while True:
            buf = self._buf
            try:
                value, end = _DECODER.raw_decode(buf, start)
            except json.JSONDecodeError as exc:
                cut = exc.msg.startswith("Unterminated string") or exc.pos >= len(buf) - 8
                if self._eof or not cut:
                    raise self._error(f"{exc.msg}", exc.pos) from None
            except RecursionError:
                raise self._error("nested too deeply", start) from None
            else:
                if end < len(buf) or self._eof:  # a number at the very end may go on
                    return value, end
            if len(buf) - start > self._max:
                raise ListError(f"a record longer than {self._max:,} bytes (or one never closed); "
                                "the rest of the file is skipped", self._line_at(start))
            self._fill()

    def _expect_end(self) -> None:
        if self._skip() != "":
            raise self._error("Extra data")

    # -- positions ---------------------------------------------------------------------

    def _line_at(self, index: int) -> int:
        if index >= self._line_mark:
            self._line_no += self._buf.count("\n", self._line_mark, index)
            self._line_mark = index
            return self._line_no
        return self._line_no - self._buf.count("\n", index, self._line_mark)

    def _bytes_at(self, index: int) -> int:
        if index >= self._byte_mark:
            piece = self._buf[self._byte_mark:index]
            self._byte_at += len(piece) if piece.isascii() else len(piece.encode("utf-8"))
            self._byte_mark = index
            return self._byte_at
        piece = self._buf[index:self._byte_mark]
        return self._byte_at - (len(piece) if piece.isascii() else len(piece.encode("utf-8")))

    def _error(self, message: str, index: int | None = None) -> ListError:
        index = self._pos if index is None else index
        explained = explain_syntax_error(self._buf, index, message) if self._eof or index < len(self._buf) - 64 else None
        if explained is not None:  # the likely cause, at its own line
            hint, at = explained
            line = self._line_at(at)
            return ListError(f"invalid JSON: {hint.replace('{at}', f'line {line}')} (the parser: {message} at line "
                             f"{self._line_at(index)})", line)
        line = self._line_at(index)
        newline = self._buf.rfind("\n", 0, index)
        column = index - newline if newline >= 0 else index + 1 + self._column_base
        return ListError(message, line, column)

    def _trim(self) -> None:
        """Drop the text before the current position once it is a chunk long."""
        pos = self._pos
        if pos < CHUNK_BYTES:
            return
        self._line_at(pos)
        self._bytes_at(pos)
        dropped = self._buf[:pos]
        newline = dropped.rfind("\n")
        self._column_base = pos - newline - 1 if newline >= 0 else self._column_base + pos
        self._buf = self._buf[pos:]
        self._pos = 0
        self._line_mark = self._byte_mark = 0


def guess_item_start(path: Path, cut: int, max_item_bytes: int, scan_bytes: int = 16 << 20) -> int | None:
    """A likely start of the first item at or after byte ``cut`` of the JSON list in ``path``.

    Only a guess, to be checked by a reader that reads up to it from the start: the
    separator between the first two items (``},`` and a newline with the items'
    indentation, as tools write lists) is looked for from ``cut``. None when the items are
    not objects separated by a line break, or nothing is found nearby.
    """
    with open(path, "rb") as handle:
        reader = ListReader(handle, max_item_bytes)
        try:
            if reader.peek() != "[":
                return None
            items = reader.items()
            first, second = next(items, None), next(items, None)
        except ListError:
            return None
        if first is None or second is None or not isinstance(first.value, dict):
            return None
        first_end = first.byte_start + first.byte_length
        handle.seek(first_end)
        separator = handle.read(second.byte_start - first_end)
        if b"\n" not in separator or b"," not in separator:
            return None
        pattern = b"}" + separator + b"{"
        window_start = max(0, cut - len(pattern))
        handle.seek(window_start)
        window = handle.read(scan_bytes)
    found = window.find(pattern)
    while found >= 0:
        start = window_start + found + len(pattern) - 1
        if start >= cut:
            return start
        found = window.find(pattern, found + 1)
    return None


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


# -- why a JSON text does not parse -----------------------------------------------------


def _previous(text: str, position: int) -> int:
    """The position of the last non-space character before ``position`` (-1 if none)."""
    position -= 1
    while position >= 0 and text[position] in _SPACE:
        position -= 1
    return position


def _open_brackets(text: str, end: int) -> list[int]:
    """Positions of the ``{`` and ``[`` still open at ``end`` (strings skipped)."""
    stack: list[int] = []
    position, in_string = 0, False
    while position < end:
        c = text[position]
        if in_string:
            if c == "\\":
                position += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "{[":
            stack.append(position)
        elif c in "}]" and stack:
            stack.pop()
        position += 1
    return stack


def explain_syntax_error(text: str, position: int, message: str) -> tuple[str, int] | None:
    """The likely cause of a JSON syntax error that ``json`` reports as ``message`` at
    ``position`` of ``text``, in a person's words, and the position it is about (to turn
    into a line, put in for ``{at}`` in the words): a trailing comma, a missing comma or colon, single quotes, a comment,
    Python's ``True``/``None``, an unclosed string or bracket, an unescaped backslash or
    line break in a string, a second document. None when nothing more useful can be said."""
    here = text[position:position + 1]
    before = _previous(text, position)
    prior = text[before] if before >= 0 else ""
    if text.startswith(("//", "/*"), position) or (here == "#" and "Expecting" in message):
        return "JSON has no comments: delete it, or keep the note in a key that starts with _", position
    if message.startswith(("Expecting property name", "Expecting value")) and here in "}]" and here and prior == ",":
        return f"trailing comma before `{here}` on {{at}}: delete the comma", before
    if message.startswith(("Expecting property name", "Expecting value")) and here == ",":
        return "two commas in a row on {at}: delete one", position
    if message.startswith(("Expecting property name", "Expecting value")) and here == "'":
        return "strings and keys need double quotes (\"...\"), not single quotes", position
    if message.startswith("Expecting value"):
        word = re.match(r"[A-Za-z_]+", text[position:position + 12])
        if word and word.group() in ("True", "False", "None", "undefined", "NaN", "nil"):
            fix = {"True": "true", "False": "false"}.get(word.group(), "null")
            return f"{word.group()} is not JSON: write {fix}", position
        if position >= len(text.rstrip()):
            opened = _open_brackets(text, len(text))
            if opened:
                return f"the text ends before the `{text[opened[-1]]}` opened on {{at}} is closed", opened[-1]
            return "the text ends where a value should follow", before if before >= 0 else position
    if message.startswith("Expecting property name") and re.match(r"[A-Za-z_]", here):
        return "keys need double quotes: \"" + re.match(r"\w*", text[position:]).group() + "\"", position
    if message.startswith("Expecting ',' delimiter"):
        if position >= len(text.rstrip()):
            opened = _open_brackets(text, len(text))
            if opened:
                return f"the text ends before the `{text[opened[-1]]}` opened on {{at}} is closed", opened[-1]
        if prior == '"' and here not in "\n" and re.match(r"[\w ]", here or "x"):
            return "a \" inside a string must be written \\\" (or a comma is missing before this)", before
        return "missing comma after the value that ends on {at}", before
    if message.startswith("Expecting ':' delimiter"):
        return "missing `:` after the key on {at}", before
    if message.startswith("Unterminated string"):
        return ("unclosed string: the closing \" is missing (a line break inside a string must be "
                "written \\n)"), position
    if message.startswith("Invalid control character"):
        return "a line break or tab inside a string: write \\n or \\t", position
    if message.startswith("Invalid \\escape"):
        return ("a backslash inside a string must be doubled (\\\\), as in a regex: "
                "\"\\\\d+\" for \\d+"), position
    if message.startswith("Extra data"):
        return ("text after the end of the record: one .json file holds one record or a list "
                "[...]; a .jsonl file one record a line"), position
    return None


def line_at(text: str, position: int) -> int:
    """The 1-based line of ``position`` in ``text``."""
    return text.count("\n", 0, max(0, position)) + 1


#: A key at the start of a line: ``  "key": ``.
_KEY_LINE = re.compile(r'^([ \t]*)"((?:[^"\\\n]|\\.)*)"[ \t]*:[ \t]*', re.M)


def object_keys(text: str, start: int = 0) -> dict[str, tuple[int, int]]:
    """``key -> (key position, value position)`` for the keys of the JSON object at ``start``
    of ``text`` (the first of a repeated key). Empty if it is not an object; the keys
    before a syntax error if it breaks.

    Pretty-printed text (each top-level key on a line of its own, all indented alike, as
    tools and editors write records) is read by one regex pass; other text by a walk."""
    if start == 0 and text.count("\n") > 2:
        found = list(_KEY_LINE.finditer(text))
        if found:
            indent = min(len(m.group(1)) for m in found)
            top = [m for m in found if len(m.group(1)) == indent]
            if len(top) >= 2 and text.lstrip().startswith("{") and '"' not in text[:top[0].start()]:
                out: dict[str, tuple[int, int]] = {}
                for m in top:
                    try:
                        key = json.loads(f'"{m.group(2)}"')
                    except ValueError:
                        break
                    out.setdefault(key, (m.start() + indent, m.end()))
                else:
                    return out
    return _walk_keys(text, start)


def _walk_keys(text: str, start: int) -> dict[str, tuple[int, int]]:
    out: dict[str, tuple[int, int]] = {}
    position = skip_space(text, start)
    if not text.startswith("{", position):
        return out
    cursor = skip_space(text, position + 1)
    try:
        while text.startswith('"', cursor):
            key_start = cursor
            key, cursor = _DECODER.raw_decode(text, cursor)
            cursor = skip_space(text, skip_space(text, cursor) + 1)  # past the colon
            out.setdefault(key, (key_start, cursor))
            cursor = skip_space(text, _DECODER.raw_decode(text, cursor)[1])
            cursor = skip_space(text, cursor + 1)  # past the comma
    except (ValueError, IndexError):
        pass
    return out
