"""Pip counts under every board (through Flask's test client): the position page, the
scorer's recorder and a game against the engine say each side's pips, as the game page
does. The counts are the rules' (backgammon starts at 167 a side, Jacquet at 15 × 24 =
360), not the code's."""

from __future__ import annotations

import re

import pytest

from tests.accounts_helpers import signed_in_client

AFTER_31 = "sGfwATDgc/ABMA"
"""Backgammon's start after White's 31 played 8/5 6/5 (jacquet legal --json), Black on roll."""


def pips(page: str) -> tuple[int, int]:
    found = re.findall(r'class="pips">Pips: White (\d+), Black (\d+)\.<', page)
    assert len(found) == 1, found
    return int(found[0][0]), int(found[0][1])


@pytest.fixture
def viewer_config():
    """Forms without their CSRF token, the engine in the request's thread."""
    return {"WTF_CSRF_ENABLED": False, "WORKERS": 0}


def test_the_position_page_counts_each_sides_pips(client):
    page = client.get(f"/position/{AFTER_31}?variant=backgammon&player=B").text
    assert pips(page) == (167 - 4, 167)
    page = client.get("/position/4HPwATDgc/ABMA?variant=backgammon&player=W").text
    assert pips(page) == (167, 167)


def test_the_recorder_counts_each_sides_pips_as_the_game_goes(app):
    scorer = signed_in_client(app, "Scorer", "scorer")
    response = scorer.post("/record/", data={"variant": "backgammon", "white": "Ann", "black": "Bob",
                                             "starter": "lead", "lead_roll": "W3 B1"})
    at = response.headers["Location"]
    assert pips(scorer.get(at).text) == (167, 167)
    for fields in ({"action": "roll"}, {"action": "play", "play": "8/5 6/5"}):  # the lead roll, played
        version = re.search(r'name="version" value="(\d+)"', scorer.get(at).text).group(1)
        assert scorer.post(at, data={"version": version, **fields}).status_code == 303
    assert pips(scorer.get(at).text) == (163, 167)


def test_a_game_against_the_engine_counts_each_sides_pips(client):
    at = client.post("/play/", data={"variant": "jacquet", "side": "White",
                                     "strength": "random"}).headers["Location"]
    page = client.get(at).text
    white, black = pips(page)
    assert white == 360  # you have not moved yet
    if '<p class="engine-play">' in page:  # it won the lead and moved; Jacquet has no hitting
        assert black < 360
    else:
        assert black == 360
