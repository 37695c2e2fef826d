"""``errkb-tui run``: exit codes, signals, output passed through and kept, the pty, keys."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from errkb_tui import cli, run_cli
from errkb_tui.runner import CommandNotFound, RunResult, exit_status, run_command

PY = sys.executable
posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX pseudo-terminals")
TRACEBACK_CMD = [PY, "-c", "import torchvisionx"]


def _files(tmp_path: Path):
    out = open(tmp_path / "out", "w+b")  # noqa: SIM115 - closed by the caller
    err = open(tmp_path / "err", "w+b")  # noqa: SIM115
    return out, err


def _run(tmp_path: Path, argv: list[str], **options) -> tuple[RunResult, bytes, bytes]:
    out, err = _files(tmp_path)
    with out, err:
        result = run_command(argv, stdout_fd=out.fileno(), stderr_fd=err.fileno(), **options)
        out.seek(0)
        err.seek(0)
        return result, out.read(), err.read()


# -- exit codes -------------------------------------------------------------------------------

@pytest.mark.parametrize("code", [0, 1, 3, 255])
def test_the_commands_exit_code_is_returned_unchanged(tmp_path: Path, code: int) -> None:
    result, _, _ = _run(tmp_path, [PY, "-c", f"import sys; sys.exit({code})"], use_pty=False)
    assert result.returncode == code
    assert result.failed == (code != 0)
    assert result.signal is None


def test_a_command_killed_by_a_signal_exits_128_plus_n_like_a_shell(tmp_path: Path) -> None:
    if os.name != "posix":
        pytest.skip("POSIX signals")
    kill_self = [PY, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGTERM)"]
    result, _, _ = _run(tmp_path, kill_self, use_pty=False)
    assert (result.returncode, result.signal) == (128 + signal.SIGTERM, signal.SIGTERM)
    assert result.failed


def test_exit_status_maps_popen_codes() -> None:
    assert exit_status(0) == (0, None)
    assert exit_status(2) == (2, None)
    assert exit_status(-9) == (137, 9)


def test_a_missing_command_raises_command_not_found(tmp_path: Path) -> None:
    with pytest.raises(CommandNotFound):
        _run(tmp_path, ["errkb-no-such-command-xyz"], use_pty=False)


# -- output -------------------------------------------------------------------------------------

def test_output_passes_through_byte_for_byte_to_stdout_and_stderr(tmp_path: Path) -> None:
    script = (
        "import sys;"
        "sys.stdout.buffer.write(b'\\x1b[31mred\\x1b[0m caf\\xc3\\xa9\\n'); sys.stdout.flush();"
        "sys.stderr.buffer.write(b'warning: \\xff raw\\n'); sys.exit(2)"
    )
    result, out, err = _run(tmp_path, [PY, "-c", script], use_pty=False)
    assert out == b"\x1b[31mred\x1b[0m caf\xc3\xa9\n"
    assert err == b"warning: \xff raw\n"
    assert b"red" in result.output and b"warning: \xff raw" in result.output
    assert result.returncode == 2


def test_only_the_last_bytes_are_kept_but_all_pass_through(tmp_path: Path) -> None:
    script = "import sys; sys.stdout.write('x' * 5000 + 'THE END'); sys.exit(1)"
    result, out, _ = _run(tmp_path, [PY, "-c", script], use_pty=False, keep=100)
    assert len(out) == 5007  # everything went through
    assert len(result.output) == 100 and result.output.endswith(b"THE END")
    assert result.truncated


@posix_only
def test_on_a_pty_the_command_sees_a_terminal_and_its_output_is_kept(tmp_path: Path) -> None:
    script = "import sys; print('tty' if sys.stdout.isatty() and sys.stderr.isatty() else 'pipe'); sys.exit(5)"
    with open(os.devnull, "rb") as devnull:
        result, out, _ = _run(tmp_path, [PY, "-c", script], use_pty=True, stdin_fd=devnull.fileno())
    assert result.returncode == 5
    assert out.replace(b"\r\n", b"\n") == b"tty\n"
    assert result.output == out


@posix_only
def test_on_a_pty_stderr_and_stdout_arrive_in_order(tmp_path: Path) -> None:
    script = ("import sys\nfor n in range(3):\n print('out', n, flush=True); "
              "print('err', n, file=sys.stderr, flush=True)")
    with open(os.devnull, "rb") as devnull:
        result, _, _ = _run(tmp_path, [PY, "-c", script], use_pty=True, stdin_fd=devnull.fileno())
    lines = result.output.decode().split()
    assert " ".join(lines) == "out 0 err 0 out 1 err 1 out 2 err 2"


# -- the command line -----------------------------------------------------------------------------

def test_cli_run_print_prints_the_match_and_first_fix_and_keeps_the_exit_code(capfd) -> None:
    code = cli.main(["--no-watch", "run", "--print", "--", *TRACEBACK_CMD])
    out, err = capfd.readouterr()
    assert code == 1
    assert "ModuleNotFoundError: No module named 'torchvisionx'" in out + err  # passed through
    assert "python/module-not-found" in err
    assert "fix" in err and "errkb-tui show python/module-not-found" in err


def test_cli_run_of_a_missing_command_says_so_and_exits_127(capfd) -> None:
    assert cli.main(["run", "--", "errkb-no-such-command-xyz"]) == 127
    assert "errkb-no-such-command-xyz: command not found" in capfd.readouterr().err


def test_cli_run_without_a_command_is_a_usage_error(capfd) -> None:
    assert cli.main(["run"]) == 2
    assert "no command given" in capfd.readouterr().err


class _Args:
    def __init__(self, *argv: str, print_: bool = False) -> None:
        self.argv = ["--", *argv]
        self.print = print_


def _no_kb():
    raise AssertionError("the KB is not loaded for a command that succeeded")


def test_a_successful_command_opens_nothing_and_loads_nothing(monkeypatch) -> None:
    opened: list[str] = []
    monkeypatch.setattr(run_cli, "can_open_browser", lambda: True)
    code = run_cli.cmd_run(_Args(PY, "-c", "print('fine')"), _no_kb, opened.append)
    assert code == 0 and opened == []


def test_a_failed_command_opens_the_browser_on_its_output(monkeypatch) -> None:
    opened: list[str] = []
    monkeypatch.setattr(run_cli, "can_open_browser", lambda: True)
    code = run_cli.cmd_run(_Args(*TRACEBACK_CMD), _no_kb, opened.append)
    assert code == 1
    [text] = opened
    assert "No module named 'torchvisionx'" in text


def test_without_a_terminal_a_failed_command_prints_instead(monkeypatch, capfd) -> None:
    opened: list[str] = []
    monkeypatch.setattr(run_cli, "can_open_browser", lambda: False)
    code = run_cli.cmd_run(_Args(*TRACEBACK_CMD), lambda: cli._load(cli._parser().parse_args([])),
                           opened.append)
    assert code == 1 and opened == []
    assert "python/module-not-found" in capfd.readouterr().err


@posix_only
def test_a_command_stopped_with_ctrl_c_opens_nothing(monkeypatch) -> None:
    opened: list[str] = []
    monkeypatch.setattr(run_cli, "can_open_browser", lambda: True)
    interrupt = [PY, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGINT)"]
    code = run_cli.cmd_run(_Args(*interrupt), _no_kb, opened.append)
    assert code == 130 and opened == []
    code = run_cli.cmd_run(_Args(PY, "-c", "raise SystemExit(130)"), _no_kb, opened.append)
    assert code == 130 and opened == []


# -- a real terminal in front of the wrapper ---------------------------------------------------------

@pytest.fixture
def terminal():
    """A pseudo-terminal to run ``errkb-tui run`` on, as its controlling terminal."""
    if os.name != "posix":
        pytest.skip("POSIX pseudo-terminals")
    import fcntl
    import struct
    import termios

    master, slave = os.openpty()
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 77, 0, 0))

    class Terminal:
        def __init__(self) -> None:
            self.master, self.slave = master, slave
            self.seen = b""
            self.proc: subprocess.Popen | None = None

        def start(self, *argv: str) -> None:
            def controlling() -> None:
                fcntl.ioctl(0, termios.TIOCSCTTY, 0)

            self.proc = subprocess.Popen(
                [PY, "-m", "errkb_tui", "run", "--print", "--", *argv],
                stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
                preexec_fn=controlling, env={**os.environ, "NO_COLOR": "1"},
            )

        def wait_for(self, text: bytes, seconds: float = 30) -> bytes:
            import select

            deadline = time.monotonic() + seconds
            while text not in self.seen:
                left = deadline - time.monotonic()
                assert left > 0, f"never saw {text!r}; saw {self.seen!r}"
                ready, _, _ = select.select([master], [], [], left)
                if ready:
                    try:
                        self.seen += os.read(master, 65536)
                    except OSError:
                        break
            return self.seen

        def raw(self) -> bool:
            attrs = termios.tcgetattr(slave)
            return not attrs[3] & (termios.ICANON | termios.ISIG)

        def finish(self) -> int:
            assert self.proc is not None
            try:
                code = self.proc.wait(60)
            except subprocess.TimeoutExpired:  # say what the terminal showed, for the next reader
                self.drain()
                raise AssertionError(f"the wrapper did not end in 60 s; the terminal showed {self.seen[-3000:]!r}")
            self.drain()
            return code

        def drain(self) -> None:
            """Read what the (ended) wrapper left on the terminal."""
            import select

            while select.select([master], [], [], 0)[0]:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    return
                if not chunk:
                    return
                self.seen += chunk

    term = Terminal()
    try:
        yield term
    finally:
        if term.proc and term.proc.poll() is None:
            term.proc.kill()
            term.proc.wait(10)
        os.close(master)
        os.close(slave)


def test_ctrl_c_reaches_the_command_through_the_pty_not_the_wrapper(terminal) -> None:
    terminal.start(PY, "-c", "import time; print('ready', flush=True); time.sleep(60)")
    terminal.wait_for(b"ready")
    assert terminal.raw()  # keys are bytes for the command's pty: the wrapper gets no SIGINT
    os.write(terminal.master, b"\x03")
    assert terminal.finish() == 130
    assert b"KeyboardInterrupt" in terminal.seen
    assert b"the command failed" not in terminal.seen  # stopped by the user: nothing opened
    assert not terminal.raw()  # the terminal is given back as it was


def test_keys_window_size_and_resizes_reach_the_command(terminal) -> None:
    import fcntl
    import struct
    import termios

    script = (
        "import os, signal, sys\n"
        "got = []\n"
        "signal.signal(signal.SIGWINCH, lambda *a: got.append(os.get_terminal_size()))\n"
        "print('size', os.get_terminal_size().columns, flush=True)\n"
        "name = input('name? ')\n"
        "print('hello', name, flush=True)\n"
        "while not got: signal.pause()\n"
        "print('resized', got[-1].columns, flush=True)\n"
        "sys.exit(7)\n"
    )
    terminal.start(PY, "-c", script)
    terminal.wait_for(b"name? ")
    assert b"size 77" in terminal.seen
    os.write(terminal.master, b"world\r")
    terminal.wait_for(b"hello world")
    fcntl.ioctl(terminal.master, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 91, 0, 0))
    terminal.wait_for(b"resized 91")
    assert terminal.finish() == 7


def test_ctrl_c_reaches_a_command_that_never_stops_printing(terminal) -> None:
    terminal.start(PY, "-c", "import sys\nprint('ready', flush=True)\nwhile True: sys.stdout.write('y' * 1000 + '\\n')")
    terminal.wait_for(b"ready")
    os.write(terminal.master, b"\x03")
    deadline = time.monotonic() + 60
    while terminal.proc.poll() is None:  # keep reading, as a terminal does
        assert time.monotonic() < deadline
        terminal.drain()
        terminal.seen = terminal.seen[-1000:]
    assert terminal.proc.returncode == 130

