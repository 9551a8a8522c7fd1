"""A man moved by two dice at once in the recorder (and /play/, which shares its entry):
the page lists, for each pair of points, the routes between them that leave different
boards, and the ``route`` action enters a route's steps as if each were clicked (through
Flask's test client; the clicks themselves are in test_recorder_routes_browser.py)."""

from __future__ import annotations

import html
import json
import re

import pytest

from tests.accounts_helpers import signed_in_client


@pytest.fixture
def viewer_config():
    return {"WTF_CSRF_ENABLED": False}


def act(scorer, at: str, **fields) -> None:
    version = re.search(r'name="version" value="(\d+)"', scorer.get(at).text).group(1)
    response = scorer.post(at, data={"version": version, **fields})
    assert response.status_code == 303, response.text


def routes(scorer, at: str) -> dict[str, list[str]]:
    found = re.search(r'data-routes="([^"]*)"', scorer.get(at).text)
    return json.loads(html.unescape(found.group(1)))


def status(scorer, at: str) -> str:
    return " ".join(re.findall(r'role="(?:status|alert)">([^<]*)', scorer.get(at).text))


def game_with_two_blots(app) -> tuple[object, str]:
    """Backgammon: White 31 (8/5 6/5), Black 64 (24/18 13/9: blots on his 18 and 9 points,
    White's 7 and 16), White to play 21."""
    scorer = signed_in_client(app, "Scorer", "scorer")
    at = scorer.post("/record/", data={"variant": "backgammon", "white": "Ann", "black": "Bob",
                                       "starter": "lead", "lead_roll": "W3 B1"}).headers["Location"]
    act(scorer, at, action="roll")
    act(scorer, at, action="play", play="8/5 6/5")
    act(scorer, at, action="dice", dice="64")
    act(scorer, at, action="play", play="24/18 13/9")
    act(scorer, at, action="dice", dice="21")
    return scorer, at


def test_routes_that_leave_different_boards_are_both_listed(app):
    scorer, at = game_with_two_blots(app)
    listed = routes(scorer, at)
    # Black's blots: his 18 and 9 points are White's 7 and 16. 8/7*/5 hits, 8/6/5 does not
    assert sorted(listed["8>5"]) == ["8-6-2 6-5-1", "8-7-1 7-5-2"]
    assert listed["13>10"] in (["13-11-2 11-10-1"], ["13-12-1 12-10-2"])  # one board: one route
    assert "24>21" in listed and "6>3" in listed


def test_a_route_is_entered_as_its_steps(app):
    scorer, at = game_with_two_blots(app)
    act(scorer, at, action="route", route="8-7-1 7-5-2")
    assert "Black to roll" in status(scorer, at)
    assert "8/7*/5" in scorer.get(at).text  # the record holds the play, with its hit


def test_a_route_the_rules_refuse_enters_nothing(app):
    scorer, at = game_with_two_blots(app)
    version = re.search(r'name="version" value="(\d+)"', scorer.get(at).text).group(1)
    scorer.post(at, data={"version": version, "action": "route", "route": "8-7-1 7-4-3"})
    assert "White plays 21" in status(scorer, at) and "so far" not in status(scorer, at)
    assert scorer.post(at, data={"version": version, "action": "route", "route": "8/5"}).status_code == 400
