"""Layers: everything below the UI imports without Textual."""

from __future__ import annotations

import subprocess
import sys

CHECK = """
import sys
import errkb_tui.model, errkb_tui.kb, errkb_tui.loader, errkb_tui.loader.worker, errkb_tui.kbcache, errkb_tui.search, errkb_tui.clipboard, errkb_tui.lint, errkb_tui.match, errkb_tui.cli
import errkb_tui.state, errkb_tui.history, errkb_tui.watcher, errkb_tui.userdata
loaded = sorted(name for name in sys.modules if name == "textual" or name.startswith("textual."))
print(",".join(loaded) or "none")
"""


def test_lower_layers_do_not_import_textual() -> None:
    result = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "none"


def test_the_check_would_notice_textual() -> None:
    # Guard against a vacuous pass: the same probe sees textual once it is imported.
    probe = CHECK.replace("import sys\n", "import sys\nimport textual\n", 1)
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "textual" in result.stdout.split(",")
