"""The plain parts of the UI's state: history, results, the clipboard poller."""

from __future__ import annotations

import threading

from errkb_tui.clipboard import ClipboardError, GuardedClipboard, MemoryBackend, NoClipboardTool
from errkb_tui.history import History
from errkb_tui.model import RecordSummary
from errkb_tui.state import Results
from errkb_tui.watcher import FAILURES_BEFORE_NOTICE, ClipboardPoller, WatcherCallbacks


def test_history_visits_replaces_and_steps():
    history = History()
    assert history.back() is None and history.current is None
    history.replace("a")  # browsing with nothing yet: the first entry
    history.visit("b")
    history.visit("c")
    assert history.back() == "b" and history.back() == "a" and history.back() is None
    assert history.forward() == "b"
    history.visit("d")  # a new visit drops the forward part
    assert history.forward() is None
    history.replace("e")
    assert [history.back(), history.back()] == ["b", "a"]
    assert history.forward() == "b" and history.forward() == "e"


def test_history_ignores_a_repeat_visit_and_is_bounded():
    history = History(limit=3)
    for record_id in "abcc":
        history.visit(record_id)
    assert len(history) == 3
    history.visit("d")
    assert len(history) == 3 and history.current == "d"
    assert history.back() == "c" and history.back() == "b" and history.back() is None


def _summary(record_id: str) -> RecordSummary:
    return RecordSummary(record_id, "d", "c", "Error", None, (), (), "cause", 0.5)


def test_results_find_rows_by_id():
    records = [_summary(f"d/r{n}") for n in range(5)]
    results = Results(records, [4, 2, 0])
    assert len(results) == 3
    assert results.id_at(0) == "d/r4" and results.id_at(3) is None
    assert results.row_of("d/r0") == 2 and results.row_of("d/r1") is None and results.row_of(None) is None


def _poller(backend, interval=0.01):
    seen = {"text": [], "unavailable": [], "failing": []}
    done = threading.Event()

    def record(kind):
        def callback(value):
            seen[kind].append(value)
            done.set()
        return callback

    callbacks = WatcherCallbacks(text=record("text"), unavailable=record("unavailable"), failing=record("failing"))
    return ClipboardPoller(GuardedClipboard(backend, timeout=0.5), interval, callbacks), seen, done


def test_poller_reports_new_text_once_and_stops():
    backend = MemoryBackend("first")
    poller, seen, done = _poller(backend)
    poller.start()
    assert done.wait(5)
    poller.stop(wait=2)
    assert not poller.running
    assert seen["text"] == ["first"]


def test_poller_stops_for_good_without_a_clipboard():
    class Missing:
        name = "system clipboard"

        def read(self):
            raise NoClipboardTool("no clipboard tool found")

        def write(self, text):
            raise NoClipboardTool("no clipboard tool found")

    poller, seen, done = _poller(Missing())
    poller.start()
    assert done.wait(5)
    poller._thread.join(2)
    assert seen["unavailable"] == ["no clipboard tool found"] and not poller.running


def test_poller_says_once_that_reads_keep_failing_and_goes_on():
    class Broken:
        name = "system clipboard"
        calls = 0

        def read(self):
            Broken.calls += 1
            raise ClipboardError("X server went away")

        def write(self, text):
            pass

    poller, seen, done = _poller(Broken(), interval=0.001)
    poller.start()
    assert done.wait(10)
    assert seen["failing"] == ["X server went away"] and Broken.calls >= FAILURES_BEFORE_NOTICE
    assert poller.running
    poller.stop(wait=2)
