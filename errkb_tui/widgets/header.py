"""The status line at the top: KB, records shown, problems, clipboard watching."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ..kb import KB


class StatusHeader(Widget):
    """One line of state; everything in it comes from reactives set by the screen."""

    DEFAULT_CSS = """
    StatusHeader { height: 1; background: $panel; color: $foreground; }
    """

    kb: reactive[KB | None] = reactive(None)
    """The loaded KB; None while loading."""
    shown: reactive[int] = reactive(0)
    """How many records the list shows."""
    fuzzy: reactive[bool] = reactive(False)
    """Whether the list holds typo-tolerant (fuzzy) results."""
    records_read: reactive[int] = reactive(0)
    """Records read so far while the KB loads."""
    watching: reactive[bool] = reactive(False)
    """Whether the clipboard watcher is on."""

    def render(self) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(" errkb-tui ", style="bold reverse")
        kb = self.kb
        if kb is None:
            text.append("  loading the knowledge base…", style="italic")
            if self.records_read:
                text.append(f" {self.records_read:,} records read", style="italic")
            return text
        problems = sum(1 for p in kb.problems if p.severity != "info")
        if self.size.width and self.size.width < 100:  # narrow: the same facts, shorter
            text.append(f"  {self.shown:,}/{len(kb.records):,} records", style="bold")
            if self.fuzzy:
                text.append(" ~", style="italic")
            if problems:
                text.append(f"  ⚠ {problems} (!)", style="bold yellow")
            text.append("  ● watch" if self.watching else "  ○ no watch",
                        style="bold green" if self.watching else "dim")
            return text
        extra = sum(1 for s in kb.sources if s.label != "bundled")
        text.append(f"  {'bundled KB' if any(s.label == 'bundled' for s in kb.sources) else 'KB'}")
        if extra:
            text.append(f" + {extra} source{'s' if extra > 1 else ''}")
        text.append(f"  │  {self.shown:,} of {len(kb.records):,} records", style="bold")
        if self.fuzzy:
            text.append(" (closest matches)", style="italic")
        text.append("  │  ")
        if problems:
            text.append(f"⚠ {problems} problem{'s' if problems > 1 else ''} (!)", style="bold yellow")
        else:
            text.append("no load problems", style="green")
        text.append("  │  ")
        if self.watching:
            text.append("● watching clipboard (w)", style="bold green")
        else:
            text.append("○ clipboard watch off (w)", style="dim")
        return text
