"""Loading KB files: every bad input becomes a Problem, good records beside it still load."""

from __future__ import annotations

import datetime
import json
import os
from pathlib import Path

import pytest

from errkb_tui.kb import KB, Problem, Source, bundled_data_dir, default_sources, env_paths
from errkb_tui.loader import load_kb
from errkb_tui.lint import lint_kb, lint_record
from errkb_tui.model import Record

from ..helpers import seed_record, write_json

ROOT = Path(__file__).resolve().parents[2]
SEED_PATH = ROOT / "data" / "pytorch" / "ddp-bucket-view-error.json"
SEED = json.loads(SEED_PATH.read_text(encoding="utf-8"))


def record(record_id: str = "acme/good", **changes) -> dict:
    """A full, valid record (the seed) under a new id; ``changes`` override fields."""
    return seed_record(record_id, **changes)


write = write_json


def load(*paths: Path) -> KB:
    """Load only these paths (no bundled KB, no environment)."""
    return load_kb(default_sources(list(paths), bundled=False, environ={}))


def only(problems: list[Problem], **where) -> Problem:
    found = [p for p in problems if all(getattr(p, k) == v for k, v in where.items())]
    assert len(found) == 1, [p.format() for p in problems]
    return found[0]


def line_of(text: str, needle: str, nth: int = 0) -> int:
    position = -1
    for _ in range(nth + 1):
        position = text.index(needle, position + 1)
    return text.count("\n", 0, position) + 1


@pytest.fixture
def kb_dir(tmp_path: Path) -> Path:
    """A folder holding one good record, ``acme/good``."""
    folder = tmp_path / "kb"
    write(folder / "good.json", record("acme/good"))
    return folder


def assert_good_loaded(kb: KB) -> None:
    assert "acme/good" in kb.by_id
    assert kb.by_id["acme/good"].signature == SEED["signature"]


# -- each bad input kind ----------------------------------------------------------------------


def test_good_folder_loads_without_problems(kb_dir: Path) -> None:
    kb = load(kb_dir)
    assert [r.id for r in kb.records] == ["acme/good"]
    assert kb.problems == []
    assert kb.origins["acme/good"].file == str(kb_dir / "good.json")


def test_unreadable_file(kb_dir: Path) -> None:
    bad = write(kb_dir / "locked.json", record("acme/locked"))
    bad.chmod(0)
    try:
        if os.access(bad, os.R_OK):
            pytest.skip("running with privileges that can read a mode-000 file (root)")
        kb = load(kb_dir)
    finally:
        bad.chmod(0o644)
    problem = only(kb.problems, file=str(bad))
    assert problem.severity == "error"
    assert "cannot read" in problem.message
    assert "acme/locked" not in kb.by_id
    assert_good_loaded(kb)


@pytest.mark.parametrize("target", ["gone.json", "self.json"])
def test_file_link_that_cannot_be_read(kb_dir: Path, target: str) -> None:
    # Readable-as-root stand-ins for an unreadable file: a dangling link, a link to itself.
    link = kb_dir / "self.json"
    os.symlink(kb_dir / target, link)
    kb = load(kb_dir)
    problem = only(kb.problems, file=str(link))
    assert problem.severity == "error" and "cannot read" in problem.message
    assert_good_loaded(kb)


def test_invalid_json_reports_line(kb_dir: Path) -> None:
    bad = kb_dir / "broken.json"
    bad.write_text('{\n  "id": "acme/broken",\n  "signature" "missing colon"\n}\n', encoding="utf-8")
    kb = load(kb_dir)
    problem = only(kb.problems, file=str(bad))
    assert problem.severity == "error"
    assert problem.line == 3
    assert "invalid JSON" in problem.message
    assert problem.format().startswith(f"{bad}:3: error: ")
    assert_good_loaded(kb)


def test_non_utf8_bytes(kb_dir: Path) -> None:
    bad = kb_dir / "latin1.json"
    text = json.dumps(record("acme/latin1", root_cause="caf\u00e9"), indent=2, ensure_ascii=False)
    bad.write_bytes(text.encode("utf-8").replace("caf\u00e9".encode("utf-8"), b"caf\xe9"))  # Latin-1 é
    kb = load(kb_dir)
    problem = only(kb.problems, file=str(bad))
    assert problem.severity == "error"
    assert "UTF-8" in problem.message
    assert problem.line == line_of(text, "caf\u00e9")
    assert "acme/latin1" not in kb.by_id
    assert_good_loaded(kb)


def test_utf8_bom_is_accepted(kb_dir: Path) -> None:
    path = kb_dir / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(record("acme/bom")).encode())
    kb = load(kb_dir)
    assert kb.problems == []
    assert "acme/bom" in kb.by_id


def test_schema_violation_names_field_path_and_line(kb_dir: Path) -> None:
    data = record("acme/bad-rate")
    data["dead_ends"][0]["fail_rate"] = 1.5
    bad = write(kb_dir / "bad-rate.json", data)
    kb = load(kb_dir)
    problem = only(kb.problems, file=str(bad))
    assert problem.severity == "error"
    assert problem.record_id == "acme/bad-rate"
    assert problem.field == "dead_ends[0].fail_rate"
    assert problem.line == line_of(bad.read_text(), '"fail_rate": 1.5')
    assert "1.5" in problem.message
    assert f":{problem.line}: error: acme/bad-rate: dead_ends[0].fail_rate: " in problem.format()
    assert "acme/bad-rate" not in kb.by_id
    assert_good_loaded(kb)


def test_schema_violation_in_second_list_item_points_at_its_line(kb_dir: Path) -> None:
    data = record("acme/bad-rate2")
    data["dead_ends"][1]["fail_rate"] = 7
    bad = write(kb_dir / "bad-rate2.json", data)
    problem = only(load(kb_dir).problems, file=str(bad))
    assert problem.field == "dead_ends[1].fail_rate"
    assert problem.line == line_of(bad.read_text(), '"fail_rate": 7')


def test_schema_violation_line_when_earlier_items_lack_the_key(kb_dir: Path) -> None:
    # dead_ends[0] has no "sources"; the bad one is dead_ends[1]'s, not the workarounds'.
    data = record("acme/sparse")
    del data["dead_ends"][0]["sources"]
    data["dead_ends"][1]["sources"] = "https://example.org/not-a-list"
    bad = write(kb_dir / "sparse.json", data)
    problem = only(load(kb_dir).problems, file=str(bad))
    assert problem.field == "dead_ends[1].sources"
    assert problem.line == line_of(bad.read_text(), '"sources": "https://example.org/not-a-list"')


def test_schema_violation_line_inside_a_transition_object(kb_dir: Path) -> None:
    data = record("acme/tg")
    data["transition_graph"]["leads_to"] = ["acme/good", {"error_id": "acme/good", "probability": 4}]
    bad = write(kb_dir / "tg.json", data)
    problems = [p for p in load(kb_dir).problems if p.file == str(bad)]
    assert {p.field for p in problems} == {"transition_graph.leads_to[1]", "transition_graph.leads_to[1].probability"}
    assert {p.line for p in problems if p.field.endswith("probability")} == {line_of(bad.read_text(), '"probability": 4')}


def test_several_violations_are_each_reported(kb_dir: Path) -> None:
    data = record("acme/many", confidence=3, first_seen="20/11/2023")
    del data["signature"]
    bad = write(kb_dir / "many.json", data)
    kb = load(kb_dir)
    fields = sorted(p.field for p in kb.problems if p.file == str(bad))
    assert fields == ["confidence", "first_seen", "signature"]
    assert all(p.severity == "error" for p in kb.problems)
    assert_good_loaded(kb)


def test_empty_file(kb_dir: Path) -> None:
    bad = kb_dir / "empty.json"
    bad.write_text("  \n", encoding="utf-8")
    kb = load(kb_dir)
    problem = only(kb.problems, file=str(bad))
    assert problem.severity == "error" and "empty" in problem.message
    assert_good_loaded(kb)


def test_directory_with_no_records(tmp_path: Path, kb_dir: Path) -> None:
    empty = tmp_path / "nothing-here"
    empty.mkdir()
    (empty / "README.md").write_text("not a KB file")
    kb = load(empty, kb_dir)
    problem = only(kb.problems, file=str(empty))
    assert problem.severity == "warning"
    assert "no .json or .jsonl" in problem.message
    assert_good_loaded(kb)


def test_symlink_loop_is_reported_and_loading_finishes(kb_dir: Path) -> None:
    os.symlink(kb_dir, kb_dir / "loop")
    kb = load(kb_dir)
    problem = only(kb.problems, file=str(kb_dir / "loop"))
    assert problem.severity == "error"  # a loop is a broken KB layout: validate fails
    assert "loop" in problem.message
    # The record is read once, not once per trip round the loop (no duplicate-id error).
    assert [r.id for r in kb.records] == ["acme/good"]
    assert kb.problems == [problem]


def test_dangling_transition_id_is_a_warning(kb_dir: Path) -> None:
    data = record("acme/linked")
    data["transition_graph"]["leads_to"] = ["acme/good", {"error_id": "acme/nowhere", "probability": 0.2}]
    data["transition_graph"]["frequently_confused_with"] = ["acme/elsewhere"]
    bad = write(kb_dir / "linked.json", data)
    kb = load(kb_dir)
    problems = [p for p in kb.problems if p.file == str(bad)]
    assert {(p.severity, p.field, p.record_id) for p in problems} == {
        ("warning", "transition_graph.leads_to", "acme/linked"),
        ("warning", "transition_graph.frequently_confused_with", "acme/linked"),
    }
    assert any("acme/nowhere" in p.message for p in problems)
    assert any("acme/elsewhere" in p.message for p in problems)
    assert not any("'acme/good'" in p.message for p in problems)  # that link resolves
    assert "acme/linked" in kb.by_id  # a warning does not drop the record


def test_list_file_with_one_bad_item_reports_its_index(tmp_path: Path) -> None:
    bad_item = record("acme/l1", confidence=1.2)
    path = write(tmp_path / "list.json", [record("acme/l0"), bad_item, record("acme/l2")])
    kb = load(path)
    problem = only(kb.problems)
    assert problem.severity == "error"
    assert problem.index == 1
    assert problem.record_id == "acme/l1"
    assert problem.field == "confidence"
    assert problem.line == line_of(path.read_text(), '"confidence": 1.2')  # the bad field's line
    assert problem.format().startswith(f"{path}:{problem.line}: error: acme/l1: confidence: ")
    assert [r.id for r in kb.records] == ["acme/l0", "acme/l2"]
    assert kb.origins["acme/l2"].index == 2


def test_empty_list_file_is_a_warning(tmp_path: Path) -> None:
    path = write(tmp_path / "list.json", [])
    problem = only(load(path).problems)
    assert problem.severity == "warning" and "empty list" in problem.message


def test_jsonl_file_with_a_bad_line_reports_its_line(tmp_path: Path) -> None:
    path = tmp_path / "kb.jsonl"
    lines = [
        json.dumps(record("acme/j1")),
        "",
        '{"id": "acme/j3", oops}',
        json.dumps(record("acme/j4", evidence_count=-1)),
        json.dumps(record("acme/j5")),
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    kb = load(path)
    assert [(p.line, p.severity) for p in kb.problems] == [(3, "error"), (4, "error")]
    assert "invalid JSON" in kb.problems[0].message
    assert kb.problems[1].field == "evidence_count" and kb.problems[1].record_id == "acme/j4"
    assert kb.problems[0].format().startswith(f"{path}:3: error: ")
    assert [r.id for r in kb.records] == ["acme/j1", "acme/j5"]
    assert kb.origins["acme/j5"].line == 5


def test_duplicate_id_inside_one_source_is_an_error(tmp_path: Path) -> None:
    folder = tmp_path / "kb"
    write(folder / "a.json", record("acme/same", signature="first"))
    write(folder / "b.json", record("acme/same", signature="second"))
    kb = load(folder)
    problem = only(kb.problems)
    assert problem.severity == "error"
    assert problem.record_id == "acme/same" and problem.field == "id"
    assert problem.file == str(folder / "b.json")
    assert str(folder / "a.json") in problem.message
    assert len(kb.records) == 1


def test_duplicate_id_inside_one_list_file_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path / "dup.json", [record("acme/d"), record("acme/d")])
    problem = only(load(path).problems)
    assert problem.severity == "error" and problem.index == 1 and "duplicate" in problem.message


def test_override_across_sources_is_a_warning_and_later_wins(tmp_path: Path) -> None:
    first = write(tmp_path / "one" / "r.json", record("acme/shared", signature="from one"))
    second = write(tmp_path / "two" / "r.json", record("acme/shared", signature="from two"))
    kb = load(first.parent, second.parent)
    problem = only(kb.problems)
    assert problem.severity == "warning"
    assert problem.file == str(second)
    assert "overrides" in problem.message and str(first) in problem.message
    assert kb.by_id["acme/shared"].signature == "from two"
    assert kb.origins["acme/shared"].file == str(second)
    assert [r.id for r in kb.records] == ["acme/shared"]


def test_the_same_file_reached_twice_is_not_an_override(kb_dir: Path) -> None:
    kb = load(kb_dir, kb_dir / "good.json")
    assert kb.problems == []
    assert list(kb.by_id) == ["acme/good"]


@pytest.mark.parametrize("document, kind", [("42", "int"), ('"text"', "str"), ("null", "NoneType")])
def test_record_that_is_not_an_object(kb_dir: Path, document: str, kind: str) -> None:
    bad = kb_dir / "scalar.json"
    bad.write_text(document, encoding="utf-8")
    kb = load(kb_dir)
    problem = only(kb.problems, file=str(bad))
    assert problem.severity == "error"
    assert "JSON object" in problem.message and kind in problem.message
    assert_good_loaded(kb)


def test_list_item_that_is_not_an_object(tmp_path: Path) -> None:
    path = write(tmp_path / "list.json", [record("acme/ok"), ["nested"]])
    kb = load(path)
    problem = only(kb.problems)
    assert problem.index == 1 and "JSON object" in problem.message
    assert list(kb.by_id) == ["acme/ok"]


def test_missing_data_path(tmp_path: Path, kb_dir: Path) -> None:
    missing = tmp_path / "does-not-exist"
    kb = load(missing, kb_dir)
    problem = only(kb.problems, file=str(missing))
    assert problem.severity == "error"
    assert "--data" in problem.message and "does not exist" in problem.message
    assert_good_loaded(kb)


def test_a_single_record_file_as_a_source(tmp_path: Path) -> None:
    path = write(tmp_path / "one.json", record("acme/one"))
    kb = load(path)
    assert kb.problems == [] and list(kb.by_id) == ["acme/one"]


def test_non_kb_files_and_hidden_folders_are_ignored(kb_dir: Path) -> None:
    (kb_dir / "notes.txt").write_text("{ not json")
    write(kb_dir / ".git" / "x.json", "not a record")
    kb = load(kb_dir)
    assert kb.problems == []
    assert list(kb.by_id) == ["acme/good"]


def test_unknown_keys_are_warnings_with_field_and_line(kb_dir: Path) -> None:
    data = record("acme/typo")
    data["workaround"] = []
    data["dead_ends"][1]["acton"] = "try harder"
    bad = write(kb_dir / "typo.json", data)
    kb = load(kb_dir)
    problems = sorted((p for p in kb.problems if p.file == str(bad)), key=lambda p: p.field)
    assert [(p.severity, p.field) for p in problems] == [
        ("warning", "dead_ends[1].acton"),
        ("warning", "workaround"),
    ]
    assert problems[0].line == line_of(bad.read_text(), '"acton"')
    assert "acme/typo" in kb.by_id


def test_loading_never_raises_on_deep_nesting(kb_dir: Path) -> None:
    bad = kb_dir / "deep.json"
    bad.write_text("[" * 100_000 + "]" * 100_000)
    kb = load(kb_dir)
    assert only(kb.problems, file=str(bad)).severity == "error"
    assert_good_loaded(kb)


# -- sources ----------------------------------------------------------------------------------


def test_source_order_bundled_then_env_then_data(tmp_path: Path) -> None:
    env_a, env_b, data = tmp_path / "env-a", tmp_path / "env-b", tmp_path / "data"
    environ = {"ERRKB_PATH": os.pathsep.join([str(env_a), "", str(env_b)])}
    sources = default_sources([data], environ=environ)
    assert [(s.path, s.label) for s in sources] == [
        (bundled_data_dir(), "bundled"),
        (env_a, "ERRKB_PATH"),
        (env_b, "ERRKB_PATH"),
        (data, "--data"),
    ]
    assert [s.path for s in default_sources([data], bundled=False, environ={})] == [data]


def test_env_paths_reads_os_environ_by_default(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert env_paths() == []
    monkeypatch.setenv("ERRKB_PATH", str(tmp_path))
    assert env_paths() == [tmp_path]


def test_later_sources_override_earlier_ones_in_source_order(tmp_path: Path) -> None:
    env_dir = write(tmp_path / "env" / "r.json", record("acme/r", signature="from env")).parent
    data_dir = write(tmp_path / "data" / "r.json", record("acme/r", signature="from data")).parent
    sources = default_sources([data_dir], bundled=False, environ={"ERRKB_PATH": str(env_dir)})
    kb = load_kb(sources)
    assert kb.by_id["acme/r"].signature == "from data"
    assert kb.sources[kb.source_of["acme/r"]].label == "--data"


def test_bundled_kb_holds_the_seed() -> None:
    kb = load_kb(default_sources([], environ={}))
    seed = kb.get("pytorch/ddp-bucket-view-error")
    assert seed is not None
    assert seed.to_json_dict() == SEED


# -- indexes ----------------------------------------------------------------------------------


def test_indexes_and_record_order(tmp_path: Path) -> None:
    folder = tmp_path / "kb"
    for rid, category in [("zeta/b", "net"), ("acme/z", "io"), ("acme/a", "net"), ("acme/m", "io"), ("zeta/a", "net")]:
        write(folder / f"{rid.replace('/', '-')}.json", record(rid, category=category))
    kb = load(folder)
    assert kb.problems == []
    assert [(r.domain, r.category, r.id) for r in kb.records] == [
        ("acme", "io", "acme/m"),
        ("acme", "io", "acme/z"),
        ("acme", "net", "acme/a"),
        ("zeta", "net", "zeta/a"),
        ("zeta", "net", "zeta/b"),
    ]
    assert dict(kb.domain_counts) == {"acme": 3, "zeta": 2}
    assert {d: dict(c) for d, c in kb.category_counts.items()} == {"acme": {"io": 2, "net": 1}, "zeta": {"net": 2}}
    assert set(kb.by_id) == {"acme/a", "acme/m", "acme/z", "zeta/a", "zeta/b"}
    assert kb.by_id["acme/m"].category == "io"
    assert kb.domains == ["acme", "zeta"]
    assert kb.categories("acme") == ["io", "net"]
    assert kb.categories("missing") == []
    assert kb.get("nope/x") is None


def test_problem_counts(kb_dir: Path, tmp_path: Path) -> None:
    (kb_dir / "empty.json").write_text("")
    kb = load(kb_dir, tmp_path / "missing")
    assert kb.problem_counts() == {"error": 2}


# -- Problem.format -----------------------------------------------------------------------------


def test_problem_format() -> None:
    problem = Problem("error", "kb/x.json", "Input should be\n  less than 1", line=12,
                      record_id="acme/x", field="dead_ends[0].fail_rate")
    assert problem.format() == "kb/x.json:12: error: acme/x: dead_ends[0].fail_rate: Input should be less than 1"
    assert Problem("warning", "kb/l.json", "m", index=3).format() == "kb/l.json[3]: warning: -: -: m"
    assert Problem("info", "kb/f.json", "m").format() == "kb/f.json: info: -: -: m"


# -- lint ---------------------------------------------------------------------------------------


TODAY = datetime.date(2025, 1, 1)


def lint(data: dict) -> list[tuple[str, str, str]]:
    return lint_record(Record.model_validate(data), today=TODAY)


def warnings(data: dict) -> dict[str, str]:
    return {field: message for severity, field, message in lint(data) if severity == "warning"}


def test_lint_seed_gives_only_info() -> None:
    found = lint(SEED)
    assert found, "the seed breaks some house-style rules (empty dead-end actions)"
    assert {severity for severity, _, _ in found} == {"info"}
    assert ("info", "dead_ends[0].action", "empty: name the approach that fails") in found


def test_lint_regex_specificity() -> None:
    assert "regex" not in warnings(record("acme/rt", regex="RuntimeError"))  # 12 fixed characters
    assert "too generic" in warnings(record("acme/err", regex="Err.*"))["regex"]
    assert "regex" in warnings(record("acme/none", regex=None))


def test_lint_workarounds_not_best_first() -> None:
    data = record("acme/order")
    data["workarounds"][0]["success_rate"] = 0.3
    data["workarounds"][1]["success_rate"] = 0.9
    assert "best first" in warnings(data)["workarounds"]


def test_lint_evidence_count_must_match_sources() -> None:
    data = record("acme/evidence", evidence_count=1)
    data["dead_ends"][0]["sources"] = ["https://example.org/issue/1"]
    data["workarounds"][0]["sources"] = ["https://example.org/issue/2", "https://example.org/issue/1"]
    assert "2 distinct" in warnings(data)["evidence_count"]
    data["evidence_count"] = 2
    assert "evidence_count" not in warnings(data)


def test_lint_future_dates() -> None:
    data = record("acme/future", last_updated="2030-01-01", first_seen="2024-12-31")
    found = warnings(data)
    assert "future" in found["last_updated"]
    assert "first_seen" not in found


def test_lint_bad_source_url_and_enum_values() -> None:
    data = record("acme/enum", verification_tier="trust-me", evidence_count=1)
    data["workarounds"][0]["sources"] = ["see the forum"]
    found = warnings(data)
    assert "not an http(s) URL" in found["sources"]
    # An unknown tier claims a trust nobody defined: an error, not a warning.
    errors = {field: message for severity, field, message in lint(data) if severity == "error"}
    assert "trust-me" in errors["verification_tier"] and "verification_tier" not in found


def test_lint_kb_places_problems_at_record_origin(tmp_path: Path) -> None:
    path = write(tmp_path / "list.json", [record("acme/a"), record("acme/b", regex="Err.*")])
    kb = load(path)
    problems = [p for p in lint_kb(kb, today=TODAY) if p.severity == "warning"]
    assert [(p.record_id, p.field, p.index, p.file) for p in problems] == [("acme/b", "regex", 1, str(path))]


def test_lint_kb_skips_context_sources(tmp_path: Path) -> None:
    path = write(tmp_path / "r.json", record("acme/b", regex="Err.*"))
    kb = load_kb([Source(path, "context", report=False)])
    assert kb.records and lint_kb(kb, today=TODAY) == []
