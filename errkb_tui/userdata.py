"""Where the user's own things live: config, data (own KB, outcomes, drafts) and cache.

Plain Python, no Textual. Linux/BSD follow the XDG base-directory variables; macOS and
Windows use their usual places. ``ERRKB_HOME`` moves the data folder (own KB, outcomes,
drafts) as a whole; ``ERRKB_CONFIG`` names the config file. Nothing here creates a folder:
callers create one on their first write, so a read-only or missing home never stops the app.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

APP_NAME = "errkb-tui"


def _env(environ: Mapping[str, str] | None) -> Mapping[str, str]:
    return os.environ if environ is None else environ


def _home(env: Mapping[str, str]) -> Path:
    return Path(env.get("HOME") or os.path.expanduser("~"))


def _platform_dir(kind: str, env: Mapping[str, str]) -> Path:
    """The platform's folder of ``kind`` (``config``, ``data`` or ``cache``) for this app."""
    home = _home(env)
    if sys.platform == "darwin":
        base = {"config": home / "Library" / "Application Support",
                "data": home / "Library" / "Application Support",
                "cache": home / "Library" / "Caches"}[kind]
        return base / APP_NAME
    if sys.platform == "win32":
        local = Path(env.get("LOCALAPPDATA") or home / "AppData" / "Local")
        roaming = Path(env.get("APPDATA") or home / "AppData" / "Roaming")
        base = {"config": roaming, "data": local, "cache": local}[kind]
        return base / APP_NAME / ("Cache" if kind == "cache" else "")
    variable, default = {
        "config": ("XDG_CONFIG_HOME", home / ".config"),
        "data": ("XDG_DATA_HOME", home / ".local" / "share"),
        "cache": ("XDG_CACHE_HOME", home / ".cache"),
    }[kind]
    value = env.get(variable)
    # The XDG spec: a relative path in these variables is invalid and is ignored.
    base = Path(value) if value and os.path.isabs(value) else default
    return base / APP_NAME


def config_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The folder of the config file."""
    return _platform_dir("config", _env(environ))


def config_file(environ: Mapping[str, str] | None = None) -> Path:
    """``$ERRKB_CONFIG``, or ``config.toml`` in :func:`config_dir`."""
    env = _env(environ)
    if env.get("ERRKB_CONFIG"):
        return Path(env["ERRKB_CONFIG"]).expanduser()
    return config_dir(env) / "config.toml"


def data_dir(environ: Mapping[str, str] | None = None) -> Path:
    """``$ERRKB_HOME``, or the platform's data folder: the user's KB, outcomes and drafts."""
    env = _env(environ)
    if env.get("ERRKB_HOME"):
        return Path(env["ERRKB_HOME"]).expanduser()
    return _platform_dir("data", env)


def user_kb_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The user's own, writable KB (a folder of ``<domain>/<slug>.json``)."""
    return data_dir(environ) / "kb"


def outcomes_file(environ: Mapping[str, str] | None = None) -> Path:
    """The user's outcomes log (JSON Lines, append-only)."""
    return data_dir(environ) / "outcomes.jsonl"


def drafts_dir(environ: Mapping[str, str] | None = None) -> Path:
    """Draft records that did not validate yet (kept, never matched)."""
    return data_dir(environ) / "drafts"


def cache_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The platform's cache folder (safe to delete at any time)."""
    return _platform_dir("cache", _env(environ))


__all__ = ["APP_NAME", "cache_dir", "config_dir", "config_file", "data_dir", "drafts_dir",
           "outcomes_file", "user_kb_dir"]
