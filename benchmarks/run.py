"""Benchmark harness: ``python -m benchmarks.run [--sizes 1000 10000 100000] [--json]``.

For each size (and for the bundled KB) it measures, on the real code:

- ``load_s``: cold load (read, parse, validate, index: ``load_kb`` + ``SearchIndex``) in a
  fresh process with an empty ``XDG_CACHE_HOME``;
- ``warm_load_s``: the same, the second time, through the on-disk KB cache (KBs of 4 MB
  and more; smaller ones load in about 0.1 s and are not cached);
- ``first_paint_s``: from ``make_app`` until the record list has rows and the screen holding
  them was rendered (headless, 120x36; the KB loads in the app's own worker);
  ``warm_first_paint_s``: the same for a second start, from the cache the first one left;
- ``keystroke_p50_ms`` / ``keystroke_p95_ms``: a 12-character query typed one key at a time
  into the filter of the real app once the whole KB is loaded, three times (36 keys; p95
  interpolated); each key is timed from the key event until the
  RecordList holds that query's results and a screen update containing them was rendered
  (the next key is sent after that, so keys never queue);
- ``match_ms``: ``Matcher.match`` on a 200-line noisy traceback (Matcher built once; median
  of warm runs);
- ``rss_mb``: peak RSS (``ru_maxrss``) of the app process after loading, typing and one match;
- baselines: ``wratio_ms`` (``rapidfuzz.process.extract(query, signatures, scorer=WRatio)``,
  median over the query's prefixes), ``re_loop_ms`` (one precompiled Python ``re.search``
  per record over the traceback), ``optionlist_ms`` (``OptionList.clear_options`` +
  ``add_options`` of one Option per record and the repaint, in a headless app; above
  ``OPTIONLIST_CAP`` records it is measured at the cap and scaled linearly, and
  ``optionlist_extrapolated`` says so).

Each measurement runs in its own subprocess so RSS and "cold" are honest. ``--json`` prints
one JSON object per line per KB; without it, a table.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

QUERY = "permission d"  # 12 characters
MATCH_RUNS = 15
OPTIONLIST_CAP = 20_000
APP_SIZE = (120, 36)
KEY_TIMEOUT_S = 30.0
#: The query is typed this many times (filter cleared in between): 36 keystrokes in all.
TYPING_ROUNDS = 3

REQUIRED = ("records", "load_s", "first_paint_s", "rss_mb", "keystroke_p50_ms",
            "keystroke_p95_ms", "match_ms")
BASELINE_KEYS = ("wratio_ms", "re_loop_ms", "optionlist_ms")


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def _sources(kb: str):
    from errkb_tui.kb import Source, bundled_data_dir

    if kb == "bundled":
        return [Source(bundled_data_dir(), "bundled")]
    return [Source(Path(kb), "--data")]


def _traceback(kb: str, records: int) -> str:
    from benchmarks.generate import traceback_text

    if kb == "bundled":
        text, _ = traceback_text(1000)
        lines = text.split("\n")[:-1] + ["ModuleNotFoundError: No module named 'cv2'"]
        return "\n".join(lines)
    return traceback_text(records)[0]


def _percentile(ordered: list[float], fraction: float) -> float:
    """Linear interpolation between closest ranks (numpy's default) of sorted values."""
    position = fraction * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


# -- worker: load ----------------------------------------------------------------------


def work_load(kb: str) -> dict:
    from errkb_tui.loader import load_kb
    from errkb_tui.match import Matcher
    from errkb_tui.search import SearchIndex

    start = time.perf_counter()
    loaded = load_kb(_sources(kb))
    index = SearchIndex(loaded.records)
    load_s = time.perf_counter() - start
    rss_load = _rss_mb()
    errors = sum(1 for p in loaded.problems if p.severity == "error")

    # Warm start: the same files again, through the on-disk cache the app uses.
    from errkb_tui.kbcache import default_cache_dir

    load_kb(_sources(kb), cache_dir=default_cache_dir())  # writes the cache (if large enough)
    start = time.perf_counter()
    warm = load_kb(_sources(kb), cache_dir=default_cache_dir())
    SearchIndex(warm.records)
    warm_load_s = time.perf_counter() - start
    del warm

    start = time.perf_counter()
    matcher = Matcher(loaded.records)
    matcher_build_s = time.perf_counter() - start
    text = _traceback(kb, len(loaded.records))
    start = time.perf_counter()
    first = matcher.match(text)
    match_first_ms = (time.perf_counter() - start) * 1000
    times = []
    for _ in range(MATCH_RUNS):
        start = time.perf_counter()
        matcher.match(text)
        times.append((time.perf_counter() - start) * 1000)
    del index
    return {
        "records": len(loaded.records),
        "load_s": load_s,
        "warm_load_s": warm_load_s,
        "load_errors": errors,
        "rss_load_mb": rss_load,
        "matcher_build_s": matcher_build_s,
        "match_ms": statistics.median(times),
        "match_first_ms": match_first_ms,
        "match_top": first[0].id if first else None,
    }


# -- worker: app -----------------------------------------------------------------------


async def _app_run(kb: str, query: str) -> dict:
    from errkb_tui.app import make_app
    from errkb_tui.clipboard import GuardedClipboard, MemoryBackend
    from errkb_tui.widgets.record_list import RecordList
    from textual import events

    state = {"shown": None, "shown_at": None, "painted": None, "first_paint": None}

    start = time.perf_counter()
    app = make_app(_sources(kb), watch=False, clipboard=GuardedClipboard(MemoryBackend()),
                   own_process=True)  # as errkb-tui's entry point runs it
    original_display = app._display

    def display(screen, renderable) -> None:
        original_display(screen, renderable)
        if renderable is None:
            return
        if hasattr(renderable, "render_segments"):  # what a real terminal would be sent
            renderable.render_segments(app.console)
        now = time.perf_counter()
        if state["shown"] is not None and state["painted"] is None:
            state["painted"] = now
            if state["first_paint"] is None:
                state["first_paint"] = now

    app._display = display  # the screen calls app._display with every update

    async def wait_for(predicate, timeout: float = KEY_TIMEOUT_S) -> None:
        limit = time.perf_counter() + timeout
        while not predicate():
            if time.perf_counter() > limit or not app.is_running:
                raise TimeoutError("the app did not repaint in time")
            await asyncio.sleep(0.0005)

    latencies: list[float] = []
    to_rows: list[float] = []  # key -> RecordList.watch_results (search + messages), before the repaint
    async with app.run_test(size=APP_SIZE) as pilot:
        await wait_for(lambda: bool(app.screen.query(RecordList)))
        record_list = app.screen.query_one(RecordList)
        original_watch = record_list.watch_results

        def watch_results(old, new) -> None:
            original_watch(old, new)
            text = new.query
            if len(new) and state["shown"] is None or text != state["shown"]:
                state["shown"], state["shown_at"], state["painted"] = text, time.perf_counter(), None

        record_list.watch_results = watch_results  # reactive watchers are looked up per call
        # The first search may already have landed before the hook went in.
        if record_list.row_count and state["shown"] is None:
            state["shown"] = record_list.results.query
        await wait_for(lambda: state["first_paint"] is not None or (
            record_list.row_count > 0 and state["shown"] is not None and state["painted"] is not None))
        first_paint_s = (state["first_paint"] or state["painted"]) - start
        # Keystrokes are timed on the whole KB: a large one is still loading at first paint,
        # and its later parts replace the list while it loads.
        await wait_for(lambda: app.loaded, timeout=600)
        await pilot.pause()
        records = len(app.kb.records)
        await pilot.press("slash")
        await pilot.pause()
        filter_input = app.screen.query_one("#filter")
        for _round in range(TYPING_ROUNDS):
            if _round:  # clear the filter and let the full list come back before typing again
                filter_input.value = ""
                await wait_for(lambda: record_list.results.query == "" and state["painted"] is not None)
                await pilot.pause()
            typed = ""
            for char in query:
                typed += char
                key = "space" if char == " " else char
                state["painted"] = None
                sent = time.perf_counter()
                event = events.Key(key, char)
                event.set_sender(app)
                app._driver.send_message(event)
                await wait_for(lambda: record_list.results.query == typed and state["shown"] == typed
                               and state["painted"] is not None)
                latencies.append((state["painted"] - sent) * 1000)
                to_rows.append((state["shown_at"] - sent) * 1000)
        shown = record_list.row_count
        # One match, as the clipboard watcher would do: the matcher is part of the app's memory.
        matcher = await asyncio.to_thread(app.matcher)
        await asyncio.to_thread(matcher.match, _traceback(kb, records))
    in_order = [round(x, 2) for x in latencies]
    latencies.sort()
    return {
        "records": records,
        "first_paint_s": first_paint_s,
        "keystroke_p50_ms": statistics.median(latencies),
        "keystroke_p95_ms": _percentile(latencies, 0.95),
        "keystroke_max_ms": latencies[-1],
        "keystroke_ms": in_order,
        "keystroke_to_rows_p50_ms": statistics.median(to_rows),
        "keystroke_to_rows_p95_ms": _percentile(sorted(to_rows), 0.95),
        "query": query,
        "query_results": shown,
        "rss_mb": _rss_mb(),
    }


def work_app(kb: str, query: str = QUERY) -> dict:
    return asyncio.run(_app_run(kb, query))


# -- worker: baselines -----------------------------------------------------------------


async def _optionlist_ms(prompts: list[str]) -> float:
    from rich.text import Text
    from textual.app import App
    from textual.widgets import OptionList
    from textual.widgets.option_list import Option

    class Bench(App[None]):
        def compose(self):
            yield OptionList()

    app = Bench()
    painted = {"at": None}
    original_display = app._display

    def display(screen, renderable) -> None:
        original_display(screen, renderable)
        if renderable is not None:
            if hasattr(renderable, "render_segments"):
                renderable.render_segments(app.console)
            painted["at"] = time.perf_counter()

    app._display = display
    times = []
    async with app.run_test(size=APP_SIZE) as pilot:
        option_list = app.query_one(OptionList)
        for _ in range(3):
            await pilot.pause()
            painted["at"] = None
            start = time.perf_counter()
            option_list.clear_options()
            option_list.add_options([Option(Text(p)) for p in prompts])  # plain text, no markup
            limit = start + KEY_TIMEOUT_S * 10
            while painted["at"] is None:
                if time.perf_counter() > limit or not app.is_running:
                    raise TimeoutError("the OptionList did not repaint in time")
                await asyncio.sleep(0.0005)
            times.append((painted["at"] - start) * 1000)
    return statistics.median(times)


def work_baseline(kb: str, query: str = QUERY) -> dict:
    import re

    from rapidfuzz import fuzz, process

    from errkb_tui.loader import load_kb

    records = load_kb(_sources(kb)).records
    signatures = [r.signature for r in records]
    times = []
    for end in range(1, len(query) + 1):
        start = time.perf_counter()
        process.extract(query[:end], signatures, scorer=fuzz.WRatio)
        times.append((time.perf_counter() - start) * 1000)
    wratio_ms = statistics.median(times)

    text = _traceback(kb, len(records))
    patterns = []
    for r in records:
        if r.regex:
            try:
                patterns.append(re.compile(r.regex, re.MULTILINE))
            except re.error:
                pass
    times = []
    for _ in range(3):
        start = time.perf_counter()
        for pattern in patterns:
            pattern.search(text)
        times.append((time.perf_counter() - start) * 1000)
    re_loop_ms = statistics.median(times)

    count = min(len(signatures), OPTIONLIST_CAP)
    measured = asyncio.run(_optionlist_ms(signatures[:count]))
    scale = len(signatures) / count if count else 1.0
    return {
        "wratio_ms": wratio_ms,
        "re_loop_ms": re_loop_ms,
        "re_loop_patterns": len(patterns),
        "optionlist_ms": measured * scale,
        "optionlist_measured_rows": count,
        "optionlist_extrapolated": scale > 1.0,
    }


WORKERS = {"load": work_load, "app": work_app, "baseline": work_baseline}


# -- driver ----------------------------------------------------------------------------


def _spawn(kind: str, kb: str, cache_home: str) -> dict:
    from errkb_tui.cli import UI_FPS

    env = dict(os.environ)
    env.pop("ERRKB_PATH", None)
    env["XDG_CACHE_HOME"] = cache_home
    env.setdefault("TEXTUAL_FPS", UI_FPS)  # as errkb-tui's entry point runs the app
    root = Path(__file__).resolve().parent.parent
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), env.get("PYTHONPATH", "")]))
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks.run", "--worker", kind, "--kb", kb],
        capture_output=True, text=True, env=env, cwd=root,
    )
    if result.returncode != 0:
        raise RuntimeError(f"{kind} worker for {kb} failed:\n{result.stderr[-4000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def measure(kb: str, label: str) -> dict:
    """Every number for one KB (a .jsonl path or ``bundled``), each part in a fresh process."""
    with tempfile.TemporaryDirectory(prefix="errkb-bench-") as cache_home:
        load = _spawn("load", kb, cache_home)
    with tempfile.TemporaryDirectory(prefix="errkb-bench-") as cache_home:
        app = _spawn("app", kb, cache_home)  # a cold start; it leaves the KB cache behind
        warm_app = _spawn("app", kb, cache_home)  # a warm start from that cache
    with tempfile.TemporaryDirectory(prefix="errkb-bench-") as cache_home:
        baseline = _spawn("baseline", kb, cache_home)
    out = {
        "kb": label,
        "records": load["records"],
        "load_s": load["load_s"],
        "warm_load_s": load["warm_load_s"],
        "first_paint_s": app["first_paint_s"],
        "warm_first_paint_s": warm_app["first_paint_s"],
        "rss_mb": app["rss_mb"],
        "keystroke_p50_ms": app["keystroke_p50_ms"],
        "keystroke_p95_ms": app["keystroke_p95_ms"],
        "match_ms": load["match_ms"],
        "baseline": {key: baseline[key] for key in BASELINE_KEYS},
        "detail": {
            **{k: v for k, v in load.items() if k not in out_keys()},
            **{k: v for k, v in app.items() if k not in out_keys()},
            **{k: v for k, v in baseline.items() if k not in BASELINE_KEYS},
        },
    }
    return out


def out_keys() -> set[str]:
    return {"records", "load_s", "warm_load_s", "first_paint_s", "rss_mb", "keystroke_p50_ms",
            "keystroke_p95_ms", "match_ms"}


def _table(rows: list[dict]) -> str:
    header = ["KB", "records", "load s", "warm load s", "1st paint s", "warm paint s", "RSS MB",
              "key p50 ms", "key p95 ms", "match ms", "WRatio ms", "re loop ms", "OptionList ms"]
    lines = [header]
    for row in rows:
        b = row["baseline"]
        extrapolated = "*" if row["detail"].get("optionlist_extrapolated") else ""
        lines.append([
            row["kb"], f"{row['records']:,}", f"{row['load_s']:.2f}", f"{row['warm_load_s']:.2f}",
            f"{row['first_paint_s']:.2f}", f"{row['warm_first_paint_s']:.2f}",
            f"{row['rss_mb']:.0f}", f"{row['keystroke_p50_ms']:.1f}", f"{row['keystroke_p95_ms']:.1f}",
            f"{row['match_ms']:.2f}", f"{b['wratio_ms']:.1f}", f"{b['re_loop_ms']:.1f}",
            f"{b['optionlist_ms']:.0f}{extrapolated}",
        ])
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    text = ["  ".join(cell.rjust(w) if i else cell.ljust(w) for i, (cell, w) in enumerate(zip(line, widths)))
            for line in lines]
    text.insert(1, "  ".join("-" * w for w in widths))
    if any(row["detail"].get("optionlist_extrapolated") for row in rows):
        text.append(f"* OptionList measured at {OPTIONLIST_CAP:,} rows and scaled linearly")
    return "\n".join(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--json", action="store_true", help="one JSON object per KB per line")
    parser.add_argument("--no-bundled", action="store_true", help="skip the bundled KB row")
    parser.add_argument("--worker", choices=sorted(WORKERS), help=argparse.SUPPRESS)
    parser.add_argument("--kb", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.worker:
        print(json.dumps(WORKERS[args.worker](args.kb)))
        return 0

    from benchmarks.generate import ensure_kb

    targets = [] if args.no_bundled else [("bundled", "bundled")]
    targets += [(str(ensure_kb(size)), str(size)) for size in args.sizes]
    rows = []
    for kb, label in targets:
        row = measure(kb, label)
        rows.append(row)
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            print(f"measured {label}", file=sys.stderr, flush=True)
    if not args.json:
        print(_table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
