"""Every shape of KB file at any size: a ``.jsonl`` file and a ``.json`` list are read one
record at a time, and a record is read back from its own bytes, whatever the shape."""

from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest

import errkb_tui.kb as kb_module
import errkb_tui.loader.collect as collect
import errkb_tui.loader.jsontext as jsontext
import errkb_tui.loader.load as load_module
import errkb_tui.loader.parallel as parallel
import errkb_tui.loader.shapes as shapes
from errkb_tui.kb import KB, Source
from errkb_tui.loader import load_kb
from errkb_tui.model import Record
from errkb_tui.search import SearchIndex

from ..helpers import seed_record


def record(n: int, **changes) -> dict:
    return seed_record(f"big/r{n}", signature=f"BigError: number {n} 中文 😀 \u2028 failed",
                       regex=f"BigError: number {n}\\b", **changes)


def load(path: Path, **options) -> KB:
    return load_kb([Source(path, "--data")], **options)


def same(kb: KB, n: int, data: dict | None = None) -> bool:
    full = kb.get(f"big/r{n}")
    return full is not None and full.to_json_dict() == Record.model_validate(data or record(n)).to_json_dict()


@pytest.fixture
def summaries_only(monkeypatch):
    """Keep no full record in memory: every ``kb.get`` reads the record from its file."""
    monkeypatch.setattr(collect, "KEEP_FULL_RECORDS", 0)


# -- .jsonl: any size, one line at a time ------------------------------------------------------


def test_a_jsonl_file_larger_than_the_json_file_cap_loads(tmp_path, monkeypatch, summaries_only):
    monkeypatch.setattr(shapes, "MAX_FILE_BYTES", 1024)
    path = tmp_path / "kb.jsonl"
    path.write_text("\n".join(json.dumps(record(n), ensure_ascii=False) for n in range(20)) + "\n", "utf-8")
    assert path.stat().st_size > 10 * shapes.MAX_FILE_BYTES
    kb = load(path)
    assert kb.problems == [] and len(kb.records) == 20
    assert same(kb, 0) and same(kb, 19)
    one = tmp_path / "one.json"
    one.write_text(json.dumps(record(99)))
    assert one.stat().st_size > shapes.MAX_FILE_BYTES
    assert "limit" in load(one).problems[0].message  # a one-record .json file keeps its cap


def test_jsonl_and_json_lists_are_never_read_whole(tmp_path, monkeypatch):
    (tmp_path / "kb.jsonl").write_text("\n".join(json.dumps(record(n)) for n in range(3)) + "\n")
    (tmp_path / "list.json").write_text(json.dumps([record(n) for n in range(3, 6)]))

    def whole_file(self, *args, **kwargs):
        raise AssertionError(f"{self} was read whole")

    monkeypatch.setattr(Path, "read_bytes", whole_file)
    monkeypatch.setattr(Path, "read_text", whole_file)
    kb = load(tmp_path)
    assert kb.problems == [] and len(kb.records) == 6


def test_an_over_long_jsonl_line_is_skipped_and_the_next_lines_load(tmp_path, monkeypatch, summaries_only):
    monkeypatch.setattr(shapes, "MAX_RECORD_BYTES", 20_000)
    monkeypatch.setattr(shapes, "_MIB", 4096)  # small chunks while skipping the long line
    lines = [json.dumps(record(1)), json.dumps(record(2, root_cause="x" * 50_000)), json.dumps(record(3))]
    path = tmp_path / "kb.jsonl"
    path.write_text("\n".join(lines) + "\n")
    kb = load(path)
    [problem] = kb.problems
    assert (problem.line, problem.severity) == (2, "error") and "longer than" in problem.message
    assert [r.id for r in kb.records] == ["big/r1", "big/r3"]
    assert kb.origins["big/r3"].line == 3 and same(kb, 3)


# -- a .json list: streamed, each item's byte span kept ----------------------------------------


@pytest.mark.parametrize("chunk", [7, 1 << 20])
@pytest.mark.parametrize("indent", [None, 2])
def test_list_items_are_read_back_from_their_own_bytes(tmp_path, monkeypatch, summaries_only, chunk, indent):
    monkeypatch.setattr(jsontext, "CHUNK_BYTES", chunk)  # 7: every item crosses chunk edges
    items = [record(n) for n in range(12)]
    text = json.dumps(items, ensure_ascii=False, indent=indent)
    path = tmp_path / "list.json"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    kb = load(path)
    assert kb.problems == [] and len(kb.records) == 12
    raw = path.read_bytes()
    for n in range(12):
        origin = kb.origins[f"big/r{n}"]
        assert origin.index == n
        assert json.loads(raw[origin.offset: origin.offset + origin.length]) == items[n]
        if not indent:
            assert origin.line == 1
        assert same(kb, n)
    if indent:
        lines = raw.decode("utf-8-sig").split("\n")
        for n in range(12):
            assert lines[kb.origins[f"big/r{n}"].line - 1].strip() == "{"


def test_kb_get_on_a_list_does_not_parse_the_whole_file(tmp_path, summaries_only):
    path = tmp_path / "list.json"
    path.write_text(json.dumps([record(n) for n in range(3)], ensure_ascii=False), "utf-8")
    kb = load(path)
    first = kb.origins["big/r0"]
    raw = bytearray(path.read_bytes())
    raw[first.offset: first.offset + first.length] = b"#" * first.length  # the file is no longer JSON
    path.write_bytes(bytes(raw))
    assert kb.get("big/r0") is None  # its own bytes changed
    assert same(kb, 2)  # another record's bytes did not: it is still read, alone


@pytest.mark.parametrize("chunk", [5, 1 << 20])
def test_a_list_broken_midway_keeps_the_items_before_and_names_the_line(tmp_path, monkeypatch, chunk):
    monkeypatch.setattr(jsontext, "CHUNK_BYTES", chunk)
    good = json.dumps([record(1), record(2)], indent=2)
    text = good[:-2] + ",\n  {\"id\": \"big/r3\" oops}\n]"
    path = tmp_path / "list.json"
    path.write_text(text)
    kb = load(path)
    [problem] = kb.problems
    assert problem.severity == "error" and "invalid JSON" in problem.message
    assert problem.line == text.count("\n", 0, text.index("oops")) + 1
    assert [r.id for r in kb.records] == ["big/r1", "big/r2"]


def test_a_bad_field_in_a_list_item_points_at_its_line_in_the_file(tmp_path, monkeypatch):
    monkeypatch.setattr(jsontext, "CHUNK_BYTES", 64)
    items = [record(1), record(2, confidence=1.5), record(3)]
    text = json.dumps(items, indent=2)
    path = tmp_path / "list.json"
    path.write_text(text)
    [problem] = load(path).problems
    assert problem.index == 1 and problem.field == "confidence"
    assert problem.line == text.count("\n", 0, text.index('"confidence": 1.5')) + 1


def test_non_utf8_bytes_in_a_list(tmp_path):
    path = tmp_path / "list.json"
    good = json.dumps([record(1)]).encode()
    path.write_bytes(good[:-1] + b',\n{"id": "\xff"}]')
    kb = load(path)
    [problem] = kb.problems
    assert "not UTF-8" in problem.message and f"offset {len(good)+ 9}" in problem.message
    assert problem.line == 2 and [r.id for r in kb.records] == ["big/r1"]


def test_lists_load_the_same_in_two_processes(tmp_path, monkeypatch, summaries_only):
    for part in range(3):
        (tmp_path / f"part-{part}.json").write_text(json.dumps([record(part * 10 + n) for n in range(5)], indent=1))
    sequential = load(tmp_path)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 0)
    parallel_kb = load(tmp_path)
    assert dict(parallel_kb.origins) == dict(sequential.origins)
    assert same(parallel_kb, 21)


# -- partial KBs while a large KB loads --------------------------------------------------------


@pytest.mark.parametrize("in_two_processes", [False, True])
def test_partial_kbs_come_while_loading_and_are_usable(tmp_path, monkeypatch, in_two_processes):
    monkeypatch.setattr(load_module, "PARTIAL_FIRST_RECORDS", 64)
    monkeypatch.setattr(load_module, "PARTIAL_EVERY_S", 0.0)
    if in_two_processes:
        monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 0)
    for part in range(2):
        lines = [json.dumps(record(part * 1000 + n)) for n in range(300)]
        (tmp_path / f"part-{part}.jsonl").write_text("\n".join(lines) + "\n")
    seen: list[KB] = []
    final = load(tmp_path, partial=seen.append)
    assert seen, "no partial KB was handed over"
    counts = [len(kb.records) for kb in seen]
    assert counts == sorted(counts) and 0 < counts[0] < len(final.records) == 600
    for kb in seen:
        some = kb.records[0].id
        assert kb.get(some) is not None and kb.get(some).id == some
        assert {r.id for r in kb.records} <= set(final.by_id)
        SearchIndex(kb.records).search("BigError")  # search-indexable
    before = len(seen[0].records)
    assert len(seen[0].records) == before and seen[0] is not final  # later loading never changed it


def test_no_partial_kb_for_a_small_kb(tmp_path):
    (tmp_path / "kb.jsonl").write_text("\n".join(json.dumps(record(n)) for n in range(50)) + "\n")
    seen: list[KB] = []
    load(tmp_path, partial=seen.append)
    assert seen == []


def test_partial_kbs_come_at_most_every_interval(tmp_path, monkeypatch):
    clock = iter(range(0, 10_000))  # each reading of the clock: one more second
    monkeypatch.setattr(load_module.time, "monotonic", lambda: next(clock) / 10)  # 0.1 s a reading
    monkeypatch.setattr(load_module, "PARTIAL_FIRST_RECORDS", 10_000)
    (tmp_path / "kb.jsonl").write_text("\n".join(json.dumps(record(n)) for n in range(64 * 40)) + "\n")
    seen: list[int] = []
    load(tmp_path, partial=lambda kb: seen.append(len(kb.records)))
    # The clock moves 0.1 s per check (one every 64 records): first at >= 0.3 s, then >= 1 s apart.
    assert seen[0] == 64 * 3
    gaps = [b - a for a, b in zip(seen, seen[1:])]
    assert gaps and all(gap >= 64 * 9 for gap in gaps)


# -- no process-wide side effects ---------------------------------------------------------------


def test_loading_never_turns_the_garbage_collector_off(tmp_path, monkeypatch):
    (tmp_path / "kb.jsonl").write_text("\n".join(json.dumps(record(n)) for n in range(2000)) + "\n")
    states = []
    assert gc.isenabled()
    frozen = gc.get_freeze_count()
    load(tmp_path, progress=lambda count: states.append(gc.isenabled()))
    assert states and all(states)  # other threads keep their collector while a KB loads
    assert gc.isenabled() and gc.get_freeze_count() == frozen  # and a small KB is not frozen either
    monkeypatch.setattr(load_module, "GC_FREEZE_EVERY", 500)
    load(tmp_path, progress=lambda count: states.append(gc.isenabled()))
    assert all(states) and gc.get_freeze_count() > frozen  # a large one is moved out of its scans
    gc.unfreeze()


def test_read_record_reads_a_span_for_every_shape(tmp_path):
    path = tmp_path / "one.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(record(5)).encode())
    assert kb_module.read_record(kb_module.Origin(str(path))).id == "big/r5"


# -- one large .jsonl file, read by two processes ---------------------------------------------


class Recorder:
    """A sink that keeps what it is given."""

    def __init__(self) -> None:
        self.seen: list[tuple] = []

    def problem(self, problem) -> None:
        self.seen.append(("problem", problem.line, problem.message))

    def raw(self, raw: bytes, place) -> bool:
        self.seen.append(("record", place.line, place.offset, place.length, raw))
        return True

    def value(self, data, place) -> None:
        self.seen.append(("value", place.line, place.offset, place.length))


def test_a_jsonl_file_read_in_two_parts_gives_every_line_once_at_any_cut(tmp_path):
    path = tmp_path / "kb.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + b'{"a": 1}\n\n{"b": "\xc3\xa9"}\r\nnot json\n{"c": 3}')
    whole = Recorder()
    shapes.read_file(path, whole)
    size = path.stat().st_size
    for cut in range(1, size + 1):
        first, second = Recorder(), Recorder()
        shapes.read_file(path, first, (0, cut))
        shapes.read_file(path, second, (cut, None))
        assert first.seen + second.seen == whole.seen, cut


def test_one_large_jsonl_file_loads_the_same_in_two_processes(tmp_path, monkeypatch, summaries_only):
    lines = [json.dumps(record(n), ensure_ascii=False) for n in range(40)]
    lines[5] = '{"id": "broken"'
    lines[30] = json.dumps(record(31, confidence=3))
    path = tmp_path / "kb.jsonl"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    sequential = load(path)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(parallel, "SPLIT_MIN_BYTES", 0)
    worker, here = parallel.split([(0, path, None)])
    assert worker[0][2][0] == 0 and here[0][2][1] is None  # split in two byte ranges
    two = load(path)
    assert [p.format() for p in two.problems] == [p.format() for p in sequential.problems]
    assert dict(two.origins) == dict(sequential.origins)
    assert same(two, 39) and same(two, 0)


@pytest.mark.parametrize("indent", [None, 2])
def test_a_json_list_read_in_two_parts_gives_every_item_once_at_any_cut(tmp_path, indent):
    items = [record(n) for n in range(4)]
    items[2]["confidence"] = 7  # a problem, with an index, in whichever part reads it
    if indent is None:  # one record per line
        text = "[\n" + ",\n".join(json.dumps(item, ensure_ascii=False) for item in items) + "\n]\n"
    else:
        text = json.dumps(items, ensure_ascii=False, indent=indent)
    path = tmp_path / "list.json"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    whole = Recorder()
    shapes.read_file(path, whole)
    size = path.stat().st_size
    guesses = set()
    for cut in range(1, size, 7):
        guess = jsontext.guess_item_start(path, cut, shapes.MAX_RECORD_BYTES)
        if guess is None:
            continue
        guesses.add(guess)
        first = Recorder()
        stop = shapes.read_file(path, first, (0, guess))
        assert stop is not None and stop[0] == guess  # every guess here is a real item start
        second = Recorder()
        shapes.read_file(path, second, (guess, None))
        assert [s[:2] for s in first.seen + second.seen] == [s[:2] for s in whole.seen]
    assert len(guesses) == 3  # the starts of items 1, 2 and 3


@pytest.mark.parametrize("wrong_guess", [False, True])
def test_one_large_json_list_loads_the_same_in_two_processes(tmp_path, monkeypatch, summaries_only, wrong_guess):
    items = [record(n) for n in range(40)]
    items[3]["confidence"] = 7
    items[33]["workaround"] = "typo"
    path = tmp_path / "list.json"
    path.write_text(json.dumps(items, ensure_ascii=False, indent=2), "utf-8")
    sequential = load(path)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(parallel, "SPLIT_MIN_BYTES", 0)
    if wrong_guess:  # a guess inside an item: the worker's part shows it, and the rest is read again
        real = jsontext.guess_item_start
        monkeypatch.setattr(parallel, "guess_item_start", lambda *args: real(*args) + 40)
    worker, here = parallel.split([(0, path, None)])
    assert worker[0][2][0] == 0 and here[0][2][1] is None
    two = load(path)
    assert [p.format() for p in two.problems] == [p.format() for p in sequential.problems]
    assert [(p.index, p.line) for p in two.problems] == [(p.index, p.line) for p in sequential.problems]
    assert dict(two.origins) == dict(sequential.origins)
    assert same(two, 39) and same(two, 0)


@pytest.mark.parametrize("head", [16, 1 << 20])
def test_json_files_behind_much_leading_space(tmp_path, monkeypatch, head):
    monkeypatch.setattr(shapes, "_HEAD_BYTES", head)  # 16: the first read sees only space
    (tmp_path / "one.json").write_text(" " * 40 + json.dumps(record(1)))
    (tmp_path / "list.json").write_text("\n" * 40 + json.dumps([record(2), record(3)]))
    (tmp_path / "blank.json").write_text(" " * 40)
    kb = load(tmp_path)
    assert [r.id for r in kb.records] == ["big/r1", "big/r2", "big/r3"]
    assert [(Path(p.file).name, p.message) for p in kb.problems] == [("blank.json", "file is empty")]
