"""The draft generaliser on real error lines (from tests/corpus) of many ecosystems: the
regex is RE2-valid, specific, matches its line, no prose, and a second copy of the same
error with other values; the draft record validates and lints as designed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.corpus_cases import read_case
from errkb_tui import draft as drafts
from errkb_tui.lint import lint_record
from errkb_tui.match import Matcher
from errkb_tui.model import Record, compile_regex
from errkb_tui.patterns import CONFIDENT_LITERALS, literal_length

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
NEGATIVE = sorted((CORPUS / "_negative").glob("*.txt"))
ALL = sorted(p for p in CORPUS.glob("*/*.txt") if p.parent.name != "_negative")

#: (corpus file, its error line as a second copy would print it: other names, numbers, paths).
SECOND_COPIES = [
    ("python/module-not-found.txt", "ModuleNotFoundError: No module named 'torchvision'", {"module": "torchvision"}),
    ("python/too-many-open-files.txt", "OSError: [Errno 24] Too many open files: '/srv/app/cache/item_77.json'",
     {"path": "/srv/app/cache/item_77.json"}),
    ("python/unicode-decode-error.txt",
     "UnicodeDecodeError: 'utf-8' codec can't decode byte 0x9c in position 12: invalid continuation byte", {}),
    ("node/cannot-find-module.txt", "Error: Cannot find module 'express'", {"module": "express"}),
    ("node/npm-eacces-global-install.txt",
     "npm ERR! Error: EACCES: permission denied, mkdir '/usr/lib/node_modules/typescript'", {}),
    ("rust/e0277-not-send.txt", "error: future cannot be sent between threads safely", {}),
    ("go/index-out-of-range.txt", "panic: runtime error: index out of range [7] with length 3", {}),
    ("go/declared-and-not-used.txt", "cmd/api/main.go:41:9: declared and not used: header", {}),
    ("java/classnotfoundexception.txt",
     "Caused by: java.lang.ClassNotFoundException: com.example.billing.Invoice", {"class": "com.example.billing.Invoice"}),
    ("java/outofmemoryerror-heap-space.txt",
     'Find symbols...Exception in thread "worker-3" java.lang.OutOfMemoryError: Java heap space', {}),
    ("docker/exec-format-error.txt", "exec /app/entrypoint.sh: exec format error", {"path": "/app/entrypoint.sh"}),
    ("mysql/access-denied-for-user.txt",
     "ERROR 1045 (28000): Access denied for user 'app'@'10.0.0.7' (using password: YES)", {"user": "app"}),
    ("postgres/connection-refused.txt",
     'psql: error: connection to server at "db.internal" (10.1.2.3), port 6543 failed: Connection refused '
     '(0x0000274D/10061)', {"port": "6543"}),
    ("linux/command-not-found.txt", "bash: rg: command not found", {"command": "rg"}),
    ("linux/ssh-connection-refused.txt", "ssh: connect to host localhost port 2222: Connection refused",
     {"port": "2222"}),
    ("pip/no-matching-distribution.txt", "ERROR: No matching distribution found for torch==2.9.1",
     {"package": "torch", "version": "2.9.1"}),
    ("pytorch/cuda-out-of-memory.txt",
     "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB. GPU 1 has a total capacity of "
     "79.19 GiB of which 88.06 MiB is free. Including non-PyTorch memory, this process has 79.10 GiB memory in use.", {}),
    ("git/dubious-ownership.txt", "fatal: detected dubious ownership in repository at '/home/runner/work/api/api'", {}),
    ("kubernetes/create-container-config-error.txt",
     'Warning  Failed     2m (x12 over 5m)  kubelet  Error: secret "payments-token" not found', {}),
    ("numpy/removed-alias-np-float.txt", "AttributeError: module 'numpy' has no attribute 'int'.",
     {"attribute": "int"}),
    ("node/err-require-esm.txt", "Error [ERR_REQUIRE_ESM]: require() of ES Module /srv/x/node_modules/chalk/source/"
     "index.js from /srv/x/cli.js not supported.", {}),
    ("docker/port-already-allocated.txt", "Error response from daemon: driver failed programming external "
     "connectivity on endpoint web-2 (0a1b2c3d4e5f60718293a4b5c6d7e8f9): Bind for 0.0.0.0:8443 failed: port is "
     "already allocated", {"port": "8443"}),
]


#: Inputs written for these tests (not copied from a report, so not corpus cases): each
#: shows a value the draft must turn into a placeholder (a size, a path, a version).
DRAFT_INPUTS = Path(__file__).resolve().parents[1] / "fixtures" / "draft-inputs"


def corpus_draft(name: str) -> drafts.Draft:
    source = DRAFT_INPUTS / name if (DRAFT_INPUTS / name).exists() else CORPUS / name
    found = drafts.build_draft(read_case(source, "").text)
    assert found is not None
    return found


def test_at_least_ten_ecosystems_are_covered() -> None:
    assert len({name.split("/")[0] for name, _, _ in SECOND_COPIES}) >= 10


@pytest.mark.parametrize("path", ALL, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_corpus_draft_is_valid_specific_and_matches_its_line_but_no_prose(path: Path) -> None:
    draft = drafts.build_draft(path.read_text(encoding="utf-8"))
    assert draft is not None
    regex = draft.record["regex"]
    compiled = compile_regex(regex)  # RE2 accepts it
    assert literal_length(regex) >= CONFIDENT_LITERALS
    assert compiled.search(draft.generalised.line)
    assert drafts.example_matches(regex, draft.example)
    for negative in NEGATIVE:
        for line in negative.read_text(encoding="utf-8").splitlines():
            assert not compiled.search(line), (regex, negative.name, line)
    record = Record.model_validate(draft.record)  # the model accepts the draft as is
    assert record.verification_tier == drafts.USER_TIER
    assert set(draft.generalised.groups) <= set(compile_regex(regex).groupindex)


@pytest.mark.parametrize(("name", "second", "groups"), SECOND_COPIES, ids=[c[0] for c in SECOND_COPIES])
def test_a_second_copy_with_other_values_matches_confidently(name: str, second: str, groups: dict) -> None:
    draft = corpus_draft(name)
    record = Record.model_validate(draft.record)
    matches = Matcher([record]).match("some output before\n" + second + "\n")
    assert matches and matches[0].id == record.id and matches[0].confident, (draft.record["regex"], second)
    for key, value in groups.items():
        assert matches[0].groups.get(key) == value


@pytest.mark.parametrize("path", NEGATIVE, ids=lambda p: p.name)
def test_a_draft_made_from_prose_still_matches_no_other_prose(path: Path) -> None:
    draft = drafts.build_draft(path.read_text(encoding="utf-8"))
    if draft is None:
        return
    compiled = compile_regex(draft.record["regex"])
    for other in NEGATIVE:
        if other != path:
            assert not any(compiled.search(line) for line in other.read_text(encoding="utf-8").splitlines())


def test_named_groups_are_narrow_and_placeholders_in_the_signature() -> None:
    draft = corpus_draft("python/circular-import.txt")
    regex, signature = draft.record["regex"], draft.record["signature"]
    assert "(?P<module>" in regex and "{=module}" in signature and "{=path}" in signature
    rules = [m for _, field, m in lint_record(Record.model_validate(draft.record)) if field == "regex"]
    assert not [m for m in rules if "named group" in m], rules


@pytest.mark.parametrize(("line", "domain", "category"), [
    ("ModuleNotFoundError: No module named 'x'", "python", "import_error"),
    ("npm ERR! code ERESOLVE", "node", "install_error"),
    ("error[E0502]: cannot borrow `v` as mutable because it is also borrowed as immutable", "rust", "compile_error"),
    ("panic: runtime error: invalid memory address or nil pointer dereference", "go", "panic"),
    ('Exception in thread "main" java.lang.NullPointerException', "java", "runtime_error"),
    ("Error response from daemon: conflict: unable to remove repository reference", "docker", None),
    ('Error from server (NotFound): pods "web-0" not found', "kubernetes", None),
    ("src/app.ts(3,21): error TS2307: Cannot find module './x' or its corresponding type declarations.",
     "typescript", "import_error"),
])
def test_domain_and_category_guesses(line: str, domain: str, category: str | None) -> None:
    draft = drafts.build_draft(line)
    assert draft is not None and draft.record["domain"] == domain
    if category:
        assert draft.record["category"] == category
    assert draft.id.startswith(domain + "/")


def test_versions_are_seeded_from_the_text() -> None:
    text = ('  File "/usr/lib/python3.11/site-packages/foo/bar.py", line 3, in <module>\n'
            "ModuleNotFoundError: No module named 'foo'\n")
    assert [v["version"] for v in drafts.build_draft(text).record["versions"]] == ["3.11"]
    node = "Error: Cannot find module 'x'\n\nNode.js v20.11.1\n"
    assert [v["version"] for v in drafts.build_draft(node).record["versions"]] == ["20.11"]
    torch = ('  File "/opt/venv/lib/python3.10/site-packages/torch/nn/modules/module.py", line 1, in f\n'
             "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (torch 2.3.1)\n")
    record = drafts.build_draft(torch).record
    assert record["domain"] == "pytorch" and [v["version"] for v in record["versions"]] == ["2.3.1"]


def test_the_id_is_unique_in_the_target() -> None:
    text = "ModuleNotFoundError: No module named 'x'"
    first = drafts.build_draft(text)
    second = drafts.build_draft(text, taken={first.id})
    third = drafts.build_draft(text, taken=lambda i: i in (first.id, second.id))
    assert second.id == first.id + "-2" and third.id == first.id + "-3"


def test_an_odd_line_falls_back_to_itself_escaped() -> None:
    general = drafts.generalise("'a' 1 2")  # all variables: too generic as a pattern
    assert general.regex == re.sub(r"([\\.^$|?*+()\[\]{}])", r"\\\1", general.line)
    assert compile_regex(general.regex).search("'a' 1 2")


def test_no_words_no_draft() -> None:
    assert drafts.build_draft("") is None and drafts.build_draft("\n  \n12 34\n") is None


def test_the_draft_needs_a_workaround_then_validates(tmp_path: Path) -> None:
    draft = corpus_draft("python/module-not-found.txt")
    record = Record.model_validate(draft.record)
    errors = [(f, m) for s, f, m in lint_record(record) if s == "error"]
    assert errors and errors[0][0] == "workarounds"
    data = json.loads(draft.to_json())
    data["workarounds"] = [dict(data[drafts.EXAMPLE_WORKAROUND_KEY])]  # the example, unedited
    unedited = [f for s, f, _ in lint_record(Record.model_validate(data)) if s == "error"]
    assert unedited == ["workarounds[0].action", "workarounds[0].how"]
    data["workarounds"] = [dict(data[drafts.EXAMPLE_WORKAROUND_KEY], action="Install it into that interpreter",
                                how="python -m pip install {=module}")]
    fixed = Record.model_validate(data)
    assert not [m for s, _, m in lint_record(fixed) if s == "error"]


def test_write_draft_is_atomic_and_never_overwrites(tmp_path: Path) -> None:
    draft = corpus_draft("python/module-not-found.txt")
    path = drafts.write_draft(draft, tmp_path)
    assert path == tmp_path / "python" / (draft.id.split("/")[1] + ".json")
    assert json.loads(path.read_text()) == draft.record
    assert drafts.example_path(path).read_text() == draft.example
    with pytest.raises(FileExistsError):
        drafts.write_draft(draft, tmp_path, text="{}")
    assert json.loads(path.read_text()) == draft.record
    assert [p.name for p in path.parent.iterdir() if p.name.startswith(".")] == []
    kept = drafts.save_to_drafts("{ not json", draft.example, draft.id, tmp_path / "drafts")
    again = drafts.save_to_drafts("{ other", draft.example, draft.id, tmp_path / "drafts")
    assert kept != again and kept.read_text() == "{ not json" and again.read_text() == "{ other"


# -- any text: never a regex RE2 rejects, never one that misses its own line -------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_PIECES = st.sampled_from([
    "Error: ", "ModuleNotFoundError: No module named ", "'", '"', "`", "‘", "’", " ", "  ", "\t", "(", ")", "[",
    "]", "{", "}", "\\", "/", "C:\\Users\\x\\", "/home/a/b.py", "0x7ffe", "1.2.3", "v20", "42", "3.5s", "12 MiB",
    "127.0.0.1:8080", "localhost:5432", "port 22", "deadbeefcafe", "550e8400-e29b-41d4-a716-446655440000", "é",
    "漢字", "$", "^", "*", "+", "?", "|", ".", "https://x.io/a?b=c", "x8", "E0502", "[Errno 13]", "\\d+", "(?P<x>",
])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_PIECES | st.text(max_size=8), min_size=1, max_size=25))
def test_any_line_gives_a_valid_regex_that_matches_it(pieces: list[str]) -> None:
    line = "".join(pieces).strip()
    if not line or "\n" in line or "\r" in line:
        return
    general = drafts.generalise(line)
    compiled = compile_regex(general.regex)  # never raises
    assert compiled.search(general.line) is not None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=300))
def test_any_text_gives_a_draft_or_none_never_an_error(text: str) -> None:
    draft = drafts.build_draft(text)
    if draft is not None:
        Record.model_validate(draft.record)
        json.loads(draft.to_json())


def test_the_domain_guess_agrees_with_the_corpus_folders() -> None:
    right = sum(1 for path in ALL if drafts.build_draft(read_case(path, "").text).record["domain"]
                == path.parent.name)
    assert right >= 0.9 * len(ALL)  # the misses are CUDA errors raised through PyTorch and the like


def test_start_edit_copies_a_bundled_record_then_installs_an_override(tmp_path: Path) -> None:
    from errkb_tui.kb import Source, bundled_data_dir
    from errkb_tui.loader import load_kb

    kb = load_kb([Source(bundled_data_dir(), "bundled")])
    copy = drafts.start_edit(kb, "python/module-not-found", tmp_path / "drafts")
    original = (bundled_data_dir() / "python" / "module-not-found.json").read_text()
    assert copy is not None and copy.read_text() == original
    assert not [p for p in drafts.check(copy, tmp_path / "kb") if p.severity == "error"]
    installed = drafts.install(copy, tmp_path / "kb", replace=True)
    assert installed == tmp_path / "kb" / "python" / "module-not-found.json" and not copy.exists()
    assert drafts.start_edit(kb, "no/such-record", tmp_path / "drafts") is None


def test_the_category_guess_mostly_agrees_with_the_bundled_records() -> None:
    from errkb_tui.kb import Source, bundled_data_dir
    from errkb_tui.loader import load_kb

    kb = load_kb([Source(bundled_data_dir(), "bundled")])
    matcher = Matcher([kb.get(r.id) for r in kb.records])
    pairs = []
    for path in ALL:
        text = path.read_text(encoding="utf-8")
        best = matcher.best(text)
        if best is not None:
            pairs.append((drafts.build_draft(text).record["category"], kb.by_id[best.id].category))
    assert sum(1 for got, want in pairs if got == want) >= 0.6 * len(pairs)  # categories are a judgement


def test_the_draft_takes_the_error_above_a_wrapper_line() -> None:
    text = ("Creating network \"app_default\" with the default driver\n"
            "ERROR: for web  Cannot start service web: driver failed programming external connectivity on endpoint "
            "app_web_1: Bind for 0.0.0.0:8080 failed: port is already allocated\n"
            "ERROR: Encountered errors while bringing up the project.\n")
    draft = drafts.build_draft(text)
    assert draft is not None and "port is already allocated" in draft.record["signature"]
    assert draft.record["domain"] == "docker"
