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

#: With this much KB text in two or more files, a second process validates half of them.
PARALLEL_MIN_BYTES = 16 * 1024 * 1024

#: ``(source index, file)``: one file to read, in load order.
Task = tuple[int, Path]


def split(tasks: list[Task]) -> int:
    """How many of ``tasks`` (from the start) a worker should take: 0 when not worth it."""
    sizes = []
    for _, file in tasks:
        try:
            sizes.append(file.stat().st_size)
        except OSError:
            sizes.append(0)
    total = sum(sizes)
    if total < PARALLEL_MIN_BYTES or len(tasks) < 2:
        return 0
    count, running = 0, 0
    while count < len(tasks) - 1 and running + sizes[count] <= total / 2:
        running += sizes[count]
        count += 1
    return max(count, 1)


def start(tasks: list[Task], reports: list[bool]) -> subprocess.Popen | None:
    """The worker process, fed its tasks; None if it cannot start."""
    try:
        worker = subprocess.Popen(
            [sys.executable, "-m", "errkb_tui.loader.worker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,  # nothing may reach the terminal the TUI draws on
        )
        assert worker.stdin is not None
        worker.stdin.write(marshal.dumps(([(i, str(f)) for i, f in tasks], reports)))
        worker.stdin.close()
        return worker
    except (OSError, ValueError):
        return None


def result(worker: subprocess.Popen | None) -> tuple[list[Accepted], list[tuple], int] | None:
    """The worker's accepted records (in file order), problems (as tuples) and count; None
    if it failed."""
    if worker is None:
        return None
    try:
        assert worker.stdout is not None
        data = worker.stdout.read()
        if worker.wait(timeout=600) != 0:
            return None
        accepted, problems, count = marshal.loads(data)
    except (OSError, ValueError, EOFError, TypeError, subprocess.TimeoutExpired):
        return None
    finally:
        if worker.poll() is None:
            worker.kill()
    return ([(RecordSummary(*summary), Origin(*origin), edges, index) for summary, origin, edges, index in accepted],
            problems, count)
