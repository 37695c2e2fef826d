"""The bundled KB: every id of kb-coverage.md, strictly valid, and each matched by its corpus."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from errkb_tui.kb import Source, bundled_data_dir
from errkb_tui.loader import load_kb
from errkb_tui.lint import lint_kb
from errkb_tui.recipes import shell_comments, waiting_commands, zsh_glob_words
from errkb_tui.match import Matcher
from scripts.check_corpus import rank_problem, unlinked_confident
from tests.corpus_cases import cases

SEED = "pytorch/ddp-bucket-view-error"
# The 133 ids of shared/kb-coverage.md, kept here so the check runs anywhere.
COVERAGE_IDS = [
    "pytorch/ddp-bucket-view-error",
    "pytorch/ddp-param-count-mismatch",
    "pytorch/ddp-param-shape-mismatch",
    "pytorch/cuda-out-of-memory",
    "pytorch/tensors-on-different-devices",
    "pytorch/mat1-mat2-shape-mismatch",
    "pytorch/backward-graph-second-time",
    "pytorch/inplace-modified-gradient",
    "pytorch/state-dict-key-mismatch",
    "pytorch/ddp-unused-parameters",
    "pytorch/nccl-collective-timeout",
    "pytorch/dataloader-worker-killed",
    "pytorch/cuda-device-side-assert",
    "pytorch/scalar-type-mismatch",
    "pytorch/tensor-does-not-require-grad",
    "pytorch/distributed-address-in-use",
    "pytorch/numpy-on-grad-tensor",
    "pytorch/no-kernel-image",
    "pytorch/torch-not-compiled-with-cuda",
    "cuda/driver-version-insufficient",
    "cuda/nvidia-smi-driver-communication",
    "cuda/cublas-status-not-initialized",
    "cuda/cudnn-status-error",
    "cuda/libcudart-not-found",
    "python/module-not-found",
    "python/circular-import",
    "python/nonetype-no-attribute",
    "python/nonetype-not-subscriptable",
    "python/indentation-error",
    "python/unicode-decode-error",
    "python/recursion-depth-exceeded",
    "python/dict-changed-size-during-iteration",
    "python/unhashable-type-list",
    "python/too-many-values-to-unpack",
    "python/unexpected-keyword-argument",
    "python/ssl-certificate-verify-failed",
    "python/asyncio-run-in-running-loop",
    "python/too-many-open-files",
    "python/permission-denied",
    "pip/externally-managed-environment",
    "pip/no-matching-distribution",
    "pip/dependency-resolver-conflict",
    "pip/resolution-impossible",
    "pip/failed-building-wheel",
    "pip/msvc-build-tools-required",
    "pip/metadata-generation-failed",
    "numpy/numpy2-abi-incompatible",
    "numpy/removed-alias-np-float",
    "numpy/ambiguous-truth-value",
    "sklearn/input-contains-nan",
    "pandas/setting-with-copy-warning",
    "pandas/none-of-index-in-columns",
    "transformers/cant-load-tokenizer",
    "transformers/tokenizer-no-pad-token",
    "tensorflow/could-not-load-libcudart",
    "jax/jaxlib-version-incompatible",
    "node/npm-eresolve",
    "node/cannot-find-module",
    "node/err-require-esm",
    "node/import-outside-module",
    "node/heap-out-of-memory",
    "node/eaddrinuse",
    "node/enospc-file-watchers",
    "node/npm-eacces-global-install",
    "node/openssl-digital-envelope-unsupported",
    "node/node-gyp-build-failed",
    "typescript/ts2322-not-assignable",
    "typescript/ts2307-cannot-find-module",
    "typescript/ts2339-property-does-not-exist",
    "typescript/ts7016-no-declaration-file",
    "typescript/ts2532-possibly-undefined",
    "react/hydration-mismatch",
    "react/too-many-re-renders",
    "react/missing-key-prop",
    "react/invalid-hook-call",
    "react/object-not-valid-child",
    "docker/daemon-socket-permission-denied",
    "docker/daemon-not-running",
    "docker/no-space-left-on-device",
    "docker/port-already-allocated",
    "docker/exec-format-error",
    "docker/copy-file-not-found",
    "docker/pull-access-denied",
    "docker/executable-not-found-in-path",
    "docker/pull-rate-limit",
    "git/push-rejected-non-fast-forward",
    "git/unrelated-histories",
    "git/merge-conflict",
    "git/ssh-publickey-denied",
    "git/not-a-git-repository",
    "git/local-changes-would-be-overwritten",
    "git/dubious-ownership",
    "git/password-auth-removed",
    "git/rpc-failed-remote-hung-up",
    "rust/e0382-borrow-of-moved-value",
    "rust/e0502-mutable-and-immutable-borrow",
    "rust/e0499-multiple-mutable-borrows",
    "rust/e0106-missing-lifetime-specifier",
    "rust/e0277-not-send",
    "rust/linker-cc-not-found",
    "rust/unwrap-on-none",
    "go/nil-pointer-dereference",
    "go/all-goroutines-asleep-deadlock",
    "go/concurrent-map-writes",
    "go/declared-and-not-used",
    "go/missing-go-sum-entry",
    "go/index-out-of-range",
    "kubernetes/crashloopbackoff",
    "kubernetes/imagepullbackoff",
    "kubernetes/oomkilled",
    "kubernetes/insufficient-resources-scheduling",
    "kubernetes/connection-refused-localhost-8080",
    "kubernetes/unauthorized",
    "kubernetes/create-container-config-error",
    "java/outofmemoryerror-heap-space",
    "java/nullpointerexception",
    "java/unsupported-class-version",
    "java/classnotfoundexception",
    "java/concurrentmodificationexception",
    "terraform/state-lock-error",
    "terraform/inconsistent-lock-file",
    "aws/access-denied-not-authorized",
    "aws/expired-token",
    "aws/unable-to-locate-credentials",
    "linux/command-not-found",
    "linux/ssh-connection-refused",
    "linux/ssh-host-key-changed",
    "linux/dpkg-lock",
    "linux/glibc-version-not-found",
    "postgres/connection-refused",
    "sqlite/database-is-locked",
    "mysql/access-denied-for-user",
    "redis/misconf-rdb-snapshot",
]


@pytest.fixture(scope="module")
def kb():
    return load_kb([Source(bundled_data_dir(), "bundled")])


@pytest.fixture(scope="module")
def matcher(kb):
    return Matcher(kb.records)


def test_every_coverage_id_exists_in_its_file():
    assert len(COVERAGE_IDS) == 133
    for record_id in COVERAGE_IDS:
        assert (bundled_data_dir() / f"{record_id}.json").is_file(), record_id


# The ids of shared/kb-coverage-r2.md (round 2: records are added from this list).
COVERAGE_R2_IDS = (Path(__file__).parent.parent / "fixtures" / "coverage-r2-ids.txt").read_text("utf-8").split()
# Records on neither list: general records for fragments several tools or causes print.
GENERAL_IDS = [
    "numpy/multiarray-failed-to-import",
    "linux/enospc-no-space-left",
    "linux/eacces-permission-denied",
    "linux/econnrefused-connection-refused",
]


def test_bundled_kb_loads_cleanly_and_holds_only_listed_families(kb):
    assert kb.problems == []
    assert len(COVERAGE_R2_IDS) == len(set(COVERAGE_R2_IDS)) == 171
    assert set(COVERAGE_IDS) <= set(kb.by_id)
    assert set(GENERAL_IDS) <= set(kb.by_id)
    assert sorted(set(kb.by_id) - set(COVERAGE_IDS) - set(COVERAGE_R2_IDS) - set(GENERAL_IDS)) == []


def test_strict_lint_passes_and_only_the_seed_breaks_house_rules(kb):
    problems = lint_kb(kb)
    assert [p.format() for p in problems if p.severity != "info"] == []
    # A first report nobody has seen is left unknown ("reported since —") rather than guessed,
    # and a record whose cited pages all failed to show their claims keeps none: both are honest.
    unknown = {p for p in problems if (p.field, p.message) in (
        ("first_seen", "missing"), ("sources", "no dead end or workaround lists a source"))}
    assert {p.record_id for p in problems if p.record_id and p not in unknown} <= {SEED}
    # KB-wide: records sharing a date. Checked ones stay under the limit per checker
    # (checked_by); only unchecked ones may share one widely enough to be noted.
    shared = [p for p in problems if p.record_id is None]
    assert all(p.severity == "info" and p.field == "last_confirmed"
                          and "only when they were written" in p.message for p in shared)


def test_seed_ships_unchanged():
    shared = Path(__file__).resolve().parents[3] / "shared" / "seed-record.json"
    if not shared.exists():
        pytest.skip("shared/seed-record.json is not beside the checkout")
    assert (bundled_data_dir() / f"{SEED}.json").read_bytes() == shared.read_bytes()


def corpus_ids(case) -> str:
    return case.name


CASES = cases()


def test_corpus_cases_are_read_with_their_headers():
    [case] = [c for c in CASES if c.name == "python/permission-denied.txt"]
    assert case.record_id == "python/permission-denied"
    assert "PermissionError: [Errno 13]" in case.text


def test_every_record_has_a_corpus_case(kb):
    have = {case.record_id for case in CASES}
    assert set(kb.by_id) <= have, sorted(set(kb.by_id) - have)


def test_every_case_belongs_to_a_record(kb):
    assert [case.name for case in CASES if kb.get(case.record_id) is None] == []


def test_every_case_names_the_page_it_was_copied_from():
    """Cases are copied from public pages, never written for the test, or say how the tool
    was run here to print them (``#| reproduced:``). The one exception is the seed's own
    case: the seed ships unchanged, and its message was not found in a public report or in
    PyTorch's source."""
    missing = [case.name for case in CASES if case.record_id != SEED and (
        not (case.sources or case.reproduced)
        or not all(url.startswith("https://") for url in case.sources))]
    assert missing == []


def test_every_record_has_three_real_cases_but_the_seed(kb):
    counts = {record_id: 0 for record_id in kb.by_id}
    for case in CASES:
        counts[case.record_id] = counts.get(case.record_id, 0) + (1 if case.sources else 0)
    assert sorted(r for r, n in counts.items() if n < 3) == [SEED]


@pytest.mark.parametrize("case", CASES, ids=corpus_ids)
def test_corpus_case_matches_its_record_first(case, kb, matcher):
    assert rank_problem(case, matcher.match(case.text, limit=20), kb) is None


@pytest.mark.parametrize("case", CASES, ids=corpus_ids)
def test_no_unlinked_record_also_matches_confidently(case, kb, matcher):
    assert unlinked_confident(case, matcher.match(case.text, limit=20), kb) == []


def test_general_records_are_fallbacks_that_link_to_the_specific_ones(kb):
    for record_id in GENERAL_IDS:
        record = kb.get(record_id)
        assert "general" in record.tags, record_id
        confused = [t for kind, t in record.transition_graph.edges() if kind == "frequently_confused_with"]
        assert confused and all(kb.get(t) is not None for t in confused), record_id


# The categories the list browses by ({ } keys): a new record picks one of these, so that
# a category facet gathers all of its kind instead of splitting into near-synonyms.
CATEGORIES = {
    "runtime_error", "network_error", "import_error", "resource_error", "auth_error", "type_error",
    "build_error", "install_error", "config_error", "compile_error", "permission_error", "sync_error",
    "panic", "concurrency_error", "runtime_warning", "value_error", "usage_error", "syntax_error",
    "scheduling", "environment_error", "encoding_error", "attribute_error",
}


def test_bundled_records_use_the_category_vocabulary(kb):
    assert sorted({(r.category, r.id) for r in kb.records if r.category not in CATEGORIES}) == []


#: Names that, in a Python snippet, can only mean a module (or a class imported from one).
MODULE_NAMES = frozenset({
    "torch", "nn", "F", "DataLoader", "dist", "DDP", "tf", "np", "pd", "json", "re", "os", "sys",
    "requests", "asyncio", "multiprocessing", "threading", "pytest", "subprocess", "pickle",
    "AutoTokenizer", "AutoModel", "AutoModelForCausalLM", "AutoModelForSequenceClassification",
})


def _unimported_modules(code: str) -> set[str]:
    import ast
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        tree = ast.parse(code)
    bound = {alias.asname or alias.name.split(".")[0]
             for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
             for alias in node.names}
    bound |= {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
    used = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
    return (used & MODULE_NAMES) - bound


def _recipes(kb):
    """Every workaround's ``how`` in the KB, with where it is ("<id> workaround <n>")."""
    for summary in kb.records:
        for number, workaround in enumerate(kb.get(summary.id).workarounds, start=1):
            yield f"{summary.id} workaround {number}", workaround.how or ""


INI_SECTION = re.compile(r"^\[[\w.:\- ]+\]\s*$", re.MULTILINE)


def test_python_snippets_import_the_modules_they_use(kb):
    """A workaround's Python is copied to be run: it may stand for the user's own objects
    (``model``, ``df``) but imports every module it names."""
    import ast
    import warnings

    from errkb_tui.placeholders import PLACEHOLDER

    missing = []
    for where, how in _recipes(kb):
        code = PLACEHOLDER.sub(lambda m: m.group(2) or m.group(1), how)
        if INI_SECTION.search(code):
            continue  # pytest.ini, setup.cfg, TOML: `[pytest]` parses as Python too
        with warnings.catch_warnings():  # shell's backslashes are not Python escapes
            warnings.simplefilter("ignore", SyntaxWarning)
            warnings.simplefilter("ignore", DeprecationWarning)
            try:
                ast.parse(code)
            except SyntaxError:
                continue  # shell, YAML, JavaScript...: not Python
        names = _unimported_modules(code)
        if names:
            missing.append(f"{where}: {sorted(names)}")
    assert missing == []


def test_commands_that_ask_at_the_terminal_come_last(kb):
    """Lines pasted after `aws configure` or `gh auth login` become their answers."""
    bad = [f"{where}: {found[0]!r}" for where, how in _recipes(kb) if (found := waiting_commands(how))]
    assert bad == []


def test_shell_recipes_carry_no_comments(kb):
    """A comment in a shell recipe is run as arguments by a default zsh (errkb_tui.recipes)."""
    bad = [f"{where}: {found[0]!r}" for where, how in _recipes(kb) if (found := shell_comments(how))]
    assert bad == []


def test_shell_recipes_quote_what_zsh_would_expand(kb):
    """A recipe copied into zsh must not die with "no matches found" before it runs."""
    bad = [f"{where}: {words}" for where, how in _recipes(kb) if (words := zsh_glob_words(how))]
    assert bad == []
