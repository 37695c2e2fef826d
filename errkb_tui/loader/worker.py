"""``python -m errkb_tui.loader.worker``: validates part of a large KB for the loading process.

Reads ``(tasks, reports)`` from standard input and writes the records it accepted, the
problems it found and its count to standard output, all with ``marshal`` (plain values).
The garbage collector is off in this short-lived process only: a load makes millions of
objects and no cycles, so collections would only rescan them.
"""

from __future__ import annotations

import gc
import marshal
import sys
from pathlib import Path

from ..kb import Source
from .collect import Collector
from .shapes import read_file


def worker_load(tasks: list[tuple[int, str, tuple | None]], reports: list[bool]) -> tuple:
    """Load ``tasks`` (source index, file, part) and return plain values for the parent:
    the records accepted, the problems, the count, and where the last task stopped."""
    collector = Collector([Source(Path(), "worker", report) for report in reports])
    collector.held = []
    stop = None
    for index, file, part in tasks:
        collector.start_source(index)
        stop = read_file(Path(file), collector, part)
    held = [(summary.astuple(), tuple(origin), edges, index) for summary, origin, edges, index in collector.held]
    return held, [p.astuple() for p in collector.problems], collector.count, stop


def main() -> int:
    gc.disable()
    tasks, reports = marshal.loads(sys.stdin.buffer.read())
    sys.stdout.buffer.write(marshal.dumps(worker_load(tasks, reports)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
