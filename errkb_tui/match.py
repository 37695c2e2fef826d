"""From pasted or copied text to ranked records.

1. Clean the text: keep its last 256 KiB, drop ANSI/OSC escapes and control characters.
2. Split it into lines; for each, a second form with log prefixes removed (timestamps,
   ``[rank0]:``, pytest's ``E   ``, ``npm ERR!``, BuildKit's ``#8 0.512``...).
3. Run every record's regex at once: RE2 sets (linear time, one pass over the text per
   shard), then the individual regexes of the few records that hit, line by line.
4. Rank: a more specific regex (more fixed characters) beats a generic one; an error line
   (``XError:``, ``error:``, ``fatal:``, ``panic:``, ``Caused by:``...) beats any other line;
   a later error line (the final exception of a chain) beats an earlier one.
   Four kinds of hit rank below the rest and are never confident beside a confident one:
   - a hit on an elaboration line: an indented line after an error line with a code
     (``error TS2345:``, ``error[E0308]:``) that the record's regex does not match itself,
     so ``Type 'X' is not assignable to type 'Y'`` under TS2345 is not a TS2322 error;
   - a hit of a fallback record (tagged ``wrapper`` or ``general``): a wrapper record
     explains a summary line (``npm ERR! code 1``, ``Process completed with exit code 1``)
     only when no real error stands above it; a general record (``no space left on
     device``) explains a fragment only when no tool's own record does;
   - a hit on a summary line itself (``executor failed running [...]: exit code: 1``) when
     a hit on the error above it is there, even if that error's record is a wrapper too;
   - wrapper lines are not error lines, so they neither boost a hit nor feed the fuzzy
     fallback.
   One kind ranks above what follows it: a hit of a banner record (tagged ``banner``: a
   test runner's or bundler's block that frames the error printed under it, as Jest's
   "encountered an unexpected token … Details:" frames a ``SyntaxError``) outranks the real
   hits in the ``BANNER_REACH`` lines below it, since the runner's config is what to fix.
5. No regex hit: fuzzy fallback (rapidfuzz) of the error lines against signatures, never
   confident unless very close. Text without error lines gets no fuzzy matches at all.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

import re2
from rapidfuzz import fuzz, process, utils

from .model import Record, compile_regex, re2_options
from .patterns import CONFIDENT_LITERALS, literal_length
from .text import cell_truncate

#: Only the end of the input is read: tracebacks end with the error.
MAX_INPUT_BYTES = 256 * 1024
#: Lines are cut to this many characters before matching.
MAX_LINE_CHARS = 4096
#: Patterns per RE2 set; smaller sets keep each DFA within its memory budget.
SET_SHARD = 4000
#: Fuzzy scores (0-100) at or above this, on a long enough line, count as confident.
FUZZY_CONFIDENT = 96
#: ...and the whole line must be this close (0-100) to the signature: token_set_ratio
#: scores a line whose words are a subset of the signature's (a cut-off line) as 100.
FUZZY_CONFIDENT_RATIO = 90
FUZZY_MIN = 62

_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor movement
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\|$)"  # OSC: titles, hyperlinks, clipboard
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\|$)"  # DCS, SOS, PM, APC
    r"|\x1b[@-Z\\-_]"  # other two-byte escapes
    r"|\x9b[0-?]*[ -/]*[@-~]"  # 8-bit CSI
)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_PREFIX = re.compile(
    r"""^(?:\s*(?:
        [>│┃|]
      | \d{4}-\d\d-\d\d[T\ ]\d\d:\d\d(?::\d\d)?(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?\b
      | \[\d{4}-\d\d-\d\d[^\]]{0,40}\]
      | \[?\d\d:\d\d:\d\d(?:[.,]\d+)?\]?
      | \[(?:rank|RANK)\s*\d+\]:?
      | rank\s*\d+\s*:
      | [IWEF]\d{4}\ +\d\d:\d\d:\d\d\.\d+\ +\d+\ +[\w./-]+:\d+\]
      | E\s{2,}|E$
      | npm\ (?:ERR!|error|warn|WARN|notice)
      | (?:gyp|yarn|pnpm)\ (?:ERR!|error|info|warn)
      | \#\d+\ \d+\.\d+
      | \#\d+\ (?=ERROR)
      | [\w.-]+\s+\|(?=\s)
      | (?:INFO|DEBUG|WARN|WARNING|ERROR|CRITICAL|TRACE|FATAL)\s*(?:[:\]|-]|(?=\s))
      | \[(?:INFO|DEBUG|WARN|WARNING|ERROR|CRITICAL|TRACE|FATAL|error|warn)\]
    )[\s:]*)+""",
    re.VERBOSE,
)
_ERROR_LINE = re.compile(
    r"""^(?:[\w.$]+\.)?[A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt|Fault|Failure)\b
      | ^Exception\ in\ thread | ^Caused\ by: | ^thread\ '[^']*'\ panicked
      | ^(?:error|fatal|panic|warning|FATAL|ERROR|Error|E|F|fatal\ error)(?:\[\w+\])?\s*[:!]
      | \berror(?:\[\w+\])?:|\berror\ TS\d+|\bERR!|\bFATAL\b|\bfailed\b|\bFailed\b
      | \bdenied\b|\brefused\b|\bnot\ found\b|\bBackOff\b|\bOOMKilled\b(?!\"?\s*:\s*false)|\bcannot\b|\bCannot\b
    """,
    re.VERBOSE,
)

#: Summary lines that tools print below the real error: they say that something failed,
#: not what. They are never error lines (see :func:`is_error_line`).
_WRAPPER_LINE = re.compile(
    r"""(?:npm|yarn|pnpm)\ (?:ERR!|error)\s+(?:code\s+(?:\d+|ELIFECYCLE)\s*$|errno\s+-?\d+\s*$
                                   |command\ failed|Lifecycle\ script|Failed\ at\ the
                                   |A\ complete\ log\ of\ this\ run|This\ is\ probably\ not\ a\ problem)
      | ^(?:error\ )?Command\ failed\ with\ exit\ code\ \d+
      | Process\ completed\ with\ exit\ code\ \d+
      | ^BUILD\ FAILED\b | ^FAILURE:\ Build\ failed\ with\ an\ exception
      | ^error:\ could\ not\ compile\ `
      | returned\ a\ non-zero\ code:\ \d+
      | did\ not\ complete\ successfully:\ exit\ code:\ \d+
      | executor\ failed\ running\ \[.*\]:\ exit\ code:\ \d+
      | ^(?:ERROR:\ )?failed\ to\ solve:\ process\ .*\ did\ not\ complete\ successfully
      | ^error:\ subprocess-exited-with-error | ^note:\ This\ error\ originates\ from\ a\ subprocess
      | ^(?:\S+:\ )?exit\ status\ \d+$ | ^make(?:\[\d+\])?:\ \*\*\*\ .*Error\ \d+
      | ^Error:\ Process\ completed | ^\#\#\[error\]Process\ completed
      | ^(?:ERROR:\ )?Encountered\ errors\ while\ bringing\ up\ the\ project
      | collect2(?:\.exe)?:\ (?:error:\ ?)?ld\ returned\ \d+\ exit\ status
      | error:\ linker\ command\ failed\ with\ exit\ code\ \d+
    """,
    re.VERBOSE,
)
#: An error line with a code: the lines indented under it elaborate that one error.
_CODED_ERROR = re.compile(r"\berror\s*(?:TS|CS|C|LNK)\d{3,5}\b|\berror\[E\d{4}\]|^TS\d{4}:")
#: Tags that make a record a fallback: it ranks below the records of real errors.
FALLBACK_TAGS = frozenset({"wrapper", "general"})
#: Score taken off a fallback hit or an elaboration hit when other hits are there.
FALLBACK_PENALTY = 0.3
#: The tag of a record whose message frames the error printed under it.
BANNER_TAG = "banner"
#: How many lines below a banner hit its framed error may stand (Jest's block, with its
#: advice, file path and code frame, is about 30 lines).
BANNER_REACH = 40
#: Score taken off a hit framed by a banner, so the banner ranks above it.
BANNER_FRAMED = 0.05
#: How many lines above or below a hit a named group's value may be taken from when the
#: hit's own line lacks it (see :meth:`Matcher._groups`).
GROUP_REACH = 10

#: Python's exception-chain separators: what follows supersedes what came before.
_CHAIN_MARKER = re.compile(
    r"During handling of the above exception, another exception occurred"
    r"|The above exception was the direct cause of the following exception"
)
#: Score taken off a hit in an earlier part of an exception chain: more than a confident
#: hit can lose to it on specificity and coverage, so the final exception ranks first.
CHAIN_SUPERSEDED = 0.25


@dataclass(frozen=True)
class Match:
    """One record that explains the text, and why."""

    id: str
    score: float
    method: str  # "regex" or "fuzzy"
    line: str
    confident: bool
    line_number: int = 0  # 1-based, in the (capped) input
    #: Values the record's regex captured with named groups on the matched line
    #: (``{"module": "torchvision"}``); empty for fuzzy matches. They fill the record's
    #: ``{=name}`` placeholders (:mod:`errkb_tui.placeholders`).
    groups: dict[str, str] = field(default_factory=dict, hash=False)

    def to_json(self) -> dict[str, object]:
        """The CLI's JSON shape: id, score, method, line, confident, groups."""
        data = asdict(self)
        data.pop("line_number")
        return data


def clean_text(text: str | bytes) -> str:
    """The last ``MAX_INPUT_BYTES`` of ``text`` as safe text: no escapes, no controls."""
    if isinstance(text, bytes):
        text = text[-MAX_INPUT_BYTES:].decode("utf-8", "replace")
    if len(text) > MAX_INPUT_BYTES:
        text = text[-MAX_INPUT_BYTES:]
    data = text.encode("utf-8", "replace")  # lone surrogates become '?'
    if len(data) > MAX_INPUT_BYTES:
        data = data[-MAX_INPUT_BYTES:]
    text = data.decode("utf-8", "ignore")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _ESCAPES.sub("", text)
    return _CONTROL.sub("", text.replace("\t", "    "))


def strip_prefix(line: str) -> str:
    """``line`` without log prefixes (timestamps, ranks, pytest ``E``, ``npm ERR!``...)."""
    return _PREFIX.sub("", line, count=1).strip()


def is_error_line(line: str) -> bool:
    """Whether a (prefix-stripped) line looks like an error message, and not a wrapper's
    summary of one (``npm ERR! code 1``, ``BUILD FAILED``)."""
    return bool(_ERROR_LINE.search(line)) and not is_wrapper_line(line)


def is_wrapper_line(line: str) -> bool:
    """Whether a line is a summary that a real error usually stands above."""
    return bool(_WRAPPER_LINE.search(line))


def elaborated_lines(lines: list[str]) -> list[int]:
    """For each line, the index of the coded error line it elaborates, or -1.

    ``lines`` are as printed (indentation kept). A coded error line (``error TS2345:``,
    ``error[E0308]:``, ts-loader's indented ``TS2345:``) starts a block; the indented lines
    after it belong to it, whatever their depth (ts-loader indents the coded line more than
    its elaboration). A blank or unindented line ends the block.
    """
    out, header = [], -1
    for number, line in enumerate(lines):
        body = line.lstrip()
        if not body:
            header = -1
            out.append(-1)
        elif ("rror" in body or body.startswith("TS")) and _CODED_ERROR.search(body):
            header = number
            out.append(-1)
        elif len(body) == len(line):  # unindented: a new block, or none
            header = -1
            out.append(-1)
        else:
            out.append(header)
    return out


@dataclass
class _Hit:
    record: int
    line: int
    literals: int
    coverage: float
    error_line: bool
    elaboration: bool = False
    #: The line is a summary (wrapper) line: it says that something failed, not what.
    summary: bool = False


class Matcher:
    """Matches text against a set of records. Build once; :meth:`match` is thread-safe."""

    def __init__(self, records: Sequence[Record]) -> None:
        self.records = list(records)
        self._literals: dict[int, int] = {}
        # Each distinct pattern goes into a set once, however many records share it.
        by_pattern: dict[str, list[int]] = {}
        for index, record in enumerate(self.records):
            if record.regex:
                by_pattern.setdefault(record.regex, []).append(index)
        self._sets: list[tuple[object, list[list[int]]]] = []  # (set, records of each pattern)
        current, shard = None, []
        for pattern, indices in by_pattern.items():
            if current is None:
                current, shard = re2.Set.SearchSet(_set_options()), []
            try:
                current.Add("(?m)" + pattern)
            except re2.error:
                continue  # the model rejects such records; a set may still refuse a giant one
            shard.append(indices)
            if len(shard) >= SET_SHARD:
                current.Compile()
                self._sets.append((current, shard))
                current = None
        if current is not None and shard:
            current.Compile()
            self._sets.append((current, shard))
        self._fuzzy_signatures: list[str] | None = None  # built on the first fuzzy fallback

    @property
    def _signatures(self) -> list[str]:
        if self._fuzzy_signatures is None:
            self._fuzzy_signatures = [utils.default_process(r.signature) for r in self.records]
        return self._fuzzy_signatures

    def match(self, text: str | bytes, limit: int = 5) -> list[Match]:
        """Records that explain ``text``, best first (at most ``limit``)."""
        printed = clean_text(text).split("\n")
        raw_lines = [line.strip()[:MAX_LINE_CHARS] for line in printed]
        clean_lines = [strip_prefix(line) for line in raw_lines]
        # A wrapper line is never an error line; only the few error-looking lines are checked.
        error_lines = [bool(_ERROR_LINE.search(c) or _ERROR_LINE.search(r))
                       and not (is_wrapper_line(r) or is_wrapper_line(c))
                       for r, c in zip(raw_lines, clean_lines)]
        headers = elaborated_lines(printed)
        hits = self._regex_hits(raw_lines, clean_lines, error_lines, headers)
        if hits:
            return self._rank_hits(hits, raw_lines, clean_lines, limit)
        return self._fuzzy(raw_lines, clean_lines, error_lines, limit)

    def best(self, text: str | bytes) -> Match | None:
        """The top match, or None."""
        found = self.match(text, limit=1)
        return found[0] if found else None

    # -- regex ---------------------------------------------------------------------------

    def _candidates(self, raw_lines: list[str], clean_lines: list[str]) -> set[int]:
        raw_text = "\n".join(raw_lines)
        clean_text_ = "\n".join(clean_lines)
        found: set[int] = set()
        for regex_set, shard in self._sets:
            for text in (raw_text, clean_text_):
                for hit in regex_set.Match(text) or ():  # None: no hit
                    found.update(shard[hit])
        return found

    def _regex_hits(self, raw_lines: list[str], clean_lines: list[str], error_lines: list[bool],
                    headers: list[int]) -> list[_Hit]:
        hits: list[_Hit] = []
        for index in self._candidates(raw_lines, clean_lines):
            record = self.records[index]
            regex = compile_regex(record.regex)
            literals = self._literals.get(index)
            if literals is None:
                literals = self._literals[index] = literal_length(record.regex)
            best: _Hit | None = None
            for number in range(len(raw_lines) - 1, -1, -1):
                for line in (raw_lines[number], clean_lines[number]):
                    found = regex.search(line)
                    if found is None:
                        continue
                    start, end = found.span()
                    header = headers[number]
                    elaboration = header >= 0 and not any(
                        regex.search(h) for h in (raw_lines[header], clean_lines[header]))
                    summary = is_wrapper_line(raw_lines[number]) or is_wrapper_line(clean_lines[number])
                    hit = _Hit(index, number, literals, (end - start) / max(1, len(line)),
                               error_lines[number], elaboration, summary)
                    if best is None or _better(hit, best):
                        best = hit
                    break
                if best is not None and best.error_line and not best.elaboration:
                    break
            if best is not None:
                hits.append(best)
        return hits

    def _rank_hits(self, hits: list[_Hit], raw_lines: list[str], clean_lines: list[str],
                   limit: int) -> list[Match]:
        lines_hit = sorted({h.line for h in hits})
        order = {line: rank for rank, line in enumerate(lines_hit)}
        last_marker = max((n for n, line in enumerate(raw_lines) if _CHAIN_MARKER.search(line)), default=-1)
        demoted = [hit.elaboration or self._is_fallback(hit) for hit in hits]
        # Only real errors push fallbacks down: a wrapper beside another wrapper keeps its rank.
        any_real = any(not d for d in demoted)
        real_confident = any(not d and hit.literals >= CONFIDENT_LITERALS for d, hit in zip(demoted, hits))
        # ...except that a hit on a summary line itself (`executor failed running [...]: exit
        # code: 1`) gives way to one on the error it sums up, even when that error's record is
        # a wrapper too (pip's "metadata-generation-failed" relays a build backend's failure).
        summary = [hit.summary for hit in hits]
        inner = [hit.line for s, hit in zip(summary, hits) if not s]
        inner_confident = [hit.line for s, hit in zip(summary, hits)
                           if not s and not hit.elaboration and hit.literals >= CONFIDENT_LITERALS]
        scored = []
        for hit, down, outer in zip(hits, demoted, summary):
            error_above = outer and any(line < hit.line for line in inner)
            specificity = min(1.0, hit.literals / 40)
            lateness = (order[hit.line] + 1) / len(lines_hit)
            score = (
                0.5
                + 0.25 * specificity
                + (0.1 if hit.error_line else 0.0)
                + 0.1 * lateness
                + 0.05 * min(1.0, hit.coverage * 2)
                - (CHAIN_SUPERSEDED if hit.line < last_marker else 0.0)
                - (FALLBACK_PENALTY if (down and any_real) or error_above else 0.0)
            )
            confident = (hit.literals >= CONFIDENT_LITERALS and not hit.elaboration
                         and not (down and real_confident)
                         and not (outer and any(line < hit.line for line in inner_confident)))
            scored.append((score, hit.literals, hit.line, hit, confident))
        scored = self._banners_first(scored)
        scored.sort(key=lambda item: (item[0], item[1], item[2]), reverse=True)
        return [
            Match(self.records[hit.record].id, round(min(score, 1.0), 3), "regex",
                  _shorten(raw_lines[hit.line]), confident, hit.line + 1,
                  self._groups(hit, raw_lines, clean_lines))
            for score, _, _, hit, confident in scored[:limit]
        ]

    def _banners_first(self, scored: list) -> list:
        """Put each banner hit where the best real hit in the lines it frames stood, and
        those framed hits just below it."""
        banner = [BANNER_TAG in self.records[item[3].record].tags for item in scored]
        real = [not b and not self._is_fallback(item[3]) for b, item in zip(banner, scored)]
        lifted = {n: item[0] for n, item in enumerate(scored)}
        for n, item in enumerate(scored):
            if not banner[n]:
                continue
            framed = [m for m, other in enumerate(scored)
                      if real[m] and item[2] < other[2] <= item[2] + BANNER_REACH]
            if framed:
                lifted[n] = max(lifted[n], max(scored[m][0] for m in framed))
                for m in framed:
                    lifted[m] = min(lifted[m], scored[m][0] - BANNER_FRAMED)
        return [(lifted[n], *item[1:]) for n, item in enumerate(scored)]

    def _is_fallback(self, hit: _Hit) -> bool:
        return not FALLBACK_TAGS.isdisjoint(self.records[hit.record].tags)

    def _groups(self, hit: _Hit, raw_lines: list[str], clean_lines: list[str]) -> dict[str, str]:
        """The named groups the hit's regex captures on its line (only for returned hits:
        the set pass and the line scan stay free of capture work).

        A value the hit's line lacks is taken from the nearest other line, within
        ``GROUP_REACH``, that the same regex matches with that group: one error is often
        printed as several lines that the regex knows, and the line that ranks best need
        not hold the value (apt 3.0 prints "Missing key <id>" above "The repository … is
        not signed"). Values on the hit's own line always win.
        """
        pattern = self.records[hit.record].regex
        if not pattern or "(?P<" not in pattern and "(?<" not in pattern:
            return {}
        regex = compile_regex(pattern)
        wanted = set(regex.groupindex)
        values: dict[str, str] = {}
        reach = range(1, GROUP_REACH + 1)
        numbers = [hit.line, *(n for d in reach for n in (hit.line - d, hit.line + d) if 0 <= n < len(raw_lines))]
        for number in numbers:
            for line in (raw_lines[number], clean_lines[number]):  # the order _regex_hits tries
                found = regex.search(line)
                if found is not None:
                    for name, value in found.groupdict().items():
                        if value and name not in values:
                            values[name] = value
                    break
            if wanted <= values.keys():
                break
        return values

    # -- fuzzy ---------------------------------------------------------------------------

    def _fuzzy(self, raw_lines: list[str], clean_lines: list[str], error_lines: list[bool], limit: int) -> list[Match]:
        candidates = [n for n in range(len(clean_lines)) if error_lines[n] and len(clean_lines[n]) >= 12]
        best: dict[int, tuple[float, int]] = {}
        for number in candidates[-5:]:
            query = utils.default_process(clean_lines[number][:300])
            if not query:
                continue
            for _, score, index in process.extract(
                query, self._signatures, scorer=fuzz.token_set_ratio, processor=None,
                limit=limit, score_cutoff=FUZZY_MIN,
            ):
                if score > best.get(index, (0.0, 0))[0]:
                    best[index] = (score, number)
        ranked = sorted(best.items(), key=lambda item: item[1][0], reverse=True)
        out = []
        for index, (score, number) in ranked:
            confident = (
                score >= FUZZY_CONFIDENT
                and len(clean_lines[number]) >= 20
                and fuzz.ratio(utils.default_process(clean_lines[number][:300]), self._signatures[index])
                >= FUZZY_CONFIDENT_RATIO
            )
            value = 0.8 if confident else 0.6 * score / 100
            out.append(Match(self.records[index].id, round(value, 3), "fuzzy",
                             _shorten(raw_lines[number]), confident, number + 1))
        out.sort(key=lambda m: m.score, reverse=True)  # stable: ties keep fuzzy-score order
        return out[:limit]


def _better(hit: _Hit, best: _Hit) -> bool:
    """Whether ``hit`` (an earlier line) explains the text better than ``best``: a line of
    its own error beats an elaboration of another's, then a line that says what failed beats
    a summary line that only says that something did (a record whose regex takes both gcc's
    ``undefined reference`` line and the ``collect2`` line under it is reported on the
    first), then an error line beats any other."""
    if hit.elaboration != best.elaboration:
        return best.elaboration
    if hit.summary != best.summary:
        return best.summary
    return hit.error_line and not best.error_line


def _set_options() -> re2.Options:
    options = re2_options()
    options.max_mem = 64 << 20
    return options


def _shorten(line: str, limit: int = 300) -> str:
    return cell_truncate(line, limit)
