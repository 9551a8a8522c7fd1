"""A game against the engine (``/play/``) whose analysis could not be made in the server's
time (issue 36): the game keeps which budget it went over and its figures, not a
sentence, so each page that shows the game says why in its own language; a game kept
before that shows the English text it was kept with."""

from __future__ import annotations

import re
from html import unescape

import pytest

import archive
from archive.played import keep_analysis
from notation import rule_set
from tests.viewer_helpers import shown
from webviewer.blueprints import play
from webviewer.plumbing.workers import OverBudget

OLD_TEXT = "The game could not be analysed within the server's time: it took longer than 10 s (WORK_SECONDS)."
"""What a game kept before the change holds, as the page wrote it then."""


@pytest.fixture
def viewer_config():
    return {"WTF_CSRF_ENABLED": False, "WORKERS": 0}


def resigned_game(client) -> str:
    """A game against the random engine that the visitor resigns at once: its address."""
    response = client.post("/play/", data={"variant": "jacquet", "side": "White", "strength": "random"})
    assert response.status_code == 303
    at = response.headers["Location"]
    version = re.search(r'name="version" value="(\d+)"', client.get(at).text).group(1)
    assert client.post(at, data={"version": version, "action": "resign", "points": "1"}).status_code == 303
    return at


def said_over_time(language: str) -> str:
    return shown("The game could not be analysed within the server's time: %(error)s.", language,
                 error=shown("it took longer than %(seconds)s s (WORK_SECONDS)", language, seconds=10))


def test_an_analysis_over_time_is_said_in_each_pages_language(client, monkeypatch):
    calls = []

    def over_time(function, *args):
        calls.append(args)
        raise OverBudget("time", {"seconds": 10})

    monkeypatch.setattr(play, "run_work", over_time)
    at = resigned_game(client)
    for language in ("fr", "ru", "en"):
        page = unescape(client.get(at, headers={"Accept-Language": language}).text)
        assert f'<p class="note" role="alert">{said_over_time(language)}</p>' in page, language
        assert 'class="analysis"' not in page
    assert len(calls) == len(play.analyses(rule_set("jacquet")))  # tried once, then kept: not tried again per language
    assert said_over_time("fr") != said_over_time("en") != said_over_time("ru")


def test_a_game_kept_with_the_english_text_still_shows_it(app, client, monkeypatch):
    monkeypatch.setattr(play, "run_work", lambda function, *args: pytest.fail("analysed again"))
    at = resigned_game(client)
    db = archive.open_archive(app.config["ARCHIVE"])
    try:
        keep_analysis(db, at.rsplit("/", 1)[1], {"error": OLD_TEXT})
    finally:
        db.close()
    page = unescape(client.get(at, headers={"Accept-Language": "fr"}).text)
    assert f'<p class="note" role="alert">{OLD_TEXT}</p>' in page
