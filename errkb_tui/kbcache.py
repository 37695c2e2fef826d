"""An on-disk cache of what a large KB loaded to, for a fast second start.

The cache holds the record summaries, where each record came from, and the problems found;
full records are read back from the KB files on demand, as for any large KB. It is keyed
on every KB file's path, size and modification time (and the sources' order), so changing,
adding or removing any file means a normal load. It uses ``marshal`` (plain values only:
no code runs when it is read) and is written atomically; a cache that cannot be read or
written is ignored.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

from . import __version__
from .kb import KB, Origin, Problem, Source
from .model import RecordSummary
from . import userdata

#: Below this much KB text a normal load is fast enough (about 0.1 s); no cache is kept.
MIN_CACHED_BYTES = 4 * 1024 * 1024
#: Bump when what is stored changes (2: origins carry a byte length; 3: summaries carry
#: their commands' words).
FORMAT = 3


def default_cache_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The platform's cache folder for this app (:func:`errkb_tui.userdata.cache_dir`)."""
    return userdata.cache_dir(environ)


def fingerprint(plan: list[tuple[Source, list[Path]]],
                stats: Mapping[Path, os.stat_result | None] | None = None) -> str | None:
    """A key for these sources and files as they are now; None if too small to cache.

    ``stats``, if given, holds each file's ``os.stat`` (None: it cannot be read), taken
    just before, so the files are not asked again."""
    parts = [f"{FORMAT}|{__version__}"]
    total = 0
    for source, files in plan:
        parts.append(f"S|{source.path}|{source.label}|{source.report}")
        for file in files:
            try:
                stat = stats[file] if stats is not None else file.stat()
            except OSError:
                stat = None
            if stat is None:
                return None  # a file that cannot be read: load normally, reporting it
            total += stat.st_size
            parts.append(f"F|{file}|{stat.st_size}|{stat.st_mtime_ns}")
    if total < MIN_CACHED_BYTES:
        return None
    return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogateescape")).hexdigest()


def _path(cache_dir: Path, key: str) -> Path:
    return cache_dir / f"kb-{key[:32]}.marshal"


def write(cache_dir: Path, key: str, kb: KB) -> None:
    """Store ``kb`` under ``key``; failures are ignored (the cache is only an optimisation)."""
    data = (
        FORMAT,
        key,
        [r.astuple() for r in kb.records],
        [(rid, *origin) for rid, origin in kb.origins.items()],
        list(kb.source_of.items()),
        [p.astuple() for p in kb.problems],
    )
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        # Only the newest cache is kept, so the folder cannot grow with every --data tried.
        for old in cache_dir.glob("kb-*.marshal"):
            if old != _path(cache_dir, key):
                old.unlink(missing_ok=True)
        handle, temporary = tempfile.mkstemp(dir=cache_dir, suffix=".tmp")
        with os.fdopen(handle, "wb") as out:
            marshal.dump(data, out)
        os.replace(temporary, _path(cache_dir, key))
    except (OSError, ValueError):
        return


def read(cache_dir: Path, key: str, sources: list[Source]) -> KB | None:
    """The KB stored under ``key``, or None (missing, stale, or unreadable)."""
    try:
        with open(_path(cache_dir, key), "rb") as handle:
            data = marshal.load(handle)
        version, stored_key, records, origins, source_of, problems = data
        if version != FORMAT or stored_key != key:
            return None
        summaries = [RecordSummary(*fields) for fields in records]
        origin_map = {rid: Origin(*rest) for rid, *rest in origins}
        problem_list = [Problem(*fields) for fields in problems]
        return KB(summaries, problem_list, origin_map, list(sources), dict(source_of), presorted=True)
    except (OSError, EOFError, ValueError, TypeError):
        return None
