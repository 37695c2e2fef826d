"""A block of styled text that wraps itself (see :mod:`errkb_tui.wrap`): CJK by character,
words kept whole, and an optional mark at the start of each continuation line.

A :class:`~textual.widgets.Static` (so it fits where one is expected) whose text is
wrapped here rather than by Textual, which breaks a Chinese sentence at its last space
instead of between characters."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from ..wrap import line_count, wrap_text


class WrappedText(Static):
    """Shows a :class:`~rich.text.Text` wrapped to the widget's width (height: auto)."""

    DEFAULT_CSS = "WrappedText { height: auto; }"

    def __init__(self, mark: str = "", **kwargs) -> None:
        super().__init__("", **kwargs)
        self.mark = mark
        self.mark_style: Style | str = ""
        self.text = Text()

    def update(self, text: Text | str = "", mark_style: Style | str = "") -> None:  # type: ignore[override]
        """Show ``text`` (plain, never markup); continuation marks in ``mark_style``."""
        self.text = text if isinstance(text, Text) else Text(text)
        self.mark_style = mark_style
        self.refresh(layout=True)

    def get_content_height(self, container, viewport, width: int) -> int:
        return line_count(self.text.plain, width, self.mark) if self.text.plain else 1

    def get_content_width(self, container, viewport) -> int:
        return container.width

    def render(self) -> Text:
        width = self.content_size.width or 80
        text = wrap_text(self.text, width, self.mark, self.mark_style)
        text.no_wrap = True
        return text
