"""Which citations in the bundled KB someone has read, and what the reading showed.

    python scripts/citation_status.py                 # totals
    python scripts/citation_status.py --unchecked     # every citation nobody has read yet
    python scripts/citation_status.py --unchecked go/ docker/port-already-allocated
    python scripts/citation_status.py --prior         # read only in the unlogged first pass

A citation is a URL in a dead end's or a workaround's ``sources``. The ledger
``kb-checks/citations.tsv`` holds one line per reading: record id, claim (``W1`` is the
first workaround, ``D2`` the second dead end, as ordered when read), URL, verdict, date,
checker and a short note. Verdicts:

- ``kept``: the page says the claim (the step worked there, or failed there for a dead end);
- ``removed``: it does not; the URL was taken out of the record;
- ``unverified``: the page could not be read (not stored, or cut off before the answer);
- ``prior``: read in an earlier pass whose per-citation verdicts were not logged; kept.
  Such a reading was made under a looser rule than the README's "What a source must show",
  so ``--prior`` lists the citations that have no other reading, to be read again.

Several ledger files (``kb-checks/citations*.tsv``) are read together, so helpers working in
parallel can each append to their own. A citation counts as read when a line has its record,
its kind of claim (``W`` or ``D``) and its URL; the number is not compared, since later
edits reorder claims.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LEDGER_DIR = ROOT / "kb-checks"
FIELDS = ("record", "claim", "url", "verdict", "date", "checker", "note")
VERDICTS = ("kept", "removed", "unverified", "prior")


def claim_key(record_id: str, claim: str, url: str) -> tuple[str, str, str]:
    """What a reading covers: the record, the kind of claim (``W`` or ``D``) and the URL."""
    return record_id, claim[:1], url


def kb_citations(data_dir: Path = ROOT / "data"):
    """Yield (record id, claim label, url) for every citation in the bundled KB."""
    for path in sorted(data_dir.glob("*/*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        for key, letter in (("dead_ends", "D"), ("workarounds", "W")):
            for number, claim in enumerate(record.get(key) or [], start=1):
                for url in claim.get("sources") or []:
                    yield record["id"], f"{letter}{number}", url


def ledger_lines(ledger_dir: Path = LEDGER_DIR):
    """Every line of every ledger file, as dicts, with a problem list for malformed ones."""
    rows, problems = [], []
    for path in sorted(ledger_dir.glob("citations*.tsv")):
        with path.open(encoding="utf-8", newline="") as handle:
            for number, row in enumerate(csv.reader(handle, delimiter="\t"), start=1):
                if not row or row[0].startswith("#") or row[0] == "record":
                    continue
                if len(row) < 4 or row[3] not in VERDICTS:
                    problems.append(f"{path.name}:{number}: expected record, claim, url, "
                                    f"one of {'/'.join(VERDICTS)}, ...; got {row[:4]}")
                    continue
                rows.append(dict(zip(FIELDS, row + [""] * (len(FIELDS) - len(row)))))
    return rows, problems


def main(argv: list[str] | None = None, *, data_dir: Path = ROOT / "data",
         ledger_dir: Path = LEDGER_DIR) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--unchecked", action="store_true",
                        help="list citations with no ledger line")
    parser.add_argument("--prior", action="store_true",
                        help="list citations whose only readings are 'prior'")
    parser.add_argument("prefixes", nargs="*", help="record ids or id prefixes")
    args = parser.parse_args(argv)

    rows, problems = ledger_lines(ledger_dir)
    read = {claim_key(row["record"], row["claim"], row["url"]) for row in rows if row["verdict"] != "removed"}
    logged = {claim_key(row["record"], row["claim"], row["url"]) for row in rows
              if row["verdict"] not in ("removed", "prior")}
    verdicts = Counter(row["verdict"] for row in rows)
    citations = [c for c in kb_citations(data_dir)
                 if not args.prefixes or any(c[0].startswith(p) for p in args.prefixes)]
    unchecked = [c for c in citations if claim_key(*c) not in read]
    prior_only = [c for c in citations if claim_key(*c) in read - logged]

    if args.unchecked or args.prior:
        for record_id, claim, url in unchecked if args.unchecked else prior_only:
            print(f"{record_id}\t{claim}\t{url}")
    else:
        print(f"citations in the KB: {len(citations)}")
        print(f"  read: {len(citations) - len(unchecked)} ({len(prior_only)} of them only in the "
              f"unlogged first pass), not yet read: {len(unchecked)}")
        print("ledger verdicts: " + ", ".join(f"{v} {verdicts[v]}" for v in VERDICTS))
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
