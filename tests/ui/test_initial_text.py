"""Text the app is started with (piped in, or a failed command's output) selects its record."""

from __future__ import annotations

from pathlib import Path

from errkb_tui.app import make_app
from errkb_tui.clipboard import GuardedClipboard, MemoryBackend
from errkb_tui.kb import Source

from .conftest import FIXTURE_KB, TODAY, settle

DDP_TRACEBACK = (Path(__file__).parent.parent / "corpus" / "pytorch" / "ddp-bucket-view-error.txt").read_text()


def _app(text: str, origin: str):
    backend = MemoryBackend("")
    return make_app([Source(FIXTURE_KB, "--data")], watch=False, clipboard=GuardedClipboard(backend),
                    today=TODAY, initial_text=text, initial_origin=origin), backend


async def test_a_failed_commands_output_opens_on_its_record_and_says_where_it_came_from():
    app, backend = _app(DDP_TRACEBACK, "command")
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        assert app.selection.id == "pytorch/ddp-bucket-view-error"
        assert any("command's output" in (n.title or "") for n in app._notifications)
        assert backend.writes == []  # the text was matched, never typed as keys


async def test_piped_text_no_record_explains_is_said_plainly():
    app, _ = _app("just a note about lunch\n", "pipe")
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        assert any("piped text" in n.message for n in app._notifications)
