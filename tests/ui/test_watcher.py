"""The clipboard watcher and paste-to-match, driven with a fake clipboard."""

from __future__ import annotations

import threading
from pathlib import Path

from textual.widgets import TextArea

from errkb_tui.clipboard import MemoryBackend, NoClipboardTool
from errkb_tui.messages import ClipboardChanged
from errkb_tui.screens.paste import PasteScreen
from errkb_tui.screens.picker import PickerScreen
from errkb_tui.widgets.header import StatusHeader

from ..helpers import FailingBackend
from .conftest import DDP_TRACEBACK, SEED, build_app, settle, shown, wait_for

CORPUS = Path(__file__).parent.parent / "corpus"
PROSE = (CORPUS / "_negative" / "prose.txt").read_text()


async def test_copying_a_traceback_selects_its_record():
    backend = MemoryBackend("")
    app = build_app(backend=backend, watch=True)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        app.screen.query_one("#filter").value = "module"  # the filter hides the seed
        await settle(pilot, app)
        assert shown(app) != SEED
        backend.text = DDP_TRACEBACK
        assert await wait_for(pilot, app, lambda: shown(app) == SEED)
        assert app.screen.query_one("#filter").value == ""  # cleared so the record is visible
        assert app.screen.query_one("RecordList").current.id == SEED


async def test_copied_prose_changes_nothing():
    backend = MemoryBackend("")
    app = build_app(backend=backend, watch=True)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        before = shown(app)
        backend.text = PROSE
        await pilot.pause(0.4)
        await settle(pilot, app)
        assert shown(app) == before
        assert not app._notifications  # quiet: no toast for prose


async def test_own_copy_does_not_retrigger():
    backend = MemoryBackend("")
    app = build_app(backend=backend, watch=True)
    seen: list[str] = []
    async with app.run_test(size=(160, 48), message_hook=lambda m: seen.append(type(m).__name__)) as pilot:
        await settle(pilot, app)
        app.select(SEED, "palette", reveal=True)
        await settle(pilot, app)
        await pilot.press("1")
        await settle(pilot, app)
        assert backend.text == app.kb.get(SEED).workarounds[0].copy_text
        await pilot.pause(0.4)
        assert "ClipboardChanged" not in seen


async def test_missing_clipboard_tool_turns_watch_off_with_a_message():
    error = NoClipboardTool("no clipboard tool found: install xclip, xsel or wl-clipboard")
    app = build_app(backend=FailingBackend(error), watch=True)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        assert await wait_for(pilot, app, lambda: not app.watching)
        messages = [n.message for n in app._notifications]
        assert any("xclip" in m for m in messages)
        assert not app.screen.query_one(StatusHeader).watching
        await pilot.press("j")  # still usable
        await settle(pilot, app)
        assert app.is_running


async def test_a_backend_that_raises_or_hangs_does_not_kill_the_watcher():
    calls = {"n": 0}
    release = threading.Event()

    class Flaky:
        name = "system clipboard"

        def read(self):
            calls["n"] += 1
            if calls["n"] == 1:
                raise OSError("xclip crashed")
            if calls["n"] == 2:
                release.wait(5)  # hangs past the timeout
                return ""
            return DDP_TRACEBACK

        def write(self, text):
            pass

    app = build_app(backend=Flaky(), watch=True)
    try:
        async with app.run_test(size=(160, 48)) as pilot:
            await settle(pilot, app)
            assert await wait_for(pilot, app, lambda: shown(app) == SEED, seconds=6)
            assert app.watching
    finally:
        release.set()


async def test_huge_clipboard_is_capped_and_still_matches():
    backend = MemoryBackend("")
    app = build_app(backend=backend, watch=True)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        backend.text = ("noise line without errors\n" * 2_000_000) + DDP_TRACEBACK  # ~50 MB
        assert await wait_for(pilot, app, lambda: shown(app) == SEED, seconds=6)


async def test_binary_clipboard_is_ignored():
    backend = MemoryBackend(b"\x89PNG\r\n\x1a\n\x00\x00")
    app = build_app(backend=backend, watch=True)
    seen: list[str] = []
    async with app.run_test(size=(160, 48), message_hook=lambda m: seen.append(type(m).__name__)) as pilot:
        await settle(pilot, app)
        backend.text = "RuntimeError\x00\x00\x00 binary \x00 data"
        await pilot.pause(0.3)
        assert "ClipboardChanged" not in seen
        assert app.is_running


async def test_w_toggles_the_watcher_and_the_header_says_so():
    app = build_app(watch=True)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        header = app.screen.query_one(StatusHeader)
        assert header.watching
        await pilot.press("w")
        await settle(pilot, app)
        assert not app.watching and not header.watching
        await pilot.press("w")
        await settle(pilot, app)
        assert app.watching and header.watching


async def test_paste_screen_matches_what_is_pasted():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        await pilot.press("p")
        await settle(pilot, app)
        assert isinstance(app.screen, PasteScreen)
        app.screen.query_one(TextArea).text = DDP_TRACEBACK
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        assert shown(app) == SEED


async def test_terminal_paste_outside_the_filter_matches():
    from textual import events

    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        app.screen.post_message(events.Paste(DDP_TRACEBACK))
        await settle(pilot, app)
        assert shown(app) == SEED


async def test_close_candidates_open_a_picker(tmp_path):
    import json

    seed = json.loads((Path(__file__).parent.parent / "fixtures" / "kb" / "pytorch" / "ddp-bucket-view-error.json").read_text())
    twin = dict(seed, id="pytorch/ddp-bucket-view-twin")
    (tmp_path / "twin.json").write_text(json.dumps([seed, twin]))
    app = build_app(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        app.post_message(ClipboardChanged(DDP_TRACEBACK))
        await settle(pilot, app)
        assert isinstance(app.screen, PickerScreen)
        assert {m.id for m in app.screen.matches} == {SEED, "pytorch/ddp-bucket-view-twin"}
        await pilot.press("down", "enter")
        await settle(pilot, app)
        assert not isinstance(app.screen, PickerScreen)
        assert shown(app) in {SEED, "pytorch/ddp-bucket-view-twin"}
