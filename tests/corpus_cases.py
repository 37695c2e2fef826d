"""The corpus: real error output per record, as files under ``tests/corpus/``.

Layout:

- ``tests/corpus/<domain>/<slug>.txt``: the record's first case.
- ``tests/corpus/<domain>/<slug>/<label>.txt``: further cases (other OSes, versions,
  wrappers, fragments), one output per file.
- ``tests/corpus/_negative/*.txt``: text that must match nothing confidently.

A case may start with header lines ``#| key: value``; they are not part of the text.
``#| source: <url>`` names the public page the output was copied from (one line per page);
``#| kind: fragment`` marks a part of a message as people copy it (no prefix, cut short).
``#| reproduced: <tool and version, command>`` instead of a source: output made here by
running the current release of the tool, to hold a wording no public page showed yet. Such
a case is real output but was not copied, so it does not count toward a record's three.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

CORPUS = Path(__file__).resolve().parent / "corpus"
HEADER = "#| "


@dataclass(frozen=True)
class Case:
    path: Path
    record_id: str
    text: str
    meta: dict[str, list[str]] = field(default_factory=dict, hash=False)

    @property
    def sources(self) -> list[str]:
        return self.meta.get("source", [])

    @property
    def reproduced(self) -> list[str]:
        return [how for how in self.meta.get("reproduced", []) if how]

    @property
    def name(self) -> str:
        return self.path.relative_to(CORPUS).as_posix()


def read_case(path: Path, record_id: str) -> Case:
    """One case file: its ``#|`` header lines parsed, the rest as the text to match."""
    lines = path.read_text(encoding="utf-8").split("\n")
    meta: dict[str, list[str]] = {}
    body_start = 0
    for number, line in enumerate(lines):
        if not line.startswith(HEADER):
            break
        key, _, value = line[len(HEADER):].partition(":")
        meta.setdefault(key.strip(), []).append(value.strip())
        body_start = number + 1
    return Case(path, record_id, "\n".join(lines[body_start:]), meta)


def cases(root: Path = CORPUS) -> list[Case]:
    """Every positive case, sorted by path."""
    found = []
    for path in sorted(root.glob("*/*.txt")):
        if not path.parent.name.startswith("_"):
            found.append(read_case(path, f"{path.parent.name}/{path.stem}"))
    for path in sorted(root.glob("*/*/*.txt")):
        domain = path.parent.parent.name
        if not domain.startswith("_"):
            found.append(read_case(path, f"{domain}/{path.parent.name}"))
    return sorted(found, key=lambda case: case.name)


def negative_cases(root: Path = CORPUS) -> list[Case]:
    return [read_case(path, "") for path in sorted((root / "_negative").glob("*.txt"))]
