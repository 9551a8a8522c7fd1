"""A match's page (through Flask's test client): the game page's heading links to it, it
lists the match's games in order with the running score and each game's analysis, and the
archive's list filters by match (``/?match=``, the search form's field) as ``jacquet
search --match`` does. The sample match (samples/matches/jacquet-match.jqn) is five games
to 5 points: W+1, W+1, W+1, B+1, W+2 (its Score tags 0-0, 1-0, 2-0, 3-0, 3-1)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from babel.numbers import get_decimal_symbol
from click.testing import CliRunner

from jacquet_cli import main
from notation.engine.rules import rule_set
from tests.viewer_helpers import shown, shown_count, shown_pattern

MATCH = Path(__file__).parents[1] / "samples" / "matches" / "jacquet-match.jqn"
ONE_GAME = Path(__file__).parents[1] / "samples" / "generated" / "jacquet-10.jqn"


@pytest.fixture
def archive_path(archive_of):
    """The sample match and ten games of no match."""
    return archive_of(MATCH, ONE_GAME)


def game_ids(page: str) -> list[int]:
    return [int(found) for found in re.findall(r'href="/game/(\d+)"', page)]


def test_the_game_heading_links_to_its_match_page(client):
    listed = client.get("/?match=Sample+jacquet+match&sort=id&desc=0").text
    first = game_ids(listed)[0]
    page = client.get(f"/game/{first + 1}").text
    heading = shown("match %(match)s to %(length)s, game %(game)s, score %(white)s-%(black)s",
                    match="Sample jacquet match", length=5, game=2, white=1, black=0)
    link = re.search(rf'<a class="match" href="([^"]+)">{re.escape(heading)}</a>', page)
    assert link, page[:3000]
    assert client.get(html.unescape(link.group(1))).status_code == 200


def test_the_match_page_lists_its_games_in_order_with_the_running_score(client):
    page = client.get("/match/Sample jacquet match?length=5").text
    rows = re.findall(r"<tr[^>]*>\s*<td[^>]*><a[^>]*>Game (\d)</a>.*?"
                      r'data-label="Score before">([^<]*)</td>.*?data-label="Result">([^<]*)</td>.*?'
                      r'data-label="Score after">([^<]*)</td>', page, re.S)
    assert rows == [("1", "0-0", "W+1", "1-0"), ("2", "1-0", "W+1", "2-0"), ("3", "2-0", "W+1", "3-0"),
                    ("4", "3-0", "B+1", "3-1"), ("5", "3-1", "W+2", "5-1")]
    assert shown_count("%(num)d game stored; after the last, %(white)s %(score_white)s, %(black)s %(score_black)s.",
                       "%(num)d games stored; after the last, %(white)s %(score_white)s, %(black)s %(score_black)s.",
                       5, white="Random White", score_white=5, black="Random Black", score_black=1) in page
    assert page.count(shown("not analysed")) == 5
    assert client.get("/match/No such match").status_code == 404


def test_the_match_page_gives_each_analysed_games_figures_and_the_game_page_its_marks(client, archive_path):
    result = CliRunner().invoke(main, ["analyse", "--db", str(archive_path), "--match", "Sample jacquet match",
                                       "--jobs", "1", "--confirm", "2ply"])
    assert result.exit_code == 0, result.output
    page = client.get("/match/sample jacquet match").text  # the name as typed, case ignored
    assert page.count(shown("not analysed")) == 0
    figures = shown_pattern("%(player)s: error rate %(rate)s (%(skill)s), %(decisions)s decisions",
                            player=shown("White"), rate=r"\d+\.\d", skill=r"[^)]+", decisions=r"\d+")
    assert len(figures.findall(page)) == 5
    assert "jacquet-td" in page
    # in French, each player's label is the rule set's, in French (not the engine's English)
    french = client.get("/match/sample jacquet match", headers={"Accept-Language": "fr"}).text
    comma = re.escape(get_decimal_symbol("fr"))  # the rate written as French writes numbers
    labelled = [(float(rate.replace(get_decimal_symbol("fr"), ".")), label)
                for rate, label in re.findall(rf"(\d+{comma}\d) \(([^)]+)\), \d+ décisions", french)]
    assert len(labelled) == 10
    rules = rule_set("jacquet")
    assert {label for _, label in labelled} - {rules.skill_label(rate, "en") for rate, _ in labelled}
    assert all(label == rules.skill_label(rate, "fr") for rate, label in labelled)
    # the game page's summary says what its marks mean, by the rule set's thresholds (the
    # marks confirmed at 2-ply, as the default's are before its rollouts: bad from 7/6 of
    # 0.08, analysis.confirm.MARGIN)
    game = client.get(f"/game/{game_ids(page)[0]}").text
    legend = "; ".join(f'<span data-mark="{mark}">{mark}</span> '
                       + shown("%(words)s, losing %(loss)s or more", words=shown(words), loss=loss)
                       for mark, words, loss in (("?!", "doubtful play", "0.040"), ("?", "bad play", "0.093"),
                                                 ("??", "very bad play", "0.160")))
    assert legend + "." in game


def test_the_archive_lists_a_matchs_games_only(client):
    page = client.get("/?match=Sample+jacquet+match").text
    assert len(game_ids(page)) == 5
    assert 'name="match" value="Sample jacquet match"' in page  # the search form's field, filled in
    assert game_ids(client.get("/?match=No+such+match").text) == []
    assert len(game_ids(client.get("/").text)) == 15
