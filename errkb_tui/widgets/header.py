"""The status line at the top: KB, records shown, problems, clipboard watching, language."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ..kb import KB, USER_LABEL
from ..state import EMPTY, Results
from ..trust import Evidence


class StatusHeader(Widget):
    """One line of state; everything in it is bound from the screen's reactives."""

    COMPONENT_CLASSES = {"status-header--title", "status-header--good", "status-header--caution",
                         "status-header--muted"}
    DEFAULT_CSS = """
    StatusHeader {
        height: 1; background: $panel; color: $foreground;
        & > .status-header--title { text-style: bold reverse; }
        & > .status-header--good { color: $success; text-style: bold; }
        & > .status-header--caution { color: $warning; text-style: bold; }
        & > .status-header--muted { color: $foreground-muted; }
    }
    """

    kb: reactive[KB | None] = reactive(None)
    """The loaded KB; None while loading."""
    loaded: reactive[bool] = reactive(False)
    """Whether the whole KB is loaded (not only its first records)."""
    results: reactive[Results] = reactive(EMPTY)
    """What the list shows."""
    records_read: reactive[int] = reactive(0)
    """Records read so far while the KB loads."""
    watching: reactive[bool] = reactive(False)
    """Whether the clipboard watcher is on."""
    lang: reactive[str] = reactive("en")
    """The detail's language (``z`` switches it), shown so the switch is never a mystery."""
    evidence: reactive[Evidence | None] = reactive(None)
    """The outcomes: their bad lines count with the KB's problems (``!`` lists both)."""

    def _style(self, name: str) -> Style:
        style = self.get_component_rich_style(f"status-header--{name}")
        return Style(color=style.color, bold=style.bold, reverse=style.reverse)

    def render(self) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(" errkb-tui ", style=self._style("title"))
        kb = self.kb
        if kb is None:
            text.append("  loading the knowledge base…", style="italic")
            if self.records_read:
                text.append(f" {self.records_read:,} records read", style="italic")
            return text
        narrow = bool(self.size.width) and self.size.width < 100  # the same facts, shorter
        problems = kb.attention_count() + (len(self.evidence.problems) if self.evidence is not None else 0)
        shown = len(self.results)
        if narrow:
            text.append(f"  {shown:,}/{len(kb.records):,} records", style="bold")
            if self.results.fuzzy:
                text.append(" ~", style="italic")
        else:
            extra = sum(1 for s in kb.sources if s.label != "bundled")
            plural = "s" if extra > 1 else ""
            if any(s.label == "bundled" for s in kb.sources):
                text.append("  bundled KB" + (f" + {extra} source{plural}" if extra else ""))
            else:  # only the user's: not "KB + 1 source", which reads as two
                text.append(f"  KB from {extra} source{plural}")
            yours = kb.count_from(USER_LABEL)  # records from the user's own KB (a, e write there)
            if yours:
                text.append(f" ({yours:,} yours)")
            text.append(f"  │  {shown:,} of {len(kb.records):,} records", style="bold")
            if self.results.fuzzy:
                text.append(" (closest matches)", style="italic")
        if not self.loaded:
            text.append(f"  loading… {max(self.records_read, len(kb.records)):,} read", style="italic")
        text.append("  " if narrow else "  │  ")
        if problems:
            label = f"⚠ {problems} (!)" if narrow else f"⚠ {problems} problem{'s' if problems > 1 else ''} (!)"
            text.append(label, style=self._style("caution"))
        elif not narrow:
            text.append("no load problems", style=self._style("good"))
        text.append("  " if narrow else "  │  ")
        if self.watching:
            text.append("● watch" if narrow else "● watching clipboard (w)", style=self._style("good"))
        else:
            text.append("○ no watch" if narrow else "○ clipboard watch off (w)", style=self._style("muted"))
        text.append("  " if narrow else "  │  ")
        text.append("中文" if self.lang == "zh" else "EN", style="bold")
        if not narrow:
            text.append(" (z)", style=self._style("muted"))
        return text
