"""Named groups: the values a record's regex captures on the matched line."""

from __future__ import annotations

import json
import subprocess
import sys

from errkb_tui.match import Matcher
from errkb_tui.model import Record

TRACEBACK = """Traceback (most recent call last):
  File "/home/u/train.py", line 3, in <module>
    import torchvision
ModuleNotFoundError: No module named 'torchvision'
"""


def make(record_id: str, regex: str, signature: str = "") -> Record:
    return Record.model_validate({"id": record_id, "signature": signature or regex,
                                  "domain": record_id.split("/")[0], "category": "import_error",
                                  "regex": regex})


MODULE = make("python/module-not-found", r"ModuleNotFoundError: No module named '(?P<module>[\w.]+)'")
PORT = make("node/eaddrinuse", r"listen EADDRINUSE(?:: address already in use)? \S*?:(?P<port>\d+)"
            r"(?P<unused>x)?")
PLAIN = make("python/plain", r"ModuleNotFoundError: No module named")


def test_groups_of_the_matched_line() -> None:
    top = Matcher([MODULE]).best(TRACEBACK)
    assert top is not None and top.groups == {"module": "torchvision"}
    assert top.to_json()["groups"] == {"module": "torchvision"}


def test_groups_from_a_prefixed_line_and_optional_groups_left_out() -> None:
    text = "2024-05-01T10:00:00Z ERROR Error: listen EADDRINUSE: address already in use :::3000\n"
    top = Matcher([PORT]).best(text)
    assert top is not None and top.groups == {"port": "3000"}  # "unused" did not take part


def test_no_groups_without_named_groups_or_for_fuzzy() -> None:
    assert Matcher([PLAIN]).best(TRACEBACK).groups == {}
    fuzzy = Matcher([make("python/sig", r"NeverMatchesAnythingHere", "ModuleNotFoundError: No module named 'torchvision'")])
    top = fuzzy.best(TRACEBACK)
    assert top is not None and top.method == "fuzzy" and top.groups == {}


def test_each_match_has_its_own_groups() -> None:
    matches = Matcher([MODULE, PLAIN]).match(TRACEBACK)
    by_id = {m.id: m.groups for m in matches}
    assert by_id == {"python/module-not-found": {"module": "torchvision"}, "python/plain": {}}
    assert len({hash(m) for m in matches}) == 2  # still hashable


APT = make("linux/apt-key", r"Missing key (?P<keyid>[0-9A-F]{8,40})\b|The repository '[^']*' is not signed")
APT_30 = """Err:4 http://molior.info/1.4/buster stable InRelease
  Sub-process /usr/bin/sqv returned an error code (1), error message is: Missing key 763F8F0085BF681E, which is needed to verify signature.
Warning: OpenPGP signature verification failed: http://molior.info/1.4/buster stable InRelease: Sub-process /usr/bin/sqv returned an error code (1), error message is: Missing key 763F8F0085BF681E, which is needed to verify signature.
Error: The repository 'http://molior.info/1.4/buster stable InRelease' is not signed.
Notice: Updating from such a repository can't be done securely, and is therefore disabled by default.
"""


def test_a_value_missing_on_the_matched_line_comes_from_a_nearby_line_of_the_same_error() -> None:
    top = Matcher([APT]).best(APT_30)
    assert top is not None and "is not signed" in top.line  # the Error: line still ranks first
    assert top.groups == {"keyid": "763F8F0085BF681E"}  # from the Missing key line above it


def test_the_matched_lines_own_value_wins_and_far_lines_give_nothing() -> None:
    near = "Error: listen EADDRINUSE: address already in use :::4000\n" + "x\n" * 3 + \
        "Error: listen EADDRINUSE: address already in use :::3000\n"
    assert Matcher([PORT]).best(near).groups == {"port": "3000"}  # the last line's own value
    far = "Missing key 763F8F0085BF681E\n" + "unrelated\n" * 30 + "Error: The repository 'x' is not signed.\n"
    top = Matcher([APT]).best(far)
    assert "is not signed" in top.line and top.groups == {}  # 30 lines away: another error's


def test_cli_match_json_shows_groups(tmp_path) -> None:
    kb = tmp_path / "kb.json"
    kb.write_text(json.dumps([MODULE.model_dump(mode="json")]), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "errkb_tui", "match", "--json", "--no-bundled", "--data", str(kb)],
        input=TRACEBACK, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    (match,) = json.loads(result.stdout)["matches"]
    assert match["groups"] == {"module": "torchvision"}


# -- the bundled KB: a matched error fills its record's commands --------------------------

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from errkb_tui.kb import Source, bundled_data_dir  # noqa: E402
from errkb_tui.loader import load_kb  # noqa: E402
from errkb_tui.placeholders import fill, group_names, prompts, record_examples  # noqa: E402
from tests.corpus_cases import read_case  # noqa: E402

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


@pytest.fixture(scope="module")
def bundled():
    kb = load_kb([Source(bundled_data_dir(), "bundled")])
    return kb, Matcher(kb.records)


def test_torchvision_traceback_fills_the_install_command(bundled) -> None:
    kb, matcher = bundled
    top = matcher.best(TRACEBACK)
    assert top.id == "python/module-not-found" and top.groups == {"module": "torchvision"}
    filled = fill(kb.get(top.id).workarounds[0].how, top.groups)
    assert filled.runnable and "python -m pip install torchvision" in filled.text
    assert "{=" not in filled.text


def test_without_a_match_the_copy_asks_with_the_example(bundled) -> None:
    kb, _ = bundled
    record = kb.get("python/module-not-found")
    assert prompts(record.workarounds[0].how, {}, record_examples(record)) == [("module", "requests")]
    record = kb.get("kubernetes/crashloopbackoff")
    # workaround 1 names pod and namespace without examples; the record's others give them
    asked = prompts(record.workarounds[1].how, {}, record_examples(record))
    assert asked == [("namespace", "default"), ("pod", "payments-api-6d8f9c7b5-x2kqp"),
                     ("probe_path", "/healthz"), ("probe_port", "8080")]


def test_every_record_with_groups_gets_them_from_its_corpus(bundled) -> None:
    kb, matcher = bundled
    with_groups = [r for r in kb.records if r.regex and group_names(r.regex)]
    assert len(with_groups) >= 10
    for summary in with_groups:
        text = read_case(CORPUS / f"{summary.id}.txt", summary.id).text
        top = matcher.best(text)
        assert top.id == summary.id and top.groups, summary.id
        record = kb.get(summary.id)
        filled = [fill(w.how, top.groups) for w in record.workarounds]
        assert any(f.spans for f in filled), summary.id  # the captured values reach a command
        for f in filled:
            assert all(f.text[start:end] == top.groups[name] for start, end, name in f.spans)
