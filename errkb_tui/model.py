"""Pydantic models of a KB record and the rules every record must follow.

The field names and shapes are those of ``shared/seed-record.json``; a record that follows
them validates unchanged and serialises back to equal JSON. Unknown keys are kept (so
nothing is lost) and reported as warnings by :func:`unknown_keys`.
"""

from __future__ import annotations

import datetime
import re
import threading
from sys import intern
from functools import lru_cache
from typing import Annotated, Any, Union

import re2
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .patterns import MIN_REGEX_LITERALS, literal_length

Rate = Annotated[float, Field(ge=0.0, le=1.0)]

#: Values the bundled KB uses; others load but ``validate`` warns about them.
ROOT_CAUSE_TYPES = (
    "generic", "code_bug", "api_misuse", "environment", "version_mismatch",
    "dependency_conflict", "resource_limit", "permission", "network", "configuration",
    "concurrency", "platform_mismatch", "data_quality",
)
VERSION_STATUSES = ("active", "deprecated", "removed", "fixed", "changed", "unaffected", "unknown")
#: ``user_written``: a record a person wrote from an error they hit (``errkb-tui new``).
VERIFICATION_TIERS = ("ai_generated", "user_written", "source_checked", "community_verified", "expert_verified")
RESOLVABLE = ("yes", "partial", "no")

_ID_RE = re.compile(r"^[A-Za-z0-9][\w.+-]*/[\w.+/-]+$")


def re2_options() -> re2.Options:
    """RE2 options used everywhere: never log to stderr (it would corrupt the TUI)."""
    options = re2.Options()
    options.log_errors = False
    return options


#: Compiled regexes kept for the matcher (each holds RE2 program memory, tens of KB: a
#: large cache costs hundreds of MB at 100,000 records, and a match needs only a few).
@lru_cache(maxsize=256)
def compile_regex(pattern: str) -> Any:
    """Compile ``pattern`` with RE2, raising ``ValueError`` with RE2's reason if it cannot."""
    return _compile(pattern)


def _compile(pattern: str) -> Any:
    try:
        return re2.compile(pattern, re2_options())
    except re2.error as exc:
        reason = exc.args[0] if exc.args else exc
        if isinstance(reason, bytes):
            reason = reason.decode("utf-8", "replace")
        raise ValueError(f"not a valid RE2 pattern: {reason}") from None


#: Patterns up to this long are checked by parsing alone (an RE2 set's Add), about ten
#: times cheaper than compiling; longer ones are compiled, which also catches a program
#: too large for RE2's memory budget.
PARSE_CHECK_MAX = 300
_checker = threading.local()


def check_regex(pattern: str) -> None:
    """Raise ``ValueError`` (with RE2's reason) if RE2 cannot use ``pattern``; keep nothing."""
    if len(pattern) <= PARSE_CHECK_MAX:
        checker = getattr(_checker, "set", None)
        if checker is None or getattr(_checker, "count", 0) >= 1000:  # a fresh set now and then
            checker = _checker.set = re2.Set.SearchSet(re2_options())
            _checker.count = 0
        try:
            checker.Add(pattern)
            _checker.count += 1
            return
        except re2.error:
            pass  # compile it to get RE2's own words for the problem
    _compile(pattern)


_VERSION_PART = re.compile(r"\d+|[A-Za-z]+")


def version_key(version: str) -> tuple:
    """Sort key that orders versions as versions: 1.9 < 1.11 < 2.0 < 2.0.1.

    Numbers compare numerically; a text part (``rc1``, ``beta``) sorts before the release
    it belongs to, so 2.0rc1 < 2.0. Anything unparseable sorts by its text after numbers.
    """
    parts = _VERSION_PART.findall(version)
    if not any(part.isdigit() for part in parts):  # "nightly", "main", "unknown"
        return ((3, version.strip().lower()),)
    # Tiers: text (0) < end of version (1) < number (2), so 2.0rc1 < 2.0 < 2.0.1.
    key: list[tuple[int, int | str]] = []
    for part in parts:
        if part.isdigit():
            key.append((2, int(part)))
        else:
            key.append((0, part.lower()))
    key.append((1, ""))
    return tuple(key)


class _Part(BaseModel):
    """Base for every part of a record: unknown keys are kept, then reported."""

    model_config = ConfigDict(extra="allow", str_strip_whitespace=False)


class VersionEntry(_Part):
    """One version of the tool and what this error does in it."""

    version: str
    introduced: str | None = None
    deprecated: str | None = None
    removed: str | None = None
    behavior_change: str | None = None
    status: str = "active"


class DeadEnd(_Part):
    """An approach people try that does not fix the error."""

    action: str = ""
    why_fails: str = ""
    fail_rate: Rate = 0.0
    condition: str = ""
    sources: list[str] = Field(default_factory=list)


class Workaround(_Part):
    """An approach that works; ``how`` is what the copy keys copy."""

    action: str
    success_rate: Rate = 0.0
    how: str = ""
    condition: str = ""
    sources: list[str] = Field(default_factory=list)

    @property
    def copy_text(self) -> str:
        """The text a user wants on the clipboard: ``how``, else ``action``."""
        return self.how if self.how.strip() else self.action


class TransitionRef(_Part):
    """A link to another record, with optional detail."""

    error_id: str
    probability: Rate | None = None
    condition: str | None = None
    distinction: str | None = None


Transition = Union[str, TransitionRef]


def transition_id(entry: Transition) -> str:
    """The record id a transition entry points at."""
    return entry if isinstance(entry, str) else entry.error_id


#: The kinds of link between records, in field order: the fields of :class:`TransitionGraph`.
TRANSITION_KINDS = ("leads_to", "preceded_by", "frequently_confused_with")


class TransitionGraph(_Part):
    """Errors this one leads to, follows, or is confused with (one field per kind)."""

    leads_to: list[Transition] = Field(default_factory=list)
    preceded_by: list[Transition] = Field(default_factory=list)
    frequently_confused_with: list[Transition] = Field(default_factory=list)

    def edges(self) -> list[tuple[str, str]]:
        """``(kind, record id)`` pairs, in field order."""
        return [
            (kind, transition_id(entry))
            for kind in TRANSITION_KINDS
            for entry in getattr(self, kind)
        ]


class Record(_Part):
    """One error family: what it looks like, why it happens, what fails and what works."""

    id: str
    signature: str
    signature_zh: str | None = None
    regex: str | None = None
    domain: str
    category: str
    subcategory: str | None = None
    root_cause: str = ""
    root_cause_type: str = "generic"
    root_cause_zh: str | None = None
    versions: list[VersionEntry] = Field(default_factory=list)
    os_specific: dict[str, str] = Field(default_factory=dict)
    dead_ends: list[DeadEnd] = Field(default_factory=list)
    workarounds: list[Workaround] = Field(default_factory=list)
    workarounds_zh: list[str] = Field(default_factory=list)
    transition_graph: TransitionGraph = Field(default_factory=TransitionGraph)
    official_doc_url: str | None = None
    official_doc_section: str | None = None
    error_code: str | None = None
    verification_tier: str = "ai_generated"
    confidence: Rate = 0.0
    fix_success_rate: Rate = 0.0
    resolvable: str = "partial"
    first_seen: datetime.date | None = None
    last_confirmed: datetime.date | None = None
    last_updated: datetime.date | None = None
    #: Who confirmed the record on ``last_confirmed`` (a name or handle); lets the lint tell
    #: one reviewer's day of work from a date stamped on the whole KB.
    checked_by: str | None = None
    evidence_count: Annotated[int, Field(ge=0)] = 0
    tags: list[str] = Field(default_factory=list)
    locale: str = "en"
    aliases: list[str] = Field(default_factory=list)

    @field_validator("id")
    @classmethod
    def _id_shape(cls, value: str) -> str:
        if not _ID_RE.match(value):
            raise ValueError("id must look like 'domain/slug' (letters, digits, '-', '_', '.')")
        return value

    @field_validator("signature", "domain", "category")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be empty")
        return value

    @field_validator("regex")
    @classmethod
    def _regex_compiles(cls, value: str | None) -> str | None:
        if value is not None:
            if not value.strip():
                raise ValueError("must not be empty (use null for a record without a regex)")
            check_regex(value)
            if literal_length(value) < MIN_REGEX_LITERALS:
                raise ValueError(
                    f"matches almost any text: needs at least {MIN_REGEX_LITERALS} fixed characters"
                )
        return value

    @model_validator(mode="after")
    def _domain_matches_id(self) -> Record:
        prefix = self.id.split("/", 1)[0]
        if prefix != self.domain:
            raise ValueError(f"id {self.id!r} must start with its domain {self.domain!r}/")
        graph, own = self.transition_graph, self.id
        for kind in TRANSITION_KINDS:
            entries = getattr(graph, kind)
            if entries and (own in entries or any(type(e) is not str and e.error_id == own for e in entries)):
                raise ValueError(f"transition_graph.{kind} links the record to itself")
        return self

    @property
    def sorted_versions(self) -> list[VersionEntry]:
        """Versions in version order (1.9 before 1.11)."""
        return sorted(self.versions, key=lambda v: version_key(v.version))

    @property
    def sources(self) -> list[str]:
        """Distinct source URLs across dead ends and workarounds, in order of appearance."""
        seen: dict[str, None] = {}
        for item in [*self.dead_ends, *self.workarounds]:
            for url in item.sources:
                seen.setdefault(url, None)
        return list(seen)

    def summary(self) -> RecordSummary:
        """The few fields lists, search and matching need, in a small object."""
        return RecordSummary(self.id, intern(self.domain), intern(self.category), self.signature,
                             self.regex, tuple(self.aliases), tuple(intern(t) for t in self.tags),
                             self.root_cause, self.fix_success_rate, code_words(self))

    def to_json_dict(self) -> dict[str, Any]:
        """The record as JSON data, in the seed's key order (``checked_by`` only when set:
        the seed has no such key)."""
        data = self.model_dump(mode="json")
        if data.get("checked_by") is None:
            data.pop("checked_by", None)
        return data


class RecordSummary:
    """A record as the list, the search index and the matcher see it.

    A large KB keeps only these in memory (about a tenth of a full record) and reads the
    full :class:`Record` from its file when it is shown.
    """

    __slots__ = ("id", "domain", "category", "signature", "regex", "aliases", "tags",
                 "root_cause", "fix_success_rate", "words")

    def __init__(self, id: str, domain: str, category: str, signature: str, regex: str | None,
                 aliases: tuple[str, ...], tags: tuple[str, ...], root_cause: str,
                 fix_success_rate: float, words: str = "") -> None:
        self.id = id
        self.domain = domain
        self.category = category
        self.signature = signature
        self.regex = regex
        self.aliases = aliases
        self.tags = tags
        self.root_cause = root_cause
        self.fix_success_rate = fix_success_rate
        #: The words of the record's commands and regex (:func:`code_words`), so a package
        #: or tool name finds the records that use it.
        self.words = words

    def __repr__(self) -> str:
        return f"RecordSummary({self.id!r})"

    def astuple(self) -> tuple:
        """The fields in constructor order, as plain values (``RecordSummary(*t)`` rebuilds it)."""
        return tuple(getattr(self, name) for name in self.__slots__)


#: Words in commands and regexes: a name, a package, a flag's word (``torchvision``, ``kubectl``).
_CODE_WORD = re.compile(r"[a-z][a-z0-9_.+-]*[a-z0-9+]")
#: An install command and its arguments (to the end of the line, a comment or a ``;``/``&&``).
_INSTALL = re.compile(r"\b(?:pip3?|uv pip|conda|mamba|pipx|npm|pnpm|yarn|apt(?:-get)?|brew|gem|cargo|go|dnf|yum|apk)"
                      r"\s+(?:install|add|get)\b([^\n#;&|]*)")
#: Regex escapes (``\w``, ``\d``...) whose letters are not words.
_REGEX_ESCAPE = re.compile(r"\\[a-zA-Z]")
#: Words too common in commands to tell records apart.
_COMMON_WORDS = frozenset(
    "the and for with from into you your this that then run use not all are can its now new out set get "
    "install add sudo pip pip3 python python3 npm echo export cat grep".split())
#: Install flags whose value is not a package (``-r requirements.txt``).
_VALUE_FLAGS = frozenset("-r -c -e -i -t --requirement --constraint --editable --index-url --extra-index-url "
                         "--target --prefix --root --find-links -f".split())
#: At most this many characters of words per record (the summary stays small at 100,000).
MAX_CODE_WORDS = 240


def code_words(record: Record) -> str:
    """The words of ``record``'s commands (``how``) and regex, lowercase, each once, space
    separated; names a command installs are also written ``+name`` (``+torchvision``)."""
    hows = [w.how for w in record.workarounds if w.how]
    if not hows and not record.regex:
        return ""
    text = "\n".join(hows).lower()
    found: dict[str, None] = {}
    for arguments in _INSTALL.findall(text):
        previous = ""
        for argument in arguments.split():
            name = re.split(r"[=<>~^@\[]", argument, maxsplit=1)[0].strip("'\"")
            if (name and not name.startswith("-") and previous not in _VALUE_FLAGS and "{=" not in argument
                    and "/" not in name and _CODE_WORD.fullmatch(name)):
                found.setdefault("+" + name, None)
            previous = argument
    regex = _REGEX_ESCAPE.sub(" ", record.regex or "").lower()
    for word in _CODE_WORD.findall(text + "\n" + regex):
        if len(word) >= 3 and word not in _COMMON_WORDS:
            found.setdefault(word, None)
    words = " ".join(found)
    if len(words) > MAX_CODE_WORDS:
        words = words[:words.rfind(" ", 0, MAX_CODE_WORDS)]
    return intern(words) if len(words) < 40 else words


def unknown_keys(model: BaseModel, path: str = "") -> list[str]:
    """Field paths of keys the model does not know (``workaround``, ``dead_end[0].acton``)."""
    if isinstance(model, Record) and not _record_has_extra(model):
        return []  # the usual case, checked without building any path
    found: list[str] = []
    for key in (model.__pydantic_extra__ or {}):
        found.append(f"{path}{key}")
    values = model.__dict__
    for name in _nested_fields(type(model)):  # only fields that can hold models: fast for 100k records
        value = values.get(name)
        if isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, BaseModel):
                    found.extend(unknown_keys(item, f"{path}{name}[{index}]."))
        elif isinstance(value, BaseModel):
            found.extend(unknown_keys(value, f"{path}{name}."))
    return found


def _record_has_extra(record: Record) -> bool:
    if record.__pydantic_extra__:
        return True
    for items in (record.versions, record.dead_ends, record.workarounds):
        for item in items:
            if item.__pydantic_extra__:
                return True
    graph = record.transition_graph
    if graph.__pydantic_extra__:
        return True
    for kind in TRANSITION_KINDS:
        for entry in getattr(graph, kind):
            if not isinstance(entry, str) and entry.__pydantic_extra__:
                return True
    return False


@lru_cache(maxsize=None)
def _nested_fields(cls: type[BaseModel]) -> tuple[str, ...]:
    """Names of ``cls``'s fields whose type mentions a model (the only ones that can hold one)."""

    def mentions_model(annotation: Any) -> bool:
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            return True
        return any(mentions_model(arg) for arg in getattr(annotation, "__args__", ()) or ())

    return tuple(name for name, info in cls.model_fields.items() if mentions_model(info.annotation))
