"""Keys are written once: the help screen and the README's table come from the bindings."""

from __future__ import annotations

import runpy
from pathlib import Path

from errkb_tui.app import ErrKBApp
from errkb_tui.keys import key_groups

ROOT = Path(__file__).resolve().parents[2]


def test_readme_key_table_is_the_one_made_from_the_bindings():
    table = runpy.run_path(str(ROOT / "scripts" / "key_table.py"))["table"]()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert table in readme, "README's key table is stale: paste `python scripts/key_table.py` into it"


def test_every_key_says_what_it_does_and_a_keymap_moves_it():
    groups = key_groups(ErrKBApp.BINDINGS, ErrKBApp.COMMAND_PALETTE_BINDING)
    rows = [row for _, rows in groups for row in rows]
    assert all(keys and what for keys, what in rows)
    moved = key_groups(ErrKBApp.BINDINGS, ErrKBApp.COMMAND_PALETTE_BINDING, {"app.watch": "ctrl+w"})
    assert ("ctrl+w", "Turn the clipboard watcher on or off") in moved[0][1]
