"""Reading KB files into a :class:`~errkb_tui.kb.KB`: walking folders, parsing, validating,
reporting every problem, and for large KBs a second process and an on-disk cache.

Loading never raises on bad input: every unreadable file, bad JSON document or invalid
record becomes a :class:`~errkb_tui.kb.Problem`, and the good records beside it still load.
"""

from __future__ import annotations

import gc
import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .kb import KB, Origin, Problem, Severity, Source
from .model import Record, RecordSummary, unknown_keys

#: A KB with more records than this keeps only summaries in memory and reads a full
#: record from its file when it is shown (100,000 full records take about 1.7 GB).
KEEP_FULL_RECORDS = 2_000

#: Files larger than this are not read (a KB file is text; a huge one is a mistake).
MAX_FILE_BYTES = 64 * 1024 * 1024
#: Longer text in any one field is refused: a KB field is a message or a paragraph.
MAX_FIELD_CHARS = 64 * 1024
KB_SUFFIXES = (".json", ".jsonl")

#: A KB this big is moved out of the garbage collector's reach once loaded (``gc.freeze``):
#: a full collection would otherwise rescan every record (~0.4 s per 10,000 records),
#: freezing the UI at random moments. Records hold no reference cycles, so they are
#: still freed when the KB is dropped.
GC_FREEZE_RECORDS = 5000
#: How often (in records) ``load_kb`` reports progress.
PROGRESS_EVERY = 2000


def load_kb(sources: Iterable[Source], *, progress: Callable[[int], None] | None = None,
            cache_dir: Path | None = None) -> KB:
    """Load every source; never raises for bad input.

    ``progress``, if given, is called with the number of valid records read so far, every
    ``PROGRESS_EVERY`` records and once at the end (from the loading thread).
    ``cache_dir``, if given, keeps what a large KB loaded to (see :mod:`errkb_tui.kbcache`):
    the next load of the same, unchanged files reads that instead of every file.
    """
    from . import kbcache

    loader = _Loader(progress)
    gc_was_enabled = gc.isenabled()
    gc.disable()  # loading makes millions of objects and no garbage cycles: collections only rescan them
    try:
        plan = [loader.plan(source) for source in sources]
        key = kbcache.fingerprint(plan) if cache_dir is not None else None
        kb = kbcache.read(cache_dir, key, loader.sources) if key is not None else None
        if kb is None:
            _load_planned(loader, plan)
            kb = loader.finish()
            if key is not None:
                kbcache.write(cache_dir, key, kb)
        else:
            loader.count = len(kb.records)
        if len(kb.records) >= GC_FREEZE_RECORDS:
            gc.freeze()  # before re-enabling: else the first collection rescans the whole KB
    finally:
        if gc_was_enabled:
            gc.enable()
    if progress is not None:
        progress(loader.count)
    return kb


#: With this much KB text in two or more files, a second process validates half of them:
#: pydantic's validation is most of a cold load, and this machine has two cores.
PARALLEL_MIN_BYTES = 16 * 1024 * 1024


def _load_planned(loader: _Loader, plan: list[tuple[Source, list[Path]]]) -> None:
    """Load every planned file, the first part in a worker process when that pays off."""
    tasks = [(index, file) for index, (_source, files) in enumerate(plan) for file in files]
    sizes = []
    for _, file in tasks:
        try:
            sizes.append(file.stat().st_size)
        except OSError:
            sizes.append(0)
    total = sum(sizes)
    if total < PARALLEL_MIN_BYTES or len(tasks) < 2:
        for index, file in tasks:
            loader.load_files(index, [file])
        return
    split, running = 0, 0
    while split < len(tasks) - 1 and running + sizes[split] <= total / 2:
        running += sizes[split]
        split += 1
    split = max(split, 1)
    first, rest = tasks[:split], tasks[split:]
    reports = [source.report for source in loader.sources]
    future = _start_worker(first, reports)
    loader.collected = []
    for index, file in rest:  # meanwhile, the second part here
        loader.load_files(index, [file])
    mine, loader.collected = loader.collected, None
    theirs = _worker_result(future)
    if theirs is None:  # no worker (or it failed): read its part here too
        loader.collected = []
        for index, file in first:
            loader.load_files(index, [file])
        theirs, loader.collected = (loader.collected, [], 0), None
    collected, problems, count = theirs
    loader.problems[:0] = [Problem(*fields) for fields in problems]
    loader.count += count
    for summary, origin, edges, source_index in [*collected, *mine]:  # in file order
        loader.store(summary, origin, edges, source_index)


def _start_worker(tasks: list[tuple[int, Path]], reports: list[bool]):
    """``python -m errkb_tui.loadworker``, fed its tasks; None if it cannot start."""
    import marshal
    import subprocess
    import sys

    try:
        worker = subprocess.Popen(
            [sys.executable, "-m", "errkb_tui.loadworker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,  # nothing may reach the terminal the TUI draws on
        )
        assert worker.stdin is not None
        worker.stdin.write(marshal.dumps(([(i, str(f)) for i, f in tasks], reports)))
        worker.stdin.close()
        return worker
    except (OSError, ValueError):
        return None


def _worker_result(worker) -> tuple | None:
    """The worker's records (in file order), problems and count; None if it failed."""
    import marshal

    if worker is None:
        return None
    try:
        data = worker.stdout.read()
        if worker.wait(timeout=600) != 0:
            return None
        collected, problems, count = marshal.loads(data)
    except (OSError, ValueError, EOFError, TypeError):
        return None
    finally:
        if worker.poll() is None:
            worker.kill()
    return [(RecordSummary(*summary), Origin(*origin), edges, index)
            for summary, origin, edges, index in collected], problems, count


def worker_load(tasks: list[tuple[int, str]], reports: list[bool]) -> tuple:
    """In the worker process: load ``tasks`` and return plain values for the parent."""
    gc.disable()
    loader = _Loader()
    loader.sources = [Source(Path(), "worker", report) for report in reports]
    loader.collected = []
    for index, file in tasks:
        loader.load_files(index, [Path(file)])
    collected = [(summary.astuple(), tuple(origin), edges, index)
                 for summary, origin, edges, index in loader.collected]
    return collected, [p.astuple() for p in loader.problems], loader.count


class _Loader:
    def __init__(self, progress: Callable[[int], None] | None = None) -> None:
        self._progress = progress
        self.count = 0  # valid records read so far, for progress
        self.records: dict[str, RecordSummary] = {}
        self.full: dict[str, Record] = {}
        self.links: dict[str, list[tuple[str, str]]] = {}  # id -> edges, for the dangling check
        self.origins: dict[str, Origin] = {}
        self.source_of: dict[str, int] = {}
        self.problems: list[Problem] = []
        self.sources: list[Source] = []
        self._report = True
        self._text_size = 0
        self._last_file_name = ""
        #: In a worker process: accepted records, in order, for the parent to store.
        self.collected: list[tuple] | None = None

    def _file_name(self, file: Path) -> str:
        """``str(file)``, one shared string per file (not one per record)."""
        name = str(file)
        if name != self._last_file_name:
            self._last_file_name = name
        return self._last_file_name

    def problem(self, severity: Severity, file: Path | str, message: str, **where: Any) -> None:
        if self._report:
            self.problems.append(Problem(severity, str(file), message, **where))

    def plan(self, source: Source) -> tuple[Source, list[Path]]:
        """The KB files of ``source`` (walking folders); problems found on the way are kept."""
        self.sources.append(source)
        self._report = source.report
        path = source.path
        files: list[Path] = []
        if path.is_dir():
            files = list(self._walk(path))
            if not files:
                self.problem("warning", path, "directory holds no .json or .jsonl files")
        elif path.exists():
            files = [path]
        else:
            self.problem("error", path, f"{source.label} path does not exist")
        return source, files

    def load_files(self, source_index: int, files: list[Path]) -> None:
        self._report = self.sources[source_index].report
        for file in files:
            self.load_file(file, source_index)

    def _walk(self, root: Path) -> Iterator[Path]:
        """KB files below ``root`` in sorted order, following links, stopping at loops."""
        seen: set[str] = set()
        stack = [root]
        while stack:
            folder = stack.pop()
            try:
                real = os.path.realpath(folder)
            except OSError as exc:
                self.problem("error", folder, f"cannot resolve folder: {exc.strerror or exc}")
                continue
            if real in seen:
                self.problem("error", folder, "symlink loop: this folder was already read; skipped")
                continue
            seen.add(real)
            try:
                entries = sorted(os.scandir(folder), key=lambda e: e.name)
            except OSError as exc:
                self.problem("error", folder, f"cannot list folder: {exc.strerror or exc}")
                continue
            subfolders = []
            for entry in entries:
                if entry.name.startswith("."):
                    continue
                try:
                    is_dir = entry.is_dir()
                except OSError:
                    is_dir = False
                if is_dir:
                    subfolders.append(Path(entry.path))
                elif entry.name.endswith(KB_SUFFIXES):
                    yield Path(entry.path)
            stack.extend(reversed(subfolders))

    def load_file(self, file: Path, source_index: int) -> None:
        try:
            size = file.stat().st_size
            if size > MAX_FILE_BYTES:
                self.problem("error", file, f"file is {size // (1024 * 1024)} MiB; the limit is {MAX_FILE_BYTES // (1024 * 1024)} MiB")
                return
            raw = file.read_bytes()
        except OSError as exc:
            self.problem("error", file, f"cannot read file: {exc.strerror or exc}")
            return
        if not raw.strip():
            self.problem("error", file, "file is empty")
            return
        self._text_size = len(raw)
        if file.suffix == ".jsonl":  # line by line: never the whole file as one string
            self._load_lines(file, raw, source_index)
            return
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            self._not_utf8(file, raw, exc)
            return
        document = self._parse(file, text)
        if document is _BAD:
            return
        if isinstance(document, list):
            if not document:
                self.problem("warning", file, "file holds an empty list: no records")
            for index, item in enumerate(document):
                self.add(file, item, source_index, index=index)
        else:
            self.add(file, document, source_index, text=text)

    def _not_utf8(self, file: Path, raw: bytes, exc: UnicodeDecodeError, first_line: int = 1,
                  base: int = 0) -> None:
        line = first_line + raw[: exc.start].count(b"\n")
        self.problem("error", file, f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset "
                                    f"{base + exc.start})", line=line)

    def _load_lines(self, file: Path, raw: bytes, source_index: int) -> None:
        """A ``.jsonl`` file, one line at a time (never all its lines at once)."""
        start = 3 if raw.startswith(b"\xef\xbb\xbf") else 0
        number = 0
        while start < len(raw):
            end = raw.find(b"\n", start)
            end = len(raw) if end < 0 else end
            number += 1
            line_bytes = raw[start:end]
            line_start, start = start, end + 1
            if not line_bytes.strip() or self._add_json_line(file, line_bytes, source_index, number, line_start):
                continue
            try:
                line_text = line_bytes.decode("utf-8")
            except UnicodeDecodeError as exc:
                self._not_utf8(file, line_bytes, exc, number, line_start)
                continue
            document = self._parse(file, line_text, line_offset=number - 1)
            if document is not _BAD:
                self.add(file, document, source_index, line=number, offset=line_start)

    def _parse(self, file: Path, text: str, line_offset: int = 0) -> Any:
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            self.problem("error", file, f"invalid JSON: {exc.msg} (column {exc.colno})", line=exc.lineno + line_offset)
        except RecursionError:
            self.problem("error", file, "invalid JSON: nested too deeply", line=line_offset + 1 if line_offset else None)
        return _BAD

    def _add_json_line(self, file: Path, line_text: bytes, source_index: int, number: int,
                       offset: int) -> bool:
        """Fast path for a good ``.jsonl`` line: pydantic parses and validates in one step.

        Returns False, having recorded nothing, when the line fails in any way (or is long
        enough to need the long-text rule); the slow path then reports it as it always has.
        """
        if len(line_text) > MAX_FIELD_CHARS:  # no string in a shorter line can be longer
            return False
        try:
            record = Record.model_validate_json(line_text)
        except (ValidationError, ValueError, RecursionError):
            return False
        self._accept(file, record, source_index, line=number, index=None, text=None, offset=offset)
        return True

    def add(self, file: Path, data: Any, source_index: int, *, line: int | None = None,
            index: int | None = None, text: str | None = None, offset: int | None = None) -> None:
        where: dict[str, Any] = {"line": line, "index": index}
        if not isinstance(data, dict):
            self.problem("error", file, f"a record must be a JSON object, not {type(data).__name__}", **where)
            return
        raw_id = data.get("id")
        record_id = raw_id if isinstance(raw_id, str) else None
        if self._text_size > MAX_FIELD_CHARS:  # only a large file can hold a long field
            long_field = _find_long_text(data)
            if long_field is not None:
                self.problem("error", file, f"text longer than {MAX_FIELD_CHARS:,} characters",
                             record_id=record_id, field=long_field, **where)
                return
        try:
            record = Record.model_validate(data)
        except ValidationError as exc:
            for error in exc.errors(include_url=False):
                loc = _field_path(error["loc"])
                at = dict(where)
                if text is not None:
                    at["line"] = _guess_line(text, error["loc"])
                self.problem("error", file, _error_message(error), record_id=record_id, field=loc, **at)
            return
        except RecursionError:
            self.problem("error", file, "record is nested too deeply", record_id=record_id, **where)
            return
        self._accept(file, record, source_index, line=line, index=index, text=text, offset=offset)

    def _accept(self, file: Path, record: Record, source_index: int, *, line: int | None,
                index: int | None, text: str | None, offset: int | None = None) -> None:
        """Keep a valid record: warn about unknown keys, duplicates and overrides."""
        where: dict[str, Any] = {"line": line, "index": index}
        self.count += 1
        if self._progress is not None and self.count % PROGRESS_EVERY == 0:
            self._progress(self.count)
        for key in unknown_keys(record):
            at = dict(where)
            if text is not None:
                at["line"] = _guess_line(text, tuple(_key_parts(key)))
            self.problem("warning", file, "unknown key (a typo?); it is kept but not used",
                         record_id=record.id, field=key, **at)
        graph = record.transition_graph
        edges = graph.edges() if graph.leads_to or graph.preceded_by or graph.frequently_confused_with else None
        origin = Origin(self._file_name(file), line, index, offset)
        if self.collected is not None:  # a worker: the parent stores it, in file order
            self.collected.append((record.summary(), origin, edges, source_index))
            return
        self.store(record.summary(), origin, edges, source_index, record)

    def store(self, summary: RecordSummary, origin: Origin, edges: list | None, source_index: int,
              record: Record | None = None) -> None:
        """Keep an accepted record, reporting a duplicate id or an override."""
        record_id = summary.id
        previous = self.origins.get(record_id)
        if (previous is not None and (previous.line, previous.index) == (origin.line, origin.index)
                and os.path.realpath(previous.file) == os.path.realpath(origin.file)):
            previous = None  # the same record reached twice (e.g. a folder inside the bundled KB)
        if previous is not None:
            where = {"line": origin.line, "index": origin.index}
            if self.source_of[record_id] == source_index:
                self.problem("error", origin.file, f"duplicate id: also defined in {previous}; this one wins",
                             record_id=record_id, field="id", **where)
            else:
                self.problem("warning", origin.file, f"overrides the record of the same id from {previous}",
                             record_id=record_id, field="id", **where)
        self.records[record_id] = summary
        if record is not None and len(self.records) <= KEEP_FULL_RECORDS:
            self.full[record_id] = record
        elif self.full:
            self.full.clear()  # too many to keep: every full record is read back on demand
        if edges:
            self.links[record_id] = edges
        elif record_id in self.links:
            del self.links[record_id]
        self.origins[record_id] = origin
        self.source_of[record_id] = source_index

    def finish(self) -> KB:
        self._report = True
        for record_id, edges in self.links.items():
            if not self.sources[self.source_of[record_id]].report:
                continue
            for kind, target in edges:
                if target not in self.records:
                    origin = self.origins[record_id]
                    self.problem("warning", origin.file, f"links to {target!r}, which no loaded record has",
                                 line=origin.line, index=origin.index, record_id=record_id,
                                 field=f"transition_graph.{kind}")
        return KB(list(self.records.values()), self.problems, self.origins, self.sources,
                  self.source_of, self.full)


_BAD = object()


def _find_long_text(data: Any, path: str = "", depth: int = 0) -> str | None:
    """The path of the first string longer than MAX_FIELD_CHARS inside ``data``, or None."""
    if isinstance(data, str):
        return (path or "-") if len(data) > MAX_FIELD_CHARS else None
    if depth > 20:
        return None
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        where = f"{path}[{key}]" if isinstance(key, int) else (f"{path}.{key}" if path else str(key))
        found = _find_long_text(value, where, depth + 1)
        if found is not None:
            return found
    return None


def _field_path(loc: Sequence[Any]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in ("str", "TransitionRef", "function-after[_domain_matches_id(), Record]"):
            continue  # pydantic's names for union branches and validators, not fields
        else:
            out += f".{part}" if out else str(part)
    return out


def _key_parts(path: str) -> Iterator[Any]:
    for chunk in path.replace("]", "").replace("[", ".").split("."):
        if chunk:
            yield int(chunk) if chunk.isdigit() else chunk


def _error_message(error: dict[str, Any]) -> str:
    message = str(error.get("msg", "invalid"))
    if message.startswith("Value error, "):
        message = message[len("Value error, "):]
    if error.get("type") not in ("missing",) and "input" in error:
        shown = repr(error["input"])
        if len(shown) > 60:
            shown = shown[:57] + "..."
        message += f" (got {shown})"
    return message


def _guess_line(text: str, loc: Sequence[Any]) -> int | None:
    """Line of a field path in a single-record JSON file: the deepest part found in it.

    Walks the JSON text itself (keys, then list items by position), so a key missing from
    earlier list items, or present only in one item, still gets its own line. Parts that
    are not keys of the object at hand (pydantic's union branch names) are skipped.
    """
    decoder = json.JSONDecoder()
    position, found = _skip_space(text, 0), None
    try:
        for part in loc:
            if isinstance(part, int) and text.startswith("[", position):
                position = _skip_space(text, position + 1)
                for _ in range(part):
                    position = _skip_space(text, decoder.raw_decode(text, position)[1])
                    position = _skip_space(text, position + 1)  # past the comma
                if text.startswith("]", position):
                    break
                found = position
            elif isinstance(part, str) and text.startswith("{", position):
                cursor = _skip_space(text, position + 1)
                while text.startswith('"', cursor):
                    key_start = cursor
                    key, cursor = decoder.raw_decode(text, cursor)
                    cursor = _skip_space(text, _skip_space(text, cursor) + 1)  # past the colon
                    if key == part:
                        found, position = key_start, cursor
                        break
                    cursor = _skip_space(text, decoder.raw_decode(text, cursor)[1])
                    cursor = _skip_space(text, cursor + 1)  # past the comma
            else:
                break
    except (ValueError, IndexError):
        pass
    return None if found is None else text.count("\n", 0, found) + 1


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position] in " \t\r\n":
        position += 1
    return position
