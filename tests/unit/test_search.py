"""The search layer: filtering, ranking, narrowing, and the head-first progressive search."""

from __future__ import annotations

from errkb_tui.model import RecordSummary
from errkb_tui.search import Query, SearchIndex, highlight_spans


def summary(n: int, signature: str, root_cause: str = "", domain: str = "acme",
            category: str = "runtime_error", tags=()) -> RecordSummary:
    return RecordSummary(f"{domain}/r{n}", domain, category, signature, None, (), tuple(tags),
                         root_cause, 0.5)


RECORDS = [
    summary(0, "PermissionError: permission denied", "The user lacks rights."),
    summary(1, "KeyError: 'x'", "Permission checks return early, so the key is missing."),
    summary(2, "OSError: too many open files", "Handles leak.", domain="linux", tags=("ulimit",)),
    summary(3, "ValueError: bad permission mask", "Wrong octal mode."),
]


def ids(index: SearchIndex, result) -> list[str]:
    return [index.records[i].id for i in result.indices]


def test_terms_in_visible_text_rank_above_root_cause_matches():
    index = SearchIndex(RECORDS)
    assert ids(index, index.search("permission")) == ["acme/r0", "acme/r3", "acme/r1"]


def test_short_terms_do_not_search_root_causes():
    index = SearchIndex(RECORDS)
    assert "acme/r1" not in ids(index, index.search("ch"))  # only in r1's root cause
    assert "acme/r1" in ids(index, index.search("checks"))


def test_progressive_search_hands_over_the_head_first():
    index = SearchIndex(RECORDS)
    partials = []
    result = index.search("permission", on_partial=partials.append)
    assert [ids(index, p) for p in partials] == [["acme/r0", "acme/r3"]]
    assert partials[0].partial and not result.partial
    assert ids(index, result)[: len(partials[0].indices)] == ids(index, partials[0])


def test_a_stopped_search_is_partial_but_the_next_query_misses_nothing():
    index = SearchIndex(RECORDS)
    stopped = index.search("permission", should_stop=lambda: True)
    assert stopped.partial and ids(index, stopped) == ["acme/r0", "acme/r3"]
    # The next, longer query narrows from what could still match, root causes included.
    assert ids(index, index.search("permission che")) == ["acme/r1"]


def test_narrowing_does_not_lose_root_cause_matches_when_a_term_grows():
    index = SearchIndex(RECORDS)
    index.search("ch")  # short term: visible text only
    assert "acme/r1" in ids(index, index.search("che"))
    assert Query.parse("che").narrows(Query.parse("ch")) is False
    assert Query.parse("chec").narrows(Query.parse("che")) is True


def test_qualifiers_facets_and_typos():
    index = SearchIndex(RECORDS)
    assert ids(index, index.search("domain:lin")) == ["linux/r2"]
    assert ids(index, index.search("tag:ulim files")) == ["linux/r2"]
    assert ids(index, index.search("", "acme")) == ["acme/r0", "acme/r1", "acme/r3"]
    typo = index.search("permision")
    assert typo.fuzzy and ids(index, typo)[0] in {"acme/r0", "acme/r3"}


def test_highlight_spans_cover_each_term():
    assert highlight_spans("PermissionError: permission denied", "perm den") == [(0, 4), (17, 21), (28, 31)]


# -- commands' words and package names (issue 11) ------------------------------------------

def _words_kb():
    from errkb_tui.model import Record

    def record(record_id, signature, how, regex=None, **extra):
        return Record(id=record_id, domain=record_id.split("/")[0], category="c", signature=signature,
                      regex=regex, workarounds=[{"action": "do it", "how": how, "success_rate": 0.5}], **extra)

    return [
        record("python/module-not-found", "ModuleNotFoundError: No module named 'X'",
               "python -m pip install {=module:requests}",
               regex=r"ModuleNotFoundError: No module named '(?P<module>[\w.-]+)'"),
        record("pytorch/cuda-wheel", "RuntimeError: no kernel image is available",
               "pip install -r requirements.txt\npip install torch torchvision --index-url https://x.org/whl"),
        record("torchvision/nms", "torchvision::nms does not exist", "pip install -U torchvision"),
        record("k8s/crash", "CrashLoopBackOff", "kubectl logs pod --previous"),
    ]


def test_a_tool_named_in_a_command_finds_its_records_below_signature_hits():
    records = [r.summary() for r in _words_kb()]
    index = SearchIndex(records)
    ids = [records[i].id for i in index.search("kubectl").indices]
    assert ids == ["k8s/crash"]
    ids = [records[i].id for i in index.search("torchvision").indices]
    assert ids[0] == "torchvision/nms"  # in its signature
    assert ids[1] == "pytorch/cuda-wheel"  # in a command
    assert ids[-1] == "python/module-not-found"  # a package the KB installs: a missing-package record


def test_package_records_are_not_listed_for_words_that_are_not_packages():
    records = [r.summary() for r in _words_kb()]
    index = SearchIndex(records)
    assert "python/module-not-found" not in [records[i].id for i in index.search("kubectl").indices]
    assert "requirements.txt" not in index.packages()  # the value of -r is a file
    assert "torchvision" in index.packages()


def test_package_hits_respect_the_facet():
    records = [r.summary() for r in _words_kb()]
    index = SearchIndex(records)
    assert [records[i].id for i in index.search("torchvision", "python").indices] == ["python/module-not-found"]
    assert [records[i].id for i in index.search("torchvision", "k8s").indices] == []
