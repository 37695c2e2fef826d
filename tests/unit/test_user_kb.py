"""The user's own KB as a source: loaded after the bundled one when it exists; write_to."""

from __future__ import annotations

import json
from pathlib import Path

from errkb_tui.config import Config
from errkb_tui.kb import USER_LABEL
from errkb_tui.loader import load_kb

RECORD = {"id": "acme/boom", "signature": "BoomError: the widget exploded", "domain": "acme",
          "category": "runtime_error", "regex": r"BoomError: the widget exploded"}


def env(tmp_path: Path) -> dict[str, str]:
    return {"ERRKB_HOME": str(tmp_path / "home"), "ERRKB_PATH": str(tmp_path / "env-kb")}


def test_no_user_folder_no_source(tmp_path: Path) -> None:
    labels = [s.label for s in Config().sources(environ=env(tmp_path))]
    assert labels == ["bundled", "ERRKB_PATH"]


def test_user_kb_loads_after_bundled_and_before_errkb_path(tmp_path: Path) -> None:
    folder = tmp_path / "home" / "kb" / "acme"
    folder.mkdir(parents=True)
    (folder / "boom.json").write_text(json.dumps(RECORD))
    sources = Config().sources(["cli-kb"], environ=env(tmp_path))
    assert [s.label for s in sources] == ["bundled", USER_LABEL, "ERRKB_PATH", "--data"]
    assert sources[1].writable and not sources[0].writable
    assert [s.label for s in Config().sources(bundled=False, environ=env(tmp_path))][0] == USER_LABEL
    kb = load_kb([s for s in sources if s.label in ("bundled", USER_LABEL)])
    assert kb.count_from(USER_LABEL) == 1 and kb.count_from() == 1
    assert kb.writable("acme/boom")
    assert kb.source_counts()["bundled"] == len(kb.records) - 1
    assert not [p for p in kb.problems if p.severity == "error"]


def test_an_empty_user_kb_is_no_problem(tmp_path: Path) -> None:
    (tmp_path / "home" / "kb").mkdir(parents=True)
    sources = Config().sources(bundled=False, environ={"ERRKB_HOME": str(tmp_path / "home")})
    kb = load_kb(sources)
    assert kb.problems == [] and kb.count_from() == 0


def test_write_to_is_marked_writable_or_loaded(tmp_path: Path) -> None:
    team = tmp_path / "team"
    team.mkdir()
    config = Config(write_to=team)
    marked = config.sources([team], bundled=False, environ={"ERRKB_HOME": str(tmp_path / "h")})
    assert [(s.label, s.writable) for s in marked] == [("--data", True)]
    added = config.sources(bundled=False, environ={"ERRKB_HOME": str(tmp_path / "h")})
    assert [(s.label, s.writable) for s in added] == [("write_to", True)]
    flagged = Config().with_flags(write_to=str(team))
    assert flagged.write_folder() == team and flagged.origin("write_to") == "flag"


def test_source_counts_are_counted_once_per_kb(tmp_path: Path) -> None:
    # The header asks for the user's count on every keystroke: at 100,000 records a pass
    # over every record each time cost tens of milliseconds a key.
    folder = tmp_path / "home" / "kb" / "acme"
    folder.mkdir(parents=True)
    (folder / "boom.json").write_text(json.dumps(RECORD))
    sources = Config().sources(environ=env(tmp_path))
    kb = load_kb([s for s in sources if s.label in ("bundled", USER_LABEL)])
    passes = []

    class Counting(dict):
        def values(self):
            passes.append(1)
            return super().values()

    kb.source_of = Counting(kb.source_of)
    assert [kb.count_from() for _ in range(3)] == [1, 1, 1] and len(passes) == 1
    kb.source_counts()["bundled"] = 0  # the caller's copy, not the KB's
    assert kb.source_counts()["bundled"] == len(kb.records) - 1
    kb.source_of["acme/other"] = 1  # a different mapping is counted again
    assert kb.count_from() == 2 and len(passes) == 2
