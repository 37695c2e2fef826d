"""A second process for a large KB: it validates the first part of the files while this
process reads the rest (pydantic's validation is most of a cold load; this machine has
two cores). The worker is ``python -m errkb_tui.loader.worker``; everything crossing the
pipe is plain values in ``marshal`` form. If the worker cannot start or fails, its part is
read here; the result is the same either way.
"""

from __future__ import annotations

import marshal
import subprocess
import sys
from pathlib import Path

from ..kb import Origin
from ..model import RecordSummary
from .collect import Accepted
from .jsontext import guess_item_start
from .shapes import MAX_RECORD_BYTES

#: With this much KB text (in any number of files), a second process reads about half of it.
PARALLEL_MIN_BYTES = 16 * 1024 * 1024

#: Files smaller than this are never split between the two processes.
SPLIT_MIN_BYTES = 4 * 1024 * 1024

#: ``(source index, file, part)``: one file to read, in load order; ``part`` is None (the
#: whole file) or a byte range of a ``.jsonl`` file (see :func:`~.shapes.read_file`).
Task = tuple[int, Path, "tuple[int, int | None] | None"]


def split(tasks: list[Task], sizes: list[int] | None = None) -> tuple[list[Task], list[Task]]:
    """``tasks`` as (the worker's, this process's): about half the bytes each, in order.

    ``sizes`` are the files' sizes, if known (else each is asked). The worker's list is
    empty when a second process is not worth it. A large ``.jsonl``
    file at the halfway point is split there (each process reads the lines that begin in
    its half), so even a KB that is one big file is read by two processes.
    """
    if sizes is None:
        sizes = []
        for _, file, _part in tasks:
            try:
                sizes.append(file.stat().st_size)
            except OSError:
                sizes.append(0)
    total = sum(sizes)
    if total < PARALLEL_MIN_BYTES:
        return [], tasks
    half, running = total / 2, 0
    for position, ((index, file, part), size) in enumerate(zip(tasks, sizes)):
        if running + size <= half:
            running += size
            continue
        cut = int(half - running)
        if part is None and size >= SPLIT_MIN_BYTES and 0 < cut < size:
            if file.suffix == ".json":  # a list: at an item's start, checked by the worker
                cut = guess_item_start(file, cut, MAX_RECORD_BYTES) or 0
            if cut:
                mine = [(index, file, (cut, None)), *tasks[position + 1:]]
                return [*tasks[:position], (index, file, (0, cut))], mine
        count = max(position, 1) if len(tasks) > 1 else 0
        return tasks[:count], tasks[count:]
    return tasks[:-1], tasks[-1:]


def start(tasks: list[Task], reports: list[bool]) -> subprocess.Popen | None:
    """The worker process, fed its tasks; None if it cannot start."""
    try:
        worker = subprocess.Popen(
            [sys.executable, "-m", "errkb_tui.loader.worker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,  # nothing may reach the terminal the TUI draws on
        )
        assert worker.stdin is not None
        worker.stdin.write(marshal.dumps(([(i, str(f), part) for i, f, part in tasks], reports)))
        worker.stdin.close()
        return worker
    except (OSError, ValueError):
        return None


def result(worker: subprocess.Popen | None) -> tuple[list[Accepted], list[tuple], int, tuple | None] | None:
    """The worker's accepted records (in file order), problems (as tuples), count, and where
    its last part of a ``.json`` list stopped (see :func:`~.shapes.read_file`); None if it
    failed."""
    if worker is None:
        return None
    try:
        assert worker.stdout is not None
        data = worker.stdout.read()
        if worker.wait(timeout=600) != 0:
            return None
        accepted, problems, count, stop = marshal.loads(data)
    except (OSError, ValueError, EOFError, TypeError, subprocess.TimeoutExpired):
        return None
    finally:
        if worker.poll() is None:
            worker.kill()
    return ([(RecordSummary(*summary), Origin(*origin), edges, index) for summary, origin, edges, index in accepted],
            problems, count, stop)
