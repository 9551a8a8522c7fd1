"""The viewer's refusals of hand-made addresses and forms in French and Russian (issue 36):
an unknown point in the board editor, a missing net on the position page and for a game
against the engine, the recorder's unknown action, mark and confirmation, a game that
cannot start, the admin's unknown action and missing game, and the Validate page's
limits. Each page says the catalog's entry (``shown``) or the engine's message
(``notation.messages``) in the page's language, found by id and parameters, not by its
English."""

from __future__ import annotations

import html
import re

import pytest
from flask_babel import format_decimal

from analysis.shipped import NoNet
from notation.engine.rules import rule_set
from notation.messages import Message, render
from notation.recording import new_game
from tests.accounts_helpers import signed_in_client
from tests.viewer_helpers import shown, shown_count

TRANSLATED = ["fr", "ru"]
RECORD = ('[Event "Club night"]\n[White "Marie"]\n[Black "Jean"]\n[Variant "jacquet"]\n\n'
          '1. 55: 24/4 66: 24/18 *\n')


@pytest.fixture
def viewer_config():
    return {"WTF_CSRF_ENABLED": False, "WORKERS": 0}


def browser(app, language: str, role: str | None = None):
    """A client of ``app`` whose browser asks for ``language``, signed in with ``role``."""
    client = signed_in_client(app, role.title(), role) if role else app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    return client


def says(answer, text: str) -> bool:
    """Whether the page ``answer`` shows ``text`` (both read as a reader sees them)."""
    return html.unescape(text) in html.unescape(answer.text)


@pytest.mark.parametrize("language", TRANSLATED)
def test_an_unknown_point_in_the_editor(make_app, language):
    answer = browser(make_app(), language).get("/board-editor?variant=jacquet&do=add&point=99")
    assert answer.status_code == 400
    assert says(answer, shown("no point %(point)r on this board", language, point="99"))


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_missing_net_on_the_position_page_and_for_a_game_against_the_engine(make_app, monkeypatch, language):
    def none_shipped(variant: str):
        raise NoNet("net.not-shipped", variant=variant)
    monkeypatch.setattr("webviewer.pages.play_engine.shipped_net", none_shipped)
    client = browser(make_app(), language)
    start = rule_set("jacquet").start.position_id()
    ranked = client.get(f"/position/{start}?variant=jacquet&dice=61")
    missing = render(Message.of("net.not-shipped", variant="jacquet"), language)
    assert ranked.status_code == 400 and says(ranked, missing)
    played = client.post("/play/", data={"variant": "jacquet", "side": "White", "strength": "1"})
    assert played.status_code == 400 and says(played, missing)


def version(client, at: str) -> str:
    return re.search(r'name="version" value="(\d+)"', client.get(at).text).group(1)


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_recorders_refusals_of_a_hand_made_form(make_app, language):
    scorer = browser(make_app(), language, "scorer")
    at = scorer.post("/record/", data={"variant": "jacquet", "white": "Ann", "black": "Bob",
                                       "starter": "White"}).headers["Location"]
    unknown = scorer.post(at, data={"version": version(scorer, at), "action": "explode"})
    assert unknown.status_code == 400
    assert says(unknown, shown("unknown action %(action)r", language, action="explode"))
    mark = scorer.post(at, data={"version": version(scorer, at), "action": "annotate", "nag": "77"})
    assert mark.status_code == 400 and says(mark, shown("no mark $%(nag)s", language, nag=77))
    confirm = scorer.get(f"{at}?confirm=explode")
    assert confirm.status_code == 400
    assert says(confirm, shown("nothing to confirm for %(action)r", language, action="explode"))
    now = scorer.get(f"{at}?confirm=drop")
    assert now.status_code == 400
    assert says(now, shown("nothing to confirm: no %(action)s can be made now", language, action="drop"))


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_game_that_cannot_start_says_why_in_the_language(make_app, language):
    scorer = browser(make_app(), language, "scorer")
    refused = scorer.post("/record/", data={"variant": "backgammon", "starter": "White", "match_length": "x"})
    with pytest.raises(ValueError) as error:
        new_game({"Variant": "backgammon", "MatchLength": "x"})
    reason = render(error.value.msg, language)
    assert refused.status_code == 400
    assert says(refused, shown("The game cannot start: %(error)s", language, error=reason))


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_admins_refusals(make_app, archive_of, language):
    admin = browser(make_app(archive_of(RECORD)), language, "admin")
    unknown = admin.post("/admin/game/1", data={"action": "explode"})
    assert unknown.status_code == 400 and says(unknown, shown("the action is hide, show or delete", language))
    shown_already = admin.post("/admin/game/1", data={"action": "show"})
    assert shown_already.status_code == 404
    assert says(shown_already, shown("no game %(game)s, or it is already shown", language, game=1))
    missing = admin.post("/admin/game/99", data={"action": "delete", "confirm": "yes"})
    assert missing.status_code == 404 and says(missing, shown("no game %(game)s in the archive", language, game=99))


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_validate_pages_limits_and_refusals(make_app, language):
    app = make_app(MAX_UPLOAD_BYTES=5_000, MAX_GAMES=1)
    scorer = browser(app, language, "scorer")
    with app.test_request_context(headers={"Accept-Language": language}):
        limit = format_decimal(5_000)
    assert limit != "5,000"  # (the locale's digits: a space in French and Russian)
    big = RECORD * 60
    pasted = scorer.post("/validate", data={"record": big, "format": "jqn"})
    assert pasted.status_code == 413
    assert says(pasted, shown("The record is too large: the limit is %(limit)s bytes (MAX_UPLOAD_BYTES).",
                              language, limit=limit))
    two = scorer.post("/validate", data={"record": RECORD + "\n" + RECORD, "format": "jqn"})
    assert two.status_code == 413
    assert says(two, shown("The record holds more than %(limit)s games (MAX_GAMES): split it and validate "
                           "the parts one by one.", language, limit=1))
    empty = scorer.post("/validate", data={"record": "   "})
    assert empty.status_code == 400 and says(empty, shown("Paste a record or choose a file to validate.", language))
    bad = scorer.post("/validate", data={"record": "x", "format": "pdf"})
    assert bad.status_code == 400
    assert says(bad, shown("%(field)s must be one of: %(allowed)s", language, field="format",
                           allowed="auto, jqn, xml, json, mat, sgf"))
    illegal = RECORD.replace("24/18", "24/17")
    refused = scorer.post("/validate/save", data={"record": illegal, "format": "jqn", "variant": "jacquet"})
    assert refused.status_code == 400
    assert says(refused, shown_count("%(name)s cannot be saved: it has %(num)d error. Validate it to see it.",
                                     "%(name)s cannot be saved: it has %(num)d errors. Validate it to see them.",
                                     1, language, name=shown("pasted record", language)))


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_archives_filters_and_a_games_address_refused_in_the_language(make_app, archive_of, language):
    client = browser(make_app(archive_of(RECORD)), language)
    sort = client.get("/?sort=bogus")
    assert sort.status_code == 400 and says(sort, shown("cannot sort by %(sort)r", language, sort="bogus"))
    date = client.get("/?from=soon")
    assert date.status_code == 400
    assert says(date, shown("%(label)s: %(value)s", language, label="from",
                            value=render(Message.of("archive.filter.date", value="'soon'"), language)))
    rate = client.get("/?error_rate_max=x")
    assert rate.status_code == 400
    assert says(rate, shown("%(name)s is an error rate: a number such as 12 or 12.5", language, name="error_rate_max"))
    result = client.get("/?result=Z")
    assert result.status_code == 400 and says(result, shown("result is W, B or *", language))
    path = client.get("/game/1?path=9")
    assert path.status_code == 400
    assert says(path, shown("path %(path)r names no turn of this game", language, path="9"))


@pytest.mark.parametrize("language", TRANSLATED)
def test_an_odd_query_string_and_a_bad_number_or_word_in_the_language(make_app, archive_of, language):
    from archive.search import MAX_SQL_INT

    client = browser(make_app(archive_of(RECORD)), language)
    number = client.get("/?page=x")
    assert number.status_code == 400
    assert says(number, shown("%(name)s must be a whole number (at most %(most)s)", language, name="page",
                              most=MAX_SQL_INT))
    control = client.get("/?text=%01")
    assert control.status_code == 400 and says(control, shown("the query string holds a control character", language))
    word = client.get("/game/1?flip=2")
    assert word.status_code == 400
    assert says(word, shown("%(name)s is one of %(words)s", language, name="flip", words="'0', '1'"))


@pytest.mark.parametrize("language", TRANSLATED)
def test_an_analysis_over_its_time_is_said_in_the_language(make_app, archive_of, monkeypatch, language):
    from webviewer.blueprints import games
    from webviewer.plumbing.workers import OverBudget

    def over_time(*args):
        raise OverBudget("time", {"seconds": 10})

    monkeypatch.setattr(games, "run_work", over_time)
    scorer = browser(make_app(archive_of(RECORD)), language, "scorer")
    answer = scorer.post("/game/1/analyse")
    assert answer.status_code == 413
    over = shown("it took longer than %(seconds)s s (WORK_SECONDS)", language, seconds=10)
    assert says(answer, shown("The analysis was stopped: %(error)s. Analyse this game with `jacquet analyse --db` "
                              "instead.", language, error=over))


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_api_refuses_with_the_id_and_params_beside_the_text_in_the_language(make_app, language):
    from notation import NotationError, Position

    with pytest.raises(NotationError) as refused:
        Position.from_id("nonsense")
    answer = browser(make_app(), language).get("/api/positions/nonsense")
    assert answer.status_code == 400
    assert answer.get_json() == {"error": render(refused.value.msg, language), **refused.value.msg.as_json()}
    legal = browser(make_app(), language).get("/api/legal?variant=jacquet&dice=99")
    said = legal.get_json()
    assert legal.status_code == 400 and said["id"].startswith("dice.")
    assert said["error"] == render(Message(said["id"], said["params"]), language)
