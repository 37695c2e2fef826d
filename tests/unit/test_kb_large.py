"""A KB too large to keep whole: summaries in memory, full records read back on demand."""

from __future__ import annotations

import json
from pathlib import Path

import errkb_tui.loader.collect as collect
import errkb_tui.loader.parallel as parallel_load
from errkb_tui.kb import Source
from errkb_tui.loader import load_kb
from errkb_tui.model import Record, RecordSummary

SEED = json.loads((Path(__file__).parent.parent / "fixtures" / "kb" / "pytorch" / "ddp-bucket-view-error.json").read_text())


def record(n: int) -> dict:
    return dict(SEED, id=f"big/r{n}", domain="big", signature=f"BigError: number {n} 中文 \u2028 failed",
                regex=f"BigError: number {n}\\b")


def test_full_records_are_read_back_from_every_kind_of_file(tmp_path, monkeypatch):
    monkeypatch.setattr(collect, "KEEP_FULL_RECORDS", 2)
    lines = [json.dumps(record(n), ensure_ascii=False) for n in range(5)]
    (tmp_path / "many.jsonl").write_bytes(b"\xef\xbb\xbf" + "\n".join(lines).encode() + b"\n\n")
    (tmp_path / "list.json").write_text(json.dumps([record(10), record(11)]))
    (tmp_path / "one.json").write_text(json.dumps(record(20)))
    kb = load_kb([Source(tmp_path, "--data")])
    assert kb.problems == []
    assert kb.full == {}  # more than KEEP_FULL_RECORDS: only summaries stay
    assert all(isinstance(r, RecordSummary) for r in kb.records)
    for n in (0, 4, 10, 11, 20):
        full = kb.get(f"big/r{n}")
        assert isinstance(full, Record)
        assert full.to_json_dict() == Record.model_validate(record(n)).to_json_dict()
    assert kb.get("big/nope") is None


def test_a_record_whose_file_changed_since_loading_is_not_shown_wrongly(tmp_path, monkeypatch):
    monkeypatch.setattr(collect, "KEEP_FULL_RECORDS", 0)
    path = tmp_path / "kb.jsonl"
    path.write_text("\n".join(json.dumps(record(n)) for n in range(3)) + "\n")
    kb = load_kb([Source(tmp_path, "--data")])
    path.write_text("\n".join(json.dumps(record(n)) for n in range(3, 6)) + "\n")
    assert kb.get("big/r1") is None  # the line now holds another record


def test_small_kbs_keep_full_records(tmp_path):
    (tmp_path / "kb.json").write_text(json.dumps([record(1), record(2)]))
    kb = load_kb([Source(tmp_path, "--data")])
    assert set(kb.full) == {"big/r1", "big/r2"}
    (tmp_path / "kb.json").unlink()
    assert kb.get("big/r1").id == "big/r1"  # no file access needed


def test_loading_in_two_processes_gives_the_same_kb_as_one(tmp_path, monkeypatch):
    folder = tmp_path / "kb"
    folder.mkdir()
    for part in range(4):
        lines = [json.dumps(record(part * 10 + n)) for n in range(10)]
        if part == 1:
            lines.append('{"id": "broken"')  # a bad line: a problem, in the worker's part
            lines.append(json.dumps(dict(record(99), workaround="typo")))  # an unknown key
        if part == 3:
            lines.append(json.dumps(record(5)))  # the same id as a record of part 0
        (folder / f"part-{part}.jsonl").write_text("\n".join(lines) + "\n")
    sequential = load_kb([Source(folder, "--data")])
    monkeypatch.setattr(parallel_load, "PARALLEL_MIN_BYTES", 0)
    results = []
    real_result = parallel_load.result

    def worker_result(worker):
        results.append(real_result(worker))
        return results[-1]

    monkeypatch.setattr(parallel_load, "result", worker_result)
    parallel = load_kb([Source(folder, "--data")])
    assert results and results[0] is not None  # the worker process really did its part

    def view(kb):
        return ([(r.id, r.signature) for r in kb.records], sorted(p.format() for p in kb.problems),
                {rid: tuple(o) for rid, o in kb.origins.items()})

    assert view(parallel) == view(sequential)
    assert any("duplicate id" in p.message for p in parallel.problems)
    assert parallel.get("big/r5").signature.startswith("BigError: number 5")


def test_progress_is_reported_while_loading(tmp_path, monkeypatch):
    monkeypatch.setattr(parallel_load, "PARALLEL_MIN_BYTES", 1 << 40)  # one process: every count seen
    (tmp_path / "kb.jsonl").write_text("\n".join(json.dumps(record(n)) for n in range(4500)) + "\n")
    counts: list[int] = []
    load_kb([Source(tmp_path, "--data")], progress=counts.append)
    assert counts == [2000, 4000, 4500]


def test_a_load_in_a_worker_thread_leaves_the_collector_alone(tmp_path) -> None:
    # gc.freeze is process-wide: only a load on the main thread (the CLI) may use it.
    import gc
    import json
    import threading

    from errkb_tui.kb import Source
    from errkb_tui.loader import load_kb
    from errkb_tui.loader.load import GC_FREEZE_EVERY

    base = {"domain": "big", "category": "c", "signature": "BigError: n", "root_cause": "r"}
    lines = [json.dumps(dict(base, id=f"big/r{n}", regex=f"BigError: n{n}\\b")) for n in range(GC_FREEZE_EVERY + 10)]
    (tmp_path / "big.jsonl").write_text("\n".join(lines))
    gc.unfreeze()
    result = {}
    thread = threading.Thread(target=lambda: result.update(kb=load_kb([Source(tmp_path, "--data")])))
    thread.start()
    thread.join(120)
    assert len(result["kb"].records) == GC_FREEZE_EVERY + 10
    assert gc.get_freeze_count() == 0


def test_early_parts_come_no_more_often_than_asked(tmp_path, monkeypatch) -> None:
    # The app asks for early parts every few seconds; the loader must not build (and the
    # app throw away) a snapshot every second in between.
    import json

    from errkb_tui.kb import Source
    from errkb_tui.loader import load, load_kb

    clock = iter(range(0, 10_000))
    monkeypatch.setattr(load.time, "monotonic", lambda: float(next(clock)) * 0.1)
    base = {"domain": "big", "category": "c", "signature": "BigError: n", "root_cause": "r"}
    lines = [json.dumps(dict(base, id=f"big/r{n}", regex=f"BigError: n{n}\\b")) for n in range(3000)]
    (tmp_path / "big.jsonl").write_text("\n".join(lines))
    often, rarely = [], []
    load_kb([Source(tmp_path, "--data")], partial=lambda kb: often.append(len(kb.records)))
    load_kb([Source(tmp_path, "--data")], partial=lambda kb: rarely.append(len(kb.records)), partial_every=1e9)
    assert len(rarely) == 1 and len(often) > 1
