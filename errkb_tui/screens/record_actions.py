"""What every screen that shows a record can do: copy, open docs, follow links, go back."""

from __future__ import annotations

from textual.binding import Binding

from ..model import Record
from ..widgets.detail import CopyRequest, DetailPane, OpenRecord

RECORD_BINDINGS = [
    Binding("backspace,alt+left", "back", "Back", show=False, id="record.back"),
    Binding("alt+right", "forward", "Forward", show=False, id="record.forward"),
    Binding("o", "open_doc", "Open docs", show=False, id="record.open_doc"),
    Binding("c", "copy_selected", "Copy fix", tooltip="Copy the selected workaround's command", id="record.copy"),
    Binding("y", "copy_signature", "Copy signature", show=False, id="record.copy_signature"),
    Binding("Y", "copy_id", "Copy id", show=False, id="record.copy_id"),
    *[Binding(str(n), f"copy_workaround({n})", f"Copy workaround {n}", show=False, id=f"record.copy_{n}")
      for n in range(1, 10)],
]


class RecordScreenMixin:
    """For screens holding one :class:`DetailPane`: history, links, copying."""

    history: list[str]
    history_at: int

    def init_history(self, first: str | None = None) -> None:
        self.history = [first] if first else []
        self.history_at = 0 if first else -1

    @property
    def detail(self) -> DetailPane:
        return self.query_one(DetailPane)

    @property
    def shown_record(self) -> Record | None:
        """The record in the detail pane."""
        return self.detail.record

    def show_in_detail(self, record_id: str | None) -> None:
        kb = self.app.kb
        record = kb.get(record_id) if kb and record_id else None
        self.detail.show(record, kb.by_id if kb else {})

    def on_open_record(self, event: OpenRecord) -> None:  # by name: @on is not seen on mixins
        self.follow(event.record_id)

    def follow(self, record_id: str) -> None:
        """Open ``record_id`` in the detail, remembering where we came from."""
        del self.history[self.history_at + 1 :]
        self.history.append(record_id)
        self.history_at = len(self.history) - 1
        self.show_in_detail(record_id)

    def action_back(self) -> None:
        if self.history_at > 0:
            self.history_at -= 1
            self.show_in_detail(self.history[self.history_at])

    def action_forward(self) -> None:
        if self.history_at < len(self.history) - 1:
            self.history_at += 1
            self.show_in_detail(self.history[self.history_at])

    def action_open_doc(self) -> None:
        record = self.shown_record
        if record and record.official_doc_url:
            self.app.open_url(record.official_doc_url)
            self.notify(record.official_doc_url, title="Opening docs", markup=False, timeout=3)
        else:
            self.notify("This record has no documentation link.", severity="warning")

    def action_copy_workaround(self, number: int) -> None:
        found = self.detail.copy_text_for(number)
        if found is None:
            self.notify(f"No workaround {number} here.", severity="warning")
        else:
            self.app.copy_and_tell(*found)

    def action_copy_selected(self) -> None:
        self.action_copy_workaround(self.detail.selected_workaround + 1)

    def action_copy_signature(self) -> None:
        if self.shown_record:
            self.app.copy_and_tell(self.shown_record.signature, "signature")

    def action_copy_id(self) -> None:
        if self.shown_record:
            self.app.copy_and_tell(self.shown_record.id, "id")

    def on_copy_request(self, event: CopyRequest) -> None:
        self.app.copy_and_tell(event.text, event.what)
