"""Keys that follow fzf's, lazygit's and k9s's habits (issue 11)."""

from __future__ import annotations

from textual import events

from errkb_tui.widgets.facets import FacetTree
from errkb_tui.widgets.filter import FilterInput, FilterStatus
from errkb_tui.widgets.record_list import RecordList

from .conftest import build_app, settle

TRACEBACK = ("Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\n"
             "    import torchvision\nModuleNotFoundError: No module named 'torchvision'\n")


async def test_enter_in_the_filter_accepts_and_keeps_the_query():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        await pilot.press("slash", *"ddp", "enter")
        await settle(pilot, app)
        assert isinstance(app.focused, RecordList)
        assert app.search_text == "ddp"
        assert app.selection.id == app.results.id_at(0)


async def test_arrows_and_ctrl_n_p_move_the_list_while_typing():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        await pilot.press("slash")
        await settle(pilot, app)
        rows = [app.results.id_at(row) for row in range(len(app.results))]
        assert app.selection.id == rows[0]
        await pilot.press("down")
        await settle(pilot, app)
        assert app.selection.id == rows[1]
        await pilot.press("ctrl+n")
        await settle(pilot, app)
        assert app.selection.id == rows[2]
        await pilot.press("ctrl+p", "up")
        await settle(pilot, app)
        assert app.selection.id == rows[0]
        await pilot.press("pagedown")
        await settle(pilot, app)
        assert app.selection.id == rows[-1]  # four records: a page reaches the end
        await pilot.press("pageup")
        await settle(pilot, app)
        assert app.selection.id == rows[0]
        assert isinstance(app.focused, FilterInput)  # still typing


async def test_escape_leaves_then_clears_and_ctrl_u_clears():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        await pilot.press("slash", *"ddp", "escape")
        await settle(pilot, app)
        assert isinstance(app.focused, RecordList)
        assert app.search_text == "ddp"
        await pilot.press("slash", "ctrl+u")
        await settle(pilot, app)
        assert app.search_text == ""
        await pilot.press(*"ddp", "escape", "escape")
        await settle(pilot, app)
        assert app.search_text == ""


async def test_a_multi_line_paste_into_the_filter_is_matched():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        await pilot.press("slash")
        await settle(pilot, app)
        app.focused.post_message(events.Paste(TRACEBACK))
        await settle(pilot, app)
        assert app.selection.id == "python/module-not-found"
        assert app.screen.query_one(FilterInput).value == ""  # not its first line as a query
        app.focused.post_message(events.Paste("bucket"))  # one line: a query, as usual
        await settle(pilot, app)
        assert app.screen.query_one(FilterInput).value == "bucket"


async def test_q_quits_but_types_in_the_filter():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        await pilot.press("slash", "q")
        await settle(pilot, app)
        assert app.is_running and app.search_text == "q"
        await pilot.press("escape", "q")
        await pilot.pause()
        assert not app.is_running


async def test_the_facet_chip_shows_and_escape_in_the_list_clears_it():
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:  # facet tree hidden at this width
        await settle(pilot, app)
        assert not app.screen.query_one(FacetTree).display
        await pilot.press("right_square_bracket")
        await settle(pilot, app)
        status = app.screen.query_one(FilterStatus)
        assert app.facet != (None, None)
        assert status.display and app.facet[0] in status.render().plain
        await pilot.press("escape")
        await settle(pilot, app)
        assert app.facet == (None, None)
        assert not status.display


async def test_a_qualifier_that_matches_nothing_says_so():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        await pilot.press("slash", *"domain:pytorhc")
        await settle(pilot, app)
        text = app.screen.query_one(FilterStatus).render().plain
        assert "no domain" in text and "did you mean pytorch" in text


async def test_t_shows_the_facet_tree_on_a_medium_terminal():
    app = build_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        tree = app.screen.query_one(FacetTree)
        assert not tree.display
        await pilot.press("t")
        await settle(pilot, app)
        assert tree.display
        await pilot.press("t")
        await settle(pilot, app)
        assert not tree.display


async def test_f_jumps_to_the_first_workaround_on_a_small_terminal():
    from errkb_tui.widgets.detail import DetailPane, WorkaroundCard

    app = build_app()
    async with app.run_test(size=(110, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("f")
        await settle(pilot, app)
        card = app.focused
        assert isinstance(card, WorkaroundCard) and card.number == 1
        detail = app.screen.query_one(DetailPane)
        top = card.region.y - detail.region.y
        assert 0 <= top < detail.region.height, "the first workaround is on screen"
        await pilot.press("c")
        await settle(pilot, app)
        assert app.system_clipboard.read() == card.workaround.copy_text


async def test_the_header_says_which_language_is_on():
    from errkb_tui.widgets.header import StatusHeader

    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        header = app.screen.query_one(StatusHeader)
        assert header.render().plain.rstrip().endswith("EN (z)")
        await pilot.press("z")
        await settle(pilot, app)
        assert "中文 (z)" in header.render().plain
