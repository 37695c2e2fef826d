"""Back and forward through the records a user followed, like a web browser."""

from __future__ import annotations


class History:
    """Visited record ids with a current position.

    Moving in the list *replaces* the current entry (it is browsing, not following);
    following a link or a match *visits* (pushes) a new entry and drops any forward part.
    """

    def __init__(self, limit: int = 200) -> None:
        self.limit = limit
        self._entries: list[str] = []
        self._at = -1

    @property
    def current(self) -> str | None:
        return self._entries[self._at] if self._at >= 0 else None

    @property
    def can_go_back(self) -> bool:
        return self._at > 0

    @property
    def can_go_forward(self) -> bool:
        return 0 <= self._at < len(self._entries) - 1

    def replace(self, record_id: str) -> None:
        """The current entry becomes ``record_id``; the forward part is dropped."""
        if self._at < 0:
            self.visit(record_id)
            return
        self._entries[self._at] = record_id
        del self._entries[self._at + 1:]

    def visit(self, record_id: str) -> None:
        """Go to ``record_id`` as a new entry (no-op when it is the current one)."""
        if self.current == record_id:
            del self._entries[self._at + 1:]
            return
        del self._entries[self._at + 1:]
        self._entries.append(record_id)
        if len(self._entries) > self.limit:
            del self._entries[: len(self._entries) - self.limit]
        self._at = len(self._entries) - 1

    def back(self) -> str | None:
        """Step back; the id there, or None at the start."""
        if not self.can_go_back:
            return None
        self._at -= 1
        return self._entries[self._at]

    def forward(self) -> str | None:
        """Step forward; the id there, or None at the end."""
        if not self.can_go_forward:
            return None
        self._at += 1
        return self._entries[self._at]

    def __len__(self) -> int:
        return len(self._entries)


__all__ = ["History"]
