"""Reading KB files into a :class:`~errkb_tui.kb.KB`: one job per module.

- :mod:`.find`: which files a source holds (walking folders);
- :mod:`.shapes`: reading each file shape (a ``.json`` record or list, a streamed ``.jsonl``)
  into records' JSON with where each was read;
- :mod:`.jsontext`: JSON text by position (list items with their spans, a field's line);
- :mod:`.validate`: one JSON value into a valid record or the problems that stop it;
- :mod:`.collect`: the records and problems of a load, and the KB they make;
- :mod:`.parallel` and :mod:`.worker`: a second process for part of a large KB;
- :mod:`.load`: :func:`load_kb`, which runs them (and the cache, :mod:`errkb_tui.kbcache`).

Loading never raises on bad input: every unreadable file, bad JSON document or invalid
record becomes a :class:`~errkb_tui.kb.Problem`, and the good records beside it still load.
"""

from .load import load_kb

__all__ = ["load_kb"]
