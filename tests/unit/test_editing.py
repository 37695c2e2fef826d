"""The editor command at a line, a real editor process editing a draft (the round trip the
app makes inside ``App.suspend``), and where a captured or edited record goes."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

from errkb_tui import draft as drafts
from errkb_tui.capture import editable_folder, overrides, with_source
from errkb_tui.editing import at_line, run_editor
from errkb_tui.kb import USER_LABEL, Source
from errkb_tui.loader import load_kb
from errkb_tui.userdata import user_kb_dir

FIXTURE_KB = Path(__file__).resolve().parents[1] / "fixtures" / "kb"
ERROR = "Traceback (most recent call last):\nFrobError: the widget 'gizmo' exploded after 42 retries\n"


def test_the_line_goes_where_each_editor_takes_it():
    assert at_line(["vim"], "/k/a.json", 12) == ["vim", "+12", "/k/a.json"]
    assert at_line(["/usr/bin/nvim", "-u", "NONE"], "a.json", 3) == ["/usr/bin/nvim", "-u", "NONE", "+3", "a.json"]
    assert at_line(["nano"], "a.json", 1) == ["nano", "+1", "a.json"]
    assert at_line(["emacsclient", "-t"], "a.json", 7) == ["emacsclient", "-t", "+7", "a.json"]
    assert at_line(["code", "--wait"], "a.json", 5) == ["code", "--wait", "--goto", "a.json:5"]
    assert at_line(["subl", "-w"], "a.json", 5) == ["subl", "-w", "a.json:5"]
    assert at_line(["my-editor"], "a.json", 5) == ["my-editor", "a.json"]  # unknown: the file alone
    assert at_line(["vim"], "a.json", None) == ["vim", "a.json"]
    assert at_line(["vim"], "a.json", 0) == ["vim", "a.json"]


def test_editor_command_from_the_environment():
    assert drafts.editor_command({"VISUAL": "code --wait", "EDITOR": "vim"}) == ["code", "--wait"]
    assert drafts.editor_command({"EDITOR": "vim"}) == ["vim"]
    assert drafts.editor_command({}) is None


def test_an_editor_process_fills_in_a_draft_that_then_installs(tmp_path: Path):
    script = tmp_path / "editor.py"
    script.write_text(textwrap.dedent('''
        import json, sys
        from pathlib import Path
        path = Path(sys.argv[-1])
        data = json.loads(path.read_text())
        data["root_cause"] = "The retries ran out."
        example = dict(data.pop("_example_workaround"))
        example.update(action="Raise the retry limit", how="frob --retries 100")
        data["workarounds"] = [example]
        path.write_text(json.dumps(data, indent=2))
    '''))
    target = tmp_path / "kb"
    built, path = drafts.start(ERROR, target, tmp_path / "drafts")
    assert drafts.blocking(drafts.check(path, target))  # no workaround yet
    assert run_editor([sys.executable, str(script)], path, 3) == 0  # an unknown editor: no +3
    assert not drafts.blocking(drafts.check(path, target))
    installed = drafts.install(path, target)
    assert json.loads(installed.read_text())["id"] == built.id
    assert not path.exists()


def test_a_first_write_adds_the_user_kb_after_the_bundled_one():
    sources = [Source(FIXTURE_KB, "bundled"), Source(Path("/elsewhere"), "--data")]
    added = with_source(sources, user_kb_dir())
    assert [s.label for s in added] == ["bundled", USER_LABEL, "--data"] and added[1].writable
    again = with_source(added, user_kb_dir())
    assert len(again) == 3  # already there: only marked writable


def test_a_bundled_record_is_edited_as_an_override_in_the_user_kb(tmp_path: Path):
    kb = load_kb([Source(FIXTURE_KB, "bundled")])
    assert editable_folder(kb, "python/module-not-found") is None
    assert overrides(kb, "python/module-not-found", user_kb_dir())
    later = load_kb([Source(tmp_path, "bundled"), Source(FIXTURE_KB, "--data")])
    assert not overrides(later, "python/module-not-found", user_kb_dir())  # --data loads after it
    mine = load_kb([Source(FIXTURE_KB, USER_LABEL, writable=True)])
    assert editable_folder(mine, "python/module-not-found") == FIXTURE_KB


def test_no_editor_and_the_write_folder_reach_the_app(monkeypatch, tmp_path: Path):
    import errkb_tui.app
    from errkb_tui import cli

    given: dict = {}
    monkeypatch.setattr(errkb_tui.app, "run_app", lambda sources, **options: given.update(options) or 0)
    args = cli._parser().parse_args(["--no-editor", "--no-watch", "--write-to", str(tmp_path)])
    assert cli._browse(args, None) == 0
    assert given["editor"] is False and Path(given["write_folder"]) == tmp_path
    given.clear()
    cli._browse(cli._parser().parse_args(["--no-watch"]), None)
    assert "editor" not in given and Path(given["write_folder"]) == user_kb_dir()
