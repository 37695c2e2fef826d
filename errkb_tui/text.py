"""Record text made safe to put on a terminal.

Record text is data: it is never parsed as markup (callers build ``rich.text.Text`` from
it, never markup strings), and the characters that a terminal would act on (escape, the
C0/C1 controls, bidi overrides) are replaced by visible stand-ins here.
"""

from __future__ import annotations

import re

from rich.cells import cell_len

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _visible(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)  # ␛, ␀, ... (Control Pictures block)
    if code == 0x7F:
        return "␡"
    return "�"


def plain(text: str, *, multiline: bool = False) -> str:
    """``text`` with controls made visible; newlines kept only when ``multiline``."""
    text = text.replace("\r\n", "\n").replace("\t", "    ")
    if not multiline:
        text = text.replace("\n", " ⏎ ")
    return _CONTROL.sub(_visible, text)


def cell_truncate(text: str, width: int, ellipsis: str = "…") -> str:
    """``text`` cut to at most ``width`` terminal cells, with an ellipsis when cut."""
    if width <= 0:
        return ""
    if cell_len(text) <= width:
        return text
    out = []
    used = 0
    for char in text:
        size = cell_len(char)
        if used + size > width - 1:
            break
        out.append(char)
        used += size
    return "".join(out) + ellipsis
