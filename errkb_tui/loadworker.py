"""``python -m errkb_tui.loadworker``: validates part of a large KB for the loading process.

Reads ``(tasks, reports)`` from standard input and writes the records it accepted, the
problems it found and its count to standard output, all with ``marshal`` (plain values).
"""

import marshal
import sys

from .loader import worker_load


def main() -> int:
    tasks, reports = marshal.loads(sys.stdin.buffer.read())
    sys.stdout.buffer.write(marshal.dumps(worker_load(tasks, reports)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
