"""Placeholders in the browser: filled from the match, asked for when unknown, never copied raw."""

from __future__ import annotations

from pathlib import Path

from errkb_tui.screens.prompt import ValuePrompt
from errkb_tui.widgets.detail import WorkaroundCard

from ..helpers import seed_record, write_json
from .conftest import build_app, settle

TRACEBACK = ("Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n"
             "    import torchvision\nModuleNotFoundError: No module named 'torchvision'\n")


def kb(tmp_path: Path) -> Path:
    """One record whose commands hold a filled placeholder and a prompted one."""
    folder = tmp_path / "kb"
    write_json(folder / "python" / "missing.json", seed_record(
        "python/missing",
        signature="ModuleNotFoundError: No module named 'X'",
        regex=r"ModuleNotFoundError: No module named '(?P<module>[\w.-]+)'",
        category="import_error",
        workarounds=[
            {"action": "Install {=module}", "how": "python -m pip install {=module:requests}",
             "success_rate": 0.9, "condition": "", "sources": []},
            {"action": "Install into a venv", "how": "{=venv:.venv}/bin/pip install {=module:requests} --index {=index:pypi}",
             "success_rate": 0.8, "condition": "", "sources": []},
        ],
        workarounds_zh=[],
        transition_graph={"leads_to": [], "preceded_by": [], "frequently_confused_with": []},
    ))
    return folder


def clipboard(app) -> str:
    return app.system_clipboard.read()


async def matched(pilot, app) -> None:
    await settle(pilot, app)
    app.match_text(TRACEBACK, "paste")
    await settle(pilot, app)
    assert app.selection.id == "python/missing"


async def test_a_matched_record_shows_and_copies_its_commands_filled(tmp_path):
    app = build_app(kb(tmp_path))
    async with app.run_test(size=(160, 48)) as pilot:
        await matched(pilot, app)
        card = app.screen.query(WorkaroundCard).first()
        assert card._code.text.plain == "python -m pip install torchvision"
        assert "Install torchvision" in card._title.render().plain
        filled = [span for span in card._code.text.spans if "torchvision" == card._code.text.plain[span.start:span.end]]
        assert filled, "the value from the error is marked"
        await pilot.press("1")
        await settle(pilot, app)
        assert clipboard(app) == "python -m pip install torchvision"
        assert not isinstance(app.screen, ValuePrompt)


async def test_unknown_values_are_asked_one_after_another(tmp_path):
    app = build_app(kb(tmp_path))
    async with app.run_test(size=(160, 48)) as pilot:
        await matched(pilot, app)
        await pilot.press("2")
        await settle(pilot, app)
        assert isinstance(app.screen, ValuePrompt)
        await pilot.press("enter")  # the example (.venv) is kept
        await settle(pilot, app)
        assert isinstance(app.screen, ValuePrompt)
        await pilot.press(*"mirror", "enter")  # typing replaces the example
        await settle(pilot, app)
        assert not isinstance(app.screen, ValuePrompt)
        assert clipboard(app) == ".venv/bin/pip install torchvision --index mirror"


async def test_escape_in_the_prompt_copies_nothing(tmp_path):
    app = build_app(kb(tmp_path))
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        app.copy_to_clipboard("before")
        await settle(pilot, app)
        await pilot.press("1")  # no match: the module is unknown
        await settle(pilot, app)
        assert isinstance(app.screen, ValuePrompt)
        await pilot.press("escape")
        await settle(pilot, app)
        assert not isinstance(app.screen, ValuePrompt)
        assert clipboard(app) == "before"


async def test_without_a_match_the_value_is_asked_and_never_copied_raw(tmp_path):
    app = build_app(kb(tmp_path))
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        card = app.screen.query(WorkaroundCard).first()
        assert "⟨module⟩" in card._code.text.plain  # shown as a value to give, not as syntax
        await pilot.press("c")
        await settle(pilot, app)
        assert isinstance(app.screen, ValuePrompt)
        await pilot.press("enter")
        await settle(pilot, app)
        assert clipboard(app) == "python -m pip install requests"
        assert "{=" not in clipboard(app)


async def test_a_match_for_another_record_fills_nothing_here(tmp_path):
    folder = kb(tmp_path)
    write_json(folder / "python" / "other.json", seed_record(
        "python/other", signature="OtherError: something else", regex=r"OtherError: something (?P<module>\w+)",
        category="import_error",
        workarounds=[{"action": "Fix", "how": "fix {=module:thing}", "success_rate": 0.5, "condition": "",
                      "sources": []}],
        workarounds_zh=[],
        transition_graph={"leads_to": [], "preceded_by": [], "frequently_confused_with": []},
    ))
    app = build_app(folder)
    async with app.run_test(size=(160, 48)) as pilot:
        await matched(pilot, app)
        app.select("python/other", "cursor")
        await settle(pilot, app)
        await pilot.press("1")
        await settle(pilot, app)
        assert isinstance(app.screen, ValuePrompt)  # torchvision belongs to the other record's match


def test_snapshot_of_filled_commands_and_the_prompt(snap_compare, tmp_path):
    """The values from the error marked in the commands; the prompt for one it lacks."""
    from textual.widgets import Input

    async def run_before(pilot):
        app = pilot.app
        await matched(pilot, app)
        await pilot.press("f")
        await settle(pilot, app)
        app.clear_notifications()
        await pilot.press("2")
        await settle(pilot, app)
        app.screen.query_one(Input).cursor_blink = False
        await settle(pilot, app)

    assert snap_compare(build_app(kb(tmp_path)), terminal_size=(100, 30), run_before=run_before)


async def test_enter_on_a_card_copies_the_filled_command(tmp_path):
    app = build_app(kb(tmp_path))
    async with app.run_test(size=(160, 48)) as pilot:
        await matched(pilot, app)
        await pilot.press("f", "enter")
        await settle(pilot, app)
        assert clipboard(app) == "python -m pip install torchvision"


async def test_list_detail_and_links_show_a_signatures_placeholders_as_names(tmp_path):
    """A signature's ``{=module}`` reads as ‹module› on screen, not as fill syntax."""
    from errkb_tui.widgets.detail import RelatedLink
    from errkb_tui.widgets.record_list import RecordList

    folder = kb(tmp_path)
    write_json(folder / "python" / "named.json", seed_record(
        "python/named",
        signature="ModuleNotFoundError: No module named '{=module}'",
        regex=r"No module named '(?P<module>[\w.-]+)' at all",
        category="import_error",
    ))
    write_json(folder / "python" / "linker.json", seed_record(
        "python/linker",
        signature="ImportError: something else entirely",
        regex=r"something else entirely",
        category="import_error",
        transition_graph={"leads_to": ["python/named"], "preceded_by": [], "frequently_confused_with": []},
    ))
    app = build_app(folder)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        record_list = app.screen.query_one(RecordList)
        rows = [record_list.render_line(y).text for y in range(record_list.size.height)]
        named = [line for line in rows if "No module named '" in line and "'X'" not in line]
        assert named and "\u2039module\u203a" in named[0] and "{=" not in named[0]

        app.select("python/named")
        await settle(pilot, app)
        signature = app.screen.query_one(".d-signature").render().plain
        assert signature == "ModuleNotFoundError: No module named '\u2039module\u203a'"

        app.select("python/linker")
        await settle(pilot, app)
        link = app.screen.query(RelatedLink).first().render().plain
        assert "python/named" in link and "\u2039module\u203a" in link and "{=" not in link
