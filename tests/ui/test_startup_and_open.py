"""Start-up with an error on the clipboard, the watcher's quiet "no record", and `o` with no browser."""

from __future__ import annotations

from errkb_tui.clipboard import MemoryBackend
from errkb_tui.messages import ClipboardChanged
from errkb_tui.opener import opener_command
from errkb_tui.screens import record as record_screen

from .conftest import build_app, settle

TRACEBACK = ("Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\n"
             "    import torchvision\nModuleNotFoundError: No module named 'torchvision'\n")


def toasts(app) -> list[str]:
    return [f"{n.title}: {n.message}" for n in app._notifications]


async def test_an_error_on_the_clipboard_at_start_is_matched():
    backend = MemoryBackend()
    backend.text = TRACEBACK
    app = build_app(backend=backend, watch=True)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        assert app.selection.id == "python/module-not-found"
        assert app.last_match is not None and app.last_match.origin == "clipboard"


async def test_without_the_watcher_the_clipboard_is_not_read_at_start():
    backend = MemoryBackend()
    backend.text = TRACEBACK
    app = build_app(backend=backend, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        assert app.last_match is None


async def test_a_copied_error_with_no_record_is_said_quietly_prose_is_not():
    backend = MemoryBackend()
    app = build_app(backend=backend, watch=True)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        before = len(toasts(app))
        app.post_message(ClipboardChanged("Just some notes about lunch, nothing broken here."))
        await settle(pilot, app)
        assert len(toasts(app)) == before
        app.post_message(ClipboardChanged("FrobnicatorError: the widget exploded at 3:14"))
        await settle(pilot, app)
        assert any("No record for" in t and "FrobnicatorError" in t for t in toasts(app))


async def test_o_with_no_browser_copies_the_link_and_says_so(monkeypatch):
    monkeypatch.setattr(record_screen, "open_quietly", lambda url: "no browser here")
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        url = app.screen.shown_record().official_doc_url
        assert url
        await pilot.press("o")
        await settle(pilot, app)
        assert app.system_clipboard.read() == url
        assert any("no browser here" in t for t in toasts(app))


def test_no_graphical_session_means_no_opener():
    assert opener_command("https://example.org", environ={}, platform="linux") is None
    assert opener_command("https://example.org", environ={"DISPLAY": ":0"}, platform="linux") in (
        None, [__import__("shutil").which("xdg-open"), "https://example.org"])


async def test_config_problems_are_listed_with_the_kbs():
    from errkb_tui.app import make_app
    from errkb_tui.clipboard import GuardedClipboard
    from errkb_tui.kb import Problem, Source
    from errkb_tui.screens.problems import ProblemsScreen

    from .conftest import FIXTURE_KB, TODAY

    problem = Problem("warning", "/home/me/.config/errkb-tui/config.toml", "keymap: no binding has the id 'app.qiut'",
                      line=3, field="keymap.app.qiut")
    app = make_app([Source(FIXTURE_KB, "--data")], watch=False, clipboard=GuardedClipboard(MemoryBackend()),
                   today=TODAY, config_problems=[problem])
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        assert any("config file" in t for t in toasts(app))
        await pilot.press("exclamation_mark")
        await settle(pilot, app)
        assert isinstance(app.screen, ProblemsScreen)
        assert problem in app.screen.problems


def test_every_keymap_id_the_app_knows_is_listed():
    from errkb_tui.app import ErrKBApp
    from errkb_tui.keys import binding_ids

    ids = binding_ids(ErrKBApp.BINDINGS)
    for expected in ("app.quit", "filter.accept", "filter.next", "record.workarounds", "browser.facets",
                     "prompt.cancel", "list.up"):
        assert expected in ids


async def test_the_program_moves_what_it_loaded_out_of_the_collectors_scans(monkeypatch):
    # As the CLI runs it (own_process), the app freezes what is loaded once the KB is in,
    # so full collections do not walk the KB's (100,000 records') or Textual's objects
    # while the user types: even with the bundled KB they cost single keys 50-60 ms. An
    # app in a process it shares (every test here) never does.
    import errkb_tui.app as app_module

    frozen = []
    monkeypatch.setattr(app_module.gc, "freeze", lambda: frozen.append(True))
    shared = build_app()
    async with shared.run_test(size=(120, 36)) as pilot:
        await settle(pilot, shared)
        assert shared.loaded and frozen == []
    alone = build_app(own_process=True)
    async with alone.run_test(size=(120, 36)) as pilot:
        await settle(pilot, alone)
        assert alone.loaded and frozen == [True]


async def test_the_loader_reads_on_only_once_the_first_rows_are_on_screen(monkeypatch):
    # The loading thread and the screen share one interpreter: a load that ran on at once
    # made the first paint of a large KB several times slower.
    import errkb_tui.app as app_module
    from errkb_tui.loader import load_kb

    monkeypatch.setattr(app_module, "FIRST_ROWS_WAIT", 30.0)
    rows_when_reading_on = []

    def loading(sources, *, partial=None, **options):
        kb = load_kb(sources)
        partial(kb)  # the first part: returns once painted
        rows_when_reading_on.append(len(app.results))
        partial(kb)  # a later part: no wait
        return kb

    monkeypatch.setattr(app_module, "load_kb", loading)
    app = build_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        assert app.loaded and rows_when_reading_on and rows_when_reading_on[0] > 0


async def test_the_header_names_a_kb_of_one_source_as_one():
    # It said "KB + 1 source", which reads as the bundled KB plus another.
    from errkb_tui.widgets.header import StatusHeader

    app = build_app()  # the fixture KB alone, as --data without the bundled one
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        text = str(app.screen.query_one(StatusHeader).render())
        assert "KB from 1 source" in text and "+" not in text.split("│")[0]


async def test_a_toast_can_still_be_read_after_its_own_timeout():
    """What toasts_stay_until_read (conftest) is for: a slow machine reaching the assertion
    after the toast's few seconds."""
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        app.notify("Copied: pip install requests", timeout=0.01)
        await pilot.pause(0.3)  # the slow machine: longer than the toast's own timeout
        assert any("pip install requests" in t for t in toasts(app))

