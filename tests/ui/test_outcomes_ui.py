"""Outcomes in the browser (issue 13): marking what worked, counts that survive a restart,
evidence order, two instances at once, bad lines in `!`, a team's counts apart, the one
question after a copy. Driven through the pilot; every wait is on a condition."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from errkb_tui.messages import OutcomeMarked
from errkb_tui.outcomes import item_hash
from errkb_tui.screens.problems import ProblemsScreen
from errkb_tui.userdata import outcomes_file
from errkb_tui.widgets.detail import DetailPane, WorkaroundCard
from errkb_tui.widgets.evidence import DeadEndCard
from errkb_tui.widgets.header import StatusHeader
from errkb_tui.widgets.record_list import RecordList

from .conftest import FIXTURE_KB, build_app, settle

RECORD = "python/module-not-found"  # five workarounds (est. 85, 80, 75, 70, 65 %), three dead ends


async def show(pilot, app, record_id: str = RECORD) -> DetailPane:
    await settle(pilot, app)
    app.select(record_id, "palette", reveal=True)
    await settle(pilot, app)
    assert app.evidence is not None, "the outcomes were read after the KB loaded"
    return app.screen.query_one(DetailPane)


def card_for(pane: DetailPane, index: int) -> WorkaroundCard:
    """The card showing workaround ``index`` of the record's own list."""
    return next(card for card in pane.query(WorkaroundCard) if card.index == index)


def rate_line(card) -> str:
    return str(card._rate.render()) if isinstance(card, WorkaroundCard) else str(card.render())


async def press_on(pilot, app, widget, *keys: str) -> None:
    widget.focus()
    await pilot.pause()
    for key in keys:
        await pilot.press(key)
        await settle(pilot, app)


def log_lines() -> list[dict]:
    return [json.loads(line) for line in outcomes_file().read_text().splitlines()]


async def test_marks_survive_a_restart_and_reorder_the_workarounds():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        pane = await show(pilot, app)
        record = pane.record
        assert [w for w in pane.displayed_workarounds()] == record.workarounds  # no outcomes: the KB's order
        assert "est. 75%" in rate_line(card_for(pane, 2)) and "you" not in rate_line(card_for(pane, 2))

        await press_on(pilot, app, card_for(pane, 2), "plus")
        # It moved up (0.833 combined, behind the 85 % estimate); the focus followed it.
        assert isinstance(app.focused, WorkaroundCard) and app.focused.index == 2
        await pilot.press("plus")
        await settle(pilot, app)
        await press_on(pilot, app, card_for(pane, 0), "minus")

        assert "you 2/2" in rate_line(card_for(pane, 2))
        assert "you 0/1" in rate_line(card_for(pane, 0))
        assert pane.displayed_workarounds()[0] == record.workarounds[2]
        assert pane.displayed_workarounds()[-1] == record.workarounds[0]
        assert [(e["verdict"], e["hash"]) for e in log_lines()] == [
            ("worked", item_hash(record.workarounds[2])), ("worked", item_hash(record.workarounds[2])),
            ("failed", item_hash(record.workarounds[0]))]

    again = build_app()  # a new instance over the same data folder
    async with again.run_test(size=(160, 48)) as pilot:
        pane = await show(pilot, again)
        record = pane.record
        assert "est. 75% · you 2/2" in rate_line(card_for(pane, 2))
        assert "est. 85% · you 0/1" in rate_line(card_for(pane, 0))
        order = pane.displayed_workarounds()
        assert order[0] == record.workarounds[2] and order[-1] == record.workarounds[0]
        numbers = {card.index: card.number for card in pane.query(WorkaroundCard)}
        assert numbers[2] == 1 and numbers[0] == 5
        # Key 1 copies what is shown as number 1, not the KB's first workaround.
        pane.focus()
        await pilot.press("1")
        await settle(pilot, again)
        assert again.system_clipboard.backend.writes[-1] == record.workarounds[2].copy_text


async def test_a_dead_end_takes_x_and_the_list_shows_your_counts():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        pane = await show(pilot, app)
        row = app.screen.query_one(RecordList)
        assert "est. 85%" in _row_meta(row, RECORD)
        dead_end = list(pane.query(DeadEndCard))[1]
        assert "est. fails ~70%" in rate_line(dead_end)
        await press_on(pilot, app, dead_end, "x")
        assert "est. fails ~70% · you failed 1/1" in rate_line(dead_end)
        assert log_lines()[-1]["kind"] == "dead_end" and log_lines()[-1]["verdict"] == "tried_failed"
        await press_on(pilot, app, card_for(pane, 1), "plus")
        assert "you 1/1" in _row_meta(row, RECORD)  # the row's count replaces the estimate


def _row_meta(record_list: RecordList, record_id: str) -> str:
    row = record_list.results.row_of(record_id)
    record = record_list.results.records[record_list.results.indices[row]]
    return record_list._row_rate(record)[1]


async def test_two_instances_marking_at_once_lose_nothing():
    first, second = build_app(), build_app()
    async with first.run_test(size=(120, 36)) as one, second.run_test(size=(120, 36)) as two:
        await show(one, first)
        await show(two, second)
        record = first.kb.get(RECORD)
        for n in range(12):  # interleaved: each write is a worker thread of its own
            first.post_message(OutcomeMarked(RECORD, "workaround", 1, "worked"))
            second.post_message(OutcomeMarked(RECORD, "workaround", 1, "failed" if n % 2 else "worked"))
        for pilot, app in ((one, first), (two, second), (one, first)):
            await settle(pilot, app)
        assert len(log_lines()) == 24
        first.reload_outcomes()
        second.reload_outcomes()
        for pilot, app in ((one, first), (two, second)):
            await settle(pilot, app)
            user, _ = app.evidence.counts(RECORD, record.workarounds[1])
            assert (user.worked, user.failed) == (18, 6)
            assert "you 18/24" in rate_line(card_for(app.screen.query_one(DetailPane), 1))


async def test_a_corrupt_line_is_skipped_and_listed_in_problems():
    record_line = {"record_id": RECORD, "kind": "workaround", "verdict": "worked", "date": "2026-11-30"}
    app = build_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        workaround = app.kb.get(RECORD).workarounds[3]
    good = json.dumps(dict(record_line, hash=item_hash(workaround)))
    path = outcomes_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{good}\n{{not json at all\n{good}\n")

    app = build_app()
    async with app.run_test(size=(120, 36)) as pilot:
        pane = await show(pilot, app)
        assert "you 2/2" in rate_line(card_for(pane, 3))
        assert "1 problem (!)" in str(app.screen.query_one(StatusHeader).render())  # the fixture KB has none
        await pilot.press("exclamation_mark")
        await settle(pilot, app)
        assert isinstance(app.screen, ProblemsScreen)
        listed = [p for p in app.screen.problems if p.file == str(path)]
        assert len(listed) == 1 and listed[0].line == 2 and "not JSON" in listed[0].message
        options = app.screen.query_one("#problems-list")  # an OptionList: Enter opens the file
        assert any("outcomes.jsonl" in str(options.get_option_at_index(i).prompt) for i in range(options.option_count))


async def test_a_team_file_shows_as_its_own_count(tmp_path: Path):
    kb = tmp_path / "team-kb"
    shutil.copytree(FIXTURE_KB, kb)
    app = build_app(kb)
    async with app.run_test(size=(160, 48)) as pilot:
        pane = await show(pilot, app)
        workaround = pane.record.workarounds[0]
    team = {"record_id": RECORD, "hash": item_hash(workaround), "kind": "workaround", "worked": 12, "failed": 3,
            "first": "2026-01-04", "last": "2026-11-30"}
    (kb / "outcomes.jsonl").write_text(json.dumps(team) + "\n")

    app = build_app(kb)
    async with app.run_test(size=(160, 48)) as pilot:
        pane = await show(pilot, app)
        assert "est. 85% · team 12/15" in rate_line(card_for(pane, 0))
        await press_on(pilot, app, card_for(pane, 0), "plus")
        assert "est. 85% · you 1/1 · team 12/15" in rate_line(card_for(pane, 0))
        badge = str(pane.query_one(".d-badge").render())
        assert "you 1/1" in badge and "team 12/15" in badge and "1 source" not in badge


async def test_after_a_copy_the_same_error_asks_once_whether_the_fix_worked():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        pane = await show(pilot, app)
        record = pane.record
        app.screen.query_one(RecordList).focus()
        await pilot.press("2")
        await settle(pilot, app)
        bar = pane.query_one(".d-followup")
        assert not bar.display  # copying is not an outcome, and nothing is asked yet
        app.match_text("Traceback (most recent call last):\nModuleNotFoundError: No module named 'yaml'", "paste")
        await settle(pilot, app)
        assert app.followup is not None and bar.display
        assert "Did it work?" in str(bar.render())
        await pilot.press("minus")  # the list has focus: the key answers the question
        await settle(pilot, app)
        assert app.followup is None and not bar.display
        assert log_lines() == [dict(log_lines()[0], hash=item_hash(record.workarounds[1]), verdict="failed")]
        app.match_text("ModuleNotFoundError: No module named 'yaml'", "paste")
        await settle(pilot, app)
        assert app.followup is None  # asked once


async def test_an_unanswered_question_goes_away_with_the_record():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await show(pilot, app)
        await pilot.press("1")
        await settle(pilot, app)
        app.match_text("ModuleNotFoundError: No module named 'yaml'", "paste")
        await settle(pilot, app)
        assert app.followup is not None
        app.select("python/circular-import", "palette")
        await settle(pilot, app)
        assert app.followup is None
        await pilot.press("plus")  # nothing asked, no card focused: nothing recorded
        await settle(pilot, app)
        assert not outcomes_file().exists()


async def test_the_badge_never_checks_an_unchecked_or_unknown_tier(tmp_path: Path):
    kb = tmp_path / "kb"
    shutil.copytree(FIXTURE_KB, kb)
    path = kb / "python" / "circular-import.json"
    data = json.loads(path.read_text())
    data["verification_tier"] = "blessed_by_vibes"
    path.write_text(json.dumps(data))
    app = build_app(kb)
    async with app.run_test(size=(160, 48)) as pilot:
        for record_id, mark in (("python/circular-import", "⚠"), (RECORD, "⚠"),
                                ("pytorch/ddp-param-count-mismatch", "✔")):
            pane = await show(pilot, app, record_id)
            badge = str(pane.query_one(".d-badge").render())
            assert badge.startswith(mark), badge
            assert "est. fix rate" in badge and "evidence" in badge
        trust = str(pane.query_one(".d-trust").render())
        assert "message and regex were checked" in trust  # the tier's meaning, in words
        # first_seen is a report a checker saw, a lower bound: never claimed to be the first
        assert "reported since " in trust and "earliest" not in trust and "first seen" not in trust


async def test_the_palette_calls_a_rate_an_estimate_until_there_are_counts():
    from textual.command import CommandList

    async def hits(pilot, app, query: str) -> list[str]:
        await pilot.press("ctrl+p", *query)
        await settle(pilot, app)
        palette = app.screen.query_one(CommandList)
        await pilot.wait_for_scheduled_animations()
        shown = [str(palette.get_option_at_index(i).prompt) for i in range(palette.option_count)]
        await pilot.press("escape")
        await settle(pilot, app)
        return [line for line in shown if RECORD in line]

    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        pane = await show(pilot, app)
        assert any("est. fix rate 85%" in line for line in await hits(pilot, app, "module named"))
        await press_on(pilot, app, card_for(pane, 0), "plus")
        assert any("you 1/1 worked" in line for line in await hits(pilot, app, "module named"))


async def test_chinese_titles_follow_their_workaround_when_the_order_changes():
    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        pane = await show(pilot, app)
        await press_on(pilot, app, card_for(pane, 2), "plus", "plus")
        await pilot.press("z")
        await settle(pilot, app)
        first = pane.query(WorkaroundCard).first()
        assert first.index == 2 and first.number == 1
        assert first.action_text == pane.record.workarounds_zh[2]


async def test_a_keymap_moves_the_outcome_keys():
    from errkb_tui.app import make_app
    from errkb_tui.clipboard import GuardedClipboard, MemoryBackend
    from errkb_tui.kb import Source

    from .conftest import TODAY

    app = make_app([Source(FIXTURE_KB, "--data")], watch=False, clipboard=GuardedClipboard(MemoryBackend()),
                   today=TODAY, keymap={"workaround.worked": "ctrl+y", "dead_end.tried_failed": "ctrl+x"})
    async with app.run_test(size=(160, 48)) as pilot:
        pane = await show(pilot, app)
        await press_on(pilot, app, card_for(pane, 0), "plus", "ctrl+y")
        await press_on(pilot, app, list(pane.query(DeadEndCard))[0], "x", "ctrl+x")
        assert [(e["kind"], e["verdict"]) for e in log_lines()] == [("workaround", "worked"),
                                                                    ("dead_end", "tried_failed")]


async def test_the_question_comes_when_the_error_is_copied_again_while_its_record_is_shown():
    from errkb_tui.messages import ClipboardChanged

    app = build_app()
    async with app.run_test(size=(160, 48)) as pilot:
        pane = await show(pilot, app)
        await pilot.press("3")
        await settle(pilot, app)
        app.post_message(ClipboardChanged("ModuleNotFoundError: No module named 'yaml'"))
        await settle(pilot, app)
        assert app.selection.id == RECORD  # no jump: it was already in front of the user
        copied = item_hash(pane.displayed_workarounds()[2])
        assert app.followup is not None and app.followup.fix_hash == copied
        await pilot.press("plus")
        await settle(pilot, app)
        assert app.followup is None
        assert [(e["hash"], e["verdict"]) for e in log_lines()] == [(copied, "worked")]


async def test_a_copy_cancelled_at_the_prompt_is_not_asked_about_later():
    from errkb_tui.kb import bundled_data_dir
    from errkb_tui.match import Match
    from errkb_tui.messages import MatchesFound
    from errkb_tui.screens.prompt import ValuePrompt

    from .conftest import build_app, settle

    app = build_app(bundled_data_dir())
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, app)
        app.select("python/module-not-found", "palette", reveal=True)
        await settle(pilot, app)
        await pilot.press("1")  # no match gave the module name: the prompt asks for it
        await settle(pilot, app)
        assert isinstance(app.screen, ValuePrompt)
        await pilot.press("escape")
        await settle(pilot, app)
        line = "ModuleNotFoundError: No module named 'torchvision'"
        match = Match("python/module-not-found", 0.99, "regex", line, True, groups={"module": "torchvision"})
        app.post_message(MatchesFound([match], "clipboard", line))
        await settle(pilot, app)
        assert app.followup is None
        assert app.system_clipboard.backend.writes == []
