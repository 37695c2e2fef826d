"""Small helpers shared by the test packages."""

from __future__ import annotations

import copy
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEED = json.loads((ROOT / "data" / "pytorch" / "ddp-bucket-view-error.json").read_text("utf-8"))


def seed_record(record_id: str, **changes) -> dict:
    """A full, valid record (the seed) under a new id; ``changes`` override fields."""
    data = copy.deepcopy(SEED)
    data.update(id=record_id, domain=record_id.split("/", 1)[0])
    data.update(changes)
    return data


def write_json(path: Path, data) -> Path:
    """Write ``data`` as JSON to ``path``, making its folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
    return path


class FailingBackend:
    """A clipboard backend whose every call raises ``error``."""

    name = "system clipboard"

    def __init__(self, error: Exception) -> None:
        self.error = error

    def read(self):
        raise self.error

    def write(self, text: str) -> None:
        raise self.error
