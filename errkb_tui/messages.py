"""Messages shared across widgets and screens."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from .kb import KB
from .match import Match
from .search import SearchIndex


@dataclass
class KBLoaded(Message):
    """The KB finished loading (in a worker)."""

    kb: KB
    index: SearchIndex


@dataclass
class LoadProgress(Message):
    """How many records the loader has read so far (only the newest waits in the queue)."""

    count: int

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, LoadProgress)


@dataclass
class ClipboardChanged(Message):
    """New text on the clipboard (only the newest waits in the queue)."""

    text: str

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, ClipboardChanged)


@dataclass
class MatchesFound(Message):
    """The matcher ranked records for copied or pasted text."""

    matches: list[Match]
    origin: str  # "clipboard" or "paste"


@dataclass
class ShowRecord(Message):
    """Select and show a record, adjusting the filter and facet so it is visible."""

    record_id: str
    reason: str = ""
