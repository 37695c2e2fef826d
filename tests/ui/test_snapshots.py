"""Snapshots of the main views at fixed sizes (pytest-textual-snapshot).

Update after an intended UI change with ``pytest tests/ui/test_snapshots.py --snapshot-update``
and look at the report before committing.
"""

from __future__ import annotations

from textual.widgets import Input

from errkb_tui.widgets.detail import DetailPane

from .conftest import build_app, settle

SEED = "pytorch/ddp-bucket-view-error"


async def _show_seed(pilot) -> None:
    app = pilot.app
    await settle(pilot, app)
    app.select(SEED, "palette", reveal=True)
    await settle(pilot, app)


def test_main_view(snap_compare):
    assert snap_compare(build_app(), terminal_size=(120, 36), run_before=_show_seed)


def test_filter_in_action(snap_compare):
    async def run_before(pilot):
        await settle(pilot, pilot.app)
        await pilot.press("slash", *"ddp size")
        pilot.app.screen.query_one("#filter", Input).cursor_blink = False
        await settle(pilot, pilot.app)

    assert snap_compare(build_app(), terminal_size=(120, 36), run_before=run_before)


def test_dead_ends_and_workarounds(snap_compare):
    async def run_before(pilot):
        await _show_seed(pilot)
        pane = pilot.app.screen.query_one(DetailPane)
        pane.scroll_to_widget(pane.query_one(".d-dead-ends"), animate=False, top=True)
        await settle(pilot, pilot.app)

    assert snap_compare(build_app(), terminal_size=(160, 48), run_before=run_before)


def test_chinese_view(snap_compare):
    async def run_before(pilot):
        await _show_seed(pilot)
        await pilot.press("z")
        await settle(pilot, pilot.app)

    assert snap_compare(build_app(), terminal_size=(120, 36), run_before=run_before)


def test_narrow_80x24(snap_compare):
    async def run_before(pilot):
        await _show_seed(pilot)
        await pilot.press("enter")
        await settle(pilot, pilot.app)

    assert snap_compare(build_app(), terminal_size=(80, 24), run_before=run_before)


def test_help_screen(snap_compare):
    async def run_before(pilot):
        await settle(pilot, pilot.app)
        await pilot.press("question_mark")
        await settle(pilot, pilot.app)

    assert snap_compare(build_app(), terminal_size=(120, 36), run_before=run_before)


def test_light_theme(snap_compare):
    async def run_before(pilot):
        pilot.app.theme = "textual-light"
        await _show_seed(pilot)

    assert snap_compare(build_app(), terminal_size=(120, 36), run_before=run_before)
