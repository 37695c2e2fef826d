"""Text the app is started with (piped in, or a failed command's output) selects its record."""

from __future__ import annotations


from errkb_tui.app import make_app
from errkb_tui.clipboard import GuardedClipboard, MemoryBackend
from errkb_tui.kb import Source

from .conftest import DDP_TRACEBACK, FIXTURE_KB, TODAY, settle



def _app(text: str, origin: str, clipboard: str = "", watch: bool = False):
    backend = MemoryBackend(clipboard)
    return make_app([Source(FIXTURE_KB, "--data")], watch=watch, watch_interval=0.05,
                    clipboard=GuardedClipboard(backend), today=TODAY, initial_text=text,
                    initial_origin=origin), backend


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


async def test_piped_text_wins_over_an_old_error_on_the_clipboard():
    old = "Traceback (most recent call last):\nModuleNotFoundError: No module named 'torchvision'\n"
    app, backend = _app(DDP_TRACEBACK, "pipe", clipboard=old, watch=True)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        assert app.poller.running
        await pilot.pause(0.3)  # several of the watcher's reads
        await settle(pilot, app)
        assert app.selection.id == "pytorch/ddp-bucket-view-error"
        backend.text = old + "\n"  # a new copy still counts
        for _ in range(100):
            if app.selection.id == "python/module-not-found":
                break
            await pilot.pause(0.05)
        assert app.selection.id == "python/module-not-found"
