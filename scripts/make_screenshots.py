"""Regenerate screenshots/*.svg from the real app on the bundled KB.

Run from the repo root: ``python scripts/make_screenshots.py``. Each shot drives the app
with the same keys a user would press, at a fixed terminal size. The data folder is a
fresh temporary one (``ERRKB_HOME``), so your own KB and outcomes never show.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import os
import tempfile
from pathlib import Path

from textual.widgets import Input

from errkb_tui.app import make_app
from errkb_tui.clipboard import GuardedClipboard, MemoryBackend
from errkb_tui.kb import bundled_data_dir, default_sources
from errkb_tui.messages import OutcomeMarked
from errkb_tui.model import Record
from errkb_tui.outcomes import item_hash
from errkb_tui.widgets.detail import DetailPane, WorkaroundCard

OUT = Path(__file__).resolve().parent.parent / "screenshots"
SEED = "pytorch/ddp-bucket-view-error"
OOM = "pytorch/cuda-out-of-memory"


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


async def outcomes(pilot) -> None:
    """A user's marks (3 of 4 worked on one fix, one failure on another, a dead end tried)
    beside a team's counts: the estimates stay marked est., the order follows the evidence."""
    await settle(pilot)
    app = pilot.app
    app.select(OOM, "palette", reveal=True)
    await settle(pilot)
    marks = [("workaround", 1, "worked")] * 3 + [("workaround", 1, "failed"), ("workaround", 0, "failed"),
                                                 ("dead_end", 0, "tried_failed")]
    for kind, index, verdict in marks:
        app.post_message(OutcomeMarked(OOM, kind, index, verdict))
        await settle(pilot)
    app.clear_notifications()
    pane = app.screen.query_one(DetailPane)
    pane.query(WorkaroundCard).first().focus(scroll_visible=False)
    pane.scroll_to_widget(pane.query_one(".d-dead-ends-heading"), animate=False, top=True)
    await settle(pilot)


TRACEBACK = ("Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n"
             "    import torchvision\nModuleNotFoundError: No module named 'torchvision'\n")


async def copied_error(pilot) -> None:
    """A copied traceback selected its record; f jumps to the fixes, filled from the error."""
    await settle(pilot)
    app = pilot.app
    app.match_text(TRACEBACK, "clipboard")
    await settle(pilot)
    app.clear_notifications()
    await pilot.press("f")
    await settle(pilot)


UNKNOWN = ("Traceback (most recent call last):\n  File \"/srv/api/db.py\", line 14, in <module>\n"
           "    engine = create_engine(url)\n"
           "sqlalchemy.exc.ArgumentError: Could not parse SQLAlchemy URL from string 'postgres//app@db:5432/orders'\n")


async def capture(pilot) -> None:
    """A copied error no record explains; a opens its draft record (the in-app editor: a
    test has no terminal to lend $EDITOR)."""
    from textual.widgets import TextArea

    await settle(pilot)
    app = pilot.app
    app.match_text(UNKNOWN, "clipboard")
    await settle(pilot)
    app.clear_notifications()
    await pilot.press("a")
    for _ in range(200):  # the capture flow waits for the editor: no settle() while it is open
        await pilot.pause(0.05)
        if type(app.screen).__name__ == "DraftEditor":
            break
    app.screen.query_one(TextArea).cursor_blink = False
    await pilot.pause(0.3)
    app.clear_notifications()
    await pilot.pause(0.1)


#: The team folder's own record (a KB folder holds records as well as the team's counts).
TEAM_RECORD = {
    "id": "pytorch/cluster-gpu-quota", "domain": "pytorch", "category": "resource_error",
    "signature": "GPU quota exceeded for namespace X", "regex": "GPU quota exceeded for namespace \\S+",
    "root_cause": "The team's cluster caps GPUs per namespace; the job asked for more than is left.",
    "fix_success_rate": 0.8,
    "workarounds": [{"action": "Ask for fewer GPUs, or run in the batch namespace", "how": "--gpus 2",
                     "success_rate": 0.8}],
}


def team_folder() -> Path:
    """A team's KB folder: a record of its own, and the team's counts for a bundled fix."""
    folder = Path(tempfile.mkdtemp(prefix="errkb-team-"))
    (folder / "pytorch").mkdir()
    (folder / "pytorch" / "cluster-gpu-quota.json").write_text(json.dumps(TEAM_RECORD), encoding="utf-8")
    domain, slug = OOM.split("/")
    record = Record.model_validate_json((bundled_data_dir() / domain / f"{slug}.json").read_bytes())
    counts = {"record_id": OOM, "hash": item_hash(record.workarounds[1]), "kind": "workaround", "worked": 12,
              "failed": 3, "first": "2026-09-01", "last": "2026-11-28"}
    (folder / "outcomes.jsonl").write_text(json.dumps(counts) + "\n", encoding="utf-8")
    return folder


SHOTS = [
    ("main", (120, 36), show_seed),
    ("filter", (120, 36), filtering),
    ("dead-ends-workarounds", (160, 48), dead_ends),
    ("chinese", (120, 36), chinese),
    ("narrow-80x24", (80, 24), narrow),
    ("help", (120, 36), help_screen),
    ("copied-error", (120, 36), copied_error),
    ("outcomes", (160, 48), outcomes),
    ("capture", (120, 36), capture),
]
#: Shots that load a team's KB folder as well (``--data``).
TEAM_SHOTS = {"outcomes"}


async def shoot(name: str, size: tuple[int, int], steps) -> Path:
    os.environ["ERRKB_HOME"] = tempfile.mkdtemp(prefix="errkb-shot-")  # no outcomes, no own KB
    sources = default_sources(data_paths=[team_folder()] if name in TEAM_SHOTS else [])
    app = make_app(sources, watch=False, clipboard=GuardedClipboard(MemoryBackend()),
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
