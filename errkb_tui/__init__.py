"""errkb-tui: a keyboard-first terminal browser for an error knowledge base."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("errkb-tui")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+unknown"
