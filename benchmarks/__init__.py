"""Benchmarks for errkb-tui: a synthetic KB generator and a harness (``python -m benchmarks.run``)."""
