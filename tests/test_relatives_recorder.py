"""The recorder (``/record/``) at ``narde`` with its options (issue 32: "in narde with
``cube=true``, the cube is recorded and validated"), through Flask's test client: the
start form offers each rule set by its name and title and its options, a game started
with ``cube=true`` records a double and a take and keeps the option in its ``Options``
tag, a wrong option is refused with its reason, and a match's next game keeps the option."""

from __future__ import annotations

import html
import io
import re

from notation.formats.jqn import GameBuilder, read_games
from tests.test_viewer_record import act, client, confirmed, db_path, post, start, status  # noqa: F401


def test_the_start_form_names_each_rule_set_and_its_options(client):
    page = html.unescape(client.get("/record/").data.decode())
    assert '<option value="narde" >narde (Long nardy)</option>' in page
    assert '<option value="fevga" >fevga (Fevga)</option>' in page
    assert 'name="options"' in page
    assert "narde: head_doublets, cube" in page and "fevga: prime" in page
    played = html.unescape(client.get("/play/").data.decode())
    assert '<option value="narde" >narde (Long nardy)</option>' in played


def test_a_narde_game_with_the_cube_records_a_double_and_its_option(client):
    at = start(client, variant="narde", options="cube=true", starter="White")
    page = html.unescape(client.get(at).data.decode())
    assert "narde(cube=true)" in page and '[Options "cube=true"]' in page
    act(client, at, "dice", dice="53")
    act(client, at, "play", play="24/16")
    act(client, at, "double")  # Black doubles before his roll
    assert "White is offered the cube at 2" in status(client, at)
    act(client, at, "take")
    act(client, at, "dice", dice="44")
    act(client, at, "play", play="24/16(2)")
    record = html.unescape(client.get(at).data.decode())
    assert "1. 53: 24/16 double take 44: 24/16(2) *" in record
    [game] = list(read_games(io.BytesIO(client.get(f"{at}.jqn").data), GameBuilder))  # validated
    assert not game.errors and game.rules.has_cube
    assert [n.turn.kind for n in game.mainline()] == ["roll", "double", "take", "roll"]
    plain = start(client, variant="narde", starter="White")
    act(client, plain, "dice", dice="53")
    act(client, plain, "play", play="24/16")
    act(client, plain, "double")
    assert "Refused: [R-CUBE] narde has no doubling cube" in status(client, plain)


def test_a_wrong_option_is_refused_with_its_reason(client):
    response = client.post("/record/", data={"variant": "narde", "options": "cube=maybe", "starter": "White"})
    assert response.status_code == 400
    page = html.unescape(response.data.decode())
    assert "The game cannot start" in page and "cube is 'true' or 'false'" in page
    assert 'value="cube=maybe"' in page  # the form kept, to be corrected
    wrong = client.post("/record/", data={"variant": "fevga", "options": "cube=true", "starter": "White"})
    assert wrong.status_code == 400 and "prime" in html.unescape(wrong.data.decode())


def test_the_next_game_of_a_narde_match_keeps_the_cube(client):
    at = start(client, variant="narde", options="cube=true", starter="White", match="Final",
               match_length="3", game="1", score="0-0")
    confirmed(client, at, "resign", points="1")
    saved = client.get(post(client, at, action="save").headers["Location"]).data.decode()
    fields = dict(re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', saved))
    assert fields["options"] == "cube=true" and fields["variant"] == "narde"
    fields.pop("csrf_token", None)
    following = start(client, **fields, lead_roll="W6 B2")
    assert '[Options "cube=true"]' in html.unescape(client.get(following).data.decode())
