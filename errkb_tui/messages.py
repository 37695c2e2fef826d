"""Messages that carry events up to the App, which owns the state (see DESIGN.md).

Widgets and screens never change the state themselves: they post one of these and the
App decides. Messages sent many times a second override ``can_replace`` so that only the
newest waits in the queue.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from textual.message import Message

from .kb import KB
from .match import Match
from .search import SearchIndex, SearchResult
from .state import Cause, Facet
from .trust import Evidence


@dataclass
class KBLoaded(Message):
    """The KB (or, with ``final`` False, the part read so far) is ready to browse."""

    kb: KB
    index: SearchIndex
    final: bool = True


@dataclass
class LoadProgress(Message):
    """How many records the loader has read so far."""

    count: int

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, LoadProgress)


@dataclass
class SearchDone(Message):
    """A search finished in a worker (or its head is ready); dropped if no longer current."""

    result: SearchResult
    facet: Facet
    serial: int
    complete: bool = True


@dataclass
class ClipboardChanged(Message):
    """New text on the clipboard."""

    text: str

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, ClipboardChanged)


@dataclass
class WatcherStopped(Message):
    """The clipboard cannot be reached at all; the watcher has stopped."""

    reason: str


@dataclass
class WatcherFailing(Message):
    """Clipboard reads keep failing; the watcher keeps trying."""

    reason: str


@dataclass
class MatchRequested(Message):
    """Match ``text`` (pasted into the app) against the KB."""

    text: str
    origin: str = "paste"


@dataclass
class MatchesFound(Message):
    """The matcher ranked records for copied, pasted or piped text."""

    matches: list[Match]
    origin: str  # "clipboard", "paste", "pipe"
    text: str = ""


@dataclass
class RecordChosen(Message):
    """The user chose a record: select it everywhere.

    ``cause`` is how (see :class:`~errkb_tui.state.Selection`). With ``reveal``, the filter
    and facet are cleared if they hide it, so the list can show it too.
    """

    record_id: str | None
    cause: Cause = "cursor"
    reveal: bool = False

    def can_replace(self, message: Message) -> bool:
        # A held arrow key: only the newest cursor move matters.
        return isinstance(message, RecordChosen) and message.cause == self.cause == "cursor"


@dataclass
class FacetChosen(Message):
    """The user chose a domain/category (``(None, None)``: every record)."""

    facet: Facet

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, FacetChosen)


@dataclass
class QueryChanged(Message):
    """The filter text changed."""

    query: str


@dataclass
class HistoryStep(Message):
    """Back (-1) or forward (+1) through followed records."""

    step: int


@dataclass
class CopyRequested(Message):
    """Put ``text`` on the clipboard; ``what`` names it in the toast."""

    text: str
    what: str


@dataclass
class OutcomeMarked(Message):
    """The user marked a fix of ``record_id``: ``item_kind`` ``workaround`` or ``dead_end``,
    ``index`` its position in the record's own list (not the displayed order), and
    ``verdict`` ``worked`` / ``failed`` (a workaround) or ``tried_failed`` (a dead end)."""

    record_id: str
    item_kind: str
    index: int
    verdict: str


@dataclass
class EvidenceLoaded(Message):
    """The outcomes were read or written (a worker's result): a new value for the state.

    ``stamp`` is the log file's (inode, size, mtime) taken before it was read, so a later
    re-read can skip an unchanged file; ``marked`` says what was just recorded (for the
    toast), if anything."""

    evidence: Evidence
    stamp: tuple[int, int, int] | None = None
    marked: str = ""


@dataclass
class FixCopied(Message):
    """A workaround's command of ``record_id`` was copied (``fix_hash``: its item hash).

    Copying is not an outcome; it lets the app ask once, the next time the same error is
    matched, whether that fix worked."""

    record_id: str
    fix_hash: str


@dataclass
class FollowUpAnswered(Message):
    """The answer to "did the fix you copied work?": ``worked`` or ``failed``."""

    verdict: str


@dataclass
class CaptureRequested(Message):
    """Write a new record for an error (the ``a`` key): ``text`` holds it, or None for the
    App's choice (the last text no record explained, else the clipboard)."""

    text: str | None = None


@dataclass
class EditRequested(Message):
    """Edit the record ``record_id`` (the ``e`` key)."""

    record_id: str


@dataclass
class RecordSaved(Message):
    """A record was written into the KB folder ``folder`` at ``path``: reload, select it."""

    record_id: str | None
    folder: Path
    path: Path
    warnings: int = 0


@dataclass
class OpenFileRequested(Message):
    """Open ``file`` in the user's editor, at ``line`` when known (a problem's place)."""

    file: str
    line: int | None = None


@dataclass
class FileEdited(Message):
    """The user's editor changed ``file`` (a KB file opened from the problems): reload."""

    file: str


__all__ = [
    "CaptureRequested", "ClipboardChanged", "CopyRequested", "EditRequested", "EvidenceLoaded", "FacetChosen",
    "FileEdited", "FixCopied", "FollowUpAnswered", "HistoryStep", "KBLoaded", "LoadProgress", "MatchRequested",
    "MatchesFound", "OpenFileRequested", "OutcomeMarked", "QueryChanged", "RecordChosen", "RecordSaved",
    "SearchDone", "WatcherFailing", "WatcherStopped",
]
