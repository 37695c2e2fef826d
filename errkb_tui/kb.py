"""The loaded KB: records, where each came from, the problems report, indexes, one record
read back from its file; and where the KBs are (bundled, ``ERRKB_PATH``, ``--data``).
Loading files into a KB is :func:`errkb_tui.loader.load_kb`.
"""

from __future__ import annotations

import dataclasses
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, NamedTuple

from .model import Record, RecordSummary

Severity = Literal["error", "warning", "info"]


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the KB, precise enough to find and fix."""

    severity: Severity
    file: str
    message: str
    line: int | None = None
    index: int | None = None
    record_id: str | None = None
    field: str = ""

    def astuple(self) -> tuple:
        """The fields in constructor order, as plain values (``Problem(*t)`` rebuilds it)."""
        return dataclasses.astuple(self)

    def location(self) -> str:
        """``file:line``, ``file[index]`` or ``file``: where to look."""
        if self.line is not None:
            return f"{self.file}:{self.line}"
        if self.index is not None:
            return f"{self.file}[{self.index}]"
        return self.file

    def format(self) -> str:
        """``file:line: severity: id: field: message``, one line."""
        message = " ".join(self.message.split())
        return f"{self.location()}: {self.severity}: {self.record_id or '-'}: {self.field or '-'}: {message}"


class Origin(NamedTuple):
    """Where a record was read: file; line (``.jsonl``, an item of a list file); index (an
    item of a list file); and the byte span of its JSON text, to read it again alone (None
    for a file holding one record, read whole)."""

    file: str
    line: int | None = None
    index: int | None = None
    offset: int | None = None
    length: int | None = None

    def __str__(self) -> str:
        return Problem("info", self.file, "", line=self.line, index=self.index).location()


@dataclass
class Source:
    """Where records come from, in load order; later sources override earlier ones."""

    path: Path
    label: str
    report: bool = True  # whether problems found in it are reported
    #: Whether new records may be written into it (the user's own KB, or ``write_to``).
    writable: bool = False


#: The label of the user's own KB (:func:`errkb_tui.userdata.user_kb_dir`) as a source.
USER_LABEL = "user"


#: Full records read back from files that stay cached.
FULL_CACHE = 256


@dataclass
class KB:
    """The loaded knowledge base: records in a stable order, indexes and problems.

    ``records`` and ``by_id`` hold :class:`RecordSummary` objects (what lists, search and
    matching use); :meth:`get` gives the full :class:`Record`.
    """

    records: list[RecordSummary] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    origins: dict[str, Origin] = field(default_factory=dict)  # record id -> where it came from
    sources: list[Source] = field(default_factory=list)
    source_of: dict[str, int] = field(default_factory=dict)  # record id -> index in sources
    full: dict[str, Record] = field(default_factory=dict, repr=False)  # id -> full record, if kept
    presorted: bool = field(default=False, repr=False)  # records already in (domain, category, id) order

    def __post_init__(self) -> None:
        summaries = []
        for item in self.records:
            if isinstance(item, Record):
                self.full[item.id] = item
                item = item.summary()
            summaries.append(item)
        self.records = summaries
        self._read_back: dict[str, Record] = {}
        self.reindex()

    def reindex(self) -> None:
        """Sort records (domain, category, id) and rebuild the indexes."""
        if not self.presorted:
            self.records.sort(key=lambda r: (r.domain, r.category, r.id))
        self.presorted = False
        self.by_id: dict[str, RecordSummary] = {r.id: r for r in self.records}
        self.domain_counts: Counter[str] = Counter(r.domain for r in self.records)
        self.category_counts: dict[str, Counter[str]] = {}
        for record in self.records:
            self.category_counts.setdefault(record.domain, Counter())[record.category] += 1

    @property
    def domains(self) -> list[str]:
        """Domains in sorted order."""
        return sorted(self.domain_counts)

    def categories(self, domain: str) -> list[str]:
        """Categories of ``domain`` in sorted order."""
        return sorted(self.category_counts.get(domain, {}))

    def problem_counts(self) -> Counter[str]:
        """How many problems of each severity (counted again only when the list grew or
        shrank: the header asks on every keystroke, and a bad KB can have thousands)."""
        cached = getattr(self, "_counted", None)
        if cached is None or cached[0] != len(self.problems):
            cached = (len(self.problems), Counter(p.severity for p in self.problems))
            self._counted = cached
        return Counter(cached[1])

    def attention_count(self) -> int:
        """The problems worth a user's attention: errors and warnings (not house-style info)."""
        counts = self.problem_counts()
        return counts["error"] + counts["warning"]

    def source_counts(self) -> Counter[str]:
        """How many of the loaded records come from sources of each label (after overrides:
        a user record that replaces a bundled one counts for ``user``).

        Counted again only when the mapping or the sources were replaced or changed size:
        the header asks on every keystroke, and a count is a pass over every record."""
        key = (id(self.source_of), len(self.source_of), id(self.sources), len(self.sources))
        cached = getattr(self, "_source_counted", None)
        if cached is None or cached[0] != key:
            counts: Counter[str] = Counter()
            for index in self.source_of.values():
                if 0 <= index < len(self.sources):
                    counts[self.sources[index].label] += 1
            cached = (key, counts)
            self._source_counted = cached
        return Counter(cached[1])

    def count_from(self, label: str = USER_LABEL) -> int:
        """How many loaded records come from sources labelled ``label`` (the header's
        "N of yours" for the default, :data:`USER_LABEL`)."""
        return self.source_counts().get(label, 0)

    def writable(self, record_id: str) -> bool:
        """Whether the record was loaded from a writable source (editable in place)."""
        index = self.source_of.get(record_id)
        return index is not None and 0 <= index < len(self.sources) and self.sources[index].writable

    def reportable(self, record_id: str) -> bool:
        """Whether problems of this record are reported (False for context-only sources)."""
        index = self.source_of.get(record_id)
        return index is None or not self.sources or self.sources[index].report

    def get(self, record_id: str) -> Record | None:
        """The full record with this id; None if there is none (or its file changed since)."""
        record = self.full.get(record_id)
        if record is not None or record_id not in self.by_id:
            return record
        record = self._read_back.get(record_id)
        if record is None:
            record = read_record(self.origins[record_id])
            if record is None or record.id != record_id:
                return None
            if len(self._read_back) >= FULL_CACHE:
                self._read_back.pop(next(iter(self._read_back)))
            self._read_back[record_id] = record
        return record


def read_record(origin: Origin) -> Record | None:
    """Read one record again from where it was loaded; None if that no longer works.

    Reads only the record's own bytes (its span), whatever the shape of its file, so
    showing a record costs the same in a folder, a ``.jsonl`` file or a ``.json`` list.
    """
    try:
        if origin.offset is not None and origin.length is not None:
            with open(origin.file, "rb") as handle:
                handle.seek(origin.offset)
                return Record.model_validate_json(handle.read(origin.length))
        return Record.model_validate_json(Path(origin.file).read_bytes().removeprefix(b"\xef\xbb\xbf"))
    except (OSError, ValueError, RecursionError):
        return None


def bundled_data_dir() -> Path:
    """The bundled KB: inside the installed package, or ``data/`` of a source checkout."""
    here = Path(__file__).resolve().parent
    packaged = here / "_data"
    if packaged.is_dir():
        return packaged
    return here.parent / "data"


def env_paths(environ: dict[str, str] | None = None) -> list[Path]:
    """Paths named by ``ERRKB_PATH`` (os.pathsep-separated), empty entries ignored."""
    value = (os.environ if environ is None else environ).get("ERRKB_PATH", "")
    return [Path(part).expanduser() for part in value.split(os.pathsep) if part.strip()]


def default_sources(
    data_paths: Sequence[str | Path] = (),
    *,
    bundled: bool = True,
    environ: dict[str, str] | None = None,
) -> list[Source]:
    """Bundled KB, then ``ERRKB_PATH`` entries, then ``--data`` paths, in that order."""
    sources = [Source(bundled_data_dir(), "bundled")] if bundled else []
    sources += [Source(p, "ERRKB_PATH") for p in env_paths(environ)]
    sources += [Source(Path(p).expanduser(), "--data") for p in data_paths]
    return sources


__all__ = ["KB", "Origin", "Problem", "Severity", "Source", "USER_LABEL", "bundled_data_dir", "default_sources",
           "env_paths", "read_record"]
