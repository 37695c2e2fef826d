"""``load_kb``: every source's files read, validated and collected into one KB, through the
on-disk cache when the files have not changed, in two processes when that pays off.
"""

from __future__ import annotations

import dataclasses
import gc
import os
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from .. import kbcache
from ..kb import KB, Problem, Source
from . import parallel
from .collect import Collector
from .find import source_files
from .shapes import read_file

#: How often (in records) ``load_kb`` reports progress.
PROGRESS_EVERY = 2000
#: The first partial KB is handed over after this many records or this many seconds...
PARTIAL_FIRST_RECORDS = 2000
PARTIAL_FIRST_S = 0.3
#: ...and the next ones at most this often.
PARTIAL_EVERY_S = 1.0
#: Every this many records, and at the end of a load this large, what is loaded so far is
#: moved out of the garbage collector's reach (``gc.freeze``): otherwise each full
#: collection rescans every record kept (0.15 s at 100,000), several times during a load
#: (a quarter of a cold load) and at random moments after it. The collector stays on (it
#: is never disabled, so other threads keep collecting); the records hold no reference
#: cycles, so a KB that is dropped is still freed. 0 turns this off.
#: Only a load on the main thread does this (the CLI, whose process is the load's): freezing
#: is process-wide, so a load in a worker thread (the app) must not do it behind the back of
#: the rest of the program; there it costs about a fifth more time on a large KB.
GC_FREEZE_EVERY = 4096


def _may_freeze() -> bool:
    return bool(GC_FREEZE_EVERY) and threading.current_thread() is threading.main_thread()


def load_kb(sources: Iterable[Source], *, progress: Callable[[int], None] | None = None,
            cache_dir: Path | None = None, partial: Callable[[KB], None] | None = None,
            partial_every: float = PARTIAL_EVERY_S) -> KB:
    """Load every source into one KB; never raises for bad input.

    Sources load in order; a later record with the same id overrides an earlier one. Every
    unreadable file, bad JSON document or invalid record becomes a problem of the KB, and
    the good records beside it still load.

    ``progress``, if given, is called with the number of valid records read so far, every
    ``PROGRESS_EVERY`` records and once at the end (from the loading thread). While a
    second process reads part of a large KB, the counts are of the records read here.

    ``cache_dir``, if given, keeps what a large KB loaded to (see :mod:`errkb_tui.kbcache`):
    the next load of the same, unchanged files reads that instead of every file.

    ``partial``, if given, is called from the loading thread with a KB of the records read
    so far, while the rest still load: first once ``PARTIAL_FIRST_RECORDS`` records are read
    or ``PARTIAL_FIRST_S`` seconds have passed (whichever comes first, and only once at
    least one record is read), then at most every ``partial_every`` seconds (``PARTIAL_EVERY_S`` unless given). Each is a
    complete, independent KB (its records sorted and indexed, readable with ``KB.get``,
    its problems those found so far; nothing the load does later changes it), so the caller
    may keep it and use it from another thread. It is never called for the final KB (that
    is the return value), nor for a KB that loads before the first deadline (a small KB).
    A KB read from the cache is handed over after its first chunk, then as for a normal
    load (see :func:`errkb_tui.kbcache.read`). While a second process reads the first part of a large
    KB, partial KBs hold the records read here (the later part). A record in a partial KB
    is in the final one too, with two exceptions: a record of the same id read later
    replaces it, and the records read ahead from the second half of a large ``.json`` list
    are dropped if its first half turns out to be broken (as one reader would have
    stopped there). Links are not yet checked for dangling ids.
    """
    sources = list(sources)
    collector = Collector(sources)
    plan: list[tuple[Source, list[Path]]] = []
    for index, source in enumerate(sources):
        collector.start_source(index)
        plan.append((source, source_files(source, _walk_reporter(collector))))
    tasks = [(index, file, None) for index, (_source, files) in enumerate(plan) for file in files]
    sizes = None
    key = kb = None
    if cache_dir is not None:
        stats = {file: _stat(file) for _index, file, _part in tasks}  # once, for the key and the split
        if len(stats) == len(tasks):  # in task order (unless a file is listed twice)
            sizes = [stat.st_size if stat is not None else 0 for stat in stats.values()]
        key = kbcache.fingerprint(plan, stats)
        kb = kbcache.read(cache_dir, key, sources, partial, partial_every, progress) if key is not None else None
    if kb is None:
        collector.on_accept = _Watch(collector, progress, partial, partial_every)
        try:
            _load(collector, tasks, sizes)
        finally:
            collector.on_accept = None  # the watch refers back to the collector: no cycle left
        kb = collector.finish()
        if cache_dir is not None and key is not None:
            kbcache.write(cache_dir, key, kb)
        count = collector.count
    else:
        count = len(kb.records)
    if _may_freeze() and len(kb.records) >= GC_FREEZE_EVERY:
        gc.freeze()
    if progress is not None:
        progress(count)
    return kb


def _walk_reporter(collector: Collector):
    def report(severity: str, path: Path, message: str) -> None:
        collector.problem(Problem(severity, str(path), message))  # type: ignore[arg-type]

    return report


class _Watch:
    """Called on every accepted record: reports progress, hands over partial KBs, and keeps
    the records read so far out of the garbage collector's scans."""

    def __init__(self, collector: Collector, progress: Callable[[int], None] | None,
                 partial: Callable[[KB], None] | None, partial_every: float = PARTIAL_EVERY_S) -> None:
        self._collector = collector
        self._progress = progress
        self._partial = partial
        self._started = time.monotonic()
        self._next_partial = self._started + PARTIAL_FIRST_S
        self._partial_every = partial_every
        self._freeze = _may_freeze()

    def __call__(self, count: int) -> None:
        if self._freeze and count % GC_FREEZE_EVERY == 0:
            gc.freeze()
        if self._progress is not None and count % PROGRESS_EVERY == 0:
            self._progress(count)
        if self._partial is not None and (count % 64 == 0 or count == PARTIAL_FIRST_RECORDS):
            now = time.monotonic()
            if now >= self._next_partial or (count >= PARTIAL_FIRST_RECORDS
                                             and self._next_partial == self._started + PARTIAL_FIRST_S):
                self._partial(self._collector.snapshot())
                self._next_partial = time.monotonic() + self._partial_every


def _stat(file: Path) -> os.stat_result | None:
    try:
        return file.stat()
    except OSError:
        return None


def _load(collector: Collector, tasks: list[parallel.Task], sizes: list[int] | None = None) -> None:
    """Read every task's file, the first part in a worker process when that pays off."""
    first, rest = parallel.split(tasks, sizes)
    if not first:
        _read(collector, tasks)
        return
    worker = parallel.start(first, [source.report for source in collector.sources])
    collector.held = []
    # Meanwhile, the rest here. When it starts inside a .json list, at an item start that
    # was only guessed, note what that part gave: it is kept only if the worker confirms.
    mid_list = rest[0][1].suffix == ".json" and rest[0][2] is not None
    _read(collector, rest[:1])
    marks = (len(collector.held), len(collector.problems))
    _read(collector, rest[1:])
    mine, problems_here = collector.held, collector.problems
    theirs = parallel.result(worker)
    if theirs is None:  # no worker (or it failed): read its part here too
        collector.held, collector.problems = [], []
        stop = _read(collector, first)
        theirs = (collector.held, [], 0, stop)
        problems_first = collector.problems
    else:
        problems_first = [Problem(*fields) for fields in theirs[1]]
        collector.count += theirs[2]
    collector.held = None
    if mid_list:
        mine, problems_here = _check_list_part(collector, rest[0], theirs[3], mine, problems_here, marks)
    collector.problems = [*problems_first, *problems_here]
    collector.store_all([*theirs[0], *mine])  # in file order


def _check_list_part(collector: Collector, task: parallel.Task, stop, mine: list, problems: list,
                     marks: tuple[int, int]) -> tuple[list, list]:
    """The records and problems read here, with the part that began inside a ``.json`` list
    made right: kept (its indexes moved past the worker's items) if the worker's part
    stopped exactly where it began, else read again from where the worker stopped (or
    dropped, if the worker's part ended the list or broke it, as one reader would have)."""
    held_mark, problem_mark = marks
    begin = task[2][0]
    part_held, part_problems = mine[:held_mark], problems[:problem_mark]
    if stop is None or stop[0] != begin:
        collector.count -= held_mark  # the dropped part's records
        part_held, part_problems = [], []
        if stop is not None:
            collector.held, collector.problems = [], []
            collector.start_source(task[0])
            read_file(task[1], collector, (stop[0], None))
            part_held, part_problems = collector.held, collector.problems
            collector.held = None
    if stop is not None:
        before = stop[2]
        part_held = [(summary, origin._replace(index=origin.index + before), edges, source)
                     for summary, origin, edges, source in part_held]
        part_problems = [dataclasses.replace(p, index=p.index + before) if p.index is not None else p
                         for p in part_problems]
    return [*part_held, *mine[held_mark:]], [*part_problems, *problems[problem_mark:]]


def _read(collector: Collector, tasks: list[parallel.Task]):
    """Read ``tasks`` in order; where the last one stopped (see :func:`~.shapes.read_file`)."""
    stop = None
    for index, file, part in tasks:
        collector.start_source(index)
        stop = read_file(file, collector, part)
    return stop
