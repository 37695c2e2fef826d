"""An on-disk cache of what a large KB loaded to, for a fast second start.

The cache holds the record summaries, where each record came from, and the problems found;
full records are read back from the KB files on demand, as for any large KB. It is keyed
on every KB file's path, size and modification time (and the sources' order), so changing,
adding or removing any file means a normal load. It uses ``marshal`` (plain values only:
no code runs when it is read) and is written atomically; a cache that cannot be read or
written is ignored.

The file is a header (format, key, chunk count, sources, problems) and then the records
in ``CHUNK``-record pieces, in the KB's order, each with where its records came from. A
reader can so hand over the first records before the rest are read: at 100,000 records
reading the whole file takes about a second, the first piece a hundredth of that.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from . import __version__
from .kb import KB, Origin, Problem, Source
from .model import RecordSummary
from . import userdata

#: Below this much KB text a normal load is fast enough (about 0.1 s); no cache is kept.
MIN_CACHED_BYTES = 4 * 1024 * 1024
#: Bump when what is stored changes (2: origins carry a byte length; 3: summaries carry
#: their commands' words; 4: records in chunks after a header).
FORMAT = 4
#: Records per chunk of the file.
CHUNK = 1000
#: Progress is reported every this many chunks.
PROGRESS_CHUNKS = 5


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
    records = kb.records
    chunks = [records[start:start + CHUNK] for start in range(0, len(records), CHUNK)]
    in_records = {r.id for r in records}
    header = (
        FORMAT,
        key,
        len(chunks),
        list(kb.source_of.items()),
        [p.astuple() for p in kb.problems],
        [(rid, *origin) for rid, origin in kb.origins.items() if rid not in in_records],
    )
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        # Only the newest cache is kept, so the folder cannot grow with every --data tried.
        for old in cache_dir.glob("kb-*.marshal"):
            if old != _path(cache_dir, key):
                old.unlink(missing_ok=True)
        handle, temporary = tempfile.mkstemp(dir=cache_dir, suffix=".tmp")
        with os.fdopen(handle, "wb") as out:
            marshal.dump(header, out)
            for chunk in chunks:
                marshal.dump(([r.astuple() for r in chunk],
                              [(r.id, *kb.origins[r.id]) for r in chunk if r.id in kb.origins]), out)
        os.replace(temporary, _path(cache_dir, key))
    except (OSError, ValueError):
        return


def read(cache_dir: Path, key: str, sources: list[Source], partial: Callable[[KB], None] | None = None,
         partial_every: float = 1.0, progress: Callable[[int], None] | None = None) -> KB | None:
    """The KB stored under ``key``, or None (missing, stale, or unreadable).

    ``progress``, if given, is called with the number of records read so far every
    ``PROGRESS_CHUNKS`` chunks, but not after the last (the caller reports the total).

    ``partial``, if given, is called with a KB of the records read so far (a prefix of the
    KB's sorted records, with all its problems), after the first chunk and then at most
    every ``partial_every`` seconds, while more chunks remain. If the file turns out to be
    broken after a partial KB was handed over, the result is still None (a normal load
    follows, and replaces what was shown)."""
    try:
        with open(_path(cache_dir, key), "rb") as handle:
            header = marshal.load(handle)
            version, stored_key, count, source_of, problems, other_origins = header
            if version != FORMAT or stored_key != key:
                return None
            problem_list = [Problem(*fields) for fields in problems]
            origin_map = {rid: Origin(*rest) for rid, *rest in other_origins}
            summaries: list[RecordSummary] = []
            due = 0.0  # the first partial: after the first chunk
            for number in range(count):
                records, origins = marshal.load(handle)
                summaries.extend(RecordSummary(*fields) for fields in records)
                origin_map.update((rid, Origin(*rest)) for rid, *rest in origins)
                if progress is not None and number < count - 1 and (number + 1) % PROGRESS_CHUNKS == 0:
                    progress(len(summaries))
                if partial is not None and number < count - 1 and time.monotonic() >= due:
                    partial(KB(list(summaries), list(problem_list), dict(origin_map), list(sources),
                               dict(source_of), presorted=True))
                    due = time.monotonic() + partial_every
        return KB(summaries, problem_list, origin_map, list(sources), dict(source_of), presorted=True)
    except (OSError, EOFError, ValueError, TypeError):
        return None
