"""The values the browser's state is made of (plain data; the App holds them as reactives).

Kept free of Textual so the rules about them (what a result holds, when a selection
stands) can be tested and used anywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from .match import Match
from .model import RecordSummary

Facet = tuple[str | None, str | None]
"""``(domain, category)``; ``(None, None)`` is every record."""
ALL: Facet = (None, None)

Cause = Literal["start", "filter", "cursor", "link", "history", "match", "palette", "reload"]


@dataclass(frozen=True)
class Selection:
    """The one record every screen shows and every key acts on (``id`` None: none).

    ``cause`` says how it was chosen, so views can pace themselves (the detail waits for a
    pause in typing before it follows the top row of a new result).
    """

    id: str | None = None
    cause: Cause = "start"


@dataclass(frozen=True, eq=False)
class Results:
    """The records the list shows for a query and facet, in order.

    ``indices`` point into ``records`` (the KB's summaries). ``complete`` is False while a
    large search has posted only the head of its result.
    """

    records: Sequence[RecordSummary]
    indices: Sequence[int]
    query: str = ""
    facet: Facet = ALL
    fuzzy: bool = False
    complete: bool = True
    _rows: dict[str, int] | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.indices)

    def id_at(self, row: int) -> str | None:
        """The id of the record on ``row``, or None."""
        if 0 <= row < len(self.indices):
            return self.records[self.indices[row]].id
        return None

    def row_of(self, record_id: str | None) -> int | None:
        """The row of ``record_id``, or None when it is not listed (O(1) after the first call)."""
        if record_id is None or not self.indices:
            return None
        if self.id_at(0) == record_id:  # the common case while typing
            return 0
        rows = self._rows
        if rows is None:
            rows = {self.records[index].id: row for row, index in enumerate(self.indices)}
            object.__setattr__(self, "_rows", rows)
        return rows.get(record_id)


EMPTY = Results(records=(), indices=())


@dataclass(frozen=True)
class MatchContext:
    """The last match that selected a record: its line and captured groups, and whence."""

    match: Match
    origin: str  # "clipboard", "paste", "pipe", "command"

    @property
    def record_id(self) -> str:
        return self.match.id

    def applies_to(self, record_id: str | None) -> bool:
        """Whether this match explains ``record_id`` (its values fill that record)."""
        return record_id is not None and record_id == self.match.id


@dataclass(frozen=True)
class FollowUp:
    """A question the app asks once: did the fix copied for ``record_id`` work?

    Asked the next time the same error is matched after a workaround's command was
    copied; ``fix_hash`` is that workaround's item hash, ``action`` its text (for the
    question). Answered with one key, or dropped when another record is selected.
    """

    record_id: str
    fix_hash: str
    action: str


__all__ = ["ALL", "EMPTY", "Cause", "Facet", "FollowUp", "MatchContext", "Results", "Selection"]
