"""The config file: defaults, values, problems (never exceptions), flags on top, --print-config."""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
from pathlib import Path

import pytest

from errkb_tui.cli import _parser
from errkb_tui.config import (
    Config, app_options, describe, from_args, keymap_problems, load_config, print_config,
)

GOOD = """\
kb_paths = ["team-kb", "/abs/notes.jsonl"]
theme = "nord"
language = "zh"
watch = false
watch_interval = 1.5
write_to = "~/my-kb"

[keymap]
"app.lang" = "f2"
"app.quit" = "ctrl+q, q"
"""


def write(tmp_path: Path, text: str | bytes) -> Path:
    path = tmp_path / "config.toml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


def test_missing_file_is_defaults(tmp_path: Path) -> None:
    config = load_config(tmp_path / "nope.toml")
    assert config == Config(file=tmp_path / "nope.toml")
    assert config.problems == () and not config.file_read
    assert (config.watch, config.watch_interval, config.language, config.theme) == (True, 0.5, "en", None)


def test_good_file(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, GOOD))
    assert config.problems == ()
    assert config.kb_paths == (tmp_path / "team-kb", Path("/abs/notes.jsonl"))  # relative to the file
    assert (config.theme, config.language, config.watch, config.watch_interval) == ("nord", "zh", False, 1.5)
    assert config.write_to == Path("~/my-kb").expanduser()
    assert dict(config.keymap) == {"app.lang": "f2", "app.quit": "ctrl+q,q"}
    assert all(config.origin(name) == "file" for name in ("kb_paths", "theme", "language", "keymap"))


@pytest.mark.parametrize("text, field, line, words", [
    ('language = "fr"\n', "language", 1, "one of 'en', 'zh'"),
    ('\nwatch = "yes"\n', "watch", 2, "true or false"),
    ("watch_interval = 0\n", "watch_interval", 1, "above 0"),
    ("watch_interval = -1.0\n", "watch_interval", 1, "above 0"),
    ("watch_interval = true\n", "watch_interval", 1, "above 0"),
    ("watch_interval = inf\n", "watch_interval", 1, "above 0"),
    ("kb_paths = [1, 2]\n", "kb_paths", 1, "list of paths"),
    ("theme = 3\n", "theme", 1, "theme name"),
    ("write_to = []\n", "write_to", 1, "path of a folder"),
    ("keymap = 3\n", "keymap", 1, "must be a table"),
    ('x = 1\nthem = "nord"\n', "them", 2, "did you mean 'theme'"),
    ('[keymap]\n"app.quit" = 3\n', "keymap.app.quit", 2, "keys in a string"),
    ('[keymap]\n"app.quit" = "ctrl+ q"\n', "keymap.app.quit", 2, "not a key"),
])
def test_bad_values_are_problems_and_keep_defaults(tmp_path: Path, text: str, field: str, line: int, words: str) -> None:
    config = load_config(write(tmp_path, text))
    matching = [p for p in config.problems if p.field == field]
    assert matching, config.problems
    assert matching[0].line == line and words in matching[0].message
    assert matching[0].severity == "warning" and matching[0].file == str(tmp_path / "config.toml")
    defaults = Config()
    for name in ("language", "watch", "watch_interval", "theme", "kb_paths", "write_to"):
        if name == field:
            assert getattr(config, name) == getattr(defaults, name)


def test_a_bad_value_does_not_spoil_the_others(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, 'language = "fr"\ntheme = "nord"\n'))
    assert config.theme == "nord" and config.language == "en" and len(config.problems) == 1


@pytest.mark.parametrize("content, words, line", [
    ("a = [1,\nb=", "not valid TOML", 2),
    (b"theme = \"\xff\"\n", "not UTF-8", None),
    ("theme = 'a'\ntheme = 'b'\n", "not valid TOML", 2),
])
def test_unparsable_file_is_one_problem_and_defaults(tmp_path: Path, content, words: str, line) -> None:
    config = load_config(write(tmp_path, content))
    assert len(config.problems) == 1
    problem = config.problems[0]
    assert problem.severity == "error" and words in problem.message and problem.line == line
    assert config.theme is None and not config.file_read


def test_unreadable_file_is_one_problem(tmp_path: Path) -> None:
    config = load_config(tmp_path)  # a folder
    assert len(config.problems) == 1 and "cannot read" in config.problems[0].message


def test_write_to_a_file_is_a_problem(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    config = load_config(write(tmp_path, 'write_to = "afile"\n'))
    assert config.write_to is None and "is a file" in config.problems[0].message


def test_env_names_the_file_and_errkb_home_moves_write_to(tmp_path: Path) -> None:
    path = write(tmp_path, 'theme = "nord"\n')
    config = load_config(environ={"ERRKB_CONFIG": str(path), "ERRKB_HOME": str(tmp_path / "home")})
    assert config.theme == "nord" and config.file == path
    assert config.origin("write_to") == "env"
    assert config.write_folder({"ERRKB_HOME": str(tmp_path / "home")}) == tmp_path / "home" / "kb"


def test_flags_override_the_file(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, GOOD)).with_flags(watch=True, watch_interval=None, language="en")
    assert config.watch is True and config.origin("watch") == "flag"
    assert config.watch_interval == 1.5 and config.origin("watch_interval") == "file"
    assert config.language == "en" and config.origin("language") == "flag"
    with pytest.raises(TypeError):
        config.with_flags(colour="red")


def test_sources_order(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, GOOD))
    sources = config.sources(["cli.json"], environ={"ERRKB_PATH": "/env-kb"})
    assert [s.label for s in sources] == ["bundled", "ERRKB_PATH", "config", "config", "--data"]
    assert sources[2].path == tmp_path / "team-kb"
    assert [s.label for s in config.sources(bundled=False, environ={})] == ["config", "config"]


def test_app_options(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, GOOD))
    assert app_options(config) == {"theme": "nord", "lang": "zh", "keymap": {"app.lang": "f2", "app.quit": "ctrl+q,q"}}
    assert app_options(config, accepted={"theme"}) == {"theme": "nord"}
    assert app_options(Config()) == {}


def test_keymap_problems_name_unknown_binding_ids(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, GOOD))
    problems = keymap_problems(config, ["app.lang", "app.quit_app"])
    assert [(p.field, p.line) for p in problems] == [("keymap.app.quit", 10)]
    assert "did you mean 'app.quit_app'" in problems[0].message


def test_describe_and_print_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, "bogus = 1\n" + GOOD)
    monkeypatch.setenv("ERRKB_CONFIG", str(path))
    args = _parser().parse_args(["--no-watch", "--print-config", "--data", "x.json"])
    out = io.StringIO()
    assert print_config(args, out) == 1  # a problem: exit 1
    text = out.getvalue()
    assert f"# config file: {path} (read)" in text
    assert any(line.startswith("watch ") and line.endswith("# flag") for line in text.splitlines())
    assert any(line.startswith('theme ') and '"nord"' in line and line.endswith("# file") for line in text.splitlines())
    assert "unknown setting 'bogus'" in text
    assert "config     " + str(tmp_path / "team-kb") in text and "--data     x.json" in text


def test_from_args_reads_once_and_applies_flags(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ERRKB_CONFIG", str(write(tmp_path, GOOD)))
    args = _parser().parse_args(["--watch-interval", "2", "--lang", "en", "--theme", "dracula"])
    config = from_args(args)
    assert (config.watch_interval, config.language, config.theme, config.watch) == (2.0, "en", "dracula", False)
    assert from_args(args) is config
    assert from_args(argparse.Namespace()).watch_interval == 1.5  # no flags at all: the file's


def test_cli_print_config_runs(tmp_path: Path) -> None:
    path = write(tmp_path, 'language = "zh"\n')
    result = subprocess.run([sys.executable, "-m", "errkb_tui", "--print-config"], capture_output=True,
                            text=True, timeout=120, env={"ERRKB_CONFIG": str(path), "PATH": "/usr/bin:/bin",
                                                         "HOME": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    assert 'language       = "zh"' in result.stdout and "# no problems" in result.stdout


def test_config_does_not_import_textual() -> None:
    code = "import sys, errkb_tui.config; print([m for m in sys.modules if m.split('.')[0] == 'textual'])"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
