"""Check corpus cases against the bundled KB, the way the tests do, with reasons.

    python scripts/check_corpus.py                      # every case
    python scripts/check_corpus.py python/file-not-found django/   # ids or id prefixes

For each case: the record must rank first and confident, and no other record may match
confidently unless the two are linked as ``frequently_confused_with`` (either way round).
Also lists records with fewer than three cases. Exit status 1 when any case fails.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from errkb_tui.kb import Source, bundled_data_dir  # noqa: E402
from errkb_tui.loader import load_kb  # noqa: E402
from errkb_tui.match import Matcher  # noqa: E402
from errkb_tui.placeholders import fill, group_names  # noqa: E402
from tests.corpus_cases import CORPUS, cases, negative_cases  # noqa: E402

MIN_CASES = 3


def confused(kb, a: str, b: str) -> bool:
    """Whether records ``a`` and ``b`` are linked as frequently confused (either way)."""
    for one, other in ((a, b), (b, a)):
        record = kb.get(one)
        if record and any(kind == "frequently_confused_with" and target == other
                          for kind, target in record.transition_graph.edges()):
            return True
    return False


def rank_problem(case, found, kb) -> str | None:
    """Why the case's record is not first and confident in ``found`` (None when it is)."""
    if kb.get(case.record_id) is None:
        return f"no record {case.record_id}"
    if not found:
        return "no match at all"
    top = found[0]
    if top.id != case.record_id:
        return f"first is {top.id} ({top.score}, line {top.line!r})"
    if not top.confident:
        return f"first but not confident (line {top.line!r})"
    return None


def unlinked_confident(case, found, kb) -> list[str]:
    """Other records that match the case confidently without a ``frequently_confused_with`` link."""
    return [f"{other.id} also confident, unlinked (line {other.line!r})" for other in found
            if other.confident and other.id != case.record_id and not confused(kb, case.record_id, other.id)]


def problems_of(case, kb, matcher) -> list[str]:
    """What is wrong with one case (empty when it passes)."""
    found = matcher.match(case.text, limit=20)
    rank = rank_problem(case, found, kb)
    out = ([rank] if rank else []) + unlinked_confident(case, found, kb)
    record = kb.get(case.record_id)
    first = case.path.parent.parent == CORPUS
    if not rank and first and record.regex and group_names(record.regex):
        groups = found[0].groups
        if not groups:
            out.append("the first case must show the values the regex's named groups capture "
                       "(tests/unit/test_match_groups.py): its matched line captures none")
        elif not any(fill(w.how, groups).spans for w in record.workarounds):
            out.append(f"the regex captures {sorted(groups)} but no workaround's 'how' uses them as "
                       "{=name} (tests/unit/test_match_groups.py)")
    return out


def main(argv: list[str]) -> int:
    kb = load_kb([Source(bundled_data_dir(), "bundled")])
    matcher = Matcher(kb.records)
    wanted = argv[1:]

    def chosen(record_id: str) -> bool:
        return not wanted or any(record_id == w or record_id.startswith(w) for w in wanted)

    failed = 0
    counts: dict[str, int] = {}  # cases copied from a public page, per record
    total = 0
    for case in cases():
        if not chosen(case.record_id):
            continue
        total += 1
        counts[case.record_id] = counts.get(case.record_id, 0) + (1 if case.sources else 0)
        problems = problems_of(case, kb, matcher)
        if problems:
            failed += 1
            print(f"FAIL {case.name}: " + "; ".join(problems))
    if not wanted:
        for case in negative_cases():
            confident = [m.id for m in matcher.match(case.text, limit=5) if m.confident]
            if confident:
                failed += 1
                print(f"FAIL {case.name}: negative text matches {confident} confidently")
    few = sorted((rid, counts.get(rid, 0)) for rid in kb.by_id if chosen(rid) and counts.get(rid, 0) < MIN_CASES)
    for rid, n in few:
        print(f"FEW  {rid}: {n} case(s) copied from a public page")
    print(f"{total} cases, {len(counts)} records, {failed} failing, {len(few)} with < {MIN_CASES} copied from a public page")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
