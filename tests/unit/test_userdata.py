"""The user's folders: XDG variables, ERRKB_HOME and ERRKB_CONFIG, nothing created."""

import sys

import pytest

from errkb_tui import userdata

linux_only = pytest.mark.skipif(sys.platform in ("darwin", "win32"), reason="XDG layout")


@linux_only
def test_xdg_defaults_under_home(tmp_path):
    env = {"HOME": str(tmp_path)}
    assert userdata.user_kb_dir(env) == tmp_path / ".local/share/errkb-tui/kb"
    assert userdata.outcomes_file(env) == tmp_path / ".local/share/errkb-tui/outcomes.jsonl"
    assert userdata.config_file(env) == tmp_path / ".config/errkb-tui/config.toml"
    assert userdata.cache_dir(env) == tmp_path / ".cache/errkb-tui"
    assert not (tmp_path / ".local").exists()


@linux_only
def test_xdg_variables_win_and_relative_ones_are_ignored(tmp_path):
    env = {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "d"), "XDG_CONFIG_HOME": "rel"}
    assert userdata.data_dir(env) == tmp_path / "d/errkb-tui"
    assert userdata.config_dir(env) == tmp_path / ".config/errkb-tui"


def test_errkb_home_and_config_override(tmp_path):
    env = {"HOME": str(tmp_path), "ERRKB_HOME": str(tmp_path / "mine"),
           "ERRKB_CONFIG": str(tmp_path / "c.toml")}
    assert userdata.user_kb_dir(env) == tmp_path / "mine/kb"
    assert userdata.drafts_dir(env) == tmp_path / "mine/drafts"
    assert userdata.config_file(env) == tmp_path / "c.toml"
