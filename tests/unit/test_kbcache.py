"""The on-disk cache of a large KB: a second load reads it; any change to a file misses it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import errkb_tui.loader.collect as collect
import errkb_tui.loader.load as load
import errkb_tui.kbcache as kbcache
from errkb_tui.kb import Source
from errkb_tui.loader import load_kb

SEED = json.loads((Path(__file__).parent.parent / "fixtures" / "kb" / "pytorch" / "ddp-bucket-view-error.json").read_text())


@pytest.fixture
def small_cache(monkeypatch):
    monkeypatch.setattr(kbcache, "MIN_CACHED_BYTES", 0)
    monkeypatch.setattr(collect, "KEEP_FULL_RECORDS", 1)


def write_kb(folder: Path, count: int, tag: str = "") -> None:
    lines = [json.dumps(dict(SEED, id=f"big/r{n}", domain="big", signature=f"BigError {n}{tag}",
                             regex=f"BigError {n}\\b")) for n in range(count)]
    lines.append('{"id": "broken"')
    (folder / "kb.jsonl").write_text("\n".join(lines) + "\n")


def summaries(kb):
    return [(r.id, r.signature, r.regex, r.fix_success_rate) for r in kb.records]


def test_second_load_reads_the_cache_and_gives_the_same_kb(tmp_path, small_cache, monkeypatch):
    data, cache = tmp_path / "kb", tmp_path / "cache"
    data.mkdir()
    write_kb(data, 5)
    first = load_kb([Source(data, "--data")], cache_dir=cache)
    assert len(list(cache.glob("kb-*.marshal"))) == 1

    def no_file_reads(*args, **kwargs):
        raise AssertionError("a cached load must not parse KB files")

    monkeypatch.setattr(load, "read_file", no_file_reads)
    second = load_kb([Source(data, "--data")], cache_dir=cache)
    assert summaries(second) == summaries(first)
    assert second.problems == first.problems and second.problems  # the broken line is still reported
    assert second.get("big/r3").signature == "BigError 3"  # full records read back from the file


@pytest.fixture
def chunked(tmp_path, small_cache, monkeypatch):
    """A five-record KB loaded once into a cache of two-record chunks: (data, cache, KB)."""
    monkeypatch.setattr(kbcache, "CHUNK", 2)
    data, cache = tmp_path / "kb", tmp_path / "cache"
    data.mkdir()
    write_kb(data, 5)
    return data, cache, load_kb([Source(data, "--data")], cache_dir=cache)


def test_a_cached_load_hands_over_its_first_records_before_the_rest(chunked, monkeypatch):
    data, cache, first = chunked
    seen = []
    second = load_kb([Source(data, "--data")], cache_dir=cache, partial=seen.append, partial_every=0)
    assert summaries(second) == summaries(first)
    # Chunks of 2, 2 and 1 records: a partial KB after each but the last.
    assert [len(kb.records) for kb in seen] == [2, 4]
    for kb in seen:
        assert summaries(kb) == summaries(first)[:len(kb.records)]
        assert kb.problems == first.problems  # the broken line is known from the start
        assert kb.get(kb.records[0].id).signature == kb.records[0].signature  # readable in full
    # Progress every PROGRESS_CHUNKS chunks (here every one), the total from load_kb at the end.
    counts = []
    monkeypatch.setattr(kbcache, "PROGRESS_CHUNKS", 1)
    load_kb([Source(data, "--data")], cache_dir=cache, progress=counts.append)
    assert counts == [2, 4, 5]
    # Every second by default: one partial KB, after the first chunk.
    seen.clear()
    load_kb([Source(data, "--data")], cache_dir=cache, partial=seen.append)
    assert [len(kb.records) for kb in seen] == [2]


def test_a_cache_cut_short_after_a_partial_kb_means_a_normal_load(chunked):
    data, cache, first = chunked
    [file] = cache.glob("kb-*.marshal")
    file.write_bytes(file.read_bytes()[:-40])
    seen = []
    kb = load_kb([Source(data, "--data")], cache_dir=cache, partial=seen.append, partial_every=0)
    assert seen and summaries(kb) == summaries(first)


def test_changing_a_file_misses_the_cache(tmp_path, small_cache):
    data, cache = tmp_path / "kb", tmp_path / "cache"
    data.mkdir()
    write_kb(data, 3)
    load_kb([Source(data, "--data")], cache_dir=cache)
    write_kb(data, 4, tag=" changed")
    stat = (data / "kb.jsonl").stat()
    os.utime(data / "kb.jsonl", ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    kb = load_kb([Source(data, "--data")], cache_dir=cache)
    assert [r.signature for r in kb.records][-1].endswith("changed")
    assert len(kb.records) == 4


def test_a_corrupt_or_unwritable_cache_is_ignored(tmp_path, small_cache):
    data, cache = tmp_path / "kb", tmp_path / "cache"
    data.mkdir()
    write_kb(data, 2)
    load_kb([Source(data, "--data")], cache_dir=cache)
    for file in cache.glob("kb-*.marshal"):
        file.write_bytes(b"\x00garbage")
    assert len(load_kb([Source(data, "--data")], cache_dir=cache).records) == 2
    blocked = tmp_path / "not-a-dir"
    blocked.write_text("a file where the cache folder should be")
    assert len(load_kb([Source(data, "--data")], cache_dir=blocked).records) == 2


def test_small_kbs_are_not_cached(tmp_path):
    data, cache = tmp_path / "kb", tmp_path / "cache"
    data.mkdir()
    write_kb(data, 2)
    load_kb([Source(data, "--data")], cache_dir=cache)
    assert not cache.exists()


def test_the_cache_lives_in_the_platform_cache_folder(tmp_path):
    from errkb_tui import userdata

    env = {"HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    assert kbcache.default_cache_dir(env) == userdata.cache_dir(env)
    relative = {"HOME": str(tmp_path), "XDG_CACHE_HOME": "relative/cache"}  # invalid per XDG: ignored
    assert kbcache.default_cache_dir(relative) == userdata.cache_dir(relative)


def test_a_cached_list_file_reads_records_back_by_their_spans(tmp_path, small_cache):
    data, cache = tmp_path / "kb", tmp_path / "cache"
    data.mkdir()
    items = [dict(SEED, id=f"big/r{n}", domain="big", signature=f"BigError {n} é", regex=f"BigError {n}\\b")
             for n in range(4)]
    (data / "list.json").write_text(json.dumps(items, ensure_ascii=False, indent=2), "utf-8")
    first = load_kb([Source(data, "--data")], cache_dir=cache)
    second = load_kb([Source(data, "--data")], cache_dir=cache)
    assert dict(second.origins) == dict(first.origins) and second.origins["big/r3"].length
    assert second.get("big/r3").signature == "BigError 3 é"
