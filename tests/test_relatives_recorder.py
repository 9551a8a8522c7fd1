"""The recorder (``/record/``) at ``narde`` with its options (issue 32: "in narde with
``cube=true``, the cube is recorded and validated"), through Flask's test client: the
start form offers each rule set by its name and title and its options, a game started
with ``cube=true`` records a double and a take and keeps the option in its ``Options``
tag, a wrong option is refused with its reason, and a match's next game keeps the option."""

from __future__ import annotations

import html
import io
import re

import pytest

from notation.formats.jqn import GameBuilder, read_games
from notation.messages import option_error, say
from tests.test_viewer_record import WHITE, act, confirmed, offered_cube, post, start, status
from tests.viewer_helpers import shown


@pytest.fixture
def viewer_config():
    """The viewer of these tests (``scorer``: tests/conftest.py) takes forms without their
    CSRF token, as tests/test_viewer_record.py's."""
    return {"WTF_CSRF_ENABLED": False}


def test_the_start_form_names_each_rule_set_and_its_options(scorer):
    page = html.unescape(scorer.get("/record/").data.decode())
    assert '<option value="narde" >narde (Long nardy)</option>' in page
    assert '<option value="fevga" >fevga (Fevga)</option>' in page
    assert 'name="options"' in page
    assert "narde: head_doublets, cube" in page and "fevga: prime" in page
    played = html.unescape(scorer.get("/play/").data.decode())
    assert '<option value="narde" >narde (Long nardy)</option>' in played


def test_a_narde_game_with_the_cube_records_a_double_and_its_option(scorer):
    at = start(scorer, variant="narde", options="cube=true", starter="White")
    page = html.unescape(scorer.get(at).data.decode())
    assert "narde(cube=true)" in page and '[Options "cube=true"]' in page
    act(scorer, at, "dice", dice="53")
    act(scorer, at, "play", play="24/16")
    act(scorer, at, "double")  # Black doubles before his roll
    assert offered_cube(WHITE, 2) in status(scorer, at)
    act(scorer, at, "take")
    act(scorer, at, "dice", dice="44")
    act(scorer, at, "play", play="24/16(2)")
    record = html.unescape(scorer.get(at).data.decode())
    assert "1. 53: 24/16 double take 44: 24/16(2) *" in record
    [game] = list(read_games(io.BytesIO(scorer.get(f"{at}.jqn").data), GameBuilder))  # validated
    assert not game.errors and game.rules.has_cube
    assert [n.turn.kind for n in game.mainline()] == ["roll", "double", "take", "roll"]
    plain = start(scorer, variant="narde", starter="White")
    act(scorer, plain, "dice", dice="53")
    act(scorer, plain, "play", play="24/16")
    act(scorer, plain, "double")
    refused = shown("Refused: [%(rule)s] %(reason)s", rule="R-CUBE", reason=say("cube.none", rules="narde") + ".")
    assert refused in status(scorer, plain)


def test_a_wrong_option_is_refused_with_its_reason(scorer):
    response = scorer.post("/record/", data={"variant": "narde", "options": "cube=maybe", "starter": "White"})
    assert response.status_code == 400
    page = html.unescape(response.data.decode())
    assert html.unescape(shown("The game cannot start: %(error)s",
                               error=str(option_error("cube", ["true", "false"], "maybe")))) in page
    assert 'value="cube=maybe"' in page  # the form kept, to be corrected
    wrong = scorer.post("/record/", data={"variant": "fevga", "options": "cube=true", "starter": "White"})
    assert wrong.status_code == 400 and "prime" in html.unescape(wrong.data.decode())


def test_the_next_game_of_a_narde_match_keeps_the_cube(scorer):
    at = start(scorer, variant="narde", options="cube=true", starter="White", match="Final",
               match_length="3", game="1", score="0-0")
    confirmed(scorer, at, "resign", points="1")
    saved = scorer.get(post(scorer, at, action="save").headers["Location"]).data.decode()
    fields = dict(re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', saved))
    assert fields["options"] == "cube=true" and fields["variant"] == "narde"
    fields.pop("csrf_token", None)
    following = start(scorer, **fields, lead_roll="W6 B2")
    assert '[Options "cube=true"]' in html.unescape(scorer.get(following).data.decode())
