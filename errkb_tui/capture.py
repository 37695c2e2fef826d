"""Writing records from the app: a new one for an error the KB does not know (``a``), an
existing one edited (``e``), a problem's file opened at its line (``!``, Enter).

:class:`Capture` is a plain helper the App owns. Each flow runs as one async worker on the
App's event loop, so it can suspend the App for ``$VISUAL``/``$EDITOR`` (``App.suspend``
must run on the main thread) and wait for its screens; file work runs in threads
(``asyncio.to_thread``). The loop is the one of ``errkb-tui new``
(:mod:`errkb_tui.new_cli`): the draft is written to the drafts folder before any editor
runs; after each edit it is checked; with no error it goes into the KB and the App is told
(:class:`~errkb_tui.messages.RecordSaved`: it reloads and selects it); otherwise the user
edits again, keeps it as a draft (saved, not matched) or discards it (asked first).
Nothing typed is lost: the in-app editor's text is written whichever key closes it.

Without an editor (none set, ``--no-editor``, or no terminal to hand over, as in tests)
the in-app editor (:class:`~errkb_tui.screens.editor.DraftEditor`) does the same job.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import SuspendNotSupported

from . import draft
from .clipboard import MAX_CLIPBOARD_CHARS, ClipboardError
from .editing import run_editor
from .kb import KB, USER_LABEL, Problem, Source
from .messages import FileEdited, RecordSaved
from .text import cell_truncate
from .userdata import drafts_dir, user_kb_dir

if TYPE_CHECKING:
    from textual.app import App

#: The worker group of the capture flows (one at a time).
GROUP = "capture"


def _same(a: Path, b: Path) -> bool:
    try:
        return os.path.realpath(a) == os.path.realpath(b)
    except (OSError, ValueError):
        return str(a) == str(b)


def with_source(sources: Sequence[Source], folder: Path) -> list[Source]:
    """``sources`` with the KB folder ``folder`` among them, writable: marked where it is
    loaded already, else put where the config puts it (after the bundled KB and the user's
    own), so a record written there for the first time shows at once."""
    sources = list(sources)
    for source in sources:
        if source.label != "bundled" and _same(source.path, folder):
            source.writable = True
            return sources
    at = 0
    while at < len(sources) and sources[at].label in ("bundled", USER_LABEL):
        at += 1
    label = USER_LABEL if _same(folder, user_kb_dir()) else "write_to"
    sources.insert(at, Source(Path(folder), label, writable=True))
    return sources


def overrides(kb: KB, record_id: str, folder: Path) -> bool:
    """Whether a record written into ``folder`` would win over ``record_id``'s current one
    (the folder loads later than the record's source)."""
    copies = [dataclasses.replace(s) for s in kb.sources]
    index = kb.source_of.get(record_id, -1)
    ordered = with_source(copies, folder)
    position = next(i for i, s in enumerate(ordered) if s.label != "bundled" and _same(s.path, folder))
    if not 0 <= index < len(copies):
        return True
    return position > next(i for i, s in enumerate(ordered) if s is copies[index])


def editable_folder(kb: KB, record_id: str) -> Path | None:
    """The writable KB folder ``record_id`` was loaded from, or None (bundled, read-only, or
    a file of many records)."""
    index = kb.source_of.get(record_id)
    if index is None or not kb.writable(record_id):
        return None
    source = kb.sources[index]
    origin = kb.origins.get(record_id)
    if not source.path.is_dir() or origin is None or origin.offset is not None:
        return None
    return source.path


class Capture:
    """The ``a`` and ``e`` flows and the problem opener; owned by the App.

    ``write_folder`` is where new records go (None: the first writable source that is a
    folder, else the user's own KB); ``use_editor`` False always uses the in-app editor
    (``--no-editor``); ``read_clipboard`` reads the current clipboard (run in a thread);
    ``editor`` gives the external editor's command (None: none set)."""

    def __init__(self, app: App, *, write_folder: Path | None = None, use_editor: bool = True,
                 read_clipboard: Callable[[], str] | None = None,
                 editor: Callable[[], list[str] | None] = draft.editor_command) -> None:
        self.app = app
        self.write_folder = Path(write_folder) if write_folder is not None else None
        self.use_editor = use_editor
        self.read_clipboard = read_clipboard
        self.editor = editor
        #: The text of the last match attempt no record explained confidently (``a`` adds it).
        self.unmatched: str | None = None

    # -- where -------------------------------------------------------------------------

    def target(self, sources: Sequence[Source]) -> Path:
        """The KB folder new records go to."""
        if self.write_folder is not None:
            return self.write_folder
        for source in sources:
            if source.writable and source.label != "bundled" and source.path.is_dir():
                return source.path
        return user_kb_dir()

    def busy(self) -> bool:
        """Whether a flow is running (its editor or question is open)."""
        return any(w.group == GROUP and not w.is_finished for w in self.app.workers)

    def _run(self, flow, name: str) -> None:
        if self.busy():
            self._say("A record is already being written: finish it first.", "warning")
            flow.close()
            return
        self.app.run_worker(flow, group=GROUP, name=name, exit_on_error=False)

    def _say(self, text: str, severity: str = "information", title: str = "", timeout: float = 6) -> None:
        self.app.notify(text, title=title, severity=severity, markup=False, timeout=timeout)

    # -- a: a new record -----------------------------------------------------------------

    def add(self, kb: KB | None, sources: Sequence[Source], text: str | None = None) -> None:
        """Write a new record for ``text``; None: the last unmatched text, else the clipboard."""
        self._run(self._add(kb, list(sources), text), "writing a new record")

    async def _add(self, kb: KB | None, sources: list[Source], text: str | None) -> None:
        if text is None or not text.strip():
            text, self.unmatched = self.unmatched, None  # taken: a second a reads the clipboard
        if (text is None or not text.strip()) and self.read_clipboard is not None:
            try:
                text = await asyncio.to_thread(self.read_clipboard)
            except ClipboardError as exc:
                self._say(f"Nothing to add: no unmatched error, and the clipboard cannot be read ({exc}). "
                          "Paste the error with p, then ctrl+n.", "warning", timeout=10)
                return
        if not isinstance(text, str) or not text.strip() or "\x00" in text[:4096]:
            self._say("Nothing to add: copy an error (or paste one with p), then press a.", "warning")
            return
        text = text[-MAX_CLIPBOARD_CHARS:]
        target = self.target(sources)
        taken = kb.by_id.__contains__ if kb is not None else None
        try:
            started = await asyncio.to_thread(draft.start, text, target, drafts_dir(), also_taken=taken)
        except OSError as exc:
            self._say(f"Cannot write the draft into {drafts_dir()}: {exc}", "error", timeout=10)
            return
        if started is None:
            self._say("The text holds no line to build a record from.", "warning")
            return
        built, path = started
        self._say(cell_truncate(built.line.clean, 90), title=f"New record {built.id}, from the line", timeout=4)
        await self._session(path, target, replace=False)

    # -- e: an existing record -----------------------------------------------------------

    def edit(self, kb: KB | None, sources: Sequence[Source], record_id: str | None) -> None:
        """Edit ``record_id``: in place in its writable KB, or as an override in the write
        folder (asked first) when it comes from a read-only one."""
        if kb is None or record_id is None or record_id not in kb.by_id:
            self._say("No record selected: nothing to edit.", "warning")
            return
        self._run(self._edit_record(kb, list(sources), record_id), "editing a record")

    async def _edit_record(self, kb: KB, sources: list[Source], record_id: str) -> None:
        from .screens.confirm import ConfirmScreen

        folder = in_place = editable_folder(kb, record_id)
        if folder is None:
            target = self.target(sources)
            index = kb.source_of.get(record_id, -1)
            where = kb.sources[index] if 0 <= index < len(kb.sources) else None
            label = where.label if where is not None else "loaded"
            if not overrides(kb, record_id, target):
                self._say(f"{record_id} comes from {where.path if where else 'a KB'}, which loads after {target}: "
                          "a copy there would not show. Edit that file, or mark it writable (--write-to).",
                          "warning", timeout=10)
                return
            question = f"{record_id} is in the {label} KB, which is read-only. Copy it into your KB and edit the copy?"
            detail = f"The copy goes to {target}; it overrides the {label} record with the same id."
            if not await self.app.push_screen_wait(ConfirmScreen(question, detail)):
                return
            folder = target
        try:
            path = await asyncio.to_thread(draft.start_edit, kb, record_id, drafts_dir())
        except OSError as exc:
            self._say(f"Cannot write a working copy into {drafts_dir()}: {exc}", "error", timeout=10)
            return
        if path is None:
            self._say(f"{record_id} cannot be read from its file any more.", "warning")
            return
        own_file = None
        origin = kb.origins.get(record_id)
        if in_place is not None and origin is not None \
                and not _same(Path(origin.file), draft.record_path(in_place, record_id)):
            own_file = (record_id, Path(origin.file))  # a file not named by its id: edited where it is
        note = (f"Editing {record_id}. ctrl+s saves and checks it; Escape keeps your changes as a draft "
                "(the record stays as it was).")
        await self._session(path, folder, replace=True, own_file=own_file, note=note)

    # -- the loop: edit, check, then install, keep or discard -----------------------------

    async def _session(self, path: Path, target: Path, *, replace: bool,
                       own_file: tuple[str, Path] | None = None, note: str = "") -> None:
        from .screens.capture_result import CaptureProblems
        from .screens.confirm import ConfirmScreen

        line: int | None = None
        while True:
            if not await self._edit(path, line, note):
                return  # kept as a draft (the in-app editor's Escape)
            problems = await asyncio.to_thread(draft.check, path, target)
            if not draft.blocking(problems):
                await self._install(path, target, replace, problems, own_file)
                return
            first = next((p for p in problems if p.severity == "error"), None)
            line = first.line if first is not None else None
            if first is not None:
                where = f"Line {first.line}" if first.line else "The file"
                note = f"{where}: {first.field + ': ' if first.field else ''}{first.message}. Fix it, then ctrl+s."
            while True:
                choice = await self.app.push_screen_wait(CaptureProblems(path, problems, draft.record_id_of(path)))
                if choice != "discard":
                    break
                sure = await self.app.push_screen_wait(
                    ConfirmScreen("Discard the draft and what you wrote in it?", str(path)))
                if sure:
                    await asyncio.to_thread(draft.discard, path)
                    self._say("The draft is discarded.", timeout=4)
                    return
            if choice != "edit":
                self._kept(path)
                return

    async def _edit(self, path: Path, line: int | None, note: str = "") -> bool:
        """One edit of ``path``: in the external editor, else the in-app one. False when
        the user chose to keep it as a draft (the text is saved either way)."""
        from .screens.editor import DraftEditor

        command = self.editor() if self.use_editor else None
        if command is not None:
            try:
                with self.app.suspend():
                    code = run_editor(command, path, line)
            except SuspendNotSupported:
                pass  # no terminal to hand over (a test, a web driver): edit in the app
            except OSError as exc:
                self._say(f"Cannot run the editor {command[0]!r}: {exc.strerror or exc}; editing in the app.",
                          "warning", timeout=8)
            else:
                if code != 0:
                    self._say(f"The editor exited with {code}; the file is checked as it is.", "warning")
                return True
        text = await asyncio.to_thread(Path(path).read_text, "utf-8", "replace")
        result = await self.app.push_screen_wait(DraftEditor(text, path, line=line, note=note))
        try:
            await asyncio.to_thread(draft.atomic_write, path, result.text)
        except OSError as exc:
            self._say(f"Could not save the draft to {path}: {exc}", "error", timeout=10)
            return False
        if result.choice == "keep":
            self._kept(path)
            return False
        return True

    async def _install(self, path: Path, target: Path, replace: bool, problems: list[Problem],
                       own_file: tuple[str, Path] | None = None) -> None:
        from .screens.confirm import ConfirmScreen

        try:
            try:
                if own_file is not None and draft.record_id_of(path) == own_file[0]:
                    installed = await asyncio.to_thread(_write_back, path, own_file[1])
                else:
                    installed = await asyncio.to_thread(draft.install, path, target, replace=replace)
            except FileExistsError:
                existing = draft.record_path(target, draft.record_id_of(path) or "misc/record")
                if not await self.app.push_screen_wait(
                        ConfirmScreen("A record with this id is already in your KB. Replace it?", str(existing))):
                    self._kept(path, "a record with this id is already there; change the id")
                    return
                installed = await asyncio.to_thread(draft.install, path, target, replace=True)
        except (OSError, ValueError) as exc:
            self._say(f"Cannot write into {target}: {exc}", "error", timeout=10)
            self._kept(path)
            return
        warnings = sum(1 for p in problems if p.severity == "warning")
        self.app.post_message(RecordSaved(draft.record_id_of(installed), Path(target), installed, warnings))

    def _kept(self, path: Path, why: str = "") -> None:
        said = f"{why[:1].upper()}{why[1:]}; kept" if why else "Kept"
        self._say(f"{said} as a draft (not matched): {path}\nTake it up again: errkb-tui new --resume {path}",
                  title="Draft kept", timeout=10)

    # -- !: a problem's file at its line --------------------------------------------------

    def open_file(self, file: str, line: int | None) -> None:
        """Open ``file`` at ``line`` in the user's editor; without one, say where it is."""
        self.app.run_worker(self._open_file(file, line), group="open-file", name="opening the file",
                            exit_on_error=False)

    async def _open_file(self, file: str, line: int | None) -> None:
        place = f"{file}:{line}" if line else file
        if not Path(file).is_file():
            self._say(f"{file} is not a file to open (the problem is about the KB as a whole).", "warning")
            return
        before = _stamp(file)
        command = self.editor()
        if command is None:
            self._say(f"No $VISUAL or $EDITOR is set; the problem is at {place}", "warning", timeout=10)
            return
        try:
            with self.app.suspend():
                code = run_editor(command, file, line)
        except SuspendNotSupported:
            self._say(f"No terminal to run the editor on; the problem is at {place}", "warning", timeout=10)
        except OSError as exc:
            self._say(f"Cannot run the editor {command[0]!r}: {exc.strerror or exc}", "warning", timeout=8)
        else:
            if code != 0:
                self._say(f"The editor exited with {code}.", "warning")
            if _stamp(file) != before:
                self.app.post_message(FileEdited(file))  # the App reloads the KB


def _write_back(path: Path, file: Path) -> Path:
    """Put the working copy ``path`` (and its example) back over the record's own ``file``."""
    draft.atomic_write(file, Path(path).read_text("utf-8"))
    example = draft.example_path(Path(path))
    if example.exists():
        draft.atomic_write(draft.example_path(file), example.read_text("utf-8", errors="replace"))
    draft.discard(path)
    return file


def _stamp(file: str) -> tuple[int, int] | None:
    try:
        stat = os.stat(file)
    except OSError:
        return None
    return stat.st_size, stat.st_mtime_ns


def saved_note(message: RecordSaved) -> str:
    """The toast after a record went into the KB."""
    note = f"\n{message.warnings} warning(s): errkb-tui validate {message.path}" if message.warnings else ""
    return f"{message.path}{note}"


__all__ = ["Capture", "GROUP", "editable_folder", "overrides", "saved_note", "with_source"]
