"""The version timeline: every version on one track, coloured by status, with markers."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.widget import Widget

from ..model import VersionEntry
from ..text import cell_truncate, plain

#: Each status has a component class of :class:`VersionTimeline`, coloured by the theme.
STATUSES = ("active", "deprecated", "removed", "fixed", "changed", "unaffected", "unknown")
STATUS_WORD = {
    "active": "error occurs",
    "deprecated": "deprecated",
    "removed": "removed",
    "fixed": "fixed",
    "changed": "behaviour changed",
    "unaffected": "not affected",
    "unknown": "unknown",
}
#: (field, marker, label) for the notes a version can carry.
MARKERS = (
    ("introduced", "▲", "introduced"),
    ("deprecated", "◆", "deprecated"),
    ("removed", "✖", "removed"),
    ("behavior_change", "↻", "behaviour change"),
)


def timeline_text(versions: list[VersionEntry], width: int, styles: dict[str, Style] | None = None) -> Text:
    """Versions in order on a track that wraps to ``width``, then the notes, then a legend.

    ``styles`` maps each status (and ``muted``) to a style; none given: no colour."""
    styles = styles or {}
    muted = styles.get("muted", Style())
    text = Text()
    if not versions:
        text.append("No version information.", style=muted + Style(italic=True))
        return text
    width = max(width, 12)
    cells = []
    for version in versions:
        label = cell_truncate(plain(version.version), 12)
        marks = "".join(mark for field, mark, _ in MARKERS if getattr(version, field))
        cells.append((version, label, marks, max(len(label), len(marks), 3) + 2))
    rows: list[list] = [[]]
    used = 0
    for cell in cells:
        if rows[-1] and used + cell[3] > width:
            rows.append([])
            used = 0
        rows[-1].append(cell)
        used += cell[3]
    for number, row in enumerate(rows):
        if number:
            text.append("\n")
        for version, _, _, size in row:
            style = styles.get(version.status, muted)
            text.append("●" + "━" * (size - 1), style=style)
        text.append("\n")
        for _, label, _, size in row:
            text.append(label.ljust(size))
        text.append("\n")
        for version, _, marks, size in row:
            text.append(marks.ljust(size), style="bold")
    notes = [
        (version, mark, label, getattr(version, field))
        for version in versions
        for field, mark, label in MARKERS
        if getattr(version, field)
    ]
    for version, mark, label, note in notes:
        text.append("\n")
        text.append(f"{mark} {plain(version.version)} {label}: ", style="bold")
        text.append(plain(str(note)))
    present = []
    for version in versions:
        if version.status not in present:
            present.append(version.status)
    text.append("\n")
    for status in present:
        text.append("● ", style=styles.get(status, muted))
        text.append(f"{STATUS_WORD.get(status, plain(status))}   ", style=muted)
    return text


class VersionTimeline(Widget):
    """Renders :func:`timeline_text` at the widget's current width."""

    COMPONENT_CLASSES = {f"timeline--{status}" for status in STATUSES} | {"timeline--muted"}
    DEFAULT_CSS = """
    VersionTimeline {
        height: auto;
        & > .timeline--active { color: $error; text-style: bold; }
        & > .timeline--deprecated { color: $warning; text-style: bold; }
        & > .timeline--removed { color: $secondary; text-style: bold; }
        & > .timeline--fixed { color: $success; text-style: bold; }
        & > .timeline--changed { color: $accent; text-style: bold; }
        & > .timeline--unaffected { color: $success 70%; }
        & > .timeline--unknown { color: $foreground-muted; }
        & > .timeline--muted { color: $foreground-muted; }
    }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._versions: list[VersionEntry] = []
        self._layout_width = 0

    def show(self, versions: list[VersionEntry]) -> None:
        """Display these versions (already in version order)."""
        self._versions = versions
        self.refresh(layout=True)

    def get_content_height(self, container, viewport, width: int) -> int:
        self._layout_width = width  # lay out for the width the height is asked for
        return super().get_content_height(container, viewport, width)

    def render(self) -> Text:
        styles = {}
        for name in (*STATUSES, "muted"):
            style = self.get_component_rich_style(f"timeline--{name}")
            styles[name] = Style(color=style.color, bold=style.bold)
        return timeline_text(self._versions, self._layout_width or self.content_region.width or 80, styles)
