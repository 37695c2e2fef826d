"""A team's shared counts: ``outcomes.jsonl`` at the top of a KB folder.

Plain Python, no Textual. ``errkb-tui outcomes export`` writes the file from the user's log
(:func:`export_lines`); loading a KB folder that holds one (``--data``, ``ERRKB_PATH``)
reads it as that team's counts (:class:`TeamOutcomes`), shown apart from the user's own.
One line per fix, and nothing else (no clipboard text, paths or user names)::

    {"record_id": "...", "hash": "...", "kind": "workaround", "worked": 12, "failed": 3,
     "first": "2026-01-04", "last": "2026-11-30"}

``hash`` is :func:`errkb_tui.outcomes.item_hash`; ``kind`` defaults to ``workaround``;
``first`` and ``last`` may be null. A bad line is a problem entry, never an error.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path

from .kb import Problem, Source
from .outcomes import (
    MAX_FILE_BYTES, MAX_LINE_BYTES, TEAM_FILE, VERDICTS, OutcomeCounts, check_date, error_reason,
    make_event, too_large,
)


class TeamOutcomes(OutcomeCounts):
    """Counts from the ``outcomes.jsonl`` files of KB folders (a team's shared counts)."""

    def __init__(self, files: Iterable[Path] = ()) -> None:
        super().__init__()
        self.files = [Path(f) for f in files]
        for file in self.files:
            self._read_file(file)

    @classmethod
    def from_sources(cls, sources: Iterable[Source]) -> TeamOutcomes:
        """The team files at the top of every folder source (bundled, ERRKB_PATH, --data)."""
        return cls(team_files(sources))

    def _read_file(self, file: Path) -> None:
        try:
            with open(file, "rb") as handle:
                size = os.fstat(handle.fileno()).st_size
                if size > MAX_FILE_BYTES:
                    self._problems.append(Problem("error", str(file), f"{too_large(size)}; not read"))
                    return
                lines = handle.readlines()
        except OSError as exc:
            self._problems.append(Problem("error", str(file), f"cannot read: {exc.strerror or exc}"))
            return
        for number, raw in enumerate(lines, 1):
            if not raw.strip():
                continue
            if not raw.endswith(b"\n") and number == len(lines):
                self._problems.append(Problem("warning", str(file), "the last line is incomplete; skipped",
                                              line=number))
                continue
            try:
                self._read_line(raw)
            except (ValueError, TypeError, UnicodeDecodeError, RecursionError) as exc:
                self._problems.append(Problem("warning", str(file), f"not a team count, skipped: {error_reason(exc)}",
                                              line=number))

    def _read_line(self, raw: bytes) -> None:
        if len(raw) > MAX_LINE_BYTES:
            raise ValueError(f"line is longer than {MAX_LINE_BYTES} bytes")
        data = json.loads(raw.decode("utf-8"))
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        kind = data.get("kind", "workaround")
        # make_event checks id, hash and kind; the verdict is any one the kind accepts.
        make_event(data.get("record_id"), data.get("hash"), kind, VERDICTS.get(kind, ("",))[0], "2000-01-01")
        worked, failed = data.get("worked"), data.get("failed")
        for name, value in (("worked", worked), ("failed", failed)):
            if type(value) is not int or value < 0:
                raise ValueError(f"{name} must be a whole number >= 0, not {value!r}")
        first = check_date(data["first"]) if data.get("first") is not None else ""
        last = check_date(data["last"]) if data.get("last") is not None else ""
        self._add(data["record_id"], data["hash"], kind, worked, failed, first, last)


def team_files(sources: Iterable[Source]) -> list[Path]:
    """``outcomes.jsonl`` at the top of each folder source, in source order."""
    found = []
    for source in sources:
        candidate = Path(source.path) / TEAM_FILE
        try:
            if Path(source.path).is_dir() and candidate.is_file():
                found.append(candidate)
        except OSError:
            continue
    return found


def export_lines(counts: OutcomeCounts) -> list[str]:
    """A team file's lines (no newlines) from ``counts``: one per fix, sorted.

    Only record ids, fix hashes, kinds, the two counts and the first and last dates.
    """
    lines = []
    for record_id, hash_, tally in counts.tallies():
        data = {"record_id": record_id, "hash": hash_, "kind": tally.kind, "worked": tally.worked,
                "failed": tally.failed, "first": tally.first or None, "last": tally.last or None}
        lines.append(json.dumps(data, ensure_ascii=False, separators=(", ", ": ")))
    return lines


__all__ = ["TEAM_FILE", "TeamOutcomes", "export_lines", "team_files"]
