"""Command palette provider: go to record, domains, language, clipboard watch."""

from __future__ import annotations

from functools import partial

from rich.text import Text
from textual.command import DiscoveryHit, Hit, Hits, Provider

from .messages import FacetChosen, RecordChosen
from .search import highlight_spans
from .text import cell_truncate, plain
from .model import RecordSummary
from .trust import Evidence, short_rate_label

#: Records offered at most for one query (the search layer does the ranking).
MAX_RECORD_HITS = 40


def _display(prefix: str, value: str, query: str) -> Text:
    value = cell_truncate(plain(value), 100)
    text = Text(prefix, style="dim")
    start = len(text)
    text.append(value)
    for begin, end in highlight_spans(value, query):
        text.stylize("bold underline", start + begin, start + end)
    return text


def _rate_words(record: RecordSummary, evidence: Evidence | None) -> str:
    """``est. fix rate 78%``, or the user's (else a team's) count: ``you 3/4 worked``."""
    short = (evidence.short_label(record.id, record.fix_success_rate) if evidence is not None
             else short_rate_label(record.fix_success_rate))
    return short.replace("est.", "est. fix rate", 1) if short.startswith("est.") else f"{short} worked"


class ErrKBCommands(Provider):
    """Records (by id and signature), domains, and the app's toggles."""

    def _app_commands(self) -> list[tuple[str, object, str]]:
        app = self.app
        return [
            ("Toggle language: English / 中文", app.action_toggle_lang, "Switch the detail pane's language"),
            ("Toggle clipboard watch", app.action_toggle_watch, "Watch the clipboard for errors, or stop"),
            ("Paste an error to match", app.action_paste, "For SSH and containers without a clipboard"),
            ("Show load problems", app.action_problems, "Files and records that could not be used"),
            ("Show keys (help)", app.action_help, "Every key, explained"),
        ]

    def _domains(self) -> list[tuple[str, object, str]]:
        kb = self.app.kb
        if kb is None:
            return []
        return [
            (f"Domain: {domain}", partial(self.app.post_message, FacetChosen((domain, None))),
             f"{kb.domain_counts[domain]} records")
            for domain in kb.domains
        ]

    async def discover(self) -> Hits:
        for name, callback, help_text in [*self._app_commands(), *self._domains()]:
            yield DiscoveryHit(Text(name), callback, text=name, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, callback, help_text in [*self._app_commands(), *self._domains()]:
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, _display("", name, query), callback, text=name, help=help_text)
        index = self.app.index
        if index is None or not query.strip():
            return
        result = index.search(query)
        evidence = self.app.evidence
        for rank, position in enumerate(result.indices[:MAX_RECORD_HITS]):
            record = index.records[position]
            score = 0.9 * (1 - rank / (MAX_RECORD_HITS + 1))
            yield Hit(
                score,
                _display("Go to record: ", record.signature, query),
                partial(self.app.post_message, RecordChosen(record.id, "palette", reveal=True)),
                text=f"Go to record {record.id}",
                help=f"{plain(record.id)} · {_rate_words(record, evidence)}",
            )
