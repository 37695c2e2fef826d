"""Writing records from the app (a, e): capture, edit again, keep, discard, no editor, an
override of a bundled record, and the problems list. Tests have no terminal to hand over,
so the in-app editor stands in for $EDITOR (the external editor is tested in
tests/unit/test_editing.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from textual.widgets import OptionList, TextArea

from errkb_tui import draft as drafts
from errkb_tui.app import make_app
from errkb_tui.clipboard import GuardedClipboard, MemoryBackend
from errkb_tui.kb import Source
from errkb_tui.screens.capture_result import CaptureProblems
from errkb_tui.screens.confirm import ConfirmScreen
from errkb_tui.screens.editor import DraftEditor
from errkb_tui.screens.problems import ProblemsScreen
from errkb_tui.userdata import drafts_dir, user_kb_dir
from errkb_tui.widgets.header import StatusHeader

from .conftest import FIXTURE_KB, TODAY, build_app, settle, wait_for

ERROR = ("Traceback (most recent call last):\n  File \"/srv/app/run.py\", line 12, in <module>\n"
         "FrobError: the widget 'gizmo' exploded after 42 retries\n")
AGAIN = ("Traceback (most recent call last):\n  File \"/home/kim/x/main.py\", line 99, in <module>\n"
         "FrobError: the widget 'sprocket' exploded after 7 retries\n")


def toasts(app) -> list[str]:
    return [f"{n.title}: {n.message}" for n in app._notifications]


def filled(text: str, root_cause: str = "The widget's retries ran out.") -> str:
    """The draft's JSON as a person would leave it: a root cause, one real workaround."""
    data = json.loads(text)
    data["root_cause"] = root_cause
    example = dict(data.pop(drafts.EXAMPLE_WORKAROUND_KEY))
    example.update(action="Raise the retry limit", how="frob --retries 100")
    data["workarounds"] = [example]
    return json.dumps(data, indent=2)


async def until(pilot, app, condition) -> None:
    assert await wait_for(pilot, app, condition, seconds=15), "the app never got there"


async def open_editor(pilot, app, key: str = "a") -> TextArea:
    await pilot.press(key)
    await until(pilot, app, lambda: isinstance(app.screen, DraftEditor))
    return app.screen.query_one(TextArea)


async def unmatched(pilot, app, text: str = ERROR) -> None:
    app.match_text(text, "paste")
    await settle(pilot, app)
    assert app.capture.unmatched == text


def capture_idle(app) -> bool:
    return not app.capture.busy()


async def test_a_captures_the_unmatched_error_and_selects_the_new_record():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        await unmatched(pilot, app)
        assert any("press a to add one" in t for t in toasts(app))
        area = await open_editor(pilot, app)
        record_id = json.loads(area.text)["id"]
        assert drafts.example_matches(json.loads(area.text)["regex"], ERROR)
        area.text = filled(area.text)
        await pilot.press("ctrl+s")
        await until(pilot, app, lambda: app.selection.id == record_id and capture_idle(app))
        await settle(pilot, app)
        saved = drafts.record_path(user_kb_dir(), record_id)
        assert saved.is_file() and drafts.example_path(saved).is_file()
        assert app.kb.writable(record_id) and app.kb.count_from("user") == 1
        assert "(1 yours)" in str(app.screen.query_one(StatusHeader).render())
        assert not list(drafts_dir().rglob("*.json"))  # installed: no working copy left
        # The same error with other names, numbers and paths: selected confidently.
        app.select(None)
        app.match_text(AGAIN, "paste")
        await settle(pilot, app)
        assert app.selection.id == record_id
        assert app.last_match is not None and app.last_match.match.confident


async def test_edit_again_after_a_syntax_error_opens_the_editor_at_its_line():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        await unmatched(pilot, app)
        area = await open_editor(pilot, app)
        good = filled(area.text)
        area.text = good.replace('"domain": "python",', '"domain": "python",,', 1)
        await pilot.press("ctrl+s")
        await until(pilot, app, lambda: isinstance(app.screen, CaptureProblems))
        problems = [p for p in app.screen.problems if p.severity == "error"]
        assert problems and problems[0].line is not None
        await pilot.press("e")
        await until(pilot, app, lambda: isinstance(app.screen, DraftEditor))
        area = app.screen.query_one(TextArea)
        assert area.cursor_location[0] == problems[0].line - 1  # at the problem
        assert ",," in area.text  # what was typed is still there
        assert f"Line {problems[0].line}" in str(app.screen.query_one("#editor-hint").render())  # and why
        record_id = json.loads(good)["id"]
        area.text = good
        await pilot.press("ctrl+s")
        await until(pilot, app, lambda: app.selection.id == record_id and capture_idle(app))
        assert drafts.record_path(user_kb_dir(), record_id).is_file()


async def test_escape_keeps_a_draft_with_what_was_typed():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        await unmatched(pilot, app)
        area = await open_editor(pilot, app)
        area.text = area.text.replace('"root_cause": ""', '"root_cause": "half written"', 1)
        assert "half written" in area.text
        await pilot.press("escape")
        await until(pilot, app, lambda: capture_idle(app))
        kept = list(drafts_dir().rglob("*.json"))
        assert len(kept) == 1 and "half written" in kept[0].read_text()
        assert not user_kb_dir().exists()  # nothing went into the KB
        assert any("Draft kept" in t and str(kept[0]) in t for t in toasts(app))


async def test_keep_from_the_problems_choice():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        await unmatched(pilot, app)
        await open_editor(pilot, app)
        await pilot.press("ctrl+s")  # the draft as built: no workaround yet, an error
        await until(pilot, app, lambda: isinstance(app.screen, CaptureProblems))
        await pilot.press("k")
        await until(pilot, app, lambda: capture_idle(app))
        assert len(list(drafts_dir().rglob("*.json"))) == 1
        assert not user_kb_dir().exists()


async def test_discard_asks_first():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        await unmatched(pilot, app)
        await open_editor(pilot, app)
        await pilot.press("ctrl+s")
        await until(pilot, app, lambda: isinstance(app.screen, CaptureProblems))
        await pilot.press("d")
        await until(pilot, app, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")  # not sure: back to the choice, the draft untouched
        await until(pilot, app, lambda: isinstance(app.screen, CaptureProblems))
        assert len(list(drafts_dir().rglob("*.json"))) == 1
        await pilot.press("d")
        await until(pilot, app, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await until(pilot, app, lambda: capture_idle(app))
        assert not list(drafts_dir().rglob("*.json"))
        assert not list(drafts_dir().rglob("*.example.txt"))


async def test_no_editor_uses_the_app_editor_even_with_editor_set(tmp_path: Path, monkeypatch):
    marker = tmp_path / "editor-ran"
    script = tmp_path / "editor.py"
    script.write_text(f"from pathlib import Path\nPath({str(marker)!r}).write_text('ran')\n")
    monkeypatch.setenv("EDITOR", f"{sys.executable} {script}")
    for editor in (False, True):  # --no-editor; and an editor with no terminal to hand over
        sources = [Source(FIXTURE_KB, "--data")]
        app = make_app(sources, watch=False, clipboard=GuardedClipboard(MemoryBackend()), today=TODAY,
                       editor=editor)
        async with app.run_test(size=(160, 48)) as pilot:
            await settle(pilot, app)
            await unmatched(pilot, app)
            await open_editor(pilot, app)
            await pilot.press("escape")
            await until(pilot, app, lambda: capture_idle(app))
    assert not marker.exists()


async def test_a_reads_the_clipboard_when_nothing_went_unmatched():
    backend = MemoryBackend(ERROR)
    app = build_app(backend=backend)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        assert app.capture.unmatched is None
        area = await open_editor(pilot, app)
        assert "FrobError" in json.loads(area.text)["signature"]
        await pilot.press("escape")
        await until(pilot, app, lambda: capture_idle(app))


async def test_ctrl_n_in_the_paste_box_writes_a_record_for_the_pasted_text():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        await pilot.press("p")
        await until(pilot, app, lambda: type(app.screen).__name__ == "PasteScreen")
        app.screen.query_one(TextArea).text = ERROR
        area = await open_editor(pilot, app, key="ctrl+n")
        assert "FrobError" in json.loads(area.text)["signature"]
        await pilot.press("escape")
        await until(pilot, app, lambda: capture_idle(app))


async def test_e_on_a_bundled_record_makes_an_override_in_the_user_kb():
    sources = [Source(FIXTURE_KB, "bundled")]
    app = make_app(sources, watch=False, clipboard=GuardedClipboard(MemoryBackend()), today=TODAY)
    record_id = "python/module-not-found"
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        app.select(record_id, "palette", reveal=True)
        await settle(pilot, app)
        await pilot.press("e")
        await until(pilot, app, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await until(pilot, app, lambda: isinstance(app.screen, DraftEditor))
        area = app.screen.query_one(TextArea)
        data = json.loads(area.text)
        assert data["id"] == record_id
        data["root_cause"] = "Edited by me: " + data["root_cause"]
        area.text = json.dumps(data, indent=2, ensure_ascii=False)
        await pilot.press("ctrl+s")
        await until(pilot, app, lambda: capture_idle(app) and app.kb.writable(record_id))
        await settle(pilot, app)
        assert drafts.record_path(user_kb_dir(), record_id).is_file()
        assert app.kb.count_from("user") == 1 and len(app.kb.records) == 4  # an override, not a new record
        assert app.selection.id == record_id
        assert app.kb.get(record_id).root_cause.startswith("Edited by me")
        # Now it is the user's own: e edits it in place, no question.
        await pilot.press("e")
        await until(pilot, app, lambda: isinstance(app.screen, DraftEditor))
        await pilot.press("escape")
        await until(pilot, app, lambda: capture_idle(app))


async def test_e_says_no_when_nothing_is_selected():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        app.select(None)
        await pilot.press("e")
        await settle(pilot, app)
        assert any("nothing to edit" in t for t in toasts(app))


async def test_problems_list_is_navigable_and_enter_without_an_editor_says_where(tmp_path: Path):
    folder = tmp_path / "kb"
    (folder / "acme").mkdir(parents=True)
    (folder / "acme" / "broken.json").write_text('{\n  "id": "acme/broken",\n  "domain": "acme",,\n}\n')
    app = build_app(FIXTURE_KB, folder)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        await pilot.press("exclamation_mark")
        await settle(pilot, app)
        assert isinstance(app.screen, ProblemsScreen)
        broken = [p for p in app.screen.problems if p.file.endswith("broken.json")]
        assert broken and broken[0].line is not None
        options = app.screen.query_one(OptionList)
        assert options.option_count >= len(broken)
        options.highlighted = app.screen.problems.index(broken[0])
        await pilot.press("enter")
        await settle(pilot, app)
        assert any("No $VISUAL or $EDITOR" in t and f"broken.json:{broken[0].line}" in t for t in toasts(app))


FILL_SCRIPT = '''
import json, sys
from pathlib import Path
path = Path(sys.argv[-1])
Path(sys.argv[0]).with_name("argv.txt").write_text(json.dumps(sys.argv[1:]))
data = json.loads(path.read_text())
data["root_cause"] = "The widget's retries ran out."
example = dict(data.pop("_example_workaround"))
example.update(action="Raise the retry limit", how="frob --retries 100")
data["workarounds"] = [example]
path.write_text(json.dumps(data, indent=2))
'''


async def test_the_external_editor_fills_the_draft_and_the_record_is_selected(tmp_path: Path, monkeypatch):
    """$EDITOR as a script (a stand-in for a person); App.suspend, which needs a real
    terminal, is replaced by a no-op: the rest is the real flow."""
    import contextlib

    script = tmp_path / "editor.py"
    script.write_text(FILL_SCRIPT)
    monkeypatch.setenv("EDITOR", f"{sys.executable} {script}")
    app = build_app()
    app.suspend = contextlib.nullcontext
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        await unmatched(pilot, app)
        await pilot.press("a")
        await until(pilot, app, lambda: capture_idle(app) and app.kb.count_from("user") == 1)
        await settle(pilot, app)
        edited = Path(json.loads((tmp_path / "argv.txt").read_text())[-1])
        assert edited.parent.parent == drafts_dir()  # the draft, written before the editor ran
        record_id = app.selection.id
        assert record_id is not None and app.kb.writable(record_id)
        assert app.kb.get(record_id).root_cause == "The widget's retries ran out."
        assert drafts.record_path(user_kb_dir(), record_id).is_file()


async def test_e_edits_a_writable_record_in_its_own_file(tmp_path: Path):
    import shutil

    team = tmp_path / "team-kb"
    (team / "notes").mkdir(parents=True)
    shutil.copy(FIXTURE_KB / "python" / "circular-import.json", team / "notes" / "odd-name.json")
    sources = [Source(FIXTURE_KB / "pytorch", "bundled"), Source(team, "write_to", writable=True)]
    app = make_app(sources, watch=False, clipboard=GuardedClipboard(MemoryBackend()), today=TODAY,
                   write_folder=team)
    record_id = "python/circular-import"
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        app.select(record_id, "palette", reveal=True)
        await settle(pilot, app)
        area = await open_editor(pilot, app, key="e")  # writable: no question
        data = json.loads(area.text)
        data["root_cause"] = "Edited in place."
        area.text = json.dumps(data, indent=2, ensure_ascii=False)
        await pilot.press("ctrl+s")
        await until(pilot, app, lambda: capture_idle(app) and app.kb.get(record_id).root_cause == "Edited in place.")
        assert json.loads((team / "notes" / "odd-name.json").read_text())["root_cause"] == "Edited in place."
        assert not drafts.record_path(team, record_id).exists()  # no second file with the same id
        assert app.selection.id == record_id


async def test_quitting_the_app_mid_edit_keeps_what_was_typed():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        await unmatched(pilot, app)
        area = await open_editor(pilot, app)
        path = app.screen.path
        area.text = area.text.replace('"root_cause": ""', '"root_cause": "typed, then ctrl+q"', 1)
        await pilot.press("ctrl+q")
    assert "typed, then ctrl+q" in path.read_text()
