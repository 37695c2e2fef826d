"""Fixtures for driving the real app: a fixed small KB, a fake clipboard, a fixed date."""

from __future__ import annotations

import asyncio
import datetime
from pathlib import Path

import pytest

from textual.app import App
from textual.worker import WorkerCancelled, WorkerError, WorkerFailed

from errkb_tui.app import ErrKBApp, make_app
from errkb_tui.clipboard import GuardedClipboard, MemoryBackend
from errkb_tui.kb import Source

#: The seed record and its traceback, which several UI tests copy or paste.
SEED = "pytorch/ddp-bucket-view-error"
DDP_TRACEBACK = (Path(__file__).parent.parent / "corpus" / "pytorch" / "ddp-bucket-view-error.txt").read_text()
FIXTURE_KB = Path(__file__).parent.parent / "fixtures" / "kb"
TODAY = datetime.date(2026, 11, 29)


@pytest.fixture(autouse=True)
def toasts_stay_until_read(monkeypatch):
    """A toast lives 2 to 6 seconds. On a loaded machine a test can take longer than that to
    reach the assertion that reads it (a run beside eight busy processes did), and then finds
    it gone. Tests read toasts after waiting on conditions, so here a toast stays until the
    app closes or clears it."""
    notify = App.notify

    def lasting(self, message, *, title="", severity="information", timeout=None, markup=True):
        notify(self, message, title=title, severity=severity, timeout=3600, markup=markup)

    monkeypatch.setattr(App, "notify", lasting)


def build_app(*paths: Path, backend=None, watch: bool = False, interval: float = 0.05, **options) -> ErrKBApp:
    """The app over ``paths`` (default: the fixture KB) with a fake clipboard; ``options``
    go to the app as they are."""
    sources = [Source(Path(p), "--data") for p in (paths or (FIXTURE_KB,))]
    clipboard = GuardedClipboard(backend if backend is not None else MemoryBackend(), timeout=0.5)
    return make_app(sources, watch=watch, watch_interval=interval, clipboard=clipboard, today=TODAY, **options)


async def settle(pilot, app: ErrKBApp) -> None:
    """Wait until loading, searching and matching have finished and the screen caught up.

    Waits on conditions, never on a fixed time: every worker has ended (one that a newer
    one of its exclusive group replaced ends cancelled: that is normal, not an error), and
    every detail pane shows the selection (it waits out quick changes on a timer)."""
    from errkb_tui.widgets.detail import DetailPane

    for _ in range(3):
        await pilot.pause()
        for worker in [w for w in app.workers if not w.is_finished]:
            try:
                await asyncio.wait_for(worker.wait(), 30)
            except (WorkerCancelled, WorkerFailed, WorkerError):
                pass  # replaced by a newer search or match; a failure is the app's to report
    for _ in range(100):  # at most a second: a clipboard changing every 10 ms never settles
        if all(not pane._pending and pane._timer is None for pane in app.screen.query(DetailPane)):
            break
        await pilot.pause(0.01)
    await pilot.pause()


async def wait_for(pilot, app, condition, seconds: float = 5.0) -> bool:
    """Let the app run until ``condition`` holds (the watcher works on its own clock)."""
    for _ in range(int(seconds / 0.05)):
        if condition():
            return True
        await pilot.pause(0.05)
    return condition()


def shown(app) -> str | None:
    """The id of the record in the detail pane of the screen on top."""
    from errkb_tui.widgets.detail import DetailPane

    record = app.screen.query_one(DetailPane).record
    return record.id if record else None


@pytest.fixture
def app_factory():
    return build_app
