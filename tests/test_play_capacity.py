"""Issue 33, F1: one client dropping its cookie filled every place for games against the
engine (197 starts in 6.4 s), then every visitor and member got 429 for up to a day. Now
games are bounded per client address too, a game never played makes room first, and a
signed-in member is never shut out by visitors. Each test failed before the fix."""

from __future__ import annotations

import html
import re

import pytest

from tests.accounts_helpers import signed_in_client
from tests.viewer_helpers import client_at

START = {"variant": "jacquet", "side": "White", "strength": "random"}


@pytest.fixture
def viewer_config():
    """The viewer of these tests (``app``: tests/conftest.py, over an empty archive): forms
    without their CSRF token, the engine in the request's thread, and room for 3 games a
    visitor, 4 an address, 8 on the server."""
    return {"WTF_CSRF_ENABLED": False, "WORKERS": 0, "PLAY_GAMES_PER_VISITOR": 3,
            "PLAY_GAMES_PER_ADDRESS": 4, "PLAY_GAMES": 8}


def start(client) -> str:
    response = client.post("/play/", data=START)
    assert response.status_code == 303, response.text
    return response.headers["Location"]


def play_a_move(client, game: str) -> None:
    """The player's first action: a roll, or his best play if the lead roll gave him the
    first turn."""
    page = client.get(f"{game}?hints=1").text
    version = re.search(r'name="version" value="(\d+)"', page).group(1)
    action = {"action": "roll"} if 'value="roll"' in page else {
        "action": "play", "play": html.unescape(re.search(r'<td class="play">([^<]*)</td>', page).group(1))}
    assert client.post(game, data={"version": version, **action}).status_code == 303


def test_a_client_dropping_its_cookie_fills_only_its_addresss_share(app):
    for _ in range(4):
        start(client_at(app, "203.0.113.7"))  # a new cookie each time
    refused = client_at(app, "203.0.113.7").post("/play/", data=START)
    assert refused.status_code == 429 and "PLAY_GAMES_PER_ADDRESS" in refused.text
    start(client_at(app, "198.51.100.2"))  # another address still plays


def test_a_game_never_played_makes_room_first(app):
    played = []
    for number in range(4):  # four visitors who play, four who only start
        client = client_at(app, f"10.0.0.{number}")
        game = start(client)
        play_a_move(client, game)
        played.append((client, game))
    idle = [start(client_at(app, f"10.0.1.{number}")) for number in range(4)]
    newcomer = client_at(app, "10.0.2.1")
    start(newcomer)  # the server is full: the oldest game never played goes
    assert newcomer.get(idle[0]).status_code == 404
    assert all(client.get(game).status_code == 200 for client, game in played)
    assert newcomer.get(idle[1]).status_code == 200


def test_visitors_never_shut_a_member_out(app):
    games = []
    for number in range(8):  # the server full of games visitors play
        client = client_at(app, f"10.0.0.{number}")
        game = start(client)
        play_a_move(client, game)
        games.append((client, game))
    refused = client_at(app, "10.0.3.1").post("/play/", data=START)
    assert refused.status_code == 429 and "PLAY_GAMES" in refused.text
    member = signed_in_client(app)
    start(member)  # a visitor's game untouched longest makes room
    first_client, first_game = games[0]
    assert first_client.get(first_game).status_code == 404
    assert all(client.get(game).status_code == 200 for client, game in games[1:])
