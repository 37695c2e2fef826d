"""Quality rules for records, beyond what the model requires.

Levels: ``warning`` for things a KB author must fix (``validate --strict`` fails on them),
``info`` for house-style rules that some user records (the seed among them) may not meet.

Trust tiers (meanings in :data:`errkb_tui.trust.TIER_MEANINGS`): a record claiming a
checked tier (``source_checked`` and above) must cite a source for every dead end and
workaround. Across the KB, when more than :data:`SHARED_CONFIRMED_MAX` records of a
checked tier share one ``last_confirmed`` date and one ``checked_by`` (or none), the dates
look stamped rather than confirmed one by one: no one reviewer checks that many in a day (a
warning); when that many records of any tier share one, it is noted (info), since for
``ai_generated`` records the date only says when they were written.
"""

from __future__ import annotations

import dataclasses
import datetime
import difflib
import os
import re
from pathlib import Path

from collections.abc import Iterable

from .kb import KB, Origin, Problem, Severity, Source
from .loader.jsontext import guess_line, key_parts, object_keys
from .patterns import CONFIDENT_LITERALS, literal_length
from .placeholders import placeholder_rules
from .recipes import recipe_rules
from .model import RESOLVABLE, ROOT_CAUSE_TYPES, VERIFICATION_TIERS, VERSION_STATUSES, Record
from .team import TeamOutcomes
from .trust import CHECKED_TIERS

#: Keys of a draft record (:mod:`errkb_tui.draft`); kept here so the lint needs no draft import.
DRAFT_KEY, EXAMPLE_WORKAROUND_KEY = "_draft", "_example_workaround"
#: The texts of a draft's example entries: left as they are, they are an error.
EXAMPLE_TEXTS = ("What worked, in one sentence", "An approach people try that does not fix it",
                 "Why it does not help", "the command or code to copy")
#: The example text beside a one-record file: ``<slug>.example.txt``.
EXAMPLE_SUFFIX = ".example.txt"

#: More records than this confirmed on one date: checking sources by hand takes minutes a
#: record, so a reviewer confirms a few dozen in a day; past 50 the date was likely stamped.
SHARED_CONFIRMED_MAX = 50
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_URL = re.compile(r"^https?://[^\s/]+\.[^\s]+$")


def lint_record(record: Record, today: datetime.date | None = None) -> list[tuple[Severity, str, str]]:
    """``(severity, field, message)`` for each rule the record breaks."""
    today = today or datetime.date.today()
    out: list[tuple[Severity, str, str]] = []

    def add(severity: Severity, field: str, message: str) -> None:
        out.append((severity, field, message))

    for name, value, allowed in (
        ("root_cause_type", record.root_cause_type, ROOT_CAUSE_TYPES),
        ("verification_tier", record.verification_tier, VERIFICATION_TIERS),
        ("resolvable", record.resolvable, RESOLVABLE),
    ):
        if value not in allowed:
            close = difflib.get_close_matches(str(value), allowed, n=1, cutoff=0.6)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            # An unknown tier claims a trust nobody defined: an error, never shown as checked.
            add("error" if name == "verification_tier" else "warning", name,
                f"{value!r} is not one of: {', '.join(allowed)}{hint}")
    for kind, items, fields in (("workarounds", record.workarounds, ("action", "how")),
                                ("dead_ends", record.dead_ends, ("action", "why_fails"))):
        for index, item in enumerate(items):
            for name in fields:
                if getattr(item, name).strip().startswith(EXAMPLE_TEXTS):
                    add("error", f"{kind}[{index}].{name}", "still the draft's example text: write your own")
    extra = record.__pydantic_extra__ or {}
    if DRAFT_KEY in extra and not record.workarounds:
        add("error", "workarounds", f"a draft with no workaround yet: copy {EXAMPLE_WORKAROUND_KEY} into "
                                    "workarounds and write what worked (then delete the keys that start with _)")
    for index, version in enumerate(record.versions):
        if version.status not in VERSION_STATUSES:
            add("warning", f"versions[{index}].status",
                f"{version.status!r} is not one of: {', '.join(VERSION_STATUSES)}")
    if record.regex is None:
        add("warning", "regex", "no regex: copied errors can only be matched fuzzily")
    elif literal_length(record.regex) < CONFIDENT_LITERALS:
        add("warning", "regex", f"too generic: fewer than {CONFIDENT_LITERALS} fixed characters")
    if not record.root_cause.strip():
        add("warning", "root_cause", "empty")
    if len(record.dead_ends) < 2:
        add("warning", "dead_ends", f"{len(record.dead_ends)} dead end(s); at least 2 expected")
    if len(record.workarounds) < 2:
        add("warning", "workarounds", f"{len(record.workarounds)} workaround(s); at least 2 expected")
    rates = [w.success_rate for w in record.workarounds]
    if rates != sorted(rates, reverse=True):
        add("warning", "workarounds", "not best first (success_rate should not increase)")
    for index, dead_end in enumerate(record.dead_ends):
        if not dead_end.why_fails.strip():
            add("warning", f"dead_ends[{index}].why_fails", "empty: say why it fails")
        if not dead_end.action.strip():
            add("info", f"dead_ends[{index}].action", "empty: name the approach that fails")
    for index, workaround in enumerate(record.workarounds):
        if not workaround.action.strip():
            add("warning", f"workarounds[{index}].action", "empty")
    urls = record.sources
    for url in [*urls, *([record.official_doc_url] if record.official_doc_url else [])]:
        if not _URL.match(url):
            add("warning", "sources", f"not an http(s) URL: {url!r}")
    if record.verification_tier in CHECKED_TIERS:
        for kind, items in (("dead_ends", record.dead_ends), ("workarounds", record.workarounds)):
            for index, item in enumerate(items):
                if not item.sources:
                    add("warning", f"{kind}[{index}].sources",
                        f"no source, yet the record claims {record.verification_tier}: every dead end "
                        "and workaround needs a source that says so (or claim ai_generated)")
    if not urls:
        add("info", "sources", "no dead end or workaround lists a source")
    elif record.evidence_count != len(urls):
        add("warning", "evidence_count",
            f"{record.evidence_count}, but the record lists {len(urls)} distinct source(s)")
    for name in ("first_seen", "last_confirmed", "last_updated"):
        value = getattr(record, name)
        if value is None:
            add("info", name, "missing")
        elif value > today:
            add("warning", name, f"{value} is in the future")
    if record.first_seen and record.last_confirmed and record.last_confirmed < record.first_seen:
        add("warning", "last_confirmed", "earlier than first_seen")
    # Chinese text: house style for the bundled KB; user KBs may be English only.
    for name in ("signature_zh", "root_cause_zh"):
        value = getattr(record, name)
        if not value or not _CJK.search(value):
            add("info", name, "no Chinese text")
    if not record.workarounds_zh and record.workarounds:
        add("info", "workarounds_zh", "no Chinese text")  # optional: a user's KB may be English only
    elif len(record.workarounds_zh) != len(record.workarounds):
        add("warning", "workarounds_zh",
            f"{len(record.workarounds_zh)} entries for {len(record.workarounds)} workarounds")
    for index, text in enumerate(record.workarounds_zh):
        if not _CJK.search(text):
            add("info", f"workarounds_zh[{index}]", "no Chinese text")
    out += placeholder_lint(record)
    out += recipe_rules([workaround.how for workaround in record.workarounds], record.regex)
    return out


def placeholder_lint(record: Record) -> list[tuple[Severity, str, str]]:
    """Placeholders and named groups (:func:`errkb_tui.placeholders.placeholder_rules`):
    an old-style ``X``/``<pod>``/``YOUR_...`` left in a command, a ``{=name}`` that no
    regex group fills and that has no example to prompt with, a named group nothing uses."""
    return placeholder_rules(record)  # type: ignore[return-value]


def check_kb(sources: Iterable[Source]) -> KB:
    """Load ``sources`` and lint them, as ``validate`` does: a KB whose ``problems`` are
    all of it in one pass (reading, schema, unknown keys, lint rules, examples), each at
    its line, sorted by file and line."""
    from .loader import load_kb

    kb = load_kb(sources)
    problems = kb.problems + lint_kb(kb) + lint_rejected(kb)
    problems.sort(key=lambda p: (p.file, p.line or 0, p.index or 0, p.record_id or ""))
    kb.problems = problems
    return kb


#: Fields a record cannot do without: a broken one is put in with a stand-in value to lint the rest.
_REQUIRED_STAND_INS = {"signature": "-", "domain": None, "category": "-", "id": None}


def lint_rejected(kb: KB, limit: int = 200) -> list[Problem]:
    """Unknown keys and lint problems of records the schema rejected, so that one run of
    ``validate`` lists everything wrong with a file: each rejected record is read again,
    the fields with schema errors are set aside, and the rest is checked (problems about
    the set-aside fields are left to the schema errors). At most ``limit`` records."""
    from .loader.validate import Place, key_warnings

    seen: dict[tuple[str, int | None, int | None], set[str]] = {}
    for problem in kb.problems:
        if problem.severity != "error" or not problem.field or problem.message.startswith("text longer"):
            continue
        shape_line = problem.line if problem.file.endswith(".jsonl") else None
        seen.setdefault((problem.file, problem.index, shape_line), set()).add(problem.field)
    out: list[Problem] = []
    wanted = list(seen.items())[:limit]
    texts = _read_rejected([key for key, _ in wanted])
    for (file, index, line), fields in wanted:
        found = texts.get((file, index, line))
        if found is None:
            continue
        data, text, first_line = found
        record, set_aside = _salvage(data, fields)
        if record is None:
            continue
        place = Place(file, line=first_line if (index is not None or line is not None) else None, index=index,
                      text=text, size=len(text))
        for problem in key_warnings(record, place):
            out.append(dataclasses.replace(problem, record_id=data.get("id") if isinstance(data.get("id"), str)
                                           else None))
        for severity, field, message in lint_record(record):
            if field.split(".")[0].split("[")[0] in set_aside:
                continue
            out.append(Problem(severity, file, message, line=place.line_of(tuple(key_parts(field))) or first_line,
                               index=index, record_id=data.get("id") if isinstance(data.get("id"), str) else None,
                               field=field))
    return out


def _read_rejected(keys: list[tuple[str, int | None, int | None]]) -> dict[tuple, tuple[dict, str, int]]:
    """``(file, index, line) -> (JSON object, its text, its first line)`` of rejected records:
    each file read once, up to the last record wanted (unreadable ones are left out)."""
    import json

    from .loader.jsontext import ListError, ListReader

    by_file: dict[str, list[tuple[str, int | None, int | None]]] = {}
    for key in keys:
        by_file.setdefault(key[0], []).append(key)
    out: dict[tuple, tuple[dict, str, int]] = {}
    for file, wanted in by_file.items():
        try:
            if file.endswith(".jsonl"):
                lines = {key[2]: key for key in wanted if key[2] is not None}
                with open(file, encoding="utf-8-sig", errors="replace") as handle:
                    for number, text in enumerate(handle, start=1):
                        if number in lines:
                            data = _loads(json, text)
                            if isinstance(data, dict):
                                out[lines[number]] = (data, text, number)
                        if number >= max(lines, default=0):
                            break
            elif any(key[1] is not None for key in wanted):
                indexes = {key[1]: key for key in wanted if key[1] is not None}
                with open(file, "rb") as handle:
                    for position, item in enumerate(ListReader(handle, 8 * 1024 * 1024).items()):
                        if position in indexes and isinstance(item.value, dict):
                            out[indexes[position]] = (item.value, item.text[item.start:item.end], item.line)
                        if position >= max(indexes):
                            break
            else:
                text = Path(file).read_text("utf-8-sig")
                data = _loads(json, text)
                if isinstance(data, dict):
                    out[wanted[0]] = (data, text, 1)
        except (OSError, ValueError, RecursionError, ListError):
            continue
    return out


def _loads(json, text: str):
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _salvage(data: dict, fields: set[str]) -> tuple[Record | None, set[str]]:
    """``data`` as a record with the fields named in ``fields`` set aside (dropped, or a
    stand-in for a required one); the top-level keys set aside."""
    from pydantic import ValidationError

    fixed = dict(data)
    set_aside: set[str] = set()
    for _ in range(3):
        for field in fields:
            key = field.split(".")[0].split("[")[0]
            if not key or key in set_aside:
                continue
            set_aside.add(key)
            if key in _REQUIRED_STAND_INS:
                fixed[key] = _REQUIRED_STAND_INS[key]
            else:
                fixed.pop(key, None)
        domain = fixed.get("domain") if isinstance(fixed.get("domain"), str) and fixed.get("domain") else "x"
        fixed["domain"] = domain
        if fixed.get("id") is None or "id" in set_aside:
            fixed["id"] = f"{domain}/x"
        try:
            return Record.model_validate(fixed), set_aside
        except ValidationError as exc:
            fields = {".".join(str(p) for p in e["loc"] if isinstance(p, str)) or "" for e in exc.errors()}
            fields = {f for f in fields if f}
            if not fields:
                return None, set_aside
        except (ValueError, RecursionError):
            return None, set_aside
    return None, set_aside


def lint_kb(kb: KB, today: datetime.date | None = None) -> list[Problem]:
    """Problems for every reportable record of ``kb``, and of its folders' team outcome files."""
    problems = []
    dates: dict[datetime.date, list[tuple[str, str]]] = {}
    for summary in kb.records:
        if not kb.reportable(summary.id):
            continue
        origin = kb.origins[summary.id]
        record = kb.get(summary.id)
        if record is None:
            problems.append(Problem("error", origin.file, "the file changed while it was checked",
                                    line=origin.line, index=origin.index, record_id=summary.id))
            continue
        lines = _FieldLines(origin)
        for severity, field, message in lint_record(record, today):
            problems.append(Problem(severity, origin.file, message, line=lines.line(field),
                                    index=origin.index, record_id=record.id, field=field))
        example = example_problem(record, origin)
        if example is not None:
            problems.append(example)
        if record.last_confirmed is not None:
            key = (record.last_confirmed, record.checked_by or "")
            dates.setdefault(key, []).append((record.verification_tier, origin.file))
    team = TeamOutcomes.from_sources(source for source in kb.sources if source.report)
    return problems + shared_dates(dates) + team.problems


class _FieldLines:
    """The line of a field of one record, read from its JSON text (once, when first asked,
    with its top-level keys found in one walk): a problem points at the line to edit."""

    def __init__(self, origin: Origin) -> None:
        self.origin = origin
        self.text: str | None = None
        self.keys: dict[str, tuple[int, int]] = {}

    def line(self, field: str) -> int | None:
        base = self.origin.line or 1
        if not field or self.origin.file.endswith(".jsonl"):
            return self.origin.line if self.origin.line is not None else (1 if not field else base)
        if self.text is None:
            self.text = _record_text(self.origin)
            # A record on one line (a list written one record a line): every field is there.
            self.keys = object_keys(self.text) if "\n" in self.text.strip() else {}
        if not self.keys:
            return base
        parts = list(key_parts(field))
        found = self.keys.get(parts[0]) if parts and isinstance(parts[0], str) else None
        if found is None:
            return base
        key_line = self.text.count("\n", 0, found[0])
        if len(parts) > 1:
            deeper = guess_line(self.text, tuple(parts[1:]), found[1])
            if deeper is not None:
                return base + self.text.count("\n", 0, found[1]) + deeper - 1
        return base + key_line


def _record_text(origin: Origin) -> str:
    try:
        with open(origin.file, "rb") as handle:
            if origin.offset is not None and origin.length is not None:
                handle.seek(origin.offset)
                raw = handle.read(origin.length)
            else:
                raw = handle.read()
        return raw.decode("utf-8-sig", errors="replace")
    except OSError:
        return ""


def example_problem(record: Record, origin: Origin) -> Problem | None:
    """An error when a one-record file has an example text beside it (``<slug>.example.txt``,
    as ``errkb-tui new`` writes) that the record's regex no longer matches."""
    if origin.offset is not None or record.regex is None or not origin.file.endswith(".json"):
        return None
    example = Path(origin.file[: -len(".json")] + EXAMPLE_SUFFIX)
    try:
        text = example.read_text("utf-8", errors="replace")
    except OSError:
        return None
    from .match import clean_text, strip_prefix
    from .model import compile_regex

    try:
        regex = compile_regex(record.regex)
    except ValueError:
        return None  # the model reports it
    for raw in clean_text(text).split("\n"):
        raw = raw.strip()
        if regex.search(raw) is not None or regex.search(strip_prefix(raw)) is not None:
            return None
    return Problem("error", origin.file, f"the regex does not match any line of its example, {example.name}: "
                   "make it match the error as printed there (or update the example)",
                   line=origin.line, index=origin.index, record_id=record.id, field="regex")


def shared_dates(dates: dict[tuple[datetime.date, str], list[tuple[str, str]]],
                 limit: int = SHARED_CONFIRMED_MAX) -> list[Problem]:
    """KB-level problems for ``last_confirmed`` dates shared by more than ``limit`` records
    of one checker.

    ``dates`` maps each ``(date, checked_by)`` (``""`` when the records do not say) to the
    ``(tier, file)`` of the records confirmed on it. Records that name different checkers
    were checked by different people, so each one's day is counted on its own.
    """
    problems = []
    for (date, checker), entries in sorted(dates.items()):
        if len(entries) <= limit:
            continue
        checked = sum(1 for tier, _ in entries if tier in CHECKED_TIERS)
        where = _common_folder([file for _, file in entries])
        by = f" and checked_by {checker!r}" if checker else ""
        if checked > limit:
            problems.append(Problem(
                "warning", where, f"{checked} records of a checked tier share last_confirmed {date}{by}; "
                f"more than {limit} confirmed in one day by one checker looks stamped, not checked: "
                "give each record the date its sources were last checked (and checked_by, who "
                "checked it)", field="last_confirmed"))
        else:
            problems.append(Problem(
                "info", where, f"{len(entries)} records share last_confirmed {date}{by}; "
                f"{len(entries) - checked} of them are not of a checked tier, so for them the date "
                "says only when they were written", field="last_confirmed"))
    return problems


def _common_folder(files: list[str]) -> str:
    try:
        return os.path.commonpath([os.path.dirname(f) for f in files]) or "."
    except ValueError:  # different drives
        return files[0]
