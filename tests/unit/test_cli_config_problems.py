"""The browser is given the config file's problems and the keymap ids that name no binding."""

from __future__ import annotations

from pathlib import Path

from errkb_tui import app as app_module
from errkb_tui import cli


def test_config_and_keymap_problems_reach_the_app(tmp_path: Path, monkeypatch) -> None:
    config = tmp_path / "config.toml"
    config.write_text('colour = "blue"\n\n[keymap]\n"app.qiut" = "ctrl+x"\n"app.quit" = "ctrl+q"\n', encoding="utf-8")
    monkeypatch.setenv("ERRKB_CONFIG", str(config))
    seen = {}
    monkeypatch.setattr(app_module, "run_app", lambda sources, **options: seen.update(options) or 0)
    args = cli._parser().parse_args([])
    assert cli._browse(args, None) == 0
    messages = [p.message for p in seen["config_problems"]]
    assert any("app.qiut" in m and "app.quit" in m for m in messages)  # with its did-you-mean
    assert any("colour" in m for m in messages)
    assert seen["keymap"]["app.quit"] == "ctrl+q"


def test_the_browser_is_told_it_is_the_whole_program(tmp_path: Path, monkeypatch) -> None:
    # so it may move a large loaded KB out of the garbage collector's scans
    monkeypatch.setenv("ERRKB_CONFIG", str(tmp_path / "none.toml"))
    seen = {}
    monkeypatch.setattr(app_module, "run_app", lambda sources, **options: seen.update(options) or 0)
    assert cli._browse(cli._parser().parse_args([]), None) == 0
    assert seen["own_process"] is True
