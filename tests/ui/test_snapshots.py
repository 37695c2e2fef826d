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


def test_outcomes_view(snap_compare, tmp_path):
    """Your marks and a team's counts beside the estimates, the order they give, the
    question after a copy, and the footer's outcome keys on a focused workaround."""
    import json
    import shutil

    from errkb_tui.messages import ClipboardChanged, OutcomeMarked
    from errkb_tui.model import Workaround
    from errkb_tui.outcomes import item_hash
    from errkb_tui.widgets.detail import WorkaroundCard

    from .conftest import FIXTURE_KB

    record_id = "python/module-not-found"
    kb = tmp_path / "team-kb"
    shutil.copytree(FIXTURE_KB, kb)
    workarounds = json.loads((kb / "python" / "module-not-found.json").read_text())["workarounds"]
    team = {"record_id": record_id, "hash": item_hash(Workaround(**workarounds[3])), "kind": "workaround",
            "worked": 12, "failed": 3, "first": "2026-01-04", "last": "2026-11-28"}
    (kb / "outcomes.jsonl").write_text(json.dumps(team) + "\n")

    async def run_before(pilot):
        app = pilot.app
        await settle(pilot, app)
        app.select(record_id, "palette", reveal=True)
        await settle(pilot, app)
        for kind, index, verdict in [("workaround", 1, "worked"), ("workaround", 1, "worked"),
                                     ("workaround", 1, "failed"), ("workaround", 0, "failed"),
                                     ("dead_end", 0, "tried_failed")]:
            app.post_message(OutcomeMarked(record_id, kind, index, verdict))
            await settle(pilot, app)
        await pilot.press("1")
        await settle(pilot, app)
        app.post_message(ClipboardChanged("ModuleNotFoundError: No module named 'yaml'"))
        await settle(pilot, app)
        app.clear_notifications()
        pane = app.screen.query_one(DetailPane)
        pane.query(WorkaroundCard).first().focus(scroll_visible=False)
        pane.scroll_home(animate=False)  # the question, then the record's totals in its badge
        await settle(pilot, app)

    assert snap_compare(build_app(kb), terminal_size=(160, 48), run_before=run_before)
