"""The record model: the seed round-trips exactly; each rule rejects bad values clearly."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from errkb_tui.model import (
    Record,
    TransitionRef,
    VersionEntry,
    Workaround,
    compile_regex,
    transition_id,
    unknown_keys,
    version_key,
)

ROOT = Path(__file__).resolve().parents[2]
SEED_PATH = ROOT / "data" / "pytorch" / "ddp-bucket-view-error.json"


@pytest.fixture
def seed() -> dict:
    return json.loads(SEED_PATH.read_text(encoding="utf-8"))


def _errors(data: dict) -> list[dict]:
    with pytest.raises(ValidationError) as info:
        Record.model_validate(data)
    return info.value.errors(include_url=False)


def _messages(data: dict) -> str:
    return " | ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in _errors(data))


# -- the seed -------------------------------------------------------------------------------


def test_seed_validates_and_round_trips_exactly(seed: dict) -> None:
    record = Record.model_validate(seed)
    assert record.id == "pytorch/ddp-bucket-view-error"
    out = record.to_json_dict()
    assert out == seed
    # Same key order as the seed, too (a re-saved record diffs cleanly).
    assert list(out) == list(seed)
    assert json.dumps(out, ensure_ascii=False, indent=2) == json.dumps(seed, ensure_ascii=False, indent=2)


def test_seed_has_no_unknown_keys(seed: dict) -> None:
    assert unknown_keys(Record.model_validate(seed)) == []


# -- rules ------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [1.01, -0.01, 2])
def test_confidence_outside_unit_interval_is_rejected(seed: dict, value: float) -> None:
    seed["confidence"] = value
    errors = _errors(seed)
    assert [e["loc"] for e in errors] == [("confidence",)]
    assert "1" in errors[0]["msg"] or "0" in errors[0]["msg"]


@pytest.mark.parametrize("field", ["fix_success_rate", "confidence"])
def test_top_level_rates_are_bounded(seed: dict, field: str) -> None:
    seed[field] = 1.5
    assert "less than or equal to 1" in _messages(seed)


def test_dead_end_fail_rate_outside_unit_interval_is_rejected(seed: dict) -> None:
    seed["dead_ends"][1]["fail_rate"] = -0.2
    errors = _errors(seed)
    assert [e["loc"] for e in errors] == [("dead_ends", 1, "fail_rate")]
    assert "greater than or equal to 0" in errors[0]["msg"]


def test_workaround_success_rate_outside_unit_interval_is_rejected(seed: dict) -> None:
    seed["workarounds"][0]["success_rate"] = 85  # a percentage, not a rate
    errors = _errors(seed)
    assert [e["loc"] for e in errors] == [("workarounds", 0, "success_rate")]
    assert "less than or equal to 1" in errors[0]["msg"]


def test_rates_at_the_bounds_are_accepted(seed: dict) -> None:
    seed["confidence"] = 0
    seed["fix_success_rate"] = 1
    seed["dead_ends"][0]["fail_rate"] = 1.0
    record = Record.model_validate(seed)
    assert record.confidence == 0.0 and record.fix_success_rate == 1.0


@pytest.mark.parametrize("value", ["2024/06/01", "June 1, 2024", "2024-13-01", "yesterday"])
def test_non_iso_date_is_rejected(seed: dict, value: str) -> None:
    seed["last_confirmed"] = value
    errors = _errors(seed)
    assert [e["loc"] for e in errors] == [("last_confirmed",)]
    assert "date" in errors[0]["msg"]


def test_dates_load_as_dates(seed: dict) -> None:
    record = Record.model_validate(seed)
    assert record.first_seen is not None and record.first_seen.isoformat() == "2023-11-20"
    assert record.first_seen < record.last_confirmed


def test_id_without_slash_is_rejected(seed: dict) -> None:
    seed["id"] = "ddp-bucket-view-error"
    errors = _errors(seed)
    assert errors[0]["loc"] == ("id",)
    assert "domain/slug" in errors[0]["msg"]


def test_id_prefix_must_equal_domain(seed: dict) -> None:
    seed["id"] = "tensorflow/ddp-bucket-view-error"
    message = _messages(seed)
    assert "'tensorflow/ddp-bucket-view-error'" in message
    assert "must start with its domain 'pytorch'" in message


def test_domain_change_alone_breaks_the_id_rule(seed: dict) -> None:
    seed["domain"] = "torch"
    assert "must start with its domain 'torch'" in _messages(seed)


@pytest.mark.parametrize("pattern", [r"(?<=a)b", r"(?!x)y", r"(a)\1"])
def test_regex_rejected_by_re2_is_rejected_with_re2_in_message(seed: dict, pattern: str) -> None:
    seed["regex"] = pattern
    errors = _errors(seed)
    assert [e["loc"] for e in errors] == [("regex",)]
    assert "RE2" in errors[0]["msg"]


def test_compile_regex_raises_value_error_naming_re2() -> None:
    with pytest.raises(ValueError, match="RE2"):
        compile_regex(r"(?<=a)b")
    assert compile_regex(r"expected \d+").search("expected 12") is not None


def test_blank_regex_is_rejected_but_null_is_allowed(seed: dict) -> None:
    seed["regex"] = "  "
    assert "regex" in _messages(seed)
    seed["regex"] = None
    assert Record.model_validate(seed).regex is None


@pytest.mark.parametrize("value", ["", "   ", "\n"])
def test_empty_signature_is_rejected(seed: dict, value: str) -> None:
    seed["signature"] = value
    errors = _errors(seed)
    assert [e["loc"] for e in errors] == [("signature",)]
    assert "empty" in errors[0]["msg"]


def test_missing_required_fields_are_named(seed: dict) -> None:
    del seed["signature"]
    del seed["category"]
    locs = {e["loc"] for e in _errors(seed)}
    assert locs == {("signature",), ("category",)}


# -- versions ---------------------------------------------------------------------------------


def test_version_key_orders_as_versions() -> None:
    assert version_key("1.9") < version_key("1.11") < version_key("2.0") < version_key("2.0.1")
    assert version_key("2.0rc1") < version_key("2.0")
    assert version_key("2.0rc1") < version_key("2.0rc2")
    assert version_key("2.0b1") < version_key("2.0rc1")  # beta before release candidate
    assert version_key("1.11") > version_key("1.2")  # not string order
    # Versions without numbers sort by their text, after every numbered version.
    assert version_key("99.0") < version_key("main") < version_key("nightly")


def test_sorted_versions_orders_versions_not_strings(seed: dict) -> None:
    seed["versions"] = [
        {"version": v, "status": "active"} for v in ["2.0", "nightly", "1.11", "2.0rc1", "1.9", "10.0", "2.0.1"]
    ]
    record = Record.model_validate(seed)
    assert [v.version for v in record.sorted_versions] == ["1.9", "1.11", "2.0rc1", "2.0", "2.0.1", "10.0", "nightly"]
    # The stored order is untouched (round trip stays exact).
    assert [v["version"] for v in record.to_json_dict()["versions"]] == [
        "2.0", "nightly", "1.11", "2.0rc1", "1.9", "10.0", "2.0.1"]


def test_version_entry_defaults() -> None:
    entry = VersionEntry(version="1.0")
    assert entry.status == "active" and entry.introduced is None


# -- transition graph -------------------------------------------------------------------------


def test_transition_entries_as_ids_or_objects(seed: dict) -> None:
    seed["transition_graph"] = {
        "leads_to": ["pytorch/nccl-timeout", {"error_id": "pytorch/oom", "probability": 0.4,
                                              "condition": "large batch"}],
        "preceded_by": [{"error_id": "pytorch/param-mismatch"}],
        "frequently_confused_with": [
            {"error_id": "pytorch/param-count", "distinction": "count, not size"},
        ],
    }
    record = Record.model_validate(seed)
    graph = record.transition_graph
    assert graph.edges() == [
        ("leads_to", "pytorch/nccl-timeout"),
        ("leads_to", "pytorch/oom"),
        ("preceded_by", "pytorch/param-mismatch"),
        ("frequently_confused_with", "pytorch/param-count"),
    ]
    obj = graph.leads_to[1]
    assert isinstance(obj, TransitionRef)
    assert obj.probability == 0.4 and obj.condition == "large batch" and obj.distinction is None
    assert graph.frequently_confused_with[0].distinction == "count, not size"
    assert transition_id(graph.leads_to[0]) == "pytorch/nccl-timeout"
    # Both forms survive a round trip as written.
    out = record.to_json_dict()["transition_graph"]
    assert out["leads_to"][0] == "pytorch/nccl-timeout"
    assert out["leads_to"][1]["error_id"] == "pytorch/oom"


def test_transition_probability_is_a_rate(seed: dict) -> None:
    seed["transition_graph"]["leads_to"] = [{"error_id": "pytorch/oom", "probability": 3}]
    assert "less than or equal to 1" in _messages(seed)


def test_empty_transition_graph_has_no_edges(seed: dict) -> None:
    assert Record.model_validate(seed).transition_graph.edges() == []


# -- unknown keys -----------------------------------------------------------------------------


def test_unknown_keys_are_kept_and_listed(seed: dict) -> None:
    seed["workaround"] = ["typo for workarounds"]
    seed["dead_ends"][1]["acton"] = "typo for action"
    record = Record.model_validate(seed)
    assert unknown_keys(record) == ["workaround", "dead_ends[1].acton"]
    out = record.to_json_dict()
    assert out["workaround"] == ["typo for workarounds"]
    assert out["dead_ends"][1]["acton"] == "typo for action"
    assert out == seed


def test_unknown_keys_in_nested_objects(seed: dict) -> None:
    seed["transition_graph"]["leads_to"] = [{"error_id": "pytorch/oom", "weight": 2}]
    seed["transition_graph"]["causes"] = []
    seed["versions"][2]["note"] = "x"
    keys = unknown_keys(Record.model_validate(seed))
    assert set(keys) == {"versions[2].note", "transition_graph.causes", "transition_graph.leads_to[0].weight"}


# -- workarounds ------------------------------------------------------------------------------


def test_copy_text_is_how_when_present() -> None:
    workaround = Workaround(action="Pin the version", how="pip install 'torch==2.2.*'")
    assert workaround.copy_text == "pip install 'torch==2.2.*'"


@pytest.mark.parametrize("how", ["", "   ", "\n\t"])
def test_copy_text_falls_back_to_action(how: str) -> None:
    workaround = Workaround(action="Restart the kernel", how=how)
    assert workaround.copy_text == "Restart the kernel"


def test_sources_are_distinct_in_order(seed: dict) -> None:
    seed["dead_ends"][0]["sources"] = ["https://a.example/1", "https://b.example/2"]
    seed["workarounds"][1]["sources"] = ["https://b.example/2", "https://c.example/3"]
    record = Record.model_validate(copy.deepcopy(seed))
    assert record.sources == ["https://a.example/1", "https://b.example/2", "https://c.example/3"]


def test_regex_that_matches_almost_anything_is_rejected() -> None:
    import pytest
    from pydantic import ValidationError

    from errkb_tui.model import Record

    for pattern in (r"(a+)+$", r".*", r"\w+Error"):
        data = {"id": "acme/x", "domain": "acme", "category": "c", "signature": "s", "regex": pattern}
        if pattern == r"\w+Error":
            assert Record.model_validate(data).regex == pattern  # 5 fixed characters: allowed
            continue
        with pytest.raises(ValidationError, match="matches almost any text"):
            Record.model_validate(data)


def test_a_record_linking_to_itself_is_rejected() -> None:
    import pytest
    from pydantic import ValidationError

    from errkb_tui.model import Record

    data = {"id": "acme/x", "domain": "acme", "category": "c", "signature": "s",
            "transition_graph": {"leads_to": ["acme/x"]}}
    with pytest.raises(ValidationError, match="links the record to itself"):
        Record.model_validate(data)


# -- one rule, one constant; validation without memory ----------------------------------------


def test_validation_does_not_depend_on_what_was_validated_before(seed, monkeypatch) -> None:
    import errkb_tui.model as model

    data = dict(seed, regex="abcd")
    Record.model_validate(data)  # 4 fixed characters: valid under the rule of 3
    monkeypatch.setattr(model, "MIN_REGEX_LITERALS", 5)
    with pytest.raises(ValidationError, match="fixed characters"):
        Record.model_validate(data)  # the same pattern again is checked again, not remembered


def test_each_regex_rule_has_one_constant() -> None:
    import errkb_tui.lint as lint
    import errkb_tui.match as match
    import errkb_tui.model as model
    import errkb_tui.patterns as patterns

    assert model.MIN_REGEX_LITERALS is patterns.MIN_REGEX_LITERALS
    assert match.CONFIDENT_LITERALS is patterns.CONFIDENT_LITERALS
    assert not hasattr(lint, "MIN_REGEX_LITERALS") and lint.CONFIDENT_LITERALS is patterns.CONFIDENT_LITERALS


def test_transition_kinds_are_the_graph_fields() -> None:
    from errkb_tui.model import TRANSITION_KINDS, TransitionGraph

    assert TRANSITION_KINDS == tuple(TransitionGraph.model_fields)
