"""``errkb-tui new``: the draft, the editor loop (edit again, keep, discard), installing
into the user KB, and ``validate`` helping to fix a file in one pass."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from errkb_tui import draft as drafts
from errkb_tui.cli import _parser
from errkb_tui.new_cli import Terminal, cmd_new

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
TRACEBACK = (CORPUS / "python" / "module-not-found.txt").read_text(encoding="utf-8")

#: An editor for tests: each run applies the next action listed in ``actions.json`` beside it.
EDITOR = textwrap.dedent('''
    import json, sys
    from pathlib import Path
    path = Path(sys.argv[1])
    state = Path(__file__).with_name("actions.json")
    actions = json.loads(state.read_text())
    action = actions.pop(0) if actions else "nothing"
    state.write_text(json.dumps(actions))
    if action == "fill":
        data = json.loads(path.read_text())
        data["root_cause"] = "The module is not installed in the interpreter that runs the script."
        example = dict(data.pop("_example_workaround"))
        example.update(action="Install it into that interpreter", how="python -m pip install {=module}")
        data["workarounds"] = [example]
        path.write_text(json.dumps(data, indent=2))
    elif action == "break":
        path.write_text(path.read_text().replace('"domain": "python",', '"domain": "python",,', 1))
''')


def run(cwd: Path, *args: str, stdin: bytes | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    import os

    result = subprocess.run([sys.executable, "-m", "errkb_tui", *args], cwd=cwd, input=stdin,
                            capture_output=True, timeout=120, env={**os.environ, **(env or {})})
    assert b"Traceback (most recent call last)" not in result.stderr, result.stderr
    return result


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ERRKB_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def editor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *actions: str) -> None:
    script = tmp_path / "editor.py"
    script.write_text(EDITOR)
    (tmp_path / "actions.json").write_text(json.dumps(list(actions)))
    monkeypatch.setenv("EDITOR", f"{sys.executable} {script}")


def new(tmp_path: Path, *answers: str, extra: tuple[str, ...] = ()) -> tuple[int, str, str, Terminal]:
    source = tmp_path / "error.txt"
    source.write_text(TRACEBACK)
    args = _parser().parse_args(["new", str(source), *extra])
    terminal = Terminal(io.StringIO("".join(a + "\n" for a in answers)), io.StringIO())
    out, err = io.StringIO(), io.StringIO()
    code = cmd_new(args, terminal=terminal, out=out, err=err)
    return code, out.getvalue(), err.getvalue(), terminal


def test_print_writes_a_draft_that_validate_accepts_once_its_workaround_is_filled(tmp_path: Path, home: Path) -> None:
    result = run(tmp_path, "new", "--print", stdin=TRACEBACK.encode())
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert not home.exists()  # --print writes nothing
    path = tmp_path / "kb" / "python" / "draft.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(data, indent=2))
    first = run(tmp_path, "validate", str(path))
    assert first.returncode == 1 and b"a draft with no workaround yet" in first.stdout
    data["workarounds"] = [dict(data["_example_workaround"], action="Install it into that interpreter",
                                how="python -m pip install {=module}")]
    path.write_text(json.dumps(data, indent=2))
    assert run(tmp_path, "validate", str(path)).returncode == 0


def test_no_editor_keeps_the_draft_unmatched(tmp_path: Path, home: Path) -> None:
    result = run(tmp_path, "new", "--no-editor", stdin=TRACEBACK.encode())
    assert result.returncode == 1
    kept = Path(result.stdout.decode().strip())
    assert kept.is_file() and kept.is_relative_to(home / "drafts")
    assert drafts.example_path(kept).read_text().strip() == TRACEBACK.strip()
    assert not (home / "kb").exists()
    assert b"--resume" in result.stderr


def test_no_text_is_a_usage_error(tmp_path: Path, home: Path) -> None:
    assert run(tmp_path, "new", "--print", stdin=b"").returncode == 2
    assert run(tmp_path, "new", str(tmp_path / "missing.txt")).returncode == 2


def test_the_editor_fills_it_in_and_it_goes_into_the_user_kb(tmp_path: Path, home: Path, monkeypatch) -> None:
    editor(tmp_path, monkeypatch, "fill")
    code, out, err, _ = new(tmp_path)
    assert code == 0, err
    path = Path(out.strip())
    assert path.parent.parent == home / "kb" and path.is_file()
    assert drafts.example_path(path).is_file()
    assert list((home / "drafts").rglob("*.json")) == []  # the working copy is gone
    # The user KB loads by default and the record matches a second copy of the error.
    second = run(tmp_path, "match", "--json", stdin=b"ModuleNotFoundError: No module named 'torchvision'\n")
    found = {m["id"]: m for m in json.loads(second.stdout)["matches"]}
    record_id = json.loads(path.read_text())["id"]
    assert found[record_id]["confident"] and found[record_id]["groups"] == {"module": "torchvision"}


def test_edit_again_after_a_syntax_error(tmp_path: Path, home: Path, monkeypatch) -> None:
    editor(tmp_path, monkeypatch, "break", "nothing", "fill")
    # After "break": the JSON is broken; edit again. The second run leaves it broken; edit
    # again; but "fill" cannot parse it either, so keep it: nothing typed is lost.
    code, out, err, terminal = new(tmp_path, "e", "e", "k")
    assert code == 1
    assert "trailing comma" not in err  # ",," is a doubled comma, not a trailing one
    assert "invalid JSON: two commas in a row on line 7" in err and ".json:7: error" in err
    kept = Path(out.strip())
    assert ",," in kept.read_text()
    assert terminal.writer.getvalue().count("[e]dit again") == 3


def test_discard_asks_first_then_removes_the_draft(tmp_path: Path, home: Path, monkeypatch) -> None:
    editor(tmp_path, monkeypatch, "nothing", "nothing")
    code, out, err, _ = new(tmp_path, "d", "n", "d", "y")
    assert code == 1 and "discarded" in err
    assert list((home / "drafts").rglob("*")) == [] or not any(p.is_file() for p in (home / "drafts").rglob("*"))


def test_end_of_input_keeps_the_draft(tmp_path: Path, home: Path, monkeypatch) -> None:
    editor(tmp_path, monkeypatch, "nothing")
    code, out, _, _ = new(tmp_path)
    assert code == 1 and Path(out.strip()).is_file()


def test_an_existing_record_is_never_replaced_without_asking(tmp_path: Path, home: Path, monkeypatch) -> None:
    editor(tmp_path, monkeypatch, "fill", "fill")
    code, out, _, _ = new(tmp_path)
    installed = Path(out.strip())
    original = installed.read_text()
    # The same id again (the draft's own id is made unique, so resume a copy with that id).
    working = home / "drafts" / "python" / "again.json"
    working.parent.mkdir(parents=True, exist_ok=True)
    working.write_text(original.replace("The module is not installed", "Not installed"))
    args = _parser().parse_args(["new", "--resume", str(working), "--no-editor"])
    out2, err2 = io.StringIO(), io.StringIO()
    assert cmd_new(args, terminal=None, out=out2, err=err2) == 1
    assert installed.read_text() == original and working.is_file()
    args = _parser().parse_args(["new", "--resume", str(working)])
    terminal = Terminal(io.StringIO("y\n"), io.StringIO())
    monkeypatch.setenv("EDITOR", "true")
    assert cmd_new(args, terminal=terminal, out=io.StringIO(), err=io.StringIO()) == 0
    assert "Not installed" in installed.read_text() and not working.exists()


def test_write_to_chooses_the_folder(tmp_path: Path, home: Path, monkeypatch) -> None:
    editor(tmp_path, monkeypatch, "fill")
    team = tmp_path / "team-kb"
    code, out, _, _ = new(tmp_path, extra=("--write-to", str(team)))
    assert code == 0 and Path(out.strip()).is_relative_to(team)


# -- validate, one pass ----------------------------------------------------------------


def test_validate_names_the_line_and_cause_of_a_syntax_error(tmp_path: Path) -> None:
    path = tmp_path / "kb" / "acme" / "x.json"
    path.parent.mkdir(parents=True)
    path.write_text('{\n  "id": "acme/x",\n  "signature": "BoomError: x",\n  "domain": "acme",\n'
                    '  "category": "runtime_error",\n}\n')
    result = run(tmp_path, "validate", str(path))
    assert result.returncode == 1
    line = [l for l in result.stdout.decode().splitlines() if "error" in l][0]
    assert "x.json:5: error" in line and "trailing comma before `}` on line 5" in line


def test_validate_reports_unknown_keys_tier_and_example_in_one_run(tmp_path: Path) -> None:
    data = drafts.build_draft(TRACEBACK).record
    data["workaround"] = [dict(data.pop("_example_workaround"), how="pip install {=module}")]
    data["verification_tier"] = "verified"
    path = tmp_path / "kb" / "python" / "x.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(data, indent=2))
    drafts.example_path(path).write_text("ImportError: something else entirely\n")
    out = run(tmp_path, "validate", str(path)).stdout.decode()
    assert "did you mean 'workarounds'?" in out
    assert "verification_tier: 'verified' is not one of" in out and "error: python/" in out
    assert "does not match any line of its example" in out
    assert all(":" in l.split(" ")[0][len(str(path)):] for l in out.splitlines() if l.startswith(str(path)))


def test_validate_lints_a_record_the_schema_rejects_in_the_same_run(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"id": "acme/x", "signature": "BoomError: x", "domain": "acme",
                                "category": "runtime_error", "regex": "BoomError: (\\w+", "workaround": [],
                                "dead_ends": [{"action": "a", "fail_rate": 7}]}, indent=2))
    out = run(tmp_path, "validate", str(path)).stdout.decode()
    assert "not a valid RE2 pattern" in out and "fail_rate" in out  # schema errors
    assert "did you mean 'workarounds'?" in out  # unknown keys
    assert "root_cause: empty" in out  # lint rules, all in one run
    assert "dead_ends: 0 dead end(s)" not in out  # about a field set aside: left to its schema error


def test_a_dangling_link_suggests_the_closest_id(tmp_path: Path) -> None:
    record = drafts.build_draft(TRACEBACK).record
    record["transition_graph"]["leads_to"] = ["python/module-not-fund"]
    path = tmp_path / "x.json"
    path.write_text(json.dumps(record))
    out = run(tmp_path, "validate", str(path)).stdout.decode()
    assert "did you mean 'python/module-not-found'?" in out


def test_the_readme_example_record_passes_validate_strict(tmp_path: Path) -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## The KB format"):]
    block = section[section.index("```json\n") + 8:section.index("\n```", section.index("```json\n"))]
    data = json.loads(block)
    domain, slug = data["id"].split("/")
    path = tmp_path / "kb" / domain / f"{slug}.json"
    path.parent.mkdir(parents=True)
    path.write_text(block)
    result = run(tmp_path, "validate", "--strict", str(tmp_path / "kb"))
    assert result.returncode == 0, result.stdout


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(st.sampled_from('{}[],:"\'\\ \n\tabcTrueNone0123/#'), max_size=60))
def test_explaining_any_broken_json_never_raises(text: str) -> None:
    from errkb_tui.loader.shapes import syntax_problem

    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        problem = syntax_problem("f.json", text, exc.pos, exc.msg)
        assert problem.severity == "error" and problem.line is not None and problem.line >= 1
        assert "{at}" not in problem.message
    except RecursionError:
        pass
