"""Collecting a load: the records accepted so far, where each came from, duplicates and
overrides, dangling links, and the :class:`~errkb_tui.kb.KB` they make (also part-way,
for a caller that shows the first records while the rest load).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from ..kb import KB, Origin, Problem, Source
from ..model import Record, RecordSummary
from . import validate
from .validate import Place

#: A KB with more records than this keeps only summaries in memory and reads a full
#: record from its file when it is shown (100,000 full records take about 1.7 GB).
KEEP_FULL_RECORDS = 2_000

#: One accepted record as a worker process hands it over: summary, origin, links, source.
Accepted = tuple[RecordSummary, Origin, "list[tuple[str, str]] | None", int]


class Collector:
    """The records and problems of one load, in load order (a :class:`~.shapes.Sink`)."""

    def __init__(self, sources: list[Source], on_accept: Callable[[int], None] | None = None) -> None:
        self.sources = sources
        self.count = 0  # valid records read so far (duplicates included), for progress
        self.records: dict[str, RecordSummary] = {}
        self.full: dict[str, Record] = {}
        self.links: dict[str, list[tuple[str, str]]] = {}  # id -> edges, for the dangling check
        self.origins: dict[str, Origin] = {}
        self.source_of: dict[str, int] = {}
        self.problems: list[Problem] = []
        #: When set (a worker process, or the parent's half of a parallel load), accepted
        #: records are kept here in order, to be stored later in file order.
        self.held: list[Accepted] | None = None
        self.on_accept = on_accept  #: called with the count after each accepted record
        self._source = 0
        self._report = True
        self._file_name = ""

    def start_source(self, index: int) -> None:
        """Records and problems from now on belong to source ``index``."""
        self._source = index
        self._report = self.sources[index].report

    # -- the Sink of shapes.read_file ---------------------------------------------------

    def problem(self, problem: Problem) -> None:
        if self._report:
            self.problems.append(problem)

    def raw(self, raw: bytes, place: Place) -> bool:
        record = validate.from_json_bytes(raw)
        if record is None:
            return False
        self._accept(record, place)
        return True

    def value(self, data: Any, place: Place) -> None:
        record, problems = validate.check(data, place)
        for problem in problems:
            self.problem(problem)
        if record is not None:
            self._accept(record, place)

    def _accept(self, record: Record, place: Place) -> None:
        for problem in validate.key_warnings(record, place):
            self.problem(problem)
        if place.file != self._file_name:
            self._file_name = place.file  # one shared string per file, not one per record
        origin = Origin(self._file_name, place.line, place.index, place.offset, place.length)
        self.count += 1
        if self.held is not None:
            self.held.append((record.summary(), origin, validate.links(record), self._source))
        else:
            self.store(record.summary(), origin, validate.links(record), self._source, record)
        if self.on_accept is not None:
            self.on_accept(self.count)

    # -- storing ------------------------------------------------------------------------

    def store(self, summary: RecordSummary, origin: Origin, edges: list | None, source_index: int,
              record: Record | None = None) -> None:
        """Keep an accepted record, reporting a duplicate id or an override."""
        record_id = summary.id
        previous = self.origins.get(record_id)
        if (previous is not None and (previous.line, previous.index) == (origin.line, origin.index)
                and os.path.realpath(previous.file) == os.path.realpath(origin.file)):
            previous = None  # the same record reached twice (e.g. a folder inside the bundled KB)
        if previous is not None and self.sources[source_index].report:
            where = {"line": origin.line, "index": origin.index}
            if self.source_of[record_id] == source_index:
                self.problems.append(Problem("error", origin.file, f"duplicate id: also defined in {previous}; "
                                             "this one wins", record_id=record_id, field="id", **where))
            else:
                self.problems.append(Problem("warning", origin.file, "overrides the record of the same id "
                                             f"from {previous}", record_id=record_id, field="id", **where))
        self.records[record_id] = summary
        if record is not None and len(self.records) <= KEEP_FULL_RECORDS:
            self.full[record_id] = record
        elif self.full:
            self.full.clear()  # too many to keep: every full record is read back on demand
        if edges:
            self.links[record_id] = edges
        elif record_id in self.links:
            del self.links[record_id]
        self.origins[record_id] = origin
        self.source_of[record_id] = source_index

    def store_all(self, accepted: list[Accepted]) -> None:
        for summary, origin, edges, source_index in accepted:
            self.store(summary, origin, edges, source_index)

    # -- the KB -------------------------------------------------------------------------

    def snapshot(self) -> KB:
        """A KB of the records stored so far, independent of the load that goes on."""
        records = dict(self.records)
        if self.held:
            for summary, origin, _edges, _source in self.held:
                records[summary.id] = summary
        origins = dict(self.origins)
        source_of = dict(self.source_of)
        if self.held:
            for summary, origin, _edges, source_index in self.held:
                origins[summary.id] = origin
                source_of[summary.id] = source_index
        return KB(list(records.values()), list(self.problems), origins, list(self.sources), source_of,
                  dict(self.full))

    def finish(self) -> KB:
        """The KB of everything stored, after reporting links to ids no record has."""
        suggest = _Suggestions(self.records)
        for record_id, edges in self.links.items():
            if not self.sources[self.source_of[record_id]].report:
                continue
            for kind, target in edges:
                if target not in self.records:
                    origin = self.origins[record_id]
                    self.problems.append(Problem("warning", origin.file, f"links to {target!r}, which no "
                                                 f"loaded record has{suggest(target)}", line=origin.line,
                                                 index=origin.index, record_id=record_id,
                                                 field=f"transition_graph.{kind}"))
        return KB(list(self.records.values()), self.problems, self.origins, self.sources,
                  self.source_of, self.full)


class _Suggestions:
    """`` (did you mean 'id'?)`` for an id no record has: the closest loaded id, by fuzzy
    matching (at most ``LIMIT`` look-ups a load, so a KB full of broken links stays fast)."""

    LIMIT = 500
    CUTOFF = 80

    def __init__(self, records: dict[str, Any]) -> None:
        self._records = records
        self._ids: list[str] | None = None
        self._asked = 0

    def __call__(self, target: str) -> str:
        self._asked += 1
        if self._asked > self.LIMIT or not self._records:
            return ""
        from rapidfuzz import fuzz, process

        if self._ids is None:
            self._ids = list(self._records)
        found = process.extractOne(target, self._ids, scorer=fuzz.ratio, score_cutoff=self.CUTOFF)
        return f" (did you mean {found[0]!r}?)" if found else ""
