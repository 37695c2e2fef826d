"""``errkb-tui outcomes``: list the user's outcomes, export them for a team; and the
per-fix evidence that ``errkb-tui match --json`` prints.

The parser pieces and the commands live here so that ``cli.py`` only wires them in.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .kb import KB, Problem
from .model import Record
from .outcomes import Counts, OutcomeCounts, OutcomeLog, item_hash
from .team import TeamOutcomes, export_lines
from .text import cell_truncate, plain
from .trust import TIER_MEANINGS, dead_end_fail_rate, item_label, order_workarounds, workaround_rate
from .userdata import outcomes_file


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add ``outcomes`` (with ``list`` and ``export``) to the subcommands ``sub``."""
    outcomes = sub.add_parser(
        "outcomes", parents=[common], help="list or export what worked for you",
        description="Your outcomes (what worked, what failed), kept in "
                    f"{outcomes_file()}. Without an action, lists them.")
    actions = outcomes.add_subparsers(dest="outcomes_action", metavar="{list,export}")
    actions.add_parser("list", parents=[common], help="your counts per record (the default)")
    export = actions.add_parser(
        "export", parents=[common], help="write your counts for a team's KB folder",
        description="Write your outcomes as counts per fix (record id, fix hash, worked, failed, "
                    "first and last date; nothing else) in the outcomes.jsonl format a team "
                    "commits at the top of its KB folder.")
    export.add_argument("--output", "-o", metavar="FILE",
                        help="write to FILE (default: standard output)")
    export.add_argument("--merge", action="store_true",
                        help="add your counts to those already in FILE (merge each export once)")
    export.add_argument("--force", action="store_true", help="replace FILE if it exists")
    export.add_argument("--since", metavar="DATE", type=_date,
                        help="only outcomes on or after DATE (YYYY-MM-DD), e.g. the day after your last export")


def _date(value: str) -> str:
    try:
        return datetime.date.fromisoformat(value).isoformat()
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a YYYY-MM-DD date: {value!r}") from None


def _warn(problems: Iterable[Problem]) -> None:
    for problem in problems:
        print(f"errkb-tui: {problem.format()}", file=sys.stderr)


def cmd_outcomes(args: argparse.Namespace, load: Any) -> int:
    """Run ``outcomes [list|export]``; ``load(args)`` loads the KB (only ``list`` needs it)."""
    log = OutcomeLog(outcomes_file())
    _warn(log.problems)
    if getattr(args, "outcomes_action", None) == "export":
        return _export(args, log)
    return _list(log, load(args))


def _list(log: OutcomeLog, kb: KB) -> int:
    team = TeamOutcomes.from_sources(kb.sources)
    _warn(team.problems)
    if not log:
        print(f"No outcomes recorded yet ({log.path}).")
        return 0
    for record_id in sorted(log.record_ids()):
        mine, theirs = log.counts(record_id), team.counts(record_id)
        record = kb.get(record_id)
        print(record_id if record else f"{record_id}  (not in the loaded KB)")
        known: set[str] = set()
        if record is not None:
            for kind, item in [*(("workaround", w) for w in record.workarounds),
                               *(("dead end", d) for d in record.dead_ends)]:
                key = item_hash(item)
                known.add(key)
                if key in mine:
                    title = plain(item.action or getattr(item, "why_fails", "")) or "(no text)"
                    print(f"  {kind:<10}  {cell_truncate(title, 50):<50}  {item_label(item, mine, theirs)}")
        for key, counts in sorted(mine.items()):
            if key not in known:
                print(f"  {'gone':<10}  {'fix ' + key + ' (no longer in this record)':<50}  "
                      f"{counts.worked} worked, {counts.failed} failed")
    return 0


def _export(args: argparse.Namespace, log: OutcomeLog) -> int:
    counts = OutcomeLog(log.path, since=args.since) if args.since else log
    output = Path(args.output).expanduser() if args.output else None
    if output is not None and output.exists() and not (args.merge or args.force):
        print(f"errkb-tui outcomes export: {output} exists; use --merge to add to it or --force "
              "to replace it", file=sys.stderr)
        return 2
    if args.merge:
        if output is None:
            print("errkb-tui outcomes export: --merge needs --output FILE", file=sys.stderr)
            return 2
        if output.exists():
            existing = TeamOutcomes([output])
            if existing.problems:
                _warn(existing.problems)
                print(f"errkb-tui outcomes export: {output} has bad lines; not merged", file=sys.stderr)
                return 1
            counts = _sum(existing, counts)
    text = "".join(line + "\n" for line in export_lines(counts))
    if output is None:
        sys.stdout.write(text)
        return 0
    _write_atomically(output, text)
    fixes = len(text.splitlines())
    print(f"Wrote {fixes} fix count(s) to {output}", file=sys.stderr)
    return 0


class _Counts(OutcomeCounts):
    """Counts built in memory (an export filtered by date, or merged files)."""


def _sum(*sources: OutcomeCounts) -> OutcomeCounts:
    total = _Counts()
    for source in sources:
        for record_id, hash_, tally in source.tallies():
            total._add(record_id, hash_, tally.kind, tally.worked, tally.failed, tally.first, tally.last)
    return total


def _write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=".outcomes-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def _counts_json(counts: Counts) -> dict[str, int]:
    return {"worked": counts.worked, "failed": counts.failed}


def evidence_json(record: Record, user: OutcomeCounts, team: OutcomeCounts) -> dict[str, list[dict[str, Any]]]:
    """Per-fix evidence of a record for ``match --json``.

    ``workarounds``: best first by combined rate (the KB's order when nobody recorded
    anything), each with its ``index`` in the record, ``hash``, ``action``, the KB's
    ``estimate``, the ``user`` and ``team`` counts, the ``combined`` rate and a ``label``.
    ``dead_ends``: in the record's order, with ``fail_estimate`` and ``combined_fail``.
    """
    mine, theirs = user.counts(record.id), team.counts(record.id)
    workarounds = []
    for index in order_workarounds(record.workarounds, mine, theirs):
        item = record.workarounds[index]
        key = item_hash(item)
        workarounds.append({
            "index": index, "hash": key, "action": item.action, "estimate": item.success_rate,
            "user": _counts_json(mine.get(key, Counts())), "team": _counts_json(theirs.get(key, Counts())),
            "combined": round(workaround_rate(item, mine, theirs), 4), "label": item_label(item, mine, theirs),
        })
    dead_ends = []
    for index, item in enumerate(record.dead_ends):
        key = item_hash(item)
        dead_ends.append({
            "index": index, "hash": key, "action": item.action, "why_fails": item.why_fails,
            "fail_estimate": item.fail_rate,
            "user": _counts_json(mine.get(key, Counts())), "team": _counts_json(theirs.get(key, Counts())),
            "combined_fail": round(dead_end_fail_rate(item, mine, theirs), 4),
            "label": item_label(item, mine, theirs),
        })
    return {"workarounds": workarounds, "dead_ends": dead_ends}


def match_json(kb: KB, matches: Iterable[Any]) -> list[dict[str, Any]]:
    """``match --json``'s entries: each match's own JSON with the evidence of its fixes.

    Reads the user's outcomes log and the team files of ``kb``'s folders (their bad lines
    go to stderr); a match whose record cannot be read gets empty lists.
    """
    user = OutcomeLog(outcomes_file())
    team = TeamOutcomes.from_sources(kb.sources)
    _warn([*user.problems, *team.problems])
    out = []
    for match in matches:
        data = match.to_json()
        record = kb.get(match.id)
        data.update(evidence_json(record, user, team) if record else {"workarounds": [], "dead_ends": []})
        out.append(data)
    return out


def tiers_help() -> str:
    """The tier meanings as one paragraph, for ``validate --help``."""
    return "Trust tiers: " + " ".join(f"{tier}: {meaning}" for tier, meaning in TIER_MEANINGS.items())


__all__ = ["add_parser", "cmd_outcomes", "evidence_json", "match_json", "tiers_help"]
