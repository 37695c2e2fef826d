"""Odd text and a wild clipboard: the layout holds and the app stays responsive."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from errkb_tui.clipboard import ClipboardError
from errkb_tui.widgets.detail import DetailPane
from errkb_tui.widgets.record_list import RecordList

from ..helpers import FailingBackend
from ..ui.conftest import build_app, settle

GOOD = json.loads((Path(__file__).parent.parent / "fixtures" / "adversarial" / "good.json").read_text())
ODD_TEXTS = {
    "long": "AcmeError: " + "very-long-token-" * 400,
    "cjk": "AcmeError: 显存不足，无法分配张量。" * 20,
    "combining": "AcmeError: Z\u0351\u036b\u0343\u036a\u0302\u036b\u033d\u034f\u0334\u0319a\u0328\u0341l\u0315g\u0362o " * 20,
    "rtl": "AcmeError: \u05e9\u05d2\u05d9\u05d0\u05d4 \u0645\u0633\u062a\u0648\u062f\u0639 \u202eevil\u202c " * 20,
    "emoji": "AcmeError: 🔥💥👩‍👩‍👧‍👦🏳️‍🌈 " * 30,
}


def odd_kb(folder: Path) -> Path:
    records = [dict(GOOD, id=f"acme/{name}", signature=text, root_cause=text,
                    aliases=[text[:200]], regex=f"AcmeError: {name}-marker")
               for name, text in ODD_TEXTS.items()]
    (folder / "odd.json").write_text(json.dumps(records, ensure_ascii=False))
    return folder


@pytest.mark.parametrize("size", [(40, 12), (80, 24), (200, 60)])
async def test_odd_text_keeps_every_row_the_width_of_the_list(tmp_path, size):
    app = build_app(odd_kb(tmp_path))
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        record_list = app.screen.query_one(RecordList)
        for _ in ODD_TEXTS:
            await pilot.press("j")
            await settle(pilot, app)
            width = record_list.scrollable_content_region.width
            for y in range(record_list.size.height):
                assert record_list.render_line(y).cell_length == width
        await pilot.press("z", "enter")
        await settle(pilot, app)
        assert app.is_running
        assert "\u202e" not in app.export_screenshot()  # bidi overrides are neutralised


async def test_clipboard_changing_every_10ms_keeps_the_app_responsive():
    counter = itertools.count()

    class Busy:
        name = "system clipboard"

        def read(self):
            n = next(counter)
            return f"note {n}: nothing to see" if n % 2 else f"RuntimeError: BucketView has wrong size: expected {n}, got 1"

        def write(self, text):
            pass

    app = build_app(backend=Busy(), watch=True, interval=0.01)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        await pilot.pause(0.5)
        await pilot.press("slash", *"module")
        await pilot.pause(0.3)
        assert app.screen.query_one("#filter").value == "module"  # no keystroke lost
        assert next(counter) > 10  # the watcher really was polling fast
        assert app.watching and app.is_running
        await pilot.press("escape", "escape", "j", "k")
        await pilot.pause(0.2)
        assert app.screen.query_one(DetailPane).record is not None


async def test_a_backend_that_always_raises_is_reported_once_and_the_app_goes_on():
    error = ClipboardError("the system clipboard failed: X server went away")
    app = build_app(backend=FailingBackend(error), watch=True, interval=0.01)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        await pilot.pause(1.0)
        notices = [n for n in app._notifications if "still trying" in n.message]
        assert len(notices) == 1
        await pilot.press("1")  # copying still works, through OSC 52
        await settle(pilot, app)
        assert app.clipboard
        assert app.is_running
