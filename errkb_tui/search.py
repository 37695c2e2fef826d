"""Fuzzy filtering of records for a query typed in the browser.

A query is whitespace-separated terms plus optional qualifiers ``domain:``, ``category:``
and ``tag:`` (each a case-insensitive prefix). Every term must occur in the record's
signature, id, aliases, tags, root cause or the words of its commands and regex; records
are ranked by where the terms occur (signature word starts first, commands' words below
aliases and tags). A package name that some record's command installs (``torchvision``)
also lists the records about a missing package (a regex group named ``module``,
``package``...), last. When no record holds every term (a typo), a rapidfuzz pass over
signatures and ids finds the closest ones instead.

Built for 100,000 records: the strings are lowercased once, the filter is a C-level
substring test per record, a query that extends the previous one only searches the previous
results, and full scoring runs only when the candidate set is small.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from sys import intern
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process, utils

from .model import Record

QUALIFIERS = ("domain", "category", "tag")
#: Above this many candidates, rank by a cheap two-level key instead of a full score.
FULL_RANK_LIMIT = 4000
#: Terms shorter than this match signatures, ids, aliases and tags only: one or two
#: letters are somewhere in nearly every root cause, which would make them noise.
MIN_ROOT_TERM = 3
#: Root causes are searched this many records at a time, checking for a newer keystroke.
TAIL_CHUNK = 10_000
#: How many records the typo-tolerant pass returns at most.
FUZZY_LIMIT = 200
FUZZY_CUTOFF = 60
#: A regex group with one of these names captures a package or module name: such a record
#: explains any package going missing.
_PACKAGE_GROUP = re.compile(r"\(\?P?<(?:module|package|pkg|crate|gem|library|lib|dependency|dep)>")


@dataclass(frozen=True)
class Query:
    """A parsed query: free-text terms and qualifier prefixes."""

    terms: tuple[str, ...] = ()
    domain: str = ""
    category: str = ""
    tag: str = ""

    @classmethod
    def parse(cls, text: str) -> Query:
        """Split ``text`` into terms and qualifiers; matching is case-insensitive."""
        terms: list[str] = []
        quals = dict.fromkeys(QUALIFIERS, "")
        for token in text.lower().split():
            name, sep, value = token.partition(":")
            if sep and name in quals:
                quals[name] = value
            else:
                terms.append(token)
        return cls(tuple(terms), **quals)

    def narrows(self, previous: Query, visible_only: bool = False) -> bool:
        """Whether every record matching ``self`` also matches ``previous``.

        With ``visible_only``, for matches in signatures, ids, aliases and tags alone.
        """
        if len(self.terms) < len(previous.terms):
            return False
        # A term that grows to MIN_ROOT_TERM characters starts searching root causes too,
        # so it can match records the shorter one did not.
        terms_ok = all(
            old in new and (visible_only or len(old) >= MIN_ROOT_TERM or len(new) < MIN_ROOT_TERM)
            for old, new in zip(previous.terms, self.terms)
        )
        quals_ok = all(
            getattr(self, name).startswith(getattr(previous, name)) for name in QUALIFIERS
        )
        return terms_ok and quals_ok


@dataclass
class SearchResult:
    """Indices into the index's records, best first."""

    query: str
    indices: list[int]
    fuzzy: bool = False
    partial: bool = False  # the head of a result whose tail is still being searched
    #: Every record a longer query could match (a superset of ``indices`` when a search was
    #: stopped early); None: ``indices`` itself.
    pool: list[int] | None = field(default=None, repr=False)
    scope_key: tuple = field(default=(), repr=False)


class SearchIndex:
    """Precomputed search strings for a list of records.

    :meth:`search` may run in several threads at once (the app's search worker and the
    command palette): the only shared state it writes is ``_last`` (a tuple replaced whole,
    read once per call) and the lazily built fuzzy choices (built the same by any thread),
    so a race can cost a repeated computation, never a wrong result."""

    def __init__(self, records: Sequence[Record]) -> None:
        self.records = list(records)
        records = self.records
        self.signatures = [r.signature.lower() for r in records]
        # What every term is looked for in, and what terms of MIN_ROOT_TERM+ also search.
        self.short = [
            f"{r.signature}\n{r.id}\n{' '.join(r.aliases)} {' '.join(r.tags)}".lower() for r in records
        ]
        self.full = [f"{h}\n{r.root_cause.lower()}\n{r.words}" for h, r in zip(self.short, records)]
        # Records about a missing package or module (few): listed for a known package name.
        self.package_records = [i for i, r in enumerate(records)
                                if r.regex and "<" in r.regex and _PACKAGE_GROUP.search(r.regex)]
        self._packages: frozenset[str] | None = None
        # Few distinct values: one shared lowercase string each, not one per record.
        lowered: dict[str, str] = {}

        def low(value: str) -> str:
            found = lowered.get(value)
            if found is None:
                found = lowered[value] = intern(value.lower())
            return found

        self.domains = [low(r.domain) for r in records]
        self.categories = [low(r.category) for r in records]
        self.tags = [tuple(dict.fromkeys(map(low, r.tags))) if r.tags else () for r in records]
        self._fuzzy_choices: list[str] | None = None
        self._last: tuple[Query, tuple, SearchResult] | None = None

    def search(self, text: str, domain: str | None = None, category: str | None = None,
               on_partial: Callable[[SearchResult], None] | None = None,
               should_stop: Callable[[], bool] | None = None) -> SearchResult:
        """Records matching ``text`` within the facet (``domain``, ``category``), best first.

        Records whose signature, id, aliases or tags hold every term rank above those that
        need the root cause. That first group is the slow search's head: with
        ``on_partial``, it is handed over (``partial=True``) before the root causes are
        searched, so a caller can show the top rows at once; the rows only grow after it.
        ``should_stop`` (checked between chunks of the slow part) abandons a search that a
        newer keystroke made pointless; the partial result it returns is not reused.
        """
        query = Query.parse(text)
        scope_key = (domain, category)
        previous = self._last
        head_pool = tail_pool = None
        if previous and previous[1] == scope_key and not previous[2].fuzzy:
            last = previous[2]
            pool = last.indices if last.pool is None else last.pool
            if query.narrows(previous[0]):
                head_pool = tail_pool = pool  # a longer query searches only these
            elif query.narrows(previous[0], visible_only=True):
                head_pool = pool  # a term just reached MIN_ROOT_TERM: only root causes are new
        facet = None
        if head_pool is None or tail_pool is None:
            facet = self._facet(domain, category)
        head_pool = self._qualify(facet if head_pool is None else head_pool, query)
        tail_pool = self._qualify(facet if tail_pool is None else tail_pool, query)
        result = self._filter(text, query, head_pool, tail_pool, scope_key, on_partial, should_stop)
        self._last = (query, scope_key, result)
        extra = self._package_hits(query, domain, category, result)
        if extra:
            indices = extra if result.fuzzy else [*result.indices, *extra]
            result = SearchResult(text, indices, scope_key=scope_key, pool=result.pool)
        return result

    def packages(self) -> frozenset[str]:
        """Names that some record's command installs (``+name`` in its words)."""
        if self._packages is None:
            self._packages = frozenset(
                word[1:] for r in self.records if "+" in r.words for word in r.words.split() if word[0] == "+")
        return self._packages

    def _package_hits(self, query: Query, domain: str | None, category: str | None,
                      result: SearchResult) -> list[int]:
        """For a one-word query naming a package the KB knows: the missing-package records
        in scope that the result does not list yet."""
        if len(query.terms) != 1 or not self.package_records or len(query.terms[0]) < MIN_ROOT_TERM:
            return []
        if query.terms[0] not in self.packages():
            return []
        listed = set(result.indices) if not result.fuzzy else set()
        in_scope = self._qualify(
            [i for i in self.package_records
             if (domain is None or self.domains[i] == domain.lower())
             and (category is None or self.categories[i] == category.lower())], query)
        return [i for i in in_scope if i not in listed]

    # -- steps ---------------------------------------------------------------------------

    def _facet(self, domain: str | None, category: str | None) -> list[int]:
        if domain is None:
            return list(range(len(self.records)))
        domain_l = domain.lower()
        if category is None:
            return [i for i, d in enumerate(self.domains) if d == domain_l]
        category_l = category.lower()
        return [
            i for i, (d, c) in enumerate(zip(self.domains, self.categories))
            if d == domain_l and c == category_l
        ]

    def _qualify(self, candidates: list[int], query: Query) -> list[int]:
        if query.domain:
            candidates = [i for i in candidates if self.domains[i].startswith(query.domain)]
        if query.category:
            candidates = [i for i in candidates if self.categories[i].startswith(query.category)]
        if query.tag:
            candidates = [i for i in candidates if any(t.startswith(query.tag) for t in self.tags[i])]
        return candidates

    def _filter(self, text: str, query: Query, head_pool: list[int], candidates: list[int],
                scope_key: tuple, on_partial: Callable[[SearchResult], None] | None = None,
                should_stop: Callable[[], bool] | None = None) -> SearchResult:
        """``head_pool`` holds every record that can match in visible text, ``candidates``
        every record that can match at all."""
        if not query.terms:
            return SearchResult(text, sorted(candidates), scope_key=scope_key)
        short, full = self.short, self.full
        head = head_pool
        for term in query.terms:  # every term in signature, id, aliases or tags
            head = [i for i in head if term in short[i]]
        long_terms = [term for term in query.terms if len(term) >= MIN_ROOT_TERM]
        ranked = self._rank(head, query.terms)
        if not long_terms:
            tail: list[int] = []
        else:
            if on_partial is not None and ranked:
                on_partial(SearchResult(text, ranked, scope_key=scope_key, partial=True))
            in_head = set(head)
            tail = []
            for start in range(0, len(candidates), TAIL_CHUNK):
                if should_stop is not None and should_stop():
                    # What was not searched yet may still match: keep it for the next query.
                    rest = [i for i in candidates[start:] if i not in in_head]
                    return SearchResult(text, ranked, scope_key=scope_key, partial=True,
                                        pool=sorted([*head, *tail, *rest]))
                chunk = [i for i in candidates[start:start + TAIL_CHUNK] if i not in in_head]
                for term in query.terms:  # the rest, with long terms also in root causes
                    hay = full if len(term) >= MIN_ROOT_TERM else short
                    chunk = [i for i in chunk if term in hay[i]]
                tail += chunk
            tail = self._rank(tail, query.terms)
        if ranked or tail:
            return SearchResult(text, ranked + tail, scope_key=scope_key)
        return SearchResult(text, self._fuzzy(candidates, " ".join(query.terms)), fuzzy=True, scope_key=scope_key)

    def _rank(self, found: list[int], terms: tuple[str, ...]) -> list[int]:
        found = sorted(found)
        if all(len(term) < 2 for term in terms):
            return found  # one letter says nothing about relevance: keep the stable order
        sigs = self.signatures
        if len(found) > FULL_RANK_LIMIT:
            # Records whose signature holds every term first, the rest after: two flat passes
            # (no per-record generator or set), as this runs over up to every record.
            in_sig = found
            for term in terms:
                in_sig = [i for i in in_sig if term in sigs[i]]
            if not in_sig or len(in_sig) == len(found):
                return found
            if len(terms) == 1:
                term = terms[0]
                return in_sig + [i for i in found if term not in sigs[i]]
            chosen = set(in_sig)
            return in_sig + [i for i in found if i not in chosen]
        return sorted(found, key=lambda i: -self._score(i, terms))

    def _score(self, index: int, terms: tuple[str, ...]) -> float:
        sig, short = self.signatures[index], self.short[index]
        total = 0.0
        for term in terms:
            pos = sig.find(term)
            if pos == 0:
                total += 4
            elif pos > 0:
                total += 3 if not sig[pos - 1].isalnum() else 2
            elif term in short:  # id, aliases, tags
                total += 2
            elif term in self.records[index].words:  # a command or the regex
                total += 1
            else:  # root cause
                total += 0.5
        return total

    def _fuzzy(self, candidates: list[int], text: str) -> list[int]:
        if self._fuzzy_choices is None:
            self._fuzzy_choices = [
                utils.default_process(f"{r.signature} {r.id}") for r in self.records
            ]
        choices = self._fuzzy_choices
        query = utils.default_process(text)
        if not query or not candidates:
            return []
        subset = {i: choices[i] for i in candidates}
        hits = process.extract(
            query, subset, scorer=fuzz.partial_ratio, processor=None,
            limit=FUZZY_LIMIT, score_cutoff=FUZZY_CUTOFF,
        )
        return [index for _, _, index in hits]


_WORD = re.compile(r"\S+")


def highlight_spans(text: str, query: str) -> list[tuple[int, int]]:
    """``(start, end)`` spans of ``text`` to highlight for ``query`` (merged, sorted).

    Exact occurrences of each term first; a term with none gets its best fuzzy alignment.
    """
    terms = Query.parse(query).terms
    if not terms or not text:
        return []
    lower = text.lower()
    if len(lower) != len(text):  # case folding changed lengths; positions would be wrong
        return []
    spans: list[tuple[int, int]] = []
    for term in terms:
        start = lower.find(term)
        if start >= 0:
            while start >= 0:
                spans.append((start, start + len(term)))
                start = lower.find(term, start + len(term))
            continue
        if len(term) < 3:
            continue
        alignment = fuzz.partial_ratio_alignment(term, lower)
        if alignment and alignment.score >= FUZZY_CUTOFF:
            spans.append((alignment.dest_start, alignment.dest_end))
    spans.sort()
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged
