"""The state every view shows: declared once, held by the App, mirrored by each record screen.

The App owns these values. :meth:`ErrKBApp.bind_state` binds a screen's copies to the
App's (``data_bind``), and the screen's widgets bind to the screen's: state flows down,
events flow up as messages. They are ``var``s, state and not looks: the widgets bound to
them repaint themselves, and a repainting reactive here would redraw the whole screen on
every key typed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.reactive import Reactive, reactive, var

from .state import ALL, EMPTY, Selection

if TYPE_CHECKING:
    from .kb import KB
    from .state import Facet, FollowUp, MatchContext, Results
    from .trust import Evidence


class AppState:
    """The shared state's declarations (a mixin for the App and the record screens)."""

    kb: reactive[KB | None] = var(None)
    """The loaded KB (None while loading; a partial KB while a large one loads)."""
    results: reactive[Results] = var(EMPTY)
    """The records listed for the current query and facet, in order."""
    search_text: reactive[str] = var("")
    """The filter text."""
    facet: reactive[Facet] = var(ALL)
    """The domain/category being browsed."""
    selection: reactive[Selection] = var(Selection())
    """The record every screen shows and every key acts on."""
    lang: reactive[str] = var("en")
    """``en`` or ``zh``: the language of the detail."""
    watching: reactive[bool] = var(False, init=False)
    """Whether the clipboard watcher runs (not at start: the App starts it when asked)."""
    last_match: reactive[MatchContext | None] = var(None)
    """The last match that selected a record (its line and captured values)."""
    records_read: reactive[int] = var(0)
    """Records read so far while the KB loads."""
    loaded: reactive[bool] = var(False)
    """Whether the whole KB is loaded (False while only its first records are)."""
    evidence: reactive[Evidence | None] = var(None)
    """The user's outcomes and a team's counts (None until read); a new value each time
    they change, so every view bound to it follows."""
    followup: reactive[FollowUp | None] = var(None)
    """The one question after a copy: did that fix work? (None: nothing to ask)."""


#: The names of the shared state, in declaration order.
STATE: tuple[str, ...] = tuple(name for name, value in vars(AppState).items() if isinstance(value, Reactive))
