"""From copied text to ranked records: error lines, prefixes, escapes, chains, fuzzy, caps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from errkb_tui.kb import default_sources
from errkb_tui.loader import load_kb
from errkb_tui.match import (
    MAX_INPUT_BYTES,
    Match,
    Matcher,
    clean_text,
    elaborated_lines,
    is_error_line,
    literal_length,
    strip_prefix,
)
from errkb_tui.model import Record

ROOT = Path(__file__).resolve().parents[2]
SEED_ID = "pytorch/ddp-bucket-view-error"
SEED = Record.model_validate(json.loads((ROOT / "data" / "pytorch" / "ddp-bucket-view-error.json").read_text("utf-8")))
DDP_CORPUS = ROOT / "tests" / "corpus" / "pytorch" / "ddp-bucket-view-error.txt"
NEGATIVE_DIR = ROOT / "tests" / "corpus" / "_negative"
DDP_LINE = ("RuntimeError: BucketView has wrong size: expected 2359296, got 1179648. "
            "This could be due to mismatched model parameters across ranks.")


def make(record_id: str, regex: str | None, signature: str | None = None, category: str = "runtime_error") -> Record:
    """A valid minimal record."""
    return Record.model_validate({
        "id": record_id,
        "signature": signature or regex,
        "domain": record_id.split("/", 1)[0],
        "category": category,
        "regex": regex,
    })


KEY_ERROR = make("python/key-error-user-id", r"KeyError: 'user_id'", "KeyError: 'X'")
VALUE_ERROR = make("python/int-parse", r"ValueError: invalid literal for int\(\) with base 10",
                   "ValueError: invalid literal for int() with base 10: X")
GENERIC = make("python/runtime-error", "RuntimeError", "RuntimeError: X")
NPM = make("node/eresolve", r"ERESOLVE unable to resolve dependency tree", "npm ERR! ERESOLVE unable to resolve dependency tree")
TLS = make("net/tls-reset", None,
           "ConnectionResetError: [Errno 104] Connection reset by peer during TLS handshake with proxy server X")


@pytest.fixture(scope="module")
def matcher() -> Matcher:
    return Matcher([KEY_ERROR, VALUE_ERROR, NPM, TLS, SEED])


def ids(matches: list[Match]) -> list[str]:
    return [m.id for m in matches]


# -- the seed on its real traceback ---------------------------------------------------------


def test_ddp_corpus_matches_the_seed_first_and_confident(matcher: Matcher) -> None:
    matches = matcher.match(DDP_CORPUS.read_text(encoding="utf-8"))
    top = matches[0]
    assert top.id == SEED_ID
    assert top.confident
    assert top.method == "regex"
    assert "BucketView" in top.line
    lines = DDP_CORPUS.read_text(encoding="utf-8").splitlines()
    assert "BucketView has wrong size" in lines[top.line_number - 1]
    assert 0 < top.score <= 1
    assert matcher.best(DDP_CORPUS.read_bytes()) == top


def test_match_json_shape() -> None:
    top = Matcher([SEED]).match(DDP_LINE)[0]
    assert top.to_json() == {"id": SEED_ID, "score": top.score, "method": "regex",
                             "line": DDP_LINE, "confident": True, "groups": {}}


def test_limit(matcher: Matcher) -> None:
    both = Matcher([GENERIC, SEED])
    assert len(both.match(DDP_LINE)) == 2
    assert ids(both.match(DDP_LINE, limit=1)) == [SEED_ID]


def test_specific_beats_generic() -> None:
    # Whatever the record order, the generic `RuntimeError` regex ranks below the seed.
    for records in ([GENERIC, SEED], [SEED, GENERIC]):
        matches = Matcher(records).match(DDP_CORPUS.read_text(encoding="utf-8"))
        assert ids(matches)[:2] == [SEED_ID, GENERIC.id]
        assert matches[0].score > matches[1].score


def test_generic_record_alone_still_matches() -> None:
    matches = Matcher([GENERIC]).match("RuntimeError: something else entirely went wrong")
    assert ids(matches) == [GENERIC.id]
    assert matches[0].method == "regex"


def test_regex_with_few_literals_is_never_confident() -> None:
    short = make("python/short", r"Err\w+")
    matches = Matcher([short]).match("ValueError: Errno whatever happened here")
    assert ids(matches) == ["python/short"]
    assert not matches[0].confident


# -- chained exceptions ---------------------------------------------------------------------

CONTEXT_CHAIN = """Traceback (most recent call last):
  File "app.py", line 3, in <module>
    user = row['user_id']
KeyError: 'user_id'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "app.py", line 5, in <module>
    user = int('abc')
ValueError: invalid literal for int() with base 10: 'abc'
"""

CAUSE_CHAIN = """Traceback (most recent call last):
  File "app.py", line 5, in <module>
    user = int('abc')
ValueError: invalid literal for int() with base 10: 'abc'

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "app.py", line 9, in <module>
    raise KeyError('user_id') from exc
KeyError: 'user_id'
"""


@pytest.mark.parametrize("text, final, earlier", [
    (CONTEXT_CHAIN, VALUE_ERROR.id, KEY_ERROR.id),
    (CAUSE_CHAIN, KEY_ERROR.id, VALUE_ERROR.id),
], ids=["during-handling", "direct-cause"])
def test_chained_exceptions_rank_the_final_one_first(matcher: Matcher, text: str, final: str, earlier: str) -> None:
    matches = matcher.match(text)
    assert ids(matches)[:2] == [final, earlier]
    assert matches[0].confident
    assert matches[0].line_number > matches[1].line_number


def test_chain_final_exception_wins_even_with_a_barely_specific_regex() -> None:
    final = make("python/oserror", "OSError:", "OSError: X")  # 8 fixed characters
    text = CAUSE_CHAIN.replace("KeyError: 'user_id'", "OSError: [Errno 28] No space left on device")
    text = "\n".join("[rank0]: " + line for line in text.splitlines())
    matches = Matcher([VALUE_ERROR, final]).match(text)
    assert ids(matches) == [final.id, VALUE_ERROR.id]
    assert matches[0].confident and matches[0].score > matches[1].score


def test_without_chain_markers_a_specific_earlier_error_beats_a_generic_later_one() -> None:
    # Like torchrun: the worker's specific error, then the launcher's generic one.
    launcher = make("pytorch/child-failed", "ChildFailedError", "ChildFailedError: X")
    matches = Matcher([launcher, SEED]).match(DDP_CORPUS.read_text(encoding="utf-8"))
    assert ids(matches) == [SEED_ID, launcher.id]


# -- escapes and prefixes --------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    f"\x1b[1;31m{DDP_LINE}\x1b[0m",
    "\x1b[31mRuntimeError\x1b[0m: \x1b[1mBucketView\x1b[22m has wrong size: expected 2359296, got 1179648.",
    f"\x1b]8;;https://example.org/trace\x07{DDP_LINE}\x1b]8;;\x07",
    f"\x1b]0;train.py — rank 0\x1b\\\x1b[38;5;196m{DDP_LINE}\x1b[m",
    f"\x1b]133;D;1\x07[rank0]: {DDP_LINE}\r\n",
    f"\x9b31m{DDP_LINE}\x9b0m",
])
def test_escape_sequences_around_the_error_line(matcher: Matcher, text: str) -> None:
    top = matcher.best(text)
    assert top is not None
    assert (top.id, top.method, top.confident) == (SEED_ID, "regex", True)
    assert "\x1b" not in top.line and "\x07" not in top.line and "\x9b" not in top.line


def test_clean_text_removes_escapes_and_controls() -> None:
    assert clean_text("\x1b[31mred\x1b[0m\x00\x07 \x1b]0;title\x07ok\r\nnext\tx") == "red ok\nnext    x"


@pytest.mark.parametrize("prefix", [
    "[rank0]: ",
    "[rank12]:",
    "2024-05-01 12:00:00,123 ERROR ",
    "2024-05-01T12:00:00.123Z ERROR: ",
    "[2024-05-01 12:00:00] ",
    "E   ",
    "E       ",
    "npm ERR! ",
    "#8 0.512 ",
    "web-1  | ",
])
def test_log_prefixes_are_handled(matcher: Matcher, prefix: str) -> None:
    line = prefix + DDP_LINE
    assert strip_prefix(line) == DDP_LINE
    text = f"{prefix}Traceback (most recent call last):\n{prefix}  File \"x.py\", line 1\n{line}\n"
    top = matcher.best(text)
    assert top is not None and top.id == SEED_ID and top.confident
    assert top.line == line  # the line as the user copied it


def test_npm_err_prefix_with_anchored_regex() -> None:
    anchored = make("node/anchored", r"^ERESOLVE unable to resolve dependency tree$")
    matches = Matcher([anchored]).match("npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\n")
    assert ids(matches) == ["node/anchored"]
    assert matches[0].line_number == 2 and matches[0].confident


def test_pytest_prefix_with_anchored_regex() -> None:
    anchored = make("python/anchored", r"^KeyError: 'user_id'$")
    text = "    def test_x():\n>       row['user_id']\nE       KeyError: 'user_id'\n\ntest_x.py:3: KeyError\n"
    matches = Matcher([anchored]).match(text)
    assert ids(matches) == ["python/anchored"]
    assert matches[0].line.startswith("E ")


def test_error_line_detection() -> None:
    assert is_error_line("ValueError: bad")
    assert is_error_line("torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ")
    assert is_error_line("error[E0502]: cannot borrow")
    assert not is_error_line("Quarterly planning notes")


# -- robustness ------------------------------------------------------------------------------


def test_pathological_regex_completes_on_100kb_input() -> None:
    evil = make("re/evil", r"error(a+)+$", "catastrophic backtracking sample")
    matcher = Matcher([evil, SEED])
    matches = matcher.match("error" + "a" * 100_000 + "b")
    assert isinstance(matches, list)
    assert all(not m.confident for m in matches)  # 6 fixed characters: never confident
    # The same records still match real input afterwards.
    assert matcher.best(DDP_LINE).id == SEED_ID


def test_bytes_with_invalid_utf8_do_not_raise(matcher: Matcher) -> None:
    data = b"\xff\xfe\x80garbage\xc3\n" + DDP_LINE.encode() + b"\n\xed\xa0\x80 tail \xf0\x9f\n"
    top = matcher.best(data)
    assert top is not None and top.id == SEED_ID


def test_lone_surrogates_in_str_do_not_raise(matcher: Matcher) -> None:
    text = "\ud800 before\n" + DDP_LINE + " \udfff\n\udc80"
    top = matcher.best(text)
    assert top is not None and top.id == SEED_ID
    json.dumps(top.to_json())  # serialisable: no lone surrogates leak into the result
    top.line.encode("utf-8")


def test_empty_and_blank_input(matcher: Matcher) -> None:
    assert matcher.match("") == []
    assert matcher.match(b"") == []
    assert matcher.match("\n\n   \n") == []


def test_matcher_with_no_records() -> None:
    assert Matcher([]).match(DDP_LINE) == []


def _noise(size: int) -> str:
    line = "epoch 3 batch 12345/99999 loss=0.1234 lr=0.0001 throughput=812.5 samples/s\n"
    return line * (size // len(line) + 1)


def test_input_is_capped_to_its_end(matcher: Matcher) -> None:
    noise = _noise(1024 * 1024)
    assert len(noise) > 4 * MAX_INPUT_BYTES
    at_end = noise + "Traceback (most recent call last):\n" + DDP_LINE + "\n"
    top = matcher.best(at_end)
    assert top is not None and top.id == SEED_ID and top.confident
    assert matcher.match(DDP_LINE + "\n" + noise) == []
    # The same cap applies to bytes.
    assert matcher.best(at_end.encode()).id == SEED_ID
    assert matcher.match((DDP_LINE + "\n" + noise).encode()) == []


def test_clean_text_cap_counts_utf8_bytes() -> None:
    text = "é" * MAX_INPUT_BYTES + "END"  # 2 bytes per character
    cleaned = clean_text(text)
    assert cleaned.endswith("END")
    assert len(cleaned.encode("utf-8")) <= MAX_INPUT_BYTES


# -- negatives -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def full_matcher() -> Matcher:
    """The bundled KB plus this module's records."""
    kb = load_kb(default_sources([], environ={}))
    extra = [r for r in (KEY_ERROR, VALUE_ERROR, GENERIC, NPM, TLS) if r.id not in kb.by_id]
    return Matcher([*kb.records, *extra])


NEGATIVES = sorted(p for p in NEGATIVE_DIR.iterdir() if p.is_file()) if NEGATIVE_DIR.is_dir() else []


def test_there_are_negative_samples() -> None:
    assert NEGATIVES


@pytest.mark.parametrize("path", NEGATIVES, ids=[p.name for p in NEGATIVES])
def test_negative_corpus_gives_no_confident_match(full_matcher: Matcher, path: Path) -> None:
    matches = full_matcher.match(path.read_bytes())
    assert not any(m.confident for m in matches), [(m.id, m.method, m.line) for m in matches]


# -- fuzzy fallback --------------------------------------------------------------------------


def test_fuzzy_near_miss_is_not_confident(matcher: Matcher) -> None:
    text = "ConnectionResetError: connection was reset during the handshake"
    matches = matcher.match(text)
    assert matches and matches[0].id == TLS.id
    assert matches[0].method == "fuzzy"
    assert not matches[0].confident
    assert matches[0].line == text


def test_fuzzy_on_a_line_close_to_a_regex_records_signature(matcher: Matcher) -> None:
    # The seed's regex needs "has wrong size"; this line says "has the wrong size".
    text = ("RuntimeError: BucketView has the wrong size: expected 4, got 2. "
            "This could be due to mismatched model parameters across ranks.")
    top = matcher.best(text)
    assert top is not None
    assert (top.id, top.method, top.confident) == (SEED_ID, "fuzzy", True)  # nearly identical
    vague = matcher.best("RuntimeError: BucketView size is wrong somehow")
    assert vague is not None and vague.method == "fuzzy" and not vague.confident


def test_fuzzy_nearly_identical_is_confident(matcher: Matcher) -> None:
    text = "ConnectionResetError: [Errno 104] Connection reset by peer during TLS handshake with proxy server 10.0.0.1"
    top = matcher.best(text)
    assert top is not None and (top.id, top.method, top.confident) == (TLS.id, "fuzzy", True)


@pytest.mark.parametrize("text", [
    "ConnectionResetError: [Errno 104] Connection reset by peer",
    "ConnectionResetError: Connection reset",
])
def test_fuzzy_line_that_is_only_part_of_a_signature_is_not_confident(matcher: Matcher, text: str) -> None:
    # Every word of the line is in the signature, but the signature says much more.
    top = matcher.best(text)
    assert top is not None and top.id == TLS.id and top.method == "fuzzy"
    assert not top.confident


def test_fuzzy_confident_match_ranks_above_unconfident_ones() -> None:
    near = make("net/plain-reset", None, "ConnectionResetError: [Errno 104] Connection reset by peer")
    matches = Matcher([TLS, near]).match("ConnectionResetError: [Errno 104] Connection reset by peer")
    assert ids(matches) == [near.id, TLS.id]
    assert matches[0].confident and not matches[1].confident
    assert matches[0].score > matches[1].score


def test_no_fuzzy_match_without_an_error_line(matcher: Matcher) -> None:
    # Words from a signature, but nothing that looks like an error line.
    assert matcher.match("connection reset by peer during TLS handshake with proxy server") == []


# -- literal_length ---------------------------------------------------------------------------


@pytest.mark.parametrize("pattern, expected", [
    ("RuntimeError", 12),
    ("Err.*", 3),
    (r"BucketView has wrong size: expected \d+, got \d+", 42),
    (r"KeyError: 'user_id'", 19),
    (r"\(\)", 2),
    (r"\d+\s*", 0),
    ("[abc]def", 3),
    ("colou?r", 5),
    ("(?:foo)?bar", 3),
    ("(?i)abc", 3),
    ("(?P<name>abc)", 3),
    ("foo|ba", 2),
    ("(?:cannot|can't) open", 10),
    ("a{3}", 3),
    ("x+", 1),
    ("^$", 0),
    (r"\x41B", 2),
])
def test_literal_length(pattern: str, expected: int) -> None:
    assert literal_length(pattern) == expected


# -- wrappers, general records, elaboration lines ----------------------------------------------


def tagged(record_id: str, regex: str, *tags: str) -> Record:
    return make(record_id, regex).model_copy(update={"tags": list(tags)})


NPM_RUN = """\
> app@1.0.0 build
> tsc -p .

Error: Cannot find module 'typescript/bin/tsc'
npm ERR! code 1
npm ERR! path /home/dev/app
npm ERR! command failed
npm ERR! command sh -c tsc -p .
"""


@pytest.mark.parametrize("line", [
    "npm ERR! code 1", "npm error code 1", "npm ERR! code ELIFECYCLE", "npm ERR! command failed",
    "Error: Process completed with exit code 2.", "BUILD FAILED",
    "FAILURE: Build failed with an exception.",
    "error: could not compile `app` (bin \"app\") due to 2 previous errors",
    "error Command failed with exit code 1.",
    "The command '/bin/sh -c pip install -r requirements.txt' returned a non-zero code: 1",
    'ERROR: failed to solve: process "/bin/sh -c npm ci" did not complete successfully: exit code: 1',
    "executor failed running [/bin/sh -c yarn install --production]: exit code: 1",
    "error: subprocess-exited-with-error",
    "ERROR: Encountered errors while bringing up the project.",
    "collect2: error: ld returned 1 exit status",
    "clang: error: linker command failed with exit code 1 (use -v to see invocation)",
])
def test_wrapper_lines_are_not_error_lines(line: str) -> None:
    assert not is_error_line(line)


def test_the_real_error_above_a_wrapper_wins() -> None:
    real = make("node/cannot-find-module", r"Error: Cannot find module '[^']+'")
    wrapper = tagged("node/npm-command-failed", r"npm (?:ERR!|error) command failed", "wrapper")
    matches = Matcher([wrapper, real]).match(NPM_RUN)
    assert ids(matches) == ["node/cannot-find-module", "node/npm-command-failed"]
    assert matches[0].confident and not matches[1].confident


def test_a_wrapper_alone_is_matched_confidently() -> None:
    wrapper = tagged("node/npm-command-failed", r"npm (?:ERR!|error) command failed", "wrapper")
    text = "npm ERR! code 1\nnpm ERR! path /home/dev/app\nnpm ERR! command failed\n"
    [match] = Matcher([wrapper]).match(text)
    assert match.id == "node/npm-command-failed" and match.confident


def test_without_a_record_for_the_real_error_the_wrapper_still_answers() -> None:
    wrapper = tagged("node/npm-command-failed", r"npm (?:ERR!|error) command failed", "wrapper")
    other = make("python/key-error", r"KeyError: 'user_id'")
    [match] = Matcher([wrapper, other]).match(NPM_RUN)
    assert match.id == "node/npm-command-failed" and match.confident


LINK_MISSING_LIBRARY = """\
gcc main.o -o app -lfoo
/usr/bin/ld: cannot find -lfoo: No such file or directory
collect2: error: ld returned 1 exit status
"""


def test_the_linker_summary_line_gives_way_to_the_linker_error_above_it() -> None:
    # gcc's collect2 line only says that the link failed; the ld line above says why. The two
    # records used to tie, each confident, and which came first was down to the tie-break.
    missing = make("cpp/ld-cannot-find-library", r"ld: cannot find -l(?P<lib>[\w.+-]+)")
    undefined = make("cpp/undefined-reference",
                     r"undefined reference to `|collect2: error: ld returned 1 exit status")
    matcher = Matcher([undefined, missing])
    assert [(m.id, m.confident) for m in matcher.match(LINK_MISSING_LIBRARY)] == [
        ("cpp/ld-cannot-find-library", True), ("cpp/undefined-reference", False)]
    [alone] = matcher.match(LINK_MISSING_LIBRARY.splitlines()[-1])
    assert alone.id == "cpp/undefined-reference" and alone.confident


LINK_UNDEFINED = """\
/usr/bin/ld: main.o: in function `main':
main.c:(.text+0x9): undefined reference to `foo'
collect2: error: ld returned 1 exit status
"""


def test_a_record_that_takes_both_lines_is_reported_on_the_one_that_says_what_failed() -> None:
    # One regex takes both gcc's "undefined reference" line and the collect2 summary under
    # it. The hit used to land on the summary line (the later one), which shows the user a
    # line that says nothing and ranks the record as a summary hit.
    undefined = make("cpp/undefined-reference",
                     r"undefined reference to `|collect2: error: ld returned 1 exit status")
    [match] = Matcher([undefined]).match(LINK_UNDEFINED)
    assert match.line_number == 2 and "undefined reference" in match.line
    assert match.confident
    # Beside another record's hit on the summary line only, the real line still ranks first.
    summary_only = make("cpp/link-failed", r"collect2: error: ld returned \d+ exit status")
    matches = Matcher([summary_only, undefined]).match(LINK_UNDEFINED)
    assert [(m.id, m.confident) for m in matches] == [
        ("cpp/undefined-reference", True), ("cpp/link-failed", False)]


PIP_IN_DOCKER_20 = """\
#9 53.25 error: metadata-generation-failed
#9 53.25 × Encountered error while generating package metadata.
------
executor failed running [/bin/sh -c pip install '.[all]']: exit code: 1
"""


def test_a_summary_line_gives_way_to_the_error_it_sums_up_even_a_wrapped_one() -> None:
    # pip's record is itself a wrapper (it relays a build backend's failure), but its line
    # is the error; Docker 20.10's last line only says that the RUN step failed.
    pip = tagged("pip/metadata", r"error: metadata-generation-failed", "wrapper")
    docker = tagged("docker/run-failed", r"executor failed running \[.*\]: exit code: \d+", "wrapper")
    matcher = Matcher([docker, pip])
    assert [(m.id, m.confident) for m in matcher.match(PIP_IN_DOCKER_20)] == [
        ("pip/metadata", True), ("docker/run-failed", False)]
    [alone] = matcher.match(PIP_IN_DOCKER_20.splitlines()[-1])
    assert alone.id == "docker/run-failed" and alone.confident
    # Only an error above it: a summary line sums up what came before, not what follows.
    after = PIP_IN_DOCKER_20.splitlines()[-1] + "\nerror: metadata-generation-failed\n"
    assert all(m.confident for m in matcher.match(after))


def test_a_general_record_gives_way_to_the_tools_own() -> None:
    general = tagged("linux/enospc", r"[Nn]o space left on device", "general")
    docker = make("docker/no-space", r"/var/lib/docker\S*: no space left on device")
    matcher = Matcher([general, docker])
    text = "Error response from daemon: write /var/lib/docker/tmp/x: no space left on device"
    assert [(m.id, m.confident) for m in matcher.match(text)] == [
        ("docker/no-space", True), ("linux/enospc", False)]
    [bare] = matcher.match("no space left on device")
    assert bare.id == "linux/enospc" and bare.confident


TSC_2345 = """\
src/app.ts(12,7): error TS2345: Argument of type 'string | undefined' is not assignable to parameter of type 'string'.
  Type 'undefined' is not assignable to type 'string'.
"""


def test_an_elaboration_line_does_not_make_its_neighbour_win() -> None:
    ts2322 = make("typescript/ts2322", r"(?:TS2322: |^)Type '.+' is not assignable to type '")
    ts2345 = make("typescript/ts2345", r"TS2345: Argument of type '.+' is not assignable to parameter of type")
    assert [(m.id, m.confident) for m in Matcher([ts2322, ts2345]).match(TSC_2345)] == [
        ("typescript/ts2345", True), ("typescript/ts2322", False)]
    # With no record for TS2345, the elaboration line is still a lead, never a confident one.
    [only] = Matcher([ts2322]).match(TSC_2345)
    assert only.id == "typescript/ts2322" and not only.confident


def test_a_coded_error_of_its_own_is_not_an_elaboration() -> None:
    ts2322 = make("typescript/ts2322", r"(?:TS2322: |^)Type '.+' is not assignable to type '")
    text = ("src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.\n"
            "  Type 'string' is not assignable to type 'number'.\n")
    [match] = Matcher([ts2322]).match(text)
    assert match.confident and match.line_number == 1


def test_elaborated_lines_follow_indentation_and_blank_lines() -> None:
    lines = ["a.ts(1,1): error TS2345: x", "  Type 'a'", "    Type 'b'", "", "  later", "error TS2322: y", "ok"]
    assert elaborated_lines(lines) == [-1, 0, 0, -1, -1, -1, -1]
    # ts-loader indents the coded line more than the elaboration under it
    ts_loader = ["[tsl] ERROR in x.ts(771,5)", "      TS2345: Argument of type 'null'", "  Type 'null' is not", "done"]
    assert elaborated_lines(ts_loader) == [-1, -1, 1, -1]


# -- banners -------------------------------------------------------------------------------

JEST_BANNER = """\
 FAIL  src/app.test.js
  ● Test suite failed to run

    Jest encountered an unexpected token

    Jest failed to parse a file. This happens e.g. when your code or its dependencies use non-standard JavaScript syntax, or when Jest is not configured to support such syntax.

    Details:

    /home/dev/app/node_modules/lib/index.js:1
    import { x } from './x.js';
    ^^^^^^

    SyntaxError: Cannot use import statement outside a module
"""
JEST = r"Jest encountered an unexpected token"
ESM = r"SyntaxError: Cannot use import statement outside a module"


def test_a_banner_outranks_the_error_it_frames() -> None:
    banner = tagged("jest/unexpected-token", JEST, "banner")
    matches = Matcher([make("node/import-outside-module", ESM), banner]).match(JEST_BANNER)
    assert [(m.id, m.confident) for m in matches] == [
        ("jest/unexpected-token", True), ("node/import-outside-module", True)]
    # Untagged, the later error line wins, as for any other pair of hits.
    plain = Matcher([make("node/import-outside-module", ESM), make("jest/unexpected-token", JEST)])
    assert plain.best(JEST_BANNER).id == "node/import-outside-module"


def test_a_banner_does_not_reach_an_error_far_below_it() -> None:
    banner = tagged("jest/unexpected-token", JEST, "banner")
    later = JEST_BANNER + "    at x (y.js:1:1)\n" * 60 + "TypeError: Cannot read properties of undefined (reading 'id')\n"
    matcher = Matcher([banner, make("javascript/undefined-property", r"TypeError: Cannot read propert(?:y|ies) of undefined")])
    assert matcher.best(later).id == "javascript/undefined-property"


def test_oomkilled_false_is_not_an_error(full_matcher: Matcher) -> None:
    # `docker inspect` prints the field whether or not the container was killed.
    assert not is_error_line('"OOMKilled": false,')
    assert not is_error_line("OOMKilled: false")
    assert is_error_line('"OOMKilled": true,')
    state = '"State": {\n    "Status": "exited",\n    "OOMKilled": false,\n    "Dead": false,\n'
    assert full_matcher.match(state) == []  # it was a fuzzy lead to kubernetes/oomkilled
