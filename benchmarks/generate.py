"""Synthetic but realistic KBs for the benchmarks.

Every record is valid per :class:`errkb_tui.model.Record` and has the shape of the seed
record: a signature with placeholders, a regex matching the real message (RE2 and Python
``re`` compatible), versions, dead ends, workarounds, Chinese text, transition links to
other generated records, trust fields. Records are built from per-domain message templates
filled from vocabularies, so signatures and regexes vary like a real KB's do, and every
record is reproducible from its index alone (see :func:`make_record`).

Shapes (``SHAPES``), each the same records: ``parts``, a folder of ``part-NNN.jsonl`` files
of 10,000 records (what the app benchmarks use); ``folder``, one ``.json`` file per record
(``<domain>/<slug>.json``, as the bundled KB); ``jsonl``, one ``.jsonl`` file; ``list``, one
``.json`` file holding a list (one record per line).

``python -m benchmarks.generate [--shape S] 1000 10000`` writes them below ``benchmarks/.cache/``.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import sys
from pathlib import Path

#: Bump when the output changes, so cached files are rebuilt.
VERSION = 3
SEED = 20240601
CACHE_DIR = Path(__file__).resolve().parent / ".cache"

# Template slots: {N} number, {Q} quoted name, {W} bare word/identifier, {P} path.
# Each domain: (categories, [(category, template), ...], version list)
_NAMES = [
    "numpy", "requests", "torch", "pandas", "yaml", "cv2", "sklearn", "scipy", "boto3", "flask",
    "django", "fastapi", "pydantic", "attrs", "lxml", "grpc", "redis", "psycopg2", "jwt", "httpx",
    "uvicorn", "celery", "kafka", "tqdm", "rich", "click", "jinja2", "matplotlib", "seaborn", "PIL",
]
_WORDS = [
    "config", "session", "buffer", "token", "worker", "handler", "stream", "cursor", "tensor",
    "index", "column", "module", "layer", "client", "socket", "channel", "batch", "schema",
    "record", "request", "response", "pool", "lock", "queue", "cache", "node", "pod", "volume",
    "image", "bucket", "table", "user", "role", "policy", "cluster", "shard", "replica", "lease",
]
_ADJ = [
    "invalid", "missing", "unexpected", "duplicate", "stale", "corrupt", "unknown", "unsupported",
    "deprecated", "incompatible", "malformed", "expired", "locked", "detached", "orphaned", "empty",
]
_VERBS = [
    "allocate", "connect to", "resolve", "open", "read", "write", "parse", "load", "bind",
    "serialize", "deserialize", "initialize", "acquire", "release", "register", "mount",
]

DOMAINS: dict[str, dict] = {
    "python": {
        "versions": ["3.8", "3.9", "3.10", "3.11", "3.12", "3.13"],
        "templates": [
            ("import_error", "ModuleNotFoundError: No module named {Q}"),
            ("import_error", "ImportError: cannot import name {Q} from {Q} ({P})"),
            ("attribute_error", "AttributeError: {Q} object has no attribute {Q}"),
            ("type_error", "TypeError: {W}() got an unexpected keyword argument {Q}"),
            ("type_error", "TypeError: {W}() takes {N} positional arguments but {N} were given"),
            ("value_error", "ValueError: {ADJ} literal for int() with base {N}: {Q}"),
            ("runtime_error", "RuntimeError: {W} {W} changed size during iteration"),
            ("permission_error", "PermissionError: [Errno 13] Permission denied: {Q}"),
        ],
    },
    "pytorch": {
        "versions": ["1.11", "1.12", "1.13", "2.0", "2.1", "2.2", "2.3"],
        "templates": [
            ("runtime_error", "RuntimeError: CUDA out of memory. Tried to allocate {N} MiB for {W} {W}"),
            ("runtime_error", "RuntimeError: Expected all tensors to be on the same device, but found {W} devices in {W}"),
            ("runtime_error", "RuntimeError: mat1 and mat2 shapes cannot be multiplied ({N}x{N} and {N}x{N}) in {W}"),
            ("runtime_error", "RuntimeError: Error(s) in loading state_dict for {W}: Missing key(s) in {W}: {Q}"),
            ("concurrency_error", "RuntimeError: NCCL error in: {P}:{N}, unhandled {W} error, NCCL version {N}"),
        ],
    },
    "node": {
        "versions": ["16", "18", "20", "21", "22"],
        "templates": [
            ("import_error", "Error: Cannot find module {Q} imported from {P}"),
            ("runtime_error", "TypeError: Cannot read properties of undefined (reading {Q}) at {W}"),
            ("network_error", "Error: connect ECONNREFUSED {N}.{N}.{N}.{N}:{N} while {W} {W}"),
            ("install_error", "npm ERR! code ERESOLVE unable to resolve dependency tree for {Q}"),
        ],
    },
    "docker": {
        "versions": ["20.10", "23.0", "24.0", "25.0", "26.1"],
        "templates": [
            ("network_error", "Error response from daemon: driver failed programming external connectivity on endpoint {W}: Bind for 0.0.0.0:{N} failed"),
            ("build_error", "failed to solve: process \"/bin/sh -c {W} {W}\" did not complete successfully: exit code: {N}"),
            ("permission_error", "Got permission denied while trying to connect to the Docker daemon socket at {P}"),
            ("config_error", "Error response from daemon: {ADJ} reference format: repository name {Q} must be lowercase"),
        ],
    },
    "kubernetes": {
        "versions": ["1.25", "1.26", "1.27", "1.28", "1.29", "1.30"],
        "templates": [
            ("scheduling", "0/{N} nodes are available: {N} Insufficient {W}, {N} node(s) had {ADJ} taint"),
            ("runtime_error", "Back-off restarting failed container {W} in pod {W}-{N}"),
            ("auth_error", "Error from server (Forbidden): {W}s is forbidden: User {Q} cannot list resource {Q}"),
            ("config_error", "error validating data: ValidationError({W}.spec): unknown field {Q} in {W}"),
        ],
    },
    "rust": {
        "versions": ["1.70", "1.72", "1.74", "1.76", "1.78", "1.80"],
        "templates": [
            ("compile_error", "error[E0502]: cannot borrow `{W}` as mutable because it is also borrowed as immutable in {W}"),
            ("compile_error", "error[E0382]: borrow of moved value: `{W}` in function `{W}`"),
            ("compile_error", "error[E0433]: failed to resolve: use of undeclared crate or module `{W}`"),
            ("panic", "thread 'main' panicked at {P}:{N}:{N}: called `Option::unwrap()` on a `None` value in {W}"),
        ],
    },
    "git": {
        "versions": ["2.34", "2.39", "2.40", "2.43", "2.45"],
        "templates": [
            ("sync_error", "error: failed to push some refs to {Q}: updates were rejected because the tip of {W} is behind"),
            ("auth_error", "fatal: Authentication failed for {Q} while fetching {W}"),
            ("sync_error", "CONFLICT (content): Merge conflict in {P} on branch {W}"),
        ],
    },
    "postgres": {
        "versions": ["12", "13", "14", "15", "16"],
        "templates": [
            ("auth_error", "FATAL: password authentication failed for user {Q} on database {Q}"),
            ("runtime_error", "ERROR: duplicate key value violates unique constraint {Q} on table {W}"),
            ("resource_error", "FATAL: remaining connection slots are reserved for {W} {W} connections"),
            ("runtime_error", "ERROR: relation {Q} does not exist at character {N}"),
        ],
    },
    "java": {
        "versions": ["8", "11", "17", "21"],
        "templates": [
            ("resource_error", "Exception in thread {Q} java.lang.OutOfMemoryError: Java heap space in {W}"),
            ("runtime_error", "java.lang.NullPointerException: Cannot invoke {Q} because {Q} is null"),
            ("import_error", "java.lang.ClassNotFoundException: org.{W}.{W}.{W}Factory"),
        ],
    },
    "aws": {
        "versions": ["cli-1", "cli-2", "boto3-1.28", "boto3-1.34"],
        "templates": [
            ("auth_error", "An error occurred (AccessDenied) when calling the {W} operation: User: arn:aws:iam::{N}:user/{W} is not authorized"),
            ("resource_error", "An error occurred (ThrottlingException) when calling the {W} operation: Rate exceeded for {W}"),
            ("config_error", "botocore.exceptions.NoRegionError: You must specify a region for {W} {W}"),
        ],
    },
    "terraform": {
        "versions": ["1.3", "1.5", "1.6", "1.7", "1.8"],
        "templates": [
            ("config_error", "Error: Unsupported argument on {P} line {N}: An argument named {Q} is not expected here"),
            ("sync_error", "Error: Error acquiring the state lock: ConditionalCheckFailedException for {W} {W}"),
            ("install_error", "Error: Failed to query available provider packages: could not retrieve the list of versions for {Q}"),
        ],
    },
    "go": {
        "versions": ["1.19", "1.20", "1.21", "1.22"],
        "templates": [
            ("compile_error", "{P}:{N}:{N}: declared and not used: {W}"),
            ("panic", "panic: runtime error: invalid memory address or nil pointer dereference in {W}.{W}"),
            ("concurrency_error", "fatal error: all goroutines are asleep - deadlock! in {W} {W}"),
        ],
    },
}


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:48].strip("-") or "error"


def _fill(template: str, rng: random.Random) -> tuple[str, str, str, list[str]]:
    """(signature, regex, example message, words used) for ``template``."""
    signature, regex, example, words = [], [], [], []
    if "{W}" not in template and "{ADJ}" not in template:
        template += " in {W}"  # a fixed word, so few records share a regex
    for part in re.split(r"(\{[A-Z]+\})", template):
        if part == "{N}":
            signature.append("N")
            regex.append(r"\d+")
            example.append(str(rng.randint(1, 65535)))
        elif part == "{Q}":
            value = rng.choice(_NAMES + _WORDS)
            signature.append("'X'")
            regex.append(r"'[^']+'")
            example.append(f"'{value}'")
        elif part == "{P}":
            path = f"/srv/{rng.choice(_WORDS)}/{rng.choice(_WORDS)}.py"
            signature.append("PATH")
            regex.append(r"\S+")
            example.append(path)
        elif part == "{W}":
            # Fixed words make signatures (and regexes) distinct across records.
            word = rng.choice(_WORDS)
            words.append(word)
            signature.append(word)
            regex.append(re.escape(word))
            example.append(word)
        elif part == "{ADJ}":
            word = rng.choice(_ADJ)
            words.append(word)
            signature.append(word)
            regex.append(re.escape(word))
            example.append(word)
        else:
            signature.append(part)
            regex.append(re.escape(part).replace("\\ ", " "))
            example.append(part)
    return "".join(signature), "".join(regex), "".join(example), words


def _sentence(rng: random.Random, n: int) -> str:
    out = []
    for _ in range(n):
        out.append(
            f"The {rng.choice(_WORDS)} is {rng.choice(_ADJ)} because the {rng.choice(_WORDS)} "
            f"failed to {rng.choice(_VERBS)} the {rng.choice(_WORDS)}."
        )
    return " ".join(out)


def _zh(rng: random.Random, n: int) -> str:
    parts = ["由于", "配置", "版本不匹配", "导致", "无法", "加载", "连接", "权限不足", "内存", "缓存", "请检查", "环境变量"]
    return "".join(rng.choice(parts) for _ in range(n)) + "。"


def make_record(index: int, total: int, seed: int = SEED) -> tuple[dict, str]:
    """Record number ``index`` of a KB of ``total`` records, and an example message it matches."""
    rng = random.Random(seed * 1_000_003 + index)
    domain = list(DOMAINS)[index % len(DOMAINS)]
    spec = DOMAINS[domain]
    category, template = rng.choice(spec["templates"])
    signature, regex, example, words = _fill(template, rng)
    record_id = f"{domain}/{_slug(signature)}-{index}"
    versions = spec["versions"]
    start = rng.randrange(len(versions))
    version_entries = []
    for position, version in enumerate(versions[start:]):
        status = "active"
        entry = {"version": version, "introduced": None, "deprecated": None, "removed": None,
                 "behavior_change": None, "status": status}
        if position == 0:
            entry["introduced"] = f"{rng.choice(_WORDS)} {rng.choice(_VERBS)} path introduced"
        elif rng.random() < 0.1:
            entry["behavior_change"] = f"the {rng.choice(_WORDS)} now raises instead of warning"
            entry["status"] = "changed"
        elif rng.random() < 0.05:
            entry["status"] = rng.choice(["deprecated", "fixed"])
        version_entries.append(entry)
    dead_ends = [
        {"action": "" if rng.random() < 0.3 else f"{rng.choice(_VERBS).capitalize()} the {rng.choice(_WORDS)} again",
         "why_fails": _sentence(rng, 1), "fail_rate": round(rng.uniform(0.3, 0.95), 2),
         "condition": "", "sources": []}
        for _ in range(rng.randint(0, 3))
    ]
    workarounds = []
    for _ in range(rng.randint(1, 3)):
        word = rng.choice(_NAMES)
        how = rng.choice([
            f"pip install --upgrade {word}",
            f"export {word.upper()}_{rng.choice(_WORDS).upper()}=1",
            f"kubectl rollout restart deployment/{rng.choice(_WORDS)}",
            f"git pull --rebase origin {rng.choice(_WORDS)}",
            "",
        ])
        workarounds.append({
            "action": f"{rng.choice(_VERBS).capitalize()} the {rng.choice(_WORDS)} before the {rng.choice(_WORDS)} starts.",
            "success_rate": round(rng.uniform(0.5, 0.98), 2), "how": how,
            "condition": "" if rng.random() < 0.7 else f"when {rng.choice(_WORDS)} is {rng.choice(_ADJ)}",
            "sources": [f"https://example.org/{domain}/{_slug(rng.choice(_WORDS))}"] if rng.random() < 0.4 else [],
        })

    def link() -> str:
        other = rng.randrange(total)
        if other == index:  # a record never links to itself
            other = (index + 1) % total
        other_domain = list(DOMAINS)[other % len(DOMAINS)]
        other_rng = random.Random(seed * 1_000_003 + other)
        _, other_template = other_rng.choice(DOMAINS[other_domain]["templates"])
        other_sig = _fill(other_template, other_rng)[0]
        return f"{other_domain}/{_slug(other_sig)}-{other}"

    year = rng.choice([2022, 2023, 2024])
    record = {
        "id": record_id,
        "signature": signature,
        "signature_zh": f"{signature}（{_zh(rng, 3)}）",
        "regex": regex,
        "domain": domain,
        "category": category,
        "subcategory": None if rng.random() < 0.6 else rng.choice(_WORDS),
        "root_cause": _sentence(rng, rng.randint(2, 4)),
        "root_cause_type": rng.choice(["generic", "environment", "api_misuse", "version_mismatch", "configuration"]),
        "root_cause_zh": _zh(rng, rng.randint(8, 20)),
        "versions": version_entries,
        "os_specific": {} if rng.random() < 0.8 else {"windows": _sentence(rng, 1)},
        "dead_ends": dead_ends,
        "workarounds": workarounds,
        "workarounds_zh": [_zh(rng, 6) for _ in workarounds],
        "transition_graph": {
            "leads_to": [link() for _ in range(rng.randint(0, 2))],
            "preceded_by": [link() for _ in range(rng.randint(0, 1))],
            "frequently_confused_with": [link() for _ in range(rng.randint(0, 1))],
        },
        "official_doc_url": f"https://docs.example.org/{domain}/{_slug(category)}" if rng.random() < 0.7 else None,
        "official_doc_section": None,
        "error_code": None,
        "verification_tier": rng.choice(["ai_generated", "ai_generated", "source_checked", "community_verified"]),
        "confidence": round(rng.uniform(0.4, 0.98), 2),
        "fix_success_rate": round(rng.uniform(0.3, 0.97), 2),
        "resolvable": rng.choice(["yes", "partial", "no"]),
        "first_seen": f"{year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        "last_confirmed": f"{year + 1}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        "last_updated": f"{year + 1}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        "evidence_count": rng.randint(1, 40),
        "tags": rng.sample(words or _WORDS, min(len(words or _WORDS), rng.randint(0, 3))),
        "locale": "en",
        "aliases": [],
    }
    return record, example


#: Records per file of the ``parts`` shape (a 10,000-record file is ~27 MB).
PART_RECORDS = 10_000
#: The shapes a KB can be generated in (see the module docstring).
SHAPES = ("parts", "folder", "jsonl", "list")


def kb_path(size: int, cache_dir: Path = CACHE_DIR, shape: str = "parts") -> Path:
    """Where the KB of ``size`` records in ``shape`` lives (see :func:`ensure_kb`)."""
    name = f"kb-{size}-v{VERSION}" if shape == "parts" else f"kb-{size}-{shape}-v{VERSION}"
    return cache_dir / name / "kb.jsonl" if shape == "jsonl" else (
        cache_dir / name / "kb.json" if shape == "list" else cache_dir / name)


def ensure_kb(size: int, cache_dir: Path = CACHE_DIR, shape: str = "parts") -> Path:
    """The KB of ``size`` records in ``shape``, generated on first use; its path (a folder
    for ``parts`` and ``folder``, the one file for ``jsonl`` and ``list``)."""
    if shape not in SHAPES:
        raise ValueError(f"unknown shape {shape!r}; one of {', '.join(SHAPES)}")
    path = kb_path(size, cache_dir, shape)
    home = path if shape in ("parts", "folder") else path.parent
    if home.is_dir():
        return path
    tmp = home.with_name(home.name + ".tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    lines = (json.dumps(make_record(index, size)[0], ensure_ascii=False) for index in range(size))
    if shape == "parts":
        for part, first in enumerate(range(0, size, PART_RECORDS)):
            with (tmp / f"part-{part:03d}.jsonl").open("w", encoding="utf-8") as out:
                for _ in range(first, min(size, first + PART_RECORDS)):
                    out.write(next(lines))
                    out.write("\n")
    elif shape == "folder":
        for index in range(size):
            record, _ = make_record(index, size)
            domain, slug = record["id"].split("/", 1)
            (tmp / domain).mkdir(exist_ok=True)
            (tmp / domain / f"{slug}.json").write_text(json.dumps(record, ensure_ascii=False, indent=2), "utf-8")
    elif shape == "jsonl":
        with (tmp / path.name).open("w", encoding="utf-8") as out:
            for line in lines:
                out.write(line)
                out.write("\n")
    else:  # list: one record per line, as a tool writing a list of records would
        with (tmp / path.name).open("w", encoding="utf-8") as out:
            out.write("[\n")
            for index, line in enumerate(lines):
                out.write(",\n" if index else "")
                out.write(line)
            out.write("\n]\n")
    tmp.rename(home)
    return path


PYTHON_FRAMES = [
    '  File "/srv/app/{w}/{w2}.py", line {n}, in {w}_{w2}',
    "    result = self.{w}.{w2}({w}, timeout={n})",
    "    return await {w}_{w2}(request)",
]
LOG_LINES = [
    "2024-05-0{d} 12:{m:02d}:{s:02d},{ms:03d} INFO [{w}] starting {w2} worker {n}",
    "2024-05-0{d} 12:{m:02d}:{s:02d},{ms:03d} DEBUG [{w}] {w2} pool size={n}",
    "[rank{d}]: {w} step {n} loss=0.{ms:03d}",
    "  warnings.warn(f\"{w} is slow\")",
]


def traceback_text(size: int, lines: int = 200, seed: int = SEED) -> tuple[str, str]:
    """A noisy ``lines``-line log + traceback ending in a real message of one record, and that record's id."""
    rng = random.Random(seed + lines)
    target = size // 2
    record, example = make_record(target, size, seed)
    body: list[str] = []
    while len(body) < lines - 3:
        values = {"w": rng.choice(_WORDS), "w2": rng.choice(_WORDS), "n": rng.randint(1, 900),
                  "d": rng.randint(1, 9), "m": rng.randint(0, 59), "s": rng.randint(0, 59),
                  "ms": rng.randint(0, 999)}
        if rng.random() < 0.5:
            body.append(rng.choice(LOG_LINES).format(**values))
        else:
            body.append("Traceback (most recent call last):" if rng.random() < 0.05
                        else rng.choice(PYTHON_FRAMES).format(**values))
    body += ["Traceback (most recent call last):", '  File "/srv/app/main.py", line 12, in <module>', example]
    return "\n".join(body[-lines:]), record["id"]


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m benchmarks.generate",
                                     description="Write synthetic KBs below benchmarks/.cache/.")
    parser.add_argument("sizes", type=int, nargs="*", default=[1000, 10000, 100000],
                        help="records per KB (default: 1000 10000 100000)")
    parser.add_argument("--shape", choices=[*SHAPES, "all"], default="parts",
                        help="file shape (default: parts, what the app benchmarks use)")
    args = parser.parse_args(argv)
    shapes = list(SHAPES) if args.shape == "all" else [args.shape]
    for shape in shapes:
        for size in args.sizes:
            print(ensure_kb(size, shape=shape))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
