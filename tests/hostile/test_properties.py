"""Property tests: no text, bytes, JSON or query makes the core raise."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errkb_tui.kb import Source, bundled_data_dir
from errkb_tui.loader import load_kb
from errkb_tui.match import MAX_INPUT_BYTES, Matcher
from errkb_tui.search import SearchIndex, highlight_spans

KB = load_kb([Source(bundled_data_dir(), "bundled")])
MATCHER = Matcher(KB.records)
INDEX = SearchIndex(KB.records)
# Every code point, surrogates, NUL and controls included.
ANY_CHAR = st.characters(min_codepoint=0, max_codepoint=0x10FFFF, blacklist_categories=())
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                      HealthCheck.function_scoped_fixture])
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(ANY_CHAR, max_size=30),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=12), children, max_size=6),
    max_leaves=30,
)


@FAST
@given(st.text(ANY_CHAR, max_size=2000))
def test_match_never_raises_on_any_text(text):
    for match in MATCHER.match(text):
        assert 0.0 <= match.score <= 1.0
        json.dumps(match.to_json())  # the CLI can always print it


@FAST
@given(st.binary(max_size=2000))
def test_match_never_raises_on_any_bytes(data):
    MATCHER.match(data)


def test_match_survives_huge_lines_and_nul_bytes():
    assert MATCHER.match("x" * 1_000_000) == []  # one 1 MB line of no error: capped, no match
    assert isinstance(MATCHER.match("\x00" * 300_000 + "RuntimeError: CUDA error: device-side assert triggered"), list)
    top = MATCHER.best("\x00\x1b[31m" * 1000 + "\nfatal: refusing to merge unrelated histories\n")
    assert top is not None and top.id == "git/unrelated-histories"
    assert len(("é" * MAX_INPUT_BYTES).encode()) > MAX_INPUT_BYTES
    MATCHER.match("é" * MAX_INPUT_BYTES)  # multi-byte text is capped by bytes, not characters


@FAST
@given(st.binary(max_size=3000))
def test_loading_any_bytes_never_raises(tmp_path_factory, data):
    folder = tmp_path_factory.mktemp("kb")
    (folder / "any.json").write_bytes(data)
    (folder / "any.jsonl").write_bytes(data)
    kb = load_kb([Source(folder, "--data")])
    assert kb.problems or kb.records  # nothing passes silently


@FAST
@given(JSON)
def test_loading_any_json_never_raises_and_reports_what_is_not_a_record(tmp_path_factory, value):
    folder = tmp_path_factory.mktemp("kb")
    (folder / "value.json").write_text(json.dumps(value))
    kb = load_kb([Source(folder, "--data")])
    assert kb.records or kb.problems


@FAST
@given(st.text(ANY_CHAR, max_size=60), st.sampled_from([None, *KB.domains]))
def test_search_never_raises(query, domain):
    result = INDEX.search(query, domain)
    assert all(0 <= i < len(KB.records) for i in result.indices)
    for i in result.indices[:5]:
        for start, end in highlight_spans(KB.records[i].signature, query):
            assert 0 <= start < end <= len(KB.records[i].signature)


def test_deeply_nested_json_is_a_problem(tmp_path: Path):
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "deep.jsonl").write_text('{"a":' * 50_000 + "1" + "}" * 50_000 + "\n")
    kb = load_kb([Source(tmp_path, "--data")])
    assert len([p for p in kb.problems if p.severity == "error"]) == 2
