"""Print the README's key table, made from the app's live bindings (errkb_tui/keys.py)."""

from errkb_tui.app import ErrKBApp
from errkb_tui.keys import key_groups, markdown_table


def table() -> str:
    return markdown_table(key_groups(ErrKBApp.BINDINGS, ErrKBApp.COMMAND_PALETTE_BINDING))


if __name__ == "__main__":
    print(table())
