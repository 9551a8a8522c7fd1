"""The markup static/recorder.js reads (the legal next steps as buttons, the form of a
man's route, the note of an ambiguous one) is written once, in ``templates/pieces.html``'s
``step_entry``, and both the recorder (and the game against the engine) and practice use
it: a change to it cannot leave one of them behind (issue 37). Their pages are tested with
it in tests/test_viewer_practice*.py and tests/test_recorder_routes*.py."""

from __future__ import annotations

from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[1] / "webviewer" / "templates"
READ_BY_RECORDER_JS = ('class="steps-offered"', 'class="route-form"', 'class="note route-note"',
                       "data-from-white=", "data-routes=")


def test_the_step_entry_markup_is_written_once():
    holders = {name: sorted(str(path.relative_to(TEMPLATES)) for path in TEMPLATES.rglob("*.html")
                            if name in path.read_text(encoding="utf-8"))
               for name in READ_BY_RECORDER_JS}
    assert holders == {name: ["pieces.html"] for name in READ_BY_RECORDER_JS}


def test_the_recorder_and_practice_call_it():
    for template in ("record/entry.html", "practice/page.html"):
        text = (TEMPLATES / template).read_text(encoding="utf-8")
        assert '{% import "pieces.html" as pieces %}' in text and "pieces.step_entry(" in text, template
