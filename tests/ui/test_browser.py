"""The browser, driven through Textual's pilot as a user would."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from errkb_tui.screens.detail import DetailScreen
from errkb_tui.screens.help import HelpScreen
from errkb_tui.widgets.detail import DetailPane, RelatedLink, WorkaroundCard
from errkb_tui.widgets.facets import FacetTree
from errkb_tui.widgets.header import StatusHeader
from errkb_tui.widgets.record_list import RecordList

from ..helpers import FailingBackend
from .conftest import build_app, settle, wait_for

SEED = "pytorch/ddp-bucket-view-error"


def listed(app) -> list[str]:
    record_list = app.screen.query_one(RecordList)
    return [app.results.id_at(row) for row in range(len(app.results))]


async def test_starts_with_every_record_and_the_first_in_detail():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        assert len(listed(app)) == 4
        assert app.screen.query_one(DetailPane).record.id == listed(app)[0]
        header = app.screen.query_one(StatusHeader)
        assert len(header.results) == 4


async def test_typing_filters_and_escape_clears():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        await pilot.press("slash", *"bucket")
        await settle(pilot, app)
        assert listed(app) == [SEED]
        await pilot.press("escape")  # leaves the filter; the query stays
        await settle(pilot, app)
        assert isinstance(app.focused, RecordList)
        assert listed(app) == [SEED]
        await pilot.press("escape")  # a second Escape clears it
        await settle(pilot, app)
        assert len(listed(app)) == 4


async def test_typing_that_keeps_the_selection_does_not_re_lay_out_the_screen(monkeypatch):
    """A key in the filter repaints the filter and the list; the screen's layout (every
    widget of the detail pane) is left alone. Input used to ask for a layout per key."""
    app = build_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        await pilot.press("slash", *"ddp")
        await settle(pilot, app)
        selected = app.selection.id
        layouts = []
        real = app.screen._refresh_layout
        monkeypatch.setattr(app.screen, "_refresh_layout", lambda *a, **k: (layouts.append(1), real(*a, **k))[1])
        await pilot.press(*" mo")
        await settle(pilot, app)
        assert app.screen.query_one(Input).value == "ddp mo"
        assert app.selection.id == selected
        assert layouts == []


async def test_keys_that_keep_the_top_row_still_postpone_the_detail(monkeypatch):
    """The detail follows the top row once typing pauses: a key that leaves the top row as
    it was is typing too, so the pending fill waits on instead of landing between keys."""
    import errkb_tui.widgets.detail as detail

    monkeypatch.setattr(detail, "DETAIL_AFTER_TYPING", 60.0)  # no pause happens in this test
    app = build_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        pane = app.screen.query_one(DetailPane)
        shown = pane.record.id
        await pilot.press("slash", *"ddp")
        assert await wait_for(pilot, app, lambda: app.results.query == "ddp" and app.selection.id != shown)
        assert pane._pending and pane._timer is not None
        waiting = pane._timer
        selected = app.selection.id
        await pilot.press(*" mo")
        assert await wait_for(pilot, app, lambda: app.results.query == "ddp mo")
        assert app.selection.id == selected
        assert pane._pending and pane._timer is not None and pane._timer is not waiting
        assert pane.record.id == shown  # typing has not paused: the pane still waits


async def test_a_query_wider_than_the_filter_scrolls_to_keep_the_cursor_in_view():
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        query = "ddp expects same model across all processes with the same parameters and the same buffers in every rank"
        await pilot.press("slash", *query)
        await settle(pilot, app)
        box = app.screen.query_one(Input)
        assert box.value == query
        assert box.scroll_x > 0
        line = box.render_line(0).text
        assert "parameters" in line  # the end, where the cursor is, is what shows


async def test_qualifiers_and_typos():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        await pilot.press("slash", *"domain:python")
        await settle(pilot, app)
        assert set(listed(app)) == {"python/module-not-found", "python/circular-import"}
        app.screen.query_one("#filter", Input).value = "bukcetview"
        await settle(pilot, app)
        assert listed(app)[0] == SEED  # typo-tolerant fallback
        assert app.screen.query_one(StatusHeader).results.fuzzy


async def test_domain_and_category_keys_change_the_list():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        await pilot.press("right_square_bracket")
        await settle(pilot, app)
        assert {r.split("/")[0] for r in listed(app)} == {"python"}
        await pilot.press("right_square_bracket")
        await settle(pilot, app)
        assert {r.split("/")[0] for r in listed(app)} == {"pytorch"}
        await pilot.press("left_square_bracket", "left_square_bracket")
        await settle(pilot, app)
        assert len(listed(app)) == 4  # back to "All records"
        await pilot.press("right_curly_bracket")
        await settle(pilot, app)
        first_category = app.screen.facet
        assert first_category[1] is not None
        assert all(app.kb.get(r).category == first_category[1] for r in listed(app))
        assert isinstance(app.focused, RecordList)  # never left the list


async def test_cursor_keys_move_and_detail_follows():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        order = listed(app)
        await pilot.press("j")
        await settle(pilot, app)
        assert app.screen.query_one(DetailPane).record.id == order[1]
        await pilot.press("end")
        await settle(pilot, app)
        assert app.screen.query_one(DetailPane).record.id == order[-1]
        await pilot.press("home", "down", "up")
        await settle(pilot, app)
        assert app.screen.query_one(DetailPane).record.id == order[0]


async def test_copy_keys_put_the_right_text_on_the_clipboard():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        app.select(SEED, "palette", reveal=True)
        await settle(pilot, app)
        record = app.kb.get(SEED)
        await pilot.press("2")
        await settle(pilot, app)
        await pilot.press("y")
        await settle(pilot, app)
        await pilot.press("Y")
        await settle(pilot, app)
        writes = app.system_clipboard.backend.writes
        assert writes == [record.workarounds[1].copy_text, record.signature, SEED]
        await pilot.press("9")  # no workaround 9: nothing copied, a warning instead
        await settle(pilot, app)
        assert len(writes) == 3


async def test_c_copies_the_focused_workaround():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        app.select("python/module-not-found", "palette", reveal=True)
        await settle(pilot, app)
        cards = list(app.screen.query(WorkaroundCard))
        cards[2].focus()
        await pilot.pause()
        await pilot.press("c")
        await settle(pilot, app)
        assert app.system_clipboard.backend.writes == [cards[2].workaround.copy_text]


async def test_copy_falls_back_to_osc52_when_the_system_clipboard_fails():
    app = build_app(backend=FailingBackend(RuntimeError("no display")))
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        await pilot.press("Y")
        await settle(pilot, app)
        assert app.clipboard == app.screen.query_one(DetailPane).record.id  # OSC 52 path


async def test_related_links_open_and_back_returns():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        app.select("pytorch/ddp-param-count-mismatch", "palette", reveal=True)
        await settle(pilot, app)
        link = app.screen.query_one(RelatedLink)
        assert link.record_id == SEED
        link.focus()
        await pilot.pause()
        await pilot.press("enter")
        await settle(pilot, app)
        assert app.screen.query_one(DetailPane).record.id == SEED
        assert app.screen.query_one(RecordList).current.id == SEED  # the list follows the link too
        await pilot.press("backspace")
        await settle(pilot, app)
        assert app.screen.query_one(DetailPane).record.id == "pytorch/ddp-param-count-mismatch"
        assert app.screen.query_one(RecordList).current.id == "pytorch/ddp-param-count-mismatch"
        await pilot.press("alt+right")
        await settle(pilot, app)
        assert app.screen.query_one(DetailPane).record.id == SEED


async def test_language_toggle_uses_chinese_fields_and_falls_back():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        app.select(SEED, "palette", reveal=True)
        await settle(pilot, app)
        await pilot.press("z")
        await settle(pilot, app)
        pane = app.screen.query_one(DetailPane)
        signature = str(pane.query_one(".d-signature").render())
        assert "BucketView 大小错误" in signature
        card = pane.query(WorkaroundCard).first()
        assert card.action_text == app.kb.get(SEED).workarounds_zh[0]
        await pilot.press("z")
        await settle(pilot, app)
        assert "wrong size" in str(pane.query_one(".d-signature").render())


async def test_narrow_layout_opens_detail_full_screen():
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert not app.screen.query_one("#detail").display
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, DetailScreen)
        await pilot.press("1")
        await settle(pilot, app)
        assert app.system_clipboard.backend.writes
        await pilot.press("escape")
        await settle(pilot, app)
        assert not isinstance(app.screen, DetailScreen)


async def test_help_screen_lists_keys_and_closes():
    app = build_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        await pilot.press("question_mark")
        await settle(pilot, app)
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await settle(pilot, app)
        assert not isinstance(app.screen, HelpScreen)


async def test_facet_tree_counts():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        tree = app.screen.query_one(FacetTree)
        labels = [str(node.label) for node in tree.root.children]
        assert labels == ["python 2", "pytorch 2"]


@pytest.mark.parametrize("size", [(40, 12), (60, 15), (200, 60)])
async def test_odd_sizes_do_not_crash(size):
    app = build_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        await pilot.press("j", "enter", "z", "escape", "question_mark", "escape")
        await settle(pilot, app)
        assert app.is_running


async def test_header_counts_records_while_a_large_kb_loads(tmp_path):
    import json

    from errkb_tui.messages import LoadProgress

    base = {"domain": "big", "category": "c", "signature": "BigError: n", "root_cause": "r"}
    lines = [json.dumps(dict(base, id=f"big/r{n}", regex=f"BigError: n{n}\\b")) for n in range(4500)]
    (tmp_path / "big.jsonl").write_text("\n".join(lines))
    progress: list[int] = []
    app = build_app(tmp_path)

    def hook(message) -> None:
        if isinstance(message, LoadProgress):
            progress.append(message.count)

    async with app.run_test(size=(120, 36), message_hook=hook) as pilot:
        await settle(pilot, app)
        # Progress messages replace each other in the queue; the last one is the total.
        assert progress and progress[-1] == 4500
        assert all(count % 2000 == 0 for count in progress[:-1])
        assert len(app.screen.query_one(StatusHeader).results) == 4500


async def test_jumping_to_a_far_record_shows_it_with_rows_around_it():
    from errkb_tui.kb import bundled_data_dir

    app = build_app(bundled_data_dir())
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        record_list = app.screen.query_one(RecordList)
        app.select("pytorch/ddp-bucket-view-error", "palette", reveal=True)
        await settle(pilot, app)
        visible = record_list.size.height // 2
        row = record_list.cursor
        assert record_list.current.id == "pytorch/ddp-bucket-view-error"
        assert record_list._top < row < record_list._top + visible - 1  # not at an edge
        await pilot.press("pagedown", "pagedown", "home")
        await settle(pilot, app)
        assert record_list.cursor == 0 and record_list._top == 0


async def test_header_keeps_every_fact_on_a_narrow_terminal():
    app = build_app(watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        line = str(app.screen.query_one(StatusHeader).render())
        assert "4/4" in line and "no watch" in line
        assert len(line) <= 80
