"""``python -m errkb_tui``: the same as the ``errkb-tui`` command."""

import sys

from .cli import main

sys.exit(main())
