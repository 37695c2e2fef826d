"""The citation ledger (kb-checks/citations*.tsv) agrees with the bundled KB."""

from __future__ import annotations

from pathlib import Path

from scripts.citation_status import claim_key, kb_citations, ledger_lines, main

ROOT = Path(__file__).resolve().parents[2]


def test_every_ledger_line_is_well_formed_and_names_a_bundled_record() -> None:
    rows, problems = ledger_lines()
    assert problems == []
    bundled = {path.relative_to(ROOT / "data").with_suffix("").as_posix()
               for path in (ROOT / "data").glob("*/*.json")}
    records = {record_id for record_id, _claim, _url in kb_citations()}
    assert records <= bundled
    unknown = sorted({row["record"] for row in rows} - bundled)
    assert unknown == []
    bad_claims = [row for row in rows if row["claim"][:1] not in ("W", "D")
                  or not row["claim"][1:].isdigit()]
    assert bad_claims == []


def test_a_citation_logged_as_removed_is_gone_from_its_record() -> None:
    rows, _problems = ledger_lines()
    removed = {claim_key(r["record"], r["claim"], r["url"]) for r in rows if r["verdict"] == "removed"}
    # A page removed from one claim may be re-added later to a claim it does back, with a
    # line saying so; only removals nobody took back must be gone.
    taken_back = {claim_key(r["record"], r["claim"], r["url"]) for r in rows if r["verdict"] != "removed"}
    cited = {claim_key(*citation) for citation in kb_citations()}
    assert sorted((removed - taken_back) & cited) == []


def test_status_counts_a_citation_as_read_only_with_a_line_for_its_kind_of_claim(
        tmp_path: Path, capsys) -> None:
    data = tmp_path / "data" / "demo"
    data.mkdir(parents=True)
    (data / "one.json").write_text(
        '{"id": "demo/one", "dead_ends": [{"sources": ["https://a"]}],'
        ' "workarounds": [{"sources": ["https://a", "https://b"]}]}', encoding="utf-8")
    ledger = tmp_path / "kb-checks"
    ledger.mkdir()
    (ledger / "citations-x.tsv").write_text(
        "demo/one\tW1\thttps://a\tkept\t2026-12-01\tme\tworked there\n"
        "demo/one\tW1\thttps://b\tnonsense\n", encoding="utf-8")

    status = main(["--unchecked"], data_dir=tmp_path / "data", ledger_dir=ledger)
    out, err = capsys.readouterr()
    assert status == 1  # the malformed line is reported
    # The workaround's https://a was read; the dead end's https://a was not, nor https://b.
    assert out.splitlines() == ["demo/one\tD1\thttps://a", "demo/one\tW1\thttps://b"]
    assert "citations-x.tsv:2" in err


def test_prior_lists_citations_read_only_in_the_unlogged_pass(tmp_path: Path, capsys) -> None:
    data = tmp_path / "data" / "demo"
    data.mkdir(parents=True)
    (data / "one.json").write_text(
        '{"id": "demo/one", "dead_ends": [{"sources": ["https://a"]}],'
        ' "workarounds": [{"sources": ["https://a", "https://b", "https://c"]}]}',
        encoding="utf-8")
    ledger = tmp_path / "kb-checks"
    ledger.mkdir()
    (ledger / "citations.tsv").write_text(
        "demo/one\tD1\thttps://a\tprior\t2026-11-30\tpass\t\n"
        "demo/one\tW1\thttps://a\tprior\t2026-11-30\tpass\t\n"
        "demo/one\tW1\thttps://b\tprior\t2026-11-30\tpass\t\n", encoding="utf-8")
    (ledger / "citations-x.tsv").write_text(
        "demo/one\tW1\thttps://a\tkept\t2026-12-01\tme\tworked there\n", encoding="utf-8")

    assert main(["--prior"], data_dir=tmp_path / "data", ledger_dir=ledger) == 0
    out, _err = capsys.readouterr()
    # W1's https://a was read again; https://c was never read at all (that is --unchecked).
    assert out.splitlines() == ["demo/one\tD1\thttps://a", "demo/one\tW1\thttps://b"]
    assert main([], data_dir=tmp_path / "data", ledger_dir=ledger) == 0
    out, _err = capsys.readouterr()
    assert "read: 3 (2 of them only in the unlogged first pass), not yet read: 1" in out
