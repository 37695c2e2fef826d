"""Opening a link without writing over the terminal; a missing or failing opener is reported."""

from __future__ import annotations

import os
import stat
import sys

import pytest

from errkb_tui import opener

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="xdg-open is the Linux opener")


def fake_opener(folder, code: int, sleep: float = 0.0):
    script = folder / "xdg-open"
    script.write_text(f"#!/bin/sh\necho 'xdg-open: no method available' >&2\necho out\nsleep {sleep}\nexit {code}\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return script


def test_a_failing_opener_is_reported_and_writes_nothing(tmp_path, monkeypatch, capfd):
    fake_opener(tmp_path, 3)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    failure = opener.open_quietly("https://example.org", environ={"DISPLAY": ":0"})
    assert failure is not None and "exit 3" in failure
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_an_opener_that_succeeds_or_keeps_running_is_success(tmp_path, monkeypatch):
    fake_opener(tmp_path, 0)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    assert opener.open_quietly("https://example.org", environ={"DISPLAY": ":0"}) is None
    fake_opener(tmp_path, 1, sleep=5)
    assert opener.open_quietly("https://example.org", environ={"DISPLAY": ":0"}, wait=0.2) is None


def test_no_display_means_no_browser_and_no_process(monkeypatch):
    monkeypatch.setattr(opener.subprocess, "Popen", lambda *a, **k: (_ for _ in ()).throw(AssertionError("ran")))
    assert opener.open_quietly("https://example.org", environ={}) == "no browser here"
