"""What the walk through every page in French and Russian found still in English (issue
36), each now in the page's language: werkzeug's own words on an error page (an address
with no page, a method the address does not take; the API's too), a game number with no
game, the archive's sort choices, the Validate page's formats, the rule sets' names in the
forms of Validate, the recorder and ``/play/`` (``rules.title.*``)."""

from __future__ import annotations

import re
from html import unescape

import pytest

from analysis.network import Network
from notation.engine.rules import NAMES, TITLES
from notation.messages import Message, render
from tests.viewer_helpers import shown

TRANSLATED = ["fr", "ru"]
WERKZEUG = ("The requested URL was not found on the server", "The method is not allowed")


def get(client, path: str, language: str, method: str = "GET"):
    return client.open(path, method=method, headers={"Accept-Language": language})


@pytest.mark.parametrize("language", TRANSLATED)
def test_an_address_with_no_page_says_so_in_the_language(client, language):
    for path, method, code, said in (("/nowhere", "GET", 404, "There is no page at this address."),
                                     ("/login", "DELETE", 405, "This address does not answer that kind of request.")):
        answer = get(client, path, language, method)
        assert answer.status_code == code and f'lang="{language}"' in answer.text
        assert shown(said, language) in unescape(answer.text)
        assert not any(english in answer.text for english in WERKZEUG)
    api = get(client, "/api/nowhere", language)
    assert api.status_code == 404 and api.get_json() == {"error": shown("There is no page at this address.", language)}


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_game_number_with_no_game_says_so_in_the_language(client, language):
    answer = get(client, "/game/999999", language)
    assert answer.status_code == 404
    assert shown("no game %(game)s in the archive", language, game=999999) in unescape(answer.text)


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_archives_sort_choices_are_in_the_language(client, language):
    page = get(client, "/", language).text
    choices = dict(re.findall(r'<option value="(\w+)" (?:selected)?>([^<]*)</option>',
                              page[page.index('<select name="sort">'):page.index("</select>", page.index('<select name="sort">'))]))
    assert set(choices) == {"id", "date", "variant", "white", "black", "points", "turns", "event"}
    assert choices["white"] == shown("White", language) and choices["turns"] == shown("Turns", language)
    assert choices["id"] == shown("Number", language) != "Number"


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_validate_pages_formats_are_in_the_language(client, language):
    page = unescape(get(client, "/validate", language).text)
    for english in ("automatic (from the file's extension, else from the text)", "text notation (.jqn, .txt)",
                    "GNU Backgammon match (.mat)"):
        assert shown(english, language) in page and english not in page


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("path", ["/validate", "/record/", "/play/"])
def test_the_rule_sets_are_named_in_the_language(scorer, language, path):
    page = unescape(get(scorer, path, language).text)
    for name in NAMES:
        title = render(Message.of(TITLES[name]), language)
        assert f">{name} ({title})</option>" in page, (name, title)
    assert "Jacquet after Murray" not in page and (language == "fr" or "Long nardy" not in page)  # (French says long nardy)
    assert "rules.title." not in page and {"ru": "Длинные нарды", "fr": "Long nardy"}[language] in page


@pytest.fixture
def viewer_config():
    return {"WTF_CSRF_ENABLED": False, "WORKERS": 0}


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_game_against_the_engine_is_named_in_the_language_it_was_started_in(client, language):
    started = client.post("/play/", data={"variant": "jacquet", "side": "White", "strength": "random"},
                          headers={"Accept-Language": language})
    assert started.status_code == 303
    record = client.get(started.headers["Location"] + ".jqn").get_data(as_text=True)
    assert f'[Event "{shown("A game against the engine", language)}"]' in record
    assert f'[White "{shown("Visitor", language)}"]' in record


@pytest.mark.parametrize("language", TRANSLATED)
def test_jacquet_play_names_its_game_and_you_in_the_language(tmp_path, language):
    from notation.formats import read_file
    from tests.cli_language_helpers import run, said

    net = tmp_path / "jacquet.npz"
    Network.create("jacquet", 8, seed=2).save(net)
    out = tmp_path / "game.jqn"
    answer = run(language, "play", "--side", "Black", "--seed", "1", "--net", str(net), "-o", str(out), input="quit\n")
    assert answer.exit_code == 0, answer.output
    (game,) = list(read_file(out))
    assert game.headers["Event"] == said(language, "cli.play.event") != "A game against the engine"
    assert game.headers["Black"] == said(language, "cli.play.you") != "You"


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_player_charts_points_are_said_in_the_language(language):
    """Each point of a player's error-rate chart says its date, error rate and game in the
    page's language (it said "error rate ... (game N)" in English on every page)."""
    from tests.viewer_helpers import viewer_app
    from webviewer.pages.player import error_chart
    from webviewer.plumbing.language import decimals

    points = [{"date": "2024.06.01", "error_rate": 35.5, "game_id": 3}]
    with viewer_app(":memory:").test_request_context(headers={"Accept-Language": language}):
        chart = error_chart(points, str)
        said = shown("%(date)s: error rate %(rate)s (game %(game)s)", language, date="2024.06.01",
                     rate=decimals(35.5, 1), game=3)
    assert f"<title>{unescape(said)}</title>" in unescape(str(chart.marks)) and "error rate" not in str(chart.marks)
