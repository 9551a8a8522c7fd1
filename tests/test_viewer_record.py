"""The scorer's tool in the viewer (``/record``), through Flask's test client: starting a
game, dice rolled or entered, plays entered step by step or typed, refusals with their
rule, undo, comments, the cube, resignations, saving to the archive, the match's next
game, and a game in progress surviving a restart of the app. The client is signed in as a
scorer (tests/accounts_helpers.py); what others may do is in test_viewer_accounts.py."""

import datetime
import random
import re
from datetime import timedelta

import pytest

import archive
from notation.engine.board import Position
from notation.engine.dice import Dice
from notation.engine.state import PASSED
from notation.errors import NotationError
from notation.recording import LiveGame, game_from_text, new_game
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


def confirmed(client, at: str, action: str, **fields):
    """An action asked again first (resign, drop, correct), answered yes."""
    asked = act(client, at, action, **fields)
    assert "confirm=" in asked.headers["Location"]
    return act(client, at, action, confirm="yes", **fields)


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
    act(client, at, "undo")  # take back Black's play: the dice stay
    assert "Black plays 62" in status(client, at)
    act(client, at, "play", play="13/11 24/18")
    act(client, at, "annotate", comment="A <b>bold</b> split", nag="1")
    page = client.get(at).data.decode()
    assert "{A &lt;b&gt;bold&lt;/b&gt; split}" in page and "24/18 13/11 $1" in page
    act(client, at, "double")
    assert "Black is offered the cube at 2" in status(client, at)
    confirmed(client, at, "drop")
    assert "Game over: White wins 1 (drop)" in status(client, at)
    saved = post(client, at, action="save")
    page = client.get(saved.headers["Location"]).data.decode()
    game_id = int(re.search(r'href="/game/(\d+)"', page).group(1))
    assert at not in client.get("/record/").text  # off the list of games in progress
    assert client.get(at).headers["Location"] == saved.headers["Location"]  # the old address leads there
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
    confirmed(client, at, "resign", points="9")
    assert "Refused" in status(client, at) and "White to roll" in status(client, at)
    confirmed(client, at, "resign", points="1")
    assert "Game over: Black wins 1 (resign)" in status(client, at)
    assert '[Result "B+1"]' in client.get(at).data.decode().replace("&#34;", '"')


def test_a_match_goes_on_with_the_score_and_the_crawford_game(client):
    at = start(client, lead_roll="W3 B1", match="Final", match_length="2", game="1", score="0-0")
    act(client, at, "roll")
    act(client, at, "play", play="8/5 6/5")
    act(client, at, "double")  # Black doubles before his roll, White drops
    confirmed(client, at, "drop")
    saved = client.get(post(client, at, action="save").headers["Location"]).data.decode()
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
    """A double click on "Take back" takes back one turn, not two."""
    at = start(client, lead_roll="W3 B1")
    act(client, at, "roll")
    act(client, at, "play", play="8/5 6/5")
    act(client, at, "dice", dice="53")
    act(client, at, "play", play="24/16")
    page = version(client, at)
    for _ in range(2):
        assert client.post(at, data={"action": "undo", "version": page}).status_code == 303
    shown = status(client, at)  # one turn taken back (its dice stay), the second click refused
    assert "Black plays 53" in shown and "out of date" in shown
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


def labels(client, at: str) -> dict[int, int]:
    """The number drawn on each point of the board, by White's number (the shapes' names)."""
    page = client.get(at).text
    return {int(white): int(label) for white, label in re.findall(
        r'<g class="column" data-point="(\d+)"><polygon[^>]*/><text[^>]*>(\d+)</text>', page)}


def test_the_board_is_numbered_for_the_player_on_roll_and_takes_his_numbers(client):
    at = start(client, variant="jacquet", starter="White")
    assert labels(client, at)[24] == 24 and labels(client, at)[13] == 13  # White's own numbers
    act(client, at, "dice", dice="64")
    act(client, at, "play", play="24/14")
    act(client, at, "dice", dice="53")
    shown = labels(client, at)
    assert shown[12] == 24 and shown[13] == 1  # Black's talon, his 24, is White's 12
    assert sorted(offered(client, at)) == ["24/19", "24/21"]  # offered in the numbers shown
    act(client, at, "play", play="24/16")  # typed in the numbers shown
    assert "White to roll" in status(client, at)
    assert "1. 64: 24/14 53: 24/16" in client.get(at).text


def test_server_dice_stand_a_take_back_returns_the_play_not_the_roll(client):
    at = start(client, variant="jacquet", starter="White")
    act(client, at, "roll")
    dice = re.search(r"White plays (\d\d)", status(client, at)).group(1)
    act(client, at, "step", **dict(zip(("from", "to", "die"), _first_step(client, at), strict=True)))
    act(client, at, "undo-steps")
    act(client, at, "clear-dice")  # rolled dice cannot be cleared
    assert "rolled dice stand" in status(client, at) and f"White plays {dice}" in status(client, at)
    other = "11" if dice != "11" else "22"
    act(client, at, "play", play=_some_play(client, at))
    act(client, at, "undo")  # the play is returned, the roll stays
    assert f"White plays {dice}" in status(client, at)
    act(client, at, "play", play=_some_play(client, at))
    confirmed(client, at, "correct", ply="0")  # taken back to the start: the same dice again
    assert f"White plays {dice}" in status(client, at)
    act(client, at, "play", play=_some_play(client, at))
    act(client, at, "dice", dice=other)  # Black's dice, typed at the table, can be changed
    act(client, at, "clear-dice")
    assert "Black to roll" in status(client, at)


def _first_step(client, at: str) -> tuple[str, str, str]:
    page = client.get(at).text
    return re.search(r'name="from" value="(\d+)"><input type="hidden" name="to" value="(\d+)">'
                     r'<input type="hidden" name="die" value="(\d)">', page).groups()


def _some_play(client, at: str) -> str:
    """A legal play of the turn in progress, from the refusal of a wrong one."""
    act(client, at, "play", play="1/0")
    return re.search(r"Legal plays: ([^,.]+)", status(client, at)).group(1)


def test_resign_and_drop_are_asked_again_and_a_no_changes_nothing(client):
    at = start(client, variant="backgammon", starter="White")
    asked = act(client, at, "resign", points="2")
    question = client.get(asked.headers["Location"]).text
    assert "White resigns: Black wins 2 points and the game ends. Is that so?" in question
    assert 'name="confirm" value="yes"' in question and "No, go back" in question
    assert "White to roll" in status(client, at)  # nothing done yet
    act(client, at, "roll")
    act(client, at, "play", play=_some_play(client, at))
    act(client, at, "double")  # Black doubles
    asked = act(client, at, "drop")
    assert "White drops the cube: Black wins 1 point" in client.get(asked.headers["Location"]).text
    assert "White is offered the cube at 2" in status(client, at)
    page = client.get(at).text
    take, drop = page.index('value="take"'), page.index('value="drop"')
    assert take < drop and "</form>" in page[take:drop]  # two forms, each its own big button
    confirmed(client, at, "drop")
    assert "Game over: Black wins 1 (drop)" in status(client, at)
    assert client.get(at + "?confirm=explode").status_code == 400


def test_a_past_turn_is_corrected_with_confirmation(client):
    at = start(client, variant="jacquet", starter="White")
    for dice, play in (("64", "24/14"), ("53", "24/16"), ("21", "14/13/11")):
        act(client, at, "dice", dice=dice)
        act(client, at, "play", play=play)
    asked = act(client, at, "correct", ply="1")
    question = client.get(asked.headers["Location"]).text
    assert "Take the game back to after 1. 64: 24/14? The 2 turns after it will be removed" in question
    assert "2. 21: 14/13/11" in client.get(at + ".jqn").text  # not yet
    act(client, at, "correct", ply="1", confirm="yes")
    assert "Black plays 53" in status(client, at)  # the dice of the turn taken back stand
    assert "2. 21" not in client.get(at + ".jqn").text
    act(client, at, "correct", ply="7", confirm="yes")
    assert "Refused: [R-END]" in status(client, at)
    assert client.get(at + "?confirm=correct&ply=7").status_code == 400  # not a 500
    assert client.get(at + "?confirm=drop").status_code == 400  # no cube offered


def test_a_refused_play_keeps_the_input_and_says_why_beside_it(client):
    at = start(client, variant="jacquet", starter="White")
    act(client, at, "dice", dice="64")
    act(client, at, "play", play="hello")
    page = client.get(at).text
    note = re.search(r'<p class="note" id="note-play" role="alert">([^<]*)</p>', page)
    assert note and "cannot read &#39;hello&#39; as a move: write each move FROM/TO, as 24/18" in note.group(1)
    assert page.index('id="play-input"') < note.start()  # beside the field, not at the top
    assert re.search(r'id="play-input"[^>]*value="hello"', page)
    assert 'value="hello"' not in client.get(at).text  # once


def test_the_start_form_has_today_and_lists_the_games_in_progress(client):
    today = datetime.date.today().strftime("%Y.%m.%d")
    assert f'name="date" value="{today}"' in client.get("/record/").text
    first = start(client, variant="jacquet", starter="White", white="Marie", black="Jean")
    second = start(client, variant="backgammon", starter="Black", white="Ann", black="Bob")
    listed = client.get("/record/").text
    assert f'href="{second}"' in listed and f'href="{first}"' in listed
    assert listed.index(second) < listed.index(first)  # the latest first
    assert "Marie – Jean" in listed and "White to act" in listed
    assert f'href="{first}"' not in make_app_client_of(client).get("/record/").text  # per browser


def make_app_client_of(client):
    """Another browser on the same app."""
    return client.application.test_client()


def test_the_saved_page_survives_a_reload_and_offers_the_next_game(client):
    at = start(client, lead_roll="W3 B1", match="Final", match_length="3", game="1", score="0-0")
    confirmed(client, at, "resign", points="1")
    saved = post(client, at, action="save").headers["Location"]
    assert saved.startswith("/record/saved/")
    for _ in range(2):  # a reload shows it again
        page = client.get(saved).text
        assert "Black won 1 (resign)" in page and "Start the next game of the match (game 2)" in page
    assert client.get(at).headers["Location"] == saved
    assert make_app_client_of(client).get(at).status_code == 404  # another browser: gone
    assert client.get("/record/saved/999").status_code == 404


def test_a_game_starts_from_a_position_id(client):
    position = Position.from_points({6: 5, 5: 5, 4: 5}, {6: 5, 5: 5, 4: 5})
    at = start(client, variant="backgammon", starter="White", position=position.position_id())
    record = client.get(at + ".jqn").text
    assert f'[Position "{position.position_id()}"]' in record
    assert ".mat" not in client.get(at).text and client.get(at + ".mat").status_code == 404  # .mat cannot say it
    act(client, at, "dice", dice="61")
    act(client, at, "play", play="6/off 5/4")
    game = game_from_text(client.get(at + ".jqn").text)
    assert game.state.position == position
    assert game.end().state.position.pip_counts() == (75, 68)  # Black's, on roll, then White's
    refused = client.post("/record/", data={"variant": "jacquet", "starter": "White", "position": "hello"})
    assert refused.status_code == 400 and "[Position] is no jacquet position" in refused.text
