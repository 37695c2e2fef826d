"""Every key of the app, read from the live bindings: the help screen and the README's key
table are both made here, so neither can drift from the code.

``python scripts/key_table.py`` prints the README's table; a test checks the README has it.
It reads no App: the App's own bindings are passed in, so this module sits below ``app``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from textual.binding import Binding

from .screens.browser import BrowserScreen
from .screens.capture_result import CaptureProblems
from .screens.confirm import ConfirmScreen
from .screens.detail import DetailScreen
from .screens.editor import DraftEditor
from .screens.paste import PasteScreen
from .screens.problems import ProblemsScreen
from .screens.record import RECORD_BINDINGS
from .screens.prompt import ValuePrompt
from .widgets.detail import DetailPane, RelatedLink, WorkaroundCard
from .widgets.filter import FilterInput
from .widgets.evidence import DeadEndCard
from .widgets.record_list import RecordList

#: How keys are written for people.
KEY_NAMES = {
    "slash": "/", "question_mark": "?", "exclamation_mark": "!", "escape": "Escape", "enter": "Enter",
    "tab": "Tab", "shift+tab": "shift+Tab", "backspace": "Backspace", "up": "↑", "down": "↓",
    "left": "←", "right": "→", "pageup": "PgUp", "pagedown": "PgDn", "home": "Home", "end": "End",
    "left_square_bracket": "[", "right_square_bracket": "]", "left_curly_bracket": "{",
    "right_curly_bracket": "}", "alt+left": "alt+←", "alt+right": "alt+→", "space": "Space",
    "plus": "+", "minus": "-",
}


def key_display(keys: str) -> str:
    """``backspace,alt+left`` -> ``Backspace, alt+←``."""
    return ", ".join(KEY_NAMES.get(key.strip(), key.strip()) for key in keys.split(","))


def _rows(bindings: Iterable[Binding], keymap: Mapping[str, str]) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    copies: list[str] = []
    for binding in bindings:
        keys = keymap.get(binding.id, binding.key) if binding.id else binding.key
        what = binding.tooltip or binding.description
        if binding.id and binding.id.startswith("record.copy_") and binding.id[-1].isdigit():
            copies.append(key_display(keys))  # 1 … 9 read better as one row
            continue
        rows.append((key_display(keys), what))
    if copies:
        rows.insert(0, (f"{copies[0]} … {copies[-1]}", "copy workaround N's command"))
    return rows


def key_groups(app_bindings: Iterable[Binding], palette_key: str,
               keymap: Mapping[str, str] | None = None) -> list[tuple[str, list[tuple[str, str]]]]:
    """The keys, grouped by where they work, as ``(group, [(keys, what they do)])``.

    ``app_bindings`` and ``palette_key`` are the App's; ``keymap`` its overrides by id."""
    keymap = keymap or {}
    anywhere = _rows(app_bindings, keymap)
    anywhere[1:1] = [
        (key_display(palette_key), "command palette: go to record, domains, toggles, themes"),
        ("Tab, shift+Tab", "next / previous pane"),
    ]
    browser = [b for b in BrowserScreen.BINDINGS if b not in RECORD_BINDINGS]
    return [
        ("Anywhere", anywhere),
        ("Filter", _rows(FilterInput.BINDINGS, keymap)),
        ("Record list", _rows([*browser, *RecordList.BINDINGS], keymap)),
        ("Detail", _rows([*RECORD_BINDINGS, *WorkaroundCard.BINDINGS, *DeadEndCard.BINDINGS, *RelatedLink.BINDINGS,
                          *DetailPane.BINDINGS, *DetailScreen.BINDINGS[:1]], keymap)),
        ("Paste box", _rows(PasteScreen.BINDINGS, keymap)),
        ("Writing a record (a, e)", _rows([*DraftEditor.BINDINGS, *CaptureProblems.BINDINGS], keymap)),
        ("Problems (!)", [("Enter", "On a problem: open its file at its line in $VISUAL/$EDITOR"),
                          *_rows(ProblemsScreen.BINDINGS, keymap)]),
    ]


def binding_ids(app_bindings: Iterable[Binding]) -> list[str]:
    """Every binding id of the app (``app_bindings``: the App's): what a keymap may name."""
    groups = [app_bindings, BrowserScreen.BINDINGS, DetailScreen.BINDINGS, RecordList.BINDINGS,
              FilterInput.BINDINGS, WorkaroundCard.BINDINGS, DeadEndCard.BINDINGS, RelatedLink.BINDINGS,
              DetailPane.BINDINGS,
              ValuePrompt.BINDINGS, PasteScreen.BINDINGS, DraftEditor.BINDINGS, CaptureProblems.BINDINGS,
              ConfirmScreen.BINDINGS, ProblemsScreen.BINDINGS]
    return list(dict.fromkeys(b.id for group in groups for b in group if isinstance(b, Binding) and b.id))


def markdown_table(groups: list[tuple[str, list[tuple[str, str]]]]) -> str:
    """``groups`` (from :func:`key_groups`) as the README's Markdown table."""
    lines = ["| where | key | what it does |", "| --- | --- | --- |"]
    for group, rows in groups:
        for keys, what in rows:
            shown = " ".join(f"`{part.strip()}`" for part in keys.replace("`", "").split(", "))
            lines.append(f"| {group} | {shown} | {what.replace('|', '/')} |")
            group = ""
    return "\n".join(lines)

