"""The user's outcomes (what worked, what failed) and a team's shared counts.

Plain Python, no Textual. Two files, both JSON Lines:

* The user's log, :func:`errkb_tui.userdata.outcomes_file`: append-only, one event a line::

    {"record_id": "pytorch/cuda-out-of-memory", "hash": "3f0c9a1e5b7d2c48",
     "kind": "workaround", "verdict": "worked", "date": "2026-11-30"}

  ``kind`` is ``workaround`` or ``dead_end``; ``verdict`` is ``worked`` or ``failed`` (a
  workaround) or ``tried_failed`` (a dead end: "I tried this, it failed"; ``worked`` on a
  dead end means it worked after all); ``date`` is the UTC date. Nothing else is stored:
  no clipboard text, no paths, no user names.

* A team's file, ``outcomes.jsonl`` at the top of a KB folder: counts per fix, read and
  written by :mod:`errkb_tui.team`.

An outcome is attached to a fix by :func:`item_hash` of the fix's own text, never by its
position, so reordering a record's workarounds keeps every outcome on its fix, and editing
a fix's text starts it afresh instead of lending it another fix's history.

Writing is safe for crashes and for several app instances at once (:func:`append_event`);
reading is tolerant: a bad line becomes a :class:`~errkb_tui.kb.Problem`, never an error.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import re
import threading
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, NamedTuple

from .kb import Problem
from .model import DeadEnd, Workaround

try:  # POSIX; elsewhere, O_APPEND alone keeps whole lines whole
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

Kind = Literal["workaround", "dead_end"]
Verdict = Literal["worked", "failed", "tried_failed"]
KINDS: tuple[Kind, ...] = ("workaround", "dead_end")
#: Verdicts each kind accepts.
VERDICTS: dict[str, tuple[str, ...]] = {
    "workaround": ("worked", "failed"),
    "dead_end": ("tried_failed", "worked"),
}
#: The name of a team's counts file at the top of a KB folder (the loader skips it).
TEAM_FILE = "outcomes.jsonl"
#: Hex digits kept of the SHA-256 (64 bits: no two fixes of one record will collide).
HASH_LENGTH = 16
#: A line longer than this is not an outcome (guards memory against a garbage file).
MAX_LINE_BYTES = 4096
#: A file larger than this is not read (about 400,000 outcomes; a garbage file costs no memory).
MAX_FILE_BYTES = 64 * 1024 * 1024
_HASH = re.compile(f"[0-9a-f]{{{HASH_LENGTH}}}")


def normalise(text: str) -> str:
    """``text`` in Unicode NFC with every run of whitespace made one space, ends stripped."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def item_hash(item: Workaround | DeadEnd) -> str:
    """The stable key of a workaround or dead end: 16 hex digits of a SHA-256.

    What is hashed, exactly: the UTF-8 bytes of ``kind + "\\n" + A + "\\n" + B`` where
    ``kind`` is ``workaround`` or ``dead_end`` and, after :func:`normalise` (NFC, whitespace
    runs to one space, ends stripped):

    * a workaround: ``A`` = ``action``, ``B`` = ``how`` (what to do and the command);
    * a dead end: ``A`` = ``action``, ``B`` = ``why_fails`` (``action`` may be empty).

    Not hashed: the rates, ``condition``, ``sources``, the Chinese text, the position in
    the record. So re-estimating a rate, adding a source or reordering keeps the outcomes;
    rewording the fix itself (whitespace aside) makes it a new fix with no history.
    """
    if isinstance(item, Workaround):
        return text_hash("workaround", item.action, item.how)
    if isinstance(item, DeadEnd):
        return text_hash("dead_end", item.action, item.why_fails)
    raise TypeError(f"not a workaround or dead end: {type(item).__name__}")


def text_hash(kind: str, first: str, second: str) -> str:
    """:func:`item_hash` from plain text (``kind``, then the two texts it names)."""
    data = "\n".join((kind, normalise(first), normalise(second))).encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()[:HASH_LENGTH]


def kind_of(item: Workaround | DeadEnd) -> Kind:
    """``workaround`` or ``dead_end``."""
    return "workaround" if isinstance(item, Workaround) else "dead_end"


class Counts(NamedTuple):
    """How often a fix worked and failed (for a dead end, ``failed`` counts "tried, failed")."""

    worked: int = 0
    failed: int = 0

    @property
    def total(self) -> int:
        """All outcomes."""
        return self.worked + self.failed

    def __add__(self, other: object) -> Counts:  # type: ignore[override]
        if not isinstance(other, Counts):
            return NotImplemented
        return Counts(self.worked + other.worked, self.failed + other.failed)


@dataclass
class Tally:
    """Counts of one fix with the dates of its first and last outcome."""

    kind: str
    worked: int = 0
    failed: int = 0
    first: str = ""
    last: str = ""

    @property
    def counts(self) -> Counts:
        return Counts(self.worked, self.failed)

    def add(self, worked: int, failed: int, first: str, last: str) -> None:
        self.worked += worked
        self.failed += failed
        if first and (not self.first or first < self.first):
            self.first = first
        if last and last > self.last:
            self.last = last


@dataclass(frozen=True)
class Event:
    """One outcome the user recorded."""

    record_id: str
    hash: str
    kind: str
    verdict: str
    date: str

    def to_line(self) -> bytes:
        """The event as one JSON line, newline included."""
        data = {"record_id": self.record_id, "hash": self.hash, "kind": self.kind,
                "verdict": self.verdict, "date": self.date}
        return (json.dumps(data, ensure_ascii=False, separators=(", ", ": ")) + "\n").encode("utf-8")


def utc_today() -> str:
    """Today's date in UTC, ``YYYY-MM-DD``."""
    return datetime.datetime.now(datetime.timezone.utc).date().isoformat()


def make_event(record_id: str, item_hash_: str, kind: str, verdict: str, date: str | None = None) -> Event:
    """A checked :class:`Event`; ``ValueError`` names what is wrong."""
    if not isinstance(record_id, str) or "/" not in record_id or "\n" in record_id:
        raise ValueError(f"not a record id: {record_id!r}")
    if not isinstance(item_hash_, str) or not _HASH.fullmatch(item_hash_):
        raise ValueError(f"not a fix hash ({HASH_LENGTH} lowercase hex digits): {item_hash_!r}")
    if kind not in VERDICTS:
        raise ValueError(f"kind {kind!r} is not one of: {', '.join(KINDS)}")
    if verdict not in VERDICTS[kind]:
        raise ValueError(f"a {kind} takes a verdict of {' or '.join(VERDICTS[kind])}, not {verdict!r}")
    date = date or utc_today()
    check_date(date)
    return Event(record_id, item_hash_, kind, verdict, date)


def check_date(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"not a date: {value!r}")
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        raise ValueError(f"not a YYYY-MM-DD date: {value!r}") from None
    if len(value) != 10:
        raise ValueError(f"not a YYYY-MM-DD date: {value!r}")
    return value


def append_event(path: Path, event: Event) -> None:
    """Append ``event`` to the log at ``path`` so that no line is ever lost or torn.

    The folder is created if needed. The file is opened with ``O_APPEND`` (every write
    lands at the current end, even with other writers) and locked with ``flock`` where
    the platform has it; the whole line goes out in one ``os.write`` and is ``fsync``-ed
    before the lock is released. If the file does not end in a newline (a write cut short
    by a crash or a full disk), a newline goes first, so the torn line stays one bad line
    of its own and the new event is whole. ``OSError`` reaches the caller.
    """
    line = event.to_line()
    path.parent.mkdir(parents=True, exist_ok=True)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags, 0o644)
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            size = os.fstat(fd).st_size
            if size and _last_byte(path, size) != b"\n":
                line = b"\n" + line
            written = os.write(fd, line)
            while written < len(line):  # only on a nearly full disk; still under the lock
                written += os.write(fd, line[written:])
            os.fsync(fd)
        finally:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _last_byte(path: Path, size: int) -> bytes:
    with open(path, "rb") as handle:
        handle.seek(size - 1)
        return handle.read(1)


class OutcomeCounts:
    """Counts per record and fix, from one or more files; the read side both files share.

    Only records that have outcomes take memory, so a 100,000-record KB costs nothing
    extra. Every method is safe to call from any thread.
    """

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._by_record: dict[str, dict[str, Tally]] = {}
        self._problems: list[Problem] = []

    def counts(self, record_id: str) -> dict[str, Counts]:
        """``{fix hash: Counts}`` for the record; empty if it has no outcomes."""
        with self._lock:
            tallies = self._by_record.get(record_id)
            return {h: t.counts for h, t in tallies.items()} if tallies else {}

    def counts_for(self, record_id: str, item: Workaround | DeadEnd) -> Counts:
        """The counts of one workaround or dead end (zero if none)."""
        with self._lock:
            tally = self._by_record.get(record_id, {}).get(item_hash(item))
            return tally.counts if tally else Counts()

    def record_totals(self, record_id: str, kind: str = "workaround") -> Counts:
        """All outcomes of one kind recorded for the record, summed (for a list row).

        Cheap (no record is read), so it may include fixes the record no longer has.
        """
        with self._lock:
            tallies = self._by_record.get(record_id)
            if not tallies:
                return Counts()
            return sum((t.counts for t in tallies.values() if t.kind == kind), Counts())

    def record_ids(self) -> set[str]:
        """Ids of the records that have outcomes."""
        with self._lock:
            return set(self._by_record)

    def tallies(self) -> Iterator[tuple[str, str, Tally]]:
        """``(record id, fix hash, Tally)`` for every fix, sorted by record id and hash."""
        with self._lock:
            items = [(r, h, Tally(**vars(t))) for r, fixes in self._by_record.items() for h, t in fixes.items()]
        return iter(sorted(items, key=lambda item: (item[0], item[1])))

    @property
    def problems(self) -> list[Problem]:
        """Bad lines seen while reading, as problem entries."""
        with self._lock:
            return list(self._problems)

    def __bool__(self) -> bool:
        with self._lock:
            return bool(self._by_record)

    def _add(self, record_id: str, hash_: str, kind: str, worked: int, failed: int, first: str, last: str) -> None:
        fixes = self._by_record.setdefault(record_id, {})
        tally = fixes.get(hash_)
        if tally is None:
            tally = fixes[hash_] = Tally(kind)
        tally.add(worked, failed, first, last)


class OutcomeLog(OutcomeCounts):
    """The user's outcome log: read on creation, appended by :meth:`record`.

    :meth:`reload` reads only what was appended since (by this or another app instance),
    or the whole file again if it was replaced or shrank.
    """

    def __init__(self, path: Path, *, since: str | None = None) -> None:
        super().__init__()
        self.path = Path(path)
        self.since = since  # events dated before this (YYYY-MM-DD) are not counted
        self._offset = 0
        self._identity: tuple[int, int] | None = None
        self._tail_problem: Problem | None = None
        self.reload()

    @property
    def problems(self) -> list[Problem]:
        with self._lock:
            return self._problems + ([self._tail_problem] if self._tail_problem else [])

    def record(self, record_id: str, item: Workaround | DeadEnd, verdict: str, *, date: str | None = None) -> Event:
        """Append the outcome of ``item`` (a workaround or dead end of ``record_id``).

        Writes to the file first (:func:`append_event`, ``OSError`` on failure), then
        counts it here. Slow (an fsync): call it from a worker, not the event loop.
        """
        event = make_event(record_id, item_hash(item), kind_of(item), verdict, date)
        self.record_event(event)
        return event

    def record_event(self, event: Event) -> None:
        """Append an already-made event (see :func:`make_event`)."""
        append_event(self.path, event)
        self.reload()  # picks up this line and any that another instance wrote before it

    def reload(self) -> None:
        """Read what was appended since the last read (everything, if the file changed)."""
        with self._lock:
            try:
                handle = open(self.path, "rb")
            except FileNotFoundError:
                self._reset(None)
                return
            except OSError as exc:
                self._reset(None)
                self._problems.append(Problem("error", str(self.path), f"cannot read: {exc.strerror or exc}"))
                return
            with handle:
                if fcntl is not None:
                    try:
                        fcntl.flock(handle.fileno(), fcntl.LOCK_SH)
                    except OSError:
                        pass  # a file system without locks: read anyway
                stat = os.fstat(handle.fileno())
                identity = (stat.st_dev, stat.st_ino)
                if identity != self._identity or stat.st_size < self._offset:
                    self._reset(identity)
                if stat.st_size - self._offset > MAX_FILE_BYTES:
                    self._reset(identity)
                    self._problems.append(Problem("error", str(self.path), f"{too_large(stat.st_size)}; not read"))
                    return
                handle.seek(self._offset)
                data = handle.read()
            self._read(data)

    def _reset(self, identity: tuple[int, int] | None) -> None:
        self._by_record.clear()
        self._problems.clear()
        self._tail_problem = None
        self._offset = 0
        self._line = 0
        self._identity = identity

    def _read(self, data: bytes) -> None:
        end = data.rfind(b"\n") + 1
        complete, tail = data[:end], data[end:]
        for raw in complete.split(b"\n")[:-1]:
            self._line += 1
            self._read_line(raw, self._line)
        self._offset += end
        self._tail_problem = None
        if tail.strip():
            # No newline after it: a write cut short. Skipped now; if a later append
            # completes it (append_event adds a newline first), it is read as a line then.
            self._tail_problem = Problem(
                "warning", str(self.path), "the last line is incomplete (a write cut short); skipped",
                line=self._line + 1)

    def _read_line(self, raw: bytes, number: int) -> None:
        if not raw.strip():
            return
        try:
            if len(raw) > MAX_LINE_BYTES:
                raise ValueError(f"line is longer than {MAX_LINE_BYTES} bytes")
            data = json.loads(raw.decode("utf-8"))
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
            date = data.get("date")
            event = make_event(data.get("record_id"), data.get("hash"), data.get("kind"),
                               data.get("verdict"), date if date is not None else "(none)")
        except (ValueError, UnicodeDecodeError, RecursionError) as exc:
            self._problems.append(Problem("warning", str(self.path), f"not an outcome, skipped: {error_reason(exc)}",
                                          line=number))
            return
        if self.since and event.date < self.since:
            return
        worked = event.verdict == "worked"
        self._add(event.record_id, event.hash, event.kind, int(worked), int(not worked), event.date, event.date)


def too_large(size: int) -> str:
    return f"file is {size // (1024 * 1024)} MiB; the limit is {MAX_FILE_BYTES // (1024 * 1024)} MiB"


def error_reason(exc: BaseException) -> str:
    if isinstance(exc, UnicodeDecodeError):
        return "not UTF-8"
    if isinstance(exc, json.JSONDecodeError):
        return f"not JSON ({exc.msg})"
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    return str(exc)


__all__ = ["Counts", "Event", "KINDS", "OutcomeCounts", "OutcomeLog", "TEAM_FILE", "Tally", "VERDICTS",
           "append_event", "item_hash", "kind_of", "make_event", "normalise", "text_hash", "utc_today"]
