"""Line wrapping for record text in a terminal (no Textual).

Rich breaks lines at spaces only, so a Chinese sentence (few spaces) breaks early and
raggedly, and a word longer than the width is cut anywhere. Here:

- a line breaks at a space, or between any two CJK characters (as Chinese is written);
- a word (a URL, a path, a flag) is never broken unless it alone is wider than the line;
- continuation lines of a command can start with a visible mark, so a wrapped command is
  not mistaken for two commands.
"""

from __future__ import annotations

import re

from rich.cells import cell_len
from rich.text import Text

#: A run of spaces, one wide (CJK) character, or a run of anything else (a word).
_TOKEN = re.compile(r" +|[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff"
                    r"\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]"
                    r"|[^ \u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf"
                    r"\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]+")
#: CJK punctuation that must not start a line (it stays with the character before it).
_NO_START = set("。，、；：！？）」』】〉》”’．，：；！？）")
#: The mark at the start of a command's continuation line.
CONTINUATION = "↪ "


def wrap_spans(line: str, width: int, indent: int = 0) -> list[tuple[int, int]]:
    """``(start, end)`` of each screen line ``line`` (no newlines) wraps into.

    The first line is ``width`` cells wide, the others ``width - indent`` (room for a
    continuation mark). Spaces at a break are dropped from both lines.
    """
    width = max(width, 1)
    if cell_len(line) <= width:
        return [(0, len(line))]
    spans: list[tuple[int, int]] = []
    start = end = 0  # the current line: line[start:end] (end: last non-space position)
    used = 0
    room = width
    tokens: list[tuple[int, int, str]] = []
    for match in _TOKEN.finditer(line):
        token = match.group()
        if tokens and token[0] in _NO_START and tokens[-1][2][0] != " ":
            token_start, _, before = tokens.pop()  # closing punctuation stays with what it closes
            tokens.append((token_start, match.end(), before + token))
        else:
            tokens.append((match.start(), match.end(), token))
    i = 0
    while i < len(tokens):
        t_start, t_end, token = tokens[i]
        size = cell_len(token)
        if token[0] == " ":
            if used + size > room:  # break here; the spaces vanish
                spans.append((start, end))
                start = end = tokens[i + 1][0] if i + 1 < len(tokens) else t_end
                used, room = 0, max(width - indent, 1)
            else:
                used += size
            i += 1
            continue
        if used + size <= room:
            end = t_end
            used += size
            i += 1
            continue
        if used and size <= max(width - indent, 1):  # the word goes on the next line whole
            spans.append((start, end))
            start = end = t_start
            used, room = 0, max(width - indent, 1)
            continue
        # A word wider than a whole line: fold it by characters.
        position = t_start
        for char in token:
            char_size = cell_len(char)
            if used + char_size > room and used:
                spans.append((start, position))
                start = position
                used, room = 0, max(width - indent, 1)
            used += char_size
            position += 1
        end = t_end
        i += 1
    if start < len(line) or not spans:
        spans.append((start, max(end, start)))
    return spans


def wrap_text(text: Text, width: int, mark: str = "", mark_style: str = "") -> Text:
    """``text`` (styled, may hold newlines) broken into lines of at most ``width`` cells;
    continuation lines start with ``mark``. The result holds explicit newlines only."""
    out = Text(style=text.style, end="")
    indent = cell_len(mark)
    first = True
    for line in text.split("\n", allow_blank=True):
        for number, (start, end) in enumerate(wrap_spans(line.plain, width, indent)):
            if not first:
                out.append("\n")
            first = False
            if number and mark:
                out.append(mark, style=mark_style)
            out.append_text(line[start:end])
    return out


def line_count(text: str, width: int, mark: str = "") -> int:
    """How many screen lines :func:`wrap_text` makes of ``text``."""
    indent = cell_len(mark)
    return sum(len(wrap_spans(line, width, indent)) for line in text.split("\n"))


__all__ = ["CONTINUATION", "line_count", "wrap_spans", "wrap_text"]
