"""Store benchmark: ``python -m benchmarks.store [--sizes 10000 100000] [--shapes ...] [--json]``.

For each KB shape (a folder of ``.json`` files, one ``.jsonl`` file, one ``.json`` list;
see :mod:`benchmarks.generate`) and size, on the real code, each KB in a fresh process:

- ``cold_s``: ``load_kb`` with an empty cache folder (read, parse, validate, collect, and
  write the cache, as the app's first start does);
- ``first_rows_s``: from the start of that load until its first ``partial`` KB (the rows a
  caller can show while the rest loads); None when the load finished before one was due;
- ``warm_s``: ``load_kb`` through that cache, in another fresh process (the second start;
  KBs under 4 MB are not cached and load as cold);
- ``get_ms``: ``kb.get`` of one record (summaries only in memory, so read from its file),
  mean over ``GETS`` records spread over the KB;
- baselines in the same run: ``naive_parse_s``, ``json.loads`` of every record with no
  validation at all (the floor of any load), and ``naive_get_ms``, reading one record the
  naive way: parsing the whole file that holds it and picking the record out (what
  ``kb.get`` did for a ``.json`` list before it kept each item's byte span).

Tests never assert these times; a smoke test runs this at a few hundred records.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SHAPES = ("folder", "jsonl", "list")
GETS = 200
NAIVE_GETS = 3
KEYS = ("shape", "records", "cold_s", "first_rows_s", "warm_s", "get_ms", "naive_parse_s", "naive_get_ms")


def work(path: str) -> dict:
    """In a fresh process: the cold load and everything after it, for the KB at ``path``."""
    from errkb_tui.kb import Source
    from errkb_tui.kbcache import default_cache_dir
    from errkb_tui.loader import load_kb

    sources = [Source(Path(path), "--data")]
    first: list[float] = []
    start = time.perf_counter()
    kb = load_kb(sources, cache_dir=default_cache_dir(),
                 partial=lambda _kb: first or first.append(time.perf_counter() - start))
    cold_s = time.perf_counter() - start

    ids = [r.id for r in kb.records]
    picks = [ids[i * len(ids) // GETS] for i in range(GETS)] if len(ids) >= GETS else ids
    kb._read_back.clear()
    start = time.perf_counter()
    for record_id in picks:
        assert kb.get(record_id) is not None
    get_ms = (time.perf_counter() - start) * 1000 / len(picks)

    naive_parse_s = _naive_parse(Path(path))
    naive = []
    for record_id in picks[:: max(1, len(picks) // NAIVE_GETS)][:NAIVE_GETS]:
        origin = kb.origins[record_id]
        start = time.perf_counter()
        _naive_get(origin.file, origin.index, origin.line)
        naive.append((time.perf_counter() - start) * 1000)
    return {
        "records": len(kb.records),
        "errors": sum(1 for p in kb.problems if p.severity == "error"),
        "cold_s": cold_s,
        "first_rows_s": first[0] if first else None,
        "get_ms": get_ms,
        "naive_parse_s": naive_parse_s,
        "naive_get_ms": statistics.median(naive),
    }


def work_warm(path: str) -> dict:
    """In a fresh process, after :func:`work` left its cache: the second start."""
    from errkb_tui.kb import Source
    from errkb_tui.kbcache import default_cache_dir
    from errkb_tui.loader import load_kb

    start = time.perf_counter()
    kb = load_kb([Source(Path(path), "--data")], cache_dir=default_cache_dir())
    return {"warm_s": time.perf_counter() - start, "warm_records": len(kb.records)}


def _naive_parse(path: Path) -> float:
    """``json.loads`` of every record, nothing else."""
    start = time.perf_counter()
    if path.is_dir():
        for file in sorted(path.rglob("*.json")):
            json.loads(file.read_bytes())
    elif path.suffix == ".jsonl":
        with open(path, "rb") as handle:
            for line in handle:
                if line.strip():
                    json.loads(line)
    else:
        json.loads(path.read_bytes())
    return time.perf_counter() - start


def _naive_get(file: str, index: int | None, line: int | None) -> dict:
    """One record read by parsing the whole file that holds it."""
    if file.endswith(".jsonl"):
        with open(file, "rb") as handle:
            lines = handle.read().split(b"\n")
        return json.loads(lines[(line or 1) - 1])
    data = json.loads(Path(file).read_bytes())
    return data[index] if index is not None else data


def measure(shape: str, size: int) -> dict:
    from benchmarks.generate import ensure_kb

    path = ensure_kb(size, shape=shape)
    env = dict(os.environ)
    env.pop("ERRKB_PATH", None)
    root = Path(__file__).resolve().parent.parent
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), env.get("PYTHONPATH", "")]))
    row = {"shape": shape}
    with tempfile.TemporaryDirectory(prefix="errkb-bench-") as cache_home:
        env["XDG_CACHE_HOME"] = cache_home
        for kind in ("cold", "warm"):  # each in a fresh process, the second from the first's cache
            result = subprocess.run([sys.executable, "-m", "benchmarks.store", "--worker", kind, "--kb", str(path)],
                                    capture_output=True, text=True, env=env, cwd=root)
            if result.returncode != 0:
                raise RuntimeError(f"store {kind} worker for {shape} {size} failed:\n{result.stderr[-4000:]}")
            row.update(json.loads(result.stdout.strip().splitlines()[-1]))
    assert row.pop("warm_records") == row["records"]
    return row


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f} s"


def _ms(value: float) -> str:
    return f"{value:.2f} ms" if value < 10 else f"{value:,.0f} ms"


def table(rows: list[dict]) -> str:
    """The README's Markdown table."""
    out = ["| shape | records | cold load | first rows | warm load | `kb.get` per record "
           "| baseline: `json.loads` only | baseline: get by parsing the file |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    names = {"folder": "folder of `.json`", "jsonl": "one `.jsonl`", "list": "one `.json` list"}
    for row in rows:
        out.append(f"| {names.get(row['shape'], row['shape'])} | {row['records']:,} | {_seconds(row['cold_s'])} "
                   f"| {_seconds(row['first_rows_s'])} | {_seconds(row['warm_s'])} | {_ms(row['get_ms'])} "
                   f"| {_seconds(row['naive_parse_s'])} | {_ms(row['naive_get_ms'])} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.store", description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10000, 100000])
    parser.add_argument("--shapes", nargs="+", choices=SHAPES, default=list(SHAPES))
    parser.add_argument("--json", action="store_true", help="one JSON object per KB per line")
    parser.add_argument("--worker", choices=("cold", "warm"), help=argparse.SUPPRESS)
    parser.add_argument("--kb", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps((work if args.worker == "cold" else work_warm)(args.kb)))
        return 0
    rows = []
    for size in args.sizes:
        for shape in args.shapes:
            row = measure(shape, size)
            rows.append(row)
            if args.json:
                print(json.dumps(row), flush=True)
            else:
                print(f"measured {shape} {size}", file=sys.stderr, flush=True)
    if not args.json:
        print(table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
