"""Regenerate screenshots/*.svg from the real app on the bundled KB.

Run from the repo root: ``python scripts/make_screenshots.py``. Each shot drives the app
with the same keys a user would press, at a fixed terminal size.
"""

from __future__ import annotations

import asyncio
import datetime
from pathlib import Path

from textual.widgets import Input

from errkb_tui.app import make_app
from errkb_tui.clipboard import GuardedClipboard, MemoryBackend
from errkb_tui.kb import default_sources
from errkb_tui.widgets.detail import DetailPane

OUT = Path(__file__).resolve().parent.parent / "screenshots"
SEED = "pytorch/ddp-bucket-view-error"


async def settle(pilot) -> None:
    app = pilot.app
    for _ in range(3):
        await pilot.pause()
        busy = [w for w in app.workers if w.group != "watch"]
        if busy:
            await app.workers.wait_for_complete(busy)
    await pilot.pause(0.2)


async def show_seed(pilot) -> None:
    await settle(pilot)
    pilot.app.select(SEED, "palette", reveal=True)
    await settle(pilot)


async def filtering(pilot) -> None:
    await settle(pilot)
    await pilot.press("slash", *"ddp mismatch")
    pilot.app.screen.query_one("#filter", Input).cursor_blink = False
    await settle(pilot)


async def dead_ends(pilot) -> None:
    await settle(pilot)
    pilot.app.select("pip/externally-managed-environment", "palette", reveal=True)
    await settle(pilot)
    pane = pilot.app.screen.query_one(DetailPane)
    pane.scroll_to_widget(pane.query_one(".d-dead-ends"), animate=False, top=True)
    await settle(pilot)


async def chinese(pilot) -> None:
    await settle(pilot)
    pilot.app.select("pytorch/cuda-out-of-memory", "palette", reveal=True)
    await settle(pilot)
    await pilot.press("z")
    await settle(pilot)


async def narrow(pilot) -> None:
    await show_seed(pilot)
    await pilot.press("enter")
    await settle(pilot)


async def help_screen(pilot) -> None:
    await settle(pilot)
    await pilot.press("question_mark")
    await settle(pilot)


SHOTS = [
    ("main", (120, 36), show_seed),
    ("filter", (120, 36), filtering),
    ("dead-ends-workarounds", (160, 48), dead_ends),
    ("chinese", (120, 36), chinese),
    ("narrow-80x24", (80, 24), narrow),
    ("help", (120, 36), help_screen),
]


async def shoot(name: str, size: tuple[int, int], steps) -> Path:
    app = make_app(default_sources(), watch=False, clipboard=GuardedClipboard(MemoryBackend()),
                   today=datetime.date.today())
    async with app.run_test(size=size) as pilot:
        await steps(pilot)
        path = OUT / f"{name}.svg"
        app.save_screenshot(str(path))
    return path


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for name, size, steps in SHOTS:
        print(asyncio.run(shoot(name, size, steps)))


if __name__ == "__main__":
    main()
