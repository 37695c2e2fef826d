"""One record on screen, one source of truth: what every screen shows is what the keys act on.

Each test here is a bug a user could meet when screens kept copies of the state.
"""

from __future__ import annotations


from textual.widgets import Input

from errkb_tui.clipboard import MemoryBackend
from errkb_tui.match import Match
from errkb_tui.messages import MatchesFound
from errkb_tui.screens.detail import DetailScreen
from errkb_tui.widgets.detail import DetailPane, RelatedLink
from errkb_tui.widgets.header import StatusHeader
from errkb_tui.widgets.record_list import RecordList

from .conftest import DDP_TRACEBACK, SEED, build_app, settle, shown, wait_for



async def test_a_match_under_a_full_screen_detail_shows_there_and_the_keys_copy_it():
    backend = MemoryBackend("")
    app = build_app(backend=backend, watch=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        first = app.results.id_at(0)
        assert first != SEED
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, DetailScreen) and shown(app) == first
        backend.text = DDP_TRACEBACK
        assert await wait_for(pilot, app, lambda: shown(app) == SEED)
        assert isinstance(app.screen, DetailScreen)  # the screen the user looks at follows
        await pilot.press("y")
        await settle(pilot, app)
        assert backend.writes[-1] == app.kb.get(SEED).signature


async def test_a_full_screen_detail_left_open_after_widening_still_follows_matches():
    backend = MemoryBackend("")
    app = build_app(backend=backend, watch=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("enter")
        await settle(pilot, app)
        await pilot.resize_terminal(120, 36)
        await settle(pilot, app)
        backend.text = DDP_TRACEBACK
        assert await wait_for(pilot, app, lambda: shown(app) == SEED)
        await pilot.press("Y")
        await settle(pilot, app)
        assert backend.writes[-1] == SEED


async def test_an_empty_result_shows_no_record_and_copies_nothing():
    backend = MemoryBackend("")
    app = build_app(backend=backend)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        await pilot.press("slash", *"bucket")
        await settle(pilot, app)
        assert shown(app) == SEED
        await pilot.press("ctrl+u", *"domain:dokcer")
        await settle(pilot, app)
        assert len(app.results) == 0
        assert app.selection.id is None
        pane = app.screen.query_one(DetailPane)
        assert pane.record is None
        assert "No record selected" in str(pane.query_one(".d-empty").render())
        app.screen.query_one(RecordList).focus()
        await pilot.press("1", "y", "Y", "c")
        await settle(pilot, app)
        assert backend.writes == []
        assert any("No record selected" in n.message for n in app._notifications)


async def test_w_on_a_full_screen_detail_shows_in_its_header():
    app = build_app(watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("enter")
        await settle(pilot, app)
        header = app.screen.query_one(StatusHeader)
        assert "no watch" in str(header.render())
        await pilot.press("w")
        await settle(pilot, app)
        assert app.watching and header.watching
        assert "● watch" in str(header.render())


async def test_following_a_link_the_filter_hides_reveals_it_in_the_list():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        await pilot.press("slash", *"param count")
        await settle(pilot, app)
        assert app.results.row_of(SEED) is None
        app.screen.query_one(RecordList).focus()
        link = app.screen.query_one(RelatedLink)
        link.focus()
        await pilot.press("enter")
        await settle(pilot, app)
        assert shown(app) == SEED
        assert app.screen.query_one(RecordList).current.id == SEED
        assert app.screen.query_one("#filter", Input).value == ""


async def test_a_match_while_typing_keeps_the_query_and_the_list_shows_no_false_cursor():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        await pilot.press("slash", *"module")
        await settle(pilot, app)
        app.post_message(MatchesFound([Match(SEED, 0.99, "regex", "RuntimeError: BucketView", True)], "clipboard"))
        await settle(pilot, app)
        assert app.screen.query_one("#filter", Input).value == "module"
        assert shown(app) == SEED
        record_list = app.screen.query_one(RecordList)
        assert record_list.cursor is None  # the record is not listed: no row pretends to be it
        record_list.focus()
        await pilot.press("j")
        await settle(pilot, app)
        assert shown(app) == record_list.current.id == app.results.id_at(0)


async def test_a_match_arriving_after_the_detail_pane_is_gone_does_not_crash():
    # The old watcher looked up the browser's DetailPane when a match arrived; a match landing
    # while the screen was being taken down raised NoMatches (one run in six, on a busy machine).
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        await app.screen.query_one(DetailPane).remove()
        app.post_message(MatchesFound([Match(SEED, 0.99, "regex", "RuntimeError: BucketView", True)], "clipboard"))
        await settle(pilot, app)
        assert app.is_running
        assert app.selection.id == SEED


async def test_held_keys_never_pull_the_cursor_back():
    from errkb_tui.kb import bundled_data_dir

    app = build_app(bundled_data_dir())
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        await pilot.press(*["j"] * 25)
        await settle(pilot, app)
        record_list = app.screen.query_one(RecordList)
        assert record_list.cursor == 25
        assert app.selection.id == app.results.id_at(25) == shown(app)


async def test_colours_follow_the_theme():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        for theme in ("textual-dark", "textual-light"):
            app.theme = theme
            await settle(pilot, app)
            pane = app.screen.query_one(DetailPane)
            assert pane._style("bad").color.triplet.hex.lower() == app.theme_variables["error"].lower(), theme
            assert pane._style("good").color.triplet.hex.lower() == app.theme_variables["success"].lower(), theme
            # the list keeps its styles between keys; a new theme must reach its rows too
            record_list = app.screen.query_one(RecordList)
            row = record_list.render_line(2)  # the second record: not the cursor row
            assert list(row)[0].style.bgcolor == record_list.rich_style.bgcolor, theme
            assert record_list._style() == record_list.rich_style, theme


async def test_typing_repaints_the_parts_that_change_not_the_whole_screen(monkeypatch):
    """The App's and screens' state is not looks: setting it on each key used to mark the
    whole screen dirty, so every key redrew every widget."""
    app = build_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        await pilot.press("slash")
        await settle(pilot, app)
        compositor = app.screen._compositor
        full = []
        real = compositor.render_full_update
        monkeypatch.setattr(compositor, "render_full_update", lambda *a, **k: (full.append(1), real(*a, **k))[1])
        await pilot.press(*"ddp mo")
        await settle(pilot, app)
        assert app.results.query == "ddp mo"
        assert full == []


async def test_keys_typed_straight_after_slash_land_in_the_filter():
    from textual import events

    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        for char in "/module":  # queued at once, as a fast typist or a paste sends them
            key = "slash" if char == "/" else char
            event = events.Key(key, char)
            event.set_sender(app)
            app._driver.send_message(event)  # the way a terminal's keys arrive
        await settle(pilot, app)
        assert app.screen.query_one("#filter", Input).value == "module"
        assert not isinstance(app.screen, DetailScreen)
        await pilot.press("slash")  # in the filter, / is text (a path, a/b)
        assert app.screen.query_one("#filter", Input).value == "module/"


async def test_settling_waits_through_a_match_that_a_newer_one_replaced():
    # Matches are exclusive: a newer copy cancels the match under way. Waiting for the app
    # to settle raised WorkerCancelled then (the 10 ms clipboard test failed one run in six).
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        app.match_text("note: nothing to see " * 2000, "clipboard")
        app.match_text(DDP_TRACEBACK, "clipboard")
        await settle(pilot, app)
        assert app.selection.id == SEED
