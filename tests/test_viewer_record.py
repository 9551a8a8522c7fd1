"""The scorer's tool in the viewer (``/record``), through Flask's test client: starting a
game, dice rolled or entered, plays entered step by step or typed, refusals with their
rule, undo, comments, the cube, resignations, saving to the archive, the match's next
game, and a game in progress surviving a restart of the app. The client is signed in as a
scorer (tests/accounts_helpers.py); what others may do is in test_viewer_accounts.py."""

import random
import re
from datetime import timedelta

import pytest

import archive
from notation.engine.dice import Dice
from notation.engine.state import PASSED
from notation.errors import NotationError
from notation.recording import LiveGame, new_game
from tests.accounts_helpers import sign_in, signed_in_client
from webviewer import create_app


def make_app(path, csrf=False):
    return create_app({"ARCHIVE": str(path), "TESTING": True, "WTF_CSRF_ENABLED": csrf})


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "record.db"


@pytest.fixture
def client(db_path):
    return signed_in_client(make_app(db_path))


def start(client, **fields) -> str:
    response = client.post("/record/", data={"variant": "backgammon", "white": "Ann", "black": "Bob",
                                             "starter": "lead", **fields})
    assert response.status_code == 303, response.data
    return response.headers["Location"]


def status(client, at: str) -> str:
    page = client.get(at).data.decode()
    return " ".join(re.findall(r'role="(?:status|alert)">([^<]*)', page))


def offered(client, at: str) -> list[str]:
    return re.findall(r'value="step" data-from-white="\w+" data-to-white="\w+">([^ <]*)', client.get(at).data.decode())


def version(client, at: str) -> str:
    """The version of the game that its page's forms carry."""
    return re.search(r'name="version" value="(\d+)"', client.get(at).data.decode()).group(1)


def post(client, at: str, **fields):
    """A form of the game's page, sent from its current version."""
    return client.post(at, data={"version": version(client, at), **fields})


def act(client, at: str, action: str, **fields):
    response = post(client, at, action=action, **fields)
    assert response.status_code == 303, response.data
    return response


def test_a_short_backgammon_game_recorded_saved_and_found(client, db_path):
    at = start(client, lead_roll="W3 B1", event="Club night")
    assert "White to play the dice 31 (the lead roll)" in status(client, at)
    act(client, at, "dice", dice="64")  # the lead roll is the starter's first roll
    assert "R-LEAD" in status(client, at)
    act(client, at, "roll")
    assert "8/5" in offered(client, at) and "6/5" in offered(client, at)
    act(client, at, "step", **{"from": 8, "to": 5, "die": 3})
    assert offered(client, at) == [s for s in offered(client, at) if s.endswith(("/5", "/7", "/23", "/21", "/10", "/3", "/4", "/2", "/12", "/9"))]
    act(client, at, "undo-step")
    act(client, at, "step", **{"from": 8, "to": 5, "die": 3})
    act(client, at, "step", **{"from": 6, "to": 5, "die": 1})
    assert "Black to roll" in status(client, at)
    act(client, at, "dice", dice="6-2")
    act(client, at, "play", play="24/10")
    refusal = status(client, at)
    assert "Refused: [R-DICE]" in refusal and "24/18 13/11" in refusal  # the legal plays listed
    act(client, at, "play", play="24/18 13/11")
    act(client, at, "undo")  # take back Black's play
    assert "Black to roll" in status(client, at)
    act(client, at, "dice", dice="62")
    act(client, at, "play", play="13/11 24/18")
    act(client, at, "annotate", comment="A <b>bold</b> split", nag="1")
    page = client.get(at).data.decode()
    assert "{A &lt;b&gt;bold&lt;/b&gt; split}" in page and "24/18 13/11 $1" in page
    act(client, at, "double")
    assert "Black is offered the cube at 2" in status(client, at)
    act(client, at, "drop")
    assert "Game over: White wins 1 (drop)" in status(client, at)
    saved = post(client, at, action="save")
    game_id = int(re.search(r'href="/game/(\d+)"', saved.data.decode()).group(1))
    assert client.get(at).status_code == 404  # the recording is over
    db = archive.open_archive(db_path, readonly=True)
    rows, total = archive.search(db, archive.Query(player="ann"))
    assert total == 1 and rows[0]["id"] == game_id and rows[0]["result"] == "W+1"
    assert rows[0]["event"] == "Club night"
    stored = archive.load_game(db, game_id)
    assert [n.turn.kind for n in stored.mainline()] == ["roll", "roll", "double", "drop"]
    assert stored.end().parent.parent.comments == ["A <b>bold</b> split"]
    db.close()
    assert client.get(f"/game/{game_id}").status_code == 200


def test_only_legal_steps_are_offered_and_others_refused_with_their_rule(client):
    at = start(client, variant="jacquet", starter="White")
    act(client, at, "dice", dice="64")
    assert sorted(offered(client, at)) == ["24/18", "24/20"]  # one man leaves the talon
    act(client, at, "step", **{"from": 24, "to": 18, "die": 6})
    assert offered(client, at) == ["18/14"]  # the courier goes on (R-COURIER)
    act(client, at, "step", **{"from": 24, "to": 20, "die": 4})
    assert "Refused: [R-COURIER]" in status(client, at)
    act(client, at, "step", **{"from": 18, "to": 14, "die": 4})
    assert "Black to roll" in status(client, at)


@pytest.mark.parametrize("dice", ["77", "6", "abc"])
def test_bad_dice_are_refused(client, dice):
    at = start(client, variant="jacquet", starter="White")
    act(client, at, "dice", dice=dice)
    assert "Refused" in status(client, at) and "White to roll" in status(client, at)


def test_a_game_in_progress_survives_a_restart(db_path, client):
    at = start(client, variant="jacquet", starter="Black")
    act(client, at, "dice", dice="53")
    act(client, at, "step", **{"from": 24, "to": 19, "die": 5})
    restarted = make_app(db_path).test_client()  # the scorer's session outlives the restart
    restarted.set_cookie("session", client.get_cookie("session").value)
    assert "Black plays 53: 24/19 so far" in status(restarted, at)
    assert offered(restarted, at) == ["19/16"]


def test_a_resignation_scores_what_the_rules_allow(client):
    at = start(client, variant="jacquet", starter="White")
    act(client, at, "resign", points="9")
    assert "Refused" in status(client, at) and "White to roll" in status(client, at)
    act(client, at, "resign", points="1")
    assert "Game over: Black wins 1 (resign)" in status(client, at)
    assert '[Result "B+1"]' in client.get(at).data.decode().replace("&#34;", '"')


def test_a_match_goes_on_with_the_score_and_the_crawford_game(client):
    at = start(client, lead_roll="W3 B1", match="Final", match_length="2", game="1", score="0-0")
    act(client, at, "roll")
    act(client, at, "play", play="8/5 6/5")
    act(client, at, "double")  # Black doubles before his roll, White drops
    act(client, at, "drop")
    saved = post(client, at, action="save").data.decode()
    assert "the next game is the Crawford game" in saved
    fields = dict(re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', saved))
    assert fields["score"] == "0-1" and fields["game"] == "2" and fields["crawford"] == "yes"
    fields.pop("csrf_token", None)
    following = start(client, **fields, lead_roll="W6 B2")
    page = client.get(following).data.decode()
    assert "score 0-1" in page and 'value="double"' not in page  # no double in the Crawford game


def test_versailles_dice_passed_to_the_opponent_are_played_first():
    rng = random.Random(4)
    for _ in range(20):  # random games until one passes dice (R-PASS)
        live = LiveGame(new_game({"Variant": "versailles", "Lead": "White"}))
        while not live.over and live.kind != PASSED:
            live.set_dice(None, rng)
            while live.dice is not None:
                live.add_step(rng.choice(live.entry().next_steps(live.steps)))
        if live.kind == PASSED:
            break
    assert live.kind == PASSED, "no dice were passed in 20 games"
    passed, player = live.forced_dice, live.node.state.player
    with pytest.raises(NotationError, match="R-PASS"):
        live.set_dice(Dice(6, 6) if passed != Dice(6, 6) else Dice(1, 1))
    live.set_dice(None, rng)  # the passed dice, whatever is rolled
    turns = len(list(live.game.mainline()))
    if live.dice is not None:
        assert live.dice == passed
        live.add_step(live.entry().next_steps([])[0])
    last = list(live.game.mainline())[-1]
    assert len(list(live.game.mainline())) >= turns and last.turn.kind == PASSED
    assert last.turn.player is player and f">{passed}:" in live.record()


def test_forms_without_the_csrf_token_are_refused(db_path):
    client = make_app(db_path, csrf=True).test_client()
    assert sign_in(client).status_code == 401  # no account yet: the form, CSRF token and all, works
    client = signed_in_client(make_app(db_path, csrf=True))
    refused = client.post("/record/", data={"variant": "jacquet", "starter": "White"})
    assert refused.status_code == 400 and b"CSRF" in refused.data
    form = client.get("/record/").data.decode()
    token = re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)
    accepted = client.post("/record/", data={"variant": "jacquet", "starter": "White", "csrf_token": token})
    assert accepted.status_code == 303
    at = accepted.headers["Location"]
    assert client.post(at, data={"action": "roll"}).status_code == 400  # no token, no roll
    assert "White to roll" in status(client, at)


def test_player_names_are_shown_as_text(client):
    at = start(client, white="<script>alert(1)</script>", variant="jacquet", starter="White")
    page = client.get(at).data.decode()
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_unknown_recordings_and_actions(client):
    assert client.get("/record/nosuchkey").status_code == 404
    at = start(client, variant="jacquet", starter="White")
    assert post(client, at, action="explode").status_code == 400
    assert client.post("/record/", data={"variant": "chess"}).status_code == 400
    with client.get(at + ".jqn") as download:
        assert download.status_code == 200 and b'[White "Ann"]' in download.data
    assert client.get(at + ".mat").status_code == 404  # .mat holds backgammon only


@pytest.mark.parametrize("fields", [{"action": "resign", "points": "²"},
                                    {"action": "resign", "points": "9" * 5000},
                                    {"action": "annotate", "nag": "²"},
                                    {"action": "annotate", "nag": "77"},
                                    {"action": "annotate", "comment": "x" * 2001},
                                    {"action": "play", "play": "24/18(" + "9" * 5000},
                                    {"action": "step", "from": "99999999999999999999", "to": "1", "die": "1"}])
def test_malformed_actions_are_400_not_500(client, fields):
    at = start(client, variant="jacquet", starter="White")
    if fields["action"] in ("play", "step"):
        act(client, at, "dice", dice="64")
    assert post(client, at, **fields).status_code == 400


def test_a_form_sent_again_or_from_an_older_page_is_not_applied(client):
    """A double click on "Take back the last turn" takes back one turn, not two."""
    at = start(client, lead_roll="W3 B1")
    act(client, at, "roll")
    act(client, at, "play", play="8/5 6/5")
    act(client, at, "dice", dice="53")
    act(client, at, "play", play="24/16")
    page = version(client, at)
    for _ in range(2):
        assert client.post(at, data={"action": "undo", "version": page}).status_code == 303
    shown = status(client, at)  # one turn taken back, the second click refused
    assert "Black to roll" in shown and "out of date" in shown
    assert client.post(at, data={"action": "undo"}).status_code == 303  # no version: not applied
    assert "out of date" in status(client, at)
    assert "8/5 6/5" in client.get(at + ".jqn").data.decode()


def test_a_step_off_the_board_is_refused(client):
    at = start(client, variant="jacquet", starter="White")
    act(client, at, "dice", dice="64")
    act(client, at, "step", **{"from": 99, "to": 1, "die": 6})
    assert "Refused: no step from 99" in status(client, at)


@pytest.mark.parametrize("fields", [{"match_length": "x"}, {"score": "abc"}, {"game": "0"},
                                    {"white": "x" * 201}, {"match_length": "3", "score": "5-0"},
                                    {"match_length": "3", "score": "1-3"}, {"date": "not a date"},
                                    {"date": "2024-13"}, {"date": "2024.13.45"}, {"date": "2024.01.32"}])
def test_bad_match_tags_are_refused_at_the_start(client, fields):
    response = client.post("/record/", data={"variant": "backgammon", "starter": "White", **fields})
    assert response.status_code == 400 and "The game cannot start" in response.text


def test_the_starter_is_white_black_or_the_lead_roll(client):
    assert client.post("/record/", data={"variant": "jacquet", "starter": "Nobody"}).status_code == 400
    for date in ("2024.03.15", "2024", "????.??.??"):
        start(client, variant="jacquet", starter="Black", date=date, match_length="3", score="2-2")


def test_the_lead_roll_is_rolled_when_none_is_given(client):
    at = start(client, variant="backgammon")
    page = client.get(at).text.replace("&#34;", '"')
    lead = re.search(r'\[LeadRoll "W(\d) B(\d)"\]', page)
    assert lead and lead.group(1) != lead.group(2)
    assert "the lead roll" in status(client, at)


def test_no_double_before_the_opening_roll(client):
    at = start(client, lead_roll="W3 B1")
    assert 'value="double"' not in client.get(at).text
    act(client, at, "double")
    assert "Refused: [R-CUBE]" in status(client, at)


def test_two_changes_at_once_do_not_overwrite_each_other(db_path, client):
    at = start(client, variant="jacquet", starter="White")
    key = at.rsplit("/", 1)[1]
    db = archive.open_archive(db_path)
    stale = archive.load_live(db, key, timedelta(days=7))
    act(client, at, "annotate", comment="first")
    assert not archive.save_live(db, key, stale.record, stale.pending, stale.version)
    assert "first" in client.get(at).text
    assert key not in " ".join(str(row) for row in db.execute("SELECT * FROM live_games"))  # stored hashed
    db.close()
