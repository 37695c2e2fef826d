"""Finding a source's KB files: a folder is walked (sorted, following links, stopping at
loops); a file is itself. What goes wrong on the way is reported, never raised.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

from ..kb import Source

KB_SUFFIXES = (".json", ".jsonl")

#: ``report(severity, path, message)``: how a problem found while walking is passed on.
Report = Callable[[str, Path, str], None]


def source_files(source: Source, report: Report) -> list[Path]:
    """The KB files of ``source``, in load order."""
    path = source.path
    if path.is_dir():
        files = list(_walk(path, report))
        if not files and not source.writable:  # an empty writable KB is simply new
            report("warning", path, "directory holds no .json or .jsonl files")
        return files
    if path.exists():
        return [path]
    report("error", path, f"{source.label} path does not exist")
    return []


def _walk(root: Path, report: Report) -> Iterator[Path]:
    """KB files below ``root`` in sorted order, following links, stopping at loops."""
    seen: set[str] = set()
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            real = os.path.realpath(folder)
        except OSError as exc:
            report("error", folder, f"cannot resolve folder: {exc.strerror or exc}")
            continue
        if real in seen:
            report("error", folder, "symlink loop: this folder was already read; skipped")
            continue
        seen.add(real)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            report("error", folder, f"cannot list folder: {exc.strerror or exc}")
            continue
        subfolders = []
        for entry in entries:
            if entry.name.startswith(".") or (folder is root and entry.name == "outcomes.jsonl"):
                continue  # hidden; or a team's outcome counts (errkb_tui.outcomes), not records
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if is_dir:
                subfolders.append(Path(entry.path))
            elif entry.name.endswith(KB_SUFFIXES):
                yield Path(entry.path)
        stack.extend(reversed(subfolders))
