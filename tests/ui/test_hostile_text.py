"""Record text is data: markup, actions and escape sequences are shown literally."""

from __future__ import annotations

import json

from errkb_tui.widgets.detail import DetailPane

from .conftest import build_app, settle

NASTY = "[bold red]X[/] [link=https://evil.example]click[/link] [@click=app.quit]quit[/] \x1b[31mred\x1b[0m \x1b]52;c;cHduZWQ=\x07 [/x]"


def hostile_record() -> dict:
    return {
        "id": "acme/nasty", "domain": "acme", "category": "runtime_error",
        "signature": f"error[E0502]: {NASTY}", "regex": r"acme-nasty-\d+",
        "root_cause": NASTY, "root_cause_zh": NASTY, "signature_zh": NASTY,
        "dead_ends": [{"action": NASTY, "why_fails": NASTY, "fail_rate": 0.5, "condition": NASTY,
                       "sources": [NASTY]}],
        "workarounds": [{"action": NASTY, "how": NASTY, "success_rate": 0.9, "condition": NASTY,
                         "sources": [NASTY]}],
        "workarounds_zh": [NASTY],
        "versions": [{"version": NASTY, "introduced": NASTY, "deprecated": None, "removed": None,
                      "behavior_change": NASTY, "status": NASTY}],
        "os_specific": {NASTY: NASTY}, "tags": [NASTY], "aliases": [NASTY],
        "official_doc_url": NASTY, "error_code": NASTY,
        "transition_graph": {"leads_to": [NASTY], "preceded_by": [], "frequently_confused_with": []},
    }


async def test_markup_and_escapes_render_literally(tmp_path):
    (tmp_path / "nasty.json").write_text(json.dumps(hostile_record()))
    app = build_app(tmp_path)
    async with app.run_test(size=(160, 60)) as pilot:
        await settle(pilot, app)
        assert app.kb.get("acme/nasty") is not None
        await pilot.press("z")
        await settle(pilot, app)
        await pilot.press("z")
        await settle(pilot, app)
        screen_text = app.export_screenshot()
        assert "error[E0502]:" in screen_text
        assert "[bold red]X[/]" in screen_text.replace("&#160;", " ")
        assert "\x1b" not in screen_text  # escapes were made visible, not passed through
        assert "␛[31mred" in screen_text
        pane = app.screen.query_one(DetailPane)
        assert pane.record.id == "acme/nasty"
        pane.query_one(".related").focus()  # a link whose id holds markup: no action runs
        await pilot.pause()
        await pilot.press("enter")
        await settle(pilot, app)
        assert app.is_running
        await pilot.press("1")
        await settle(pilot, app)
        assert app.system_clipboard.backend.writes == [NASTY]  # copied exactly as written
