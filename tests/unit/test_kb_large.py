"""A KB too large to keep whole: summaries in memory, full records read back on demand."""

from __future__ import annotations

import json
from pathlib import Path

import errkb_tui.kb as kb_module
from errkb_tui.kb import Source, load_kb
from errkb_tui.model import Record, RecordSummary

SEED = json.loads((Path(__file__).parent.parent / "fixtures" / "kb" / "pytorch" / "ddp-bucket-view-error.json").read_text())


def record(n: int) -> dict:
    return dict(SEED, id=f"big/r{n}", domain="big", signature=f"BigError: number {n} 中文 \u2028 failed",
                regex=f"BigError: number {n}\\b")


def test_full_records_are_read_back_from_every_kind_of_file(tmp_path, monkeypatch):
    monkeypatch.setattr(kb_module, "KEEP_FULL_RECORDS", 2)
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
    monkeypatch.setattr(kb_module, "KEEP_FULL_RECORDS", 0)
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
