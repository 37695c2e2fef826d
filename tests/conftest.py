"""Shared fixtures.

Every test runs with a clean environment: no ``ERRKB_PATH`` from the developer's shell, and
XDG config/data/cache folders inside the test's tmp dir, so nothing reads or writes real user
state. UI fixtures belong in their own clearly named functions below these.
"""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def isolated_environment(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """No ERRKB_PATH, ERRKB_HOME or ERRKB_CONFIG; the XDG folders point at fresh tmp dirs."""
    for name in ("ERRKB_PATH", "ERRKB_HOME", "ERRKB_CONFIG", "VISUAL", "EDITOR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg-data")))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("xdg-config")))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))
