"""The scorer's tool in the viewer (``/record``), through Flask's test client: starting a
game, dice rolled or entered, plays entered step by step or typed, refusals with their
rule, undo, comments, the cube, resignations, saving to the archive, the match's next
game, and a game in progress surviving a restart of the app. The tests act as the signed-in
``scorer`` (tests/conftest.py); what others may do is in test_viewer_accounts.py."""

import datetime
import random
import re
from datetime import timedelta

import pytest
from markupsafe import escape

import archive
from notation import rule_set
from notation.engine.board import Position
from notation.engine.dice import Dice
from notation.engine.movegen import legal_plays
from notation.engine.state import PASSED, GameState
from notation.errors import NotationError
from notation.messages import Message, say
from notation.recording import LiveGame, game_from_text, new_game
from tests.accounts_helpers import sign_in, signed_in_client
from tests.viewer_helpers import shown, shown_count

WHITE, BLACK = shown("White"), shown("Black")
OUT_OF_DATE = shown("This page was out of date (the game moved on meanwhile: a second click, or another "
                    "window): here it is as it stands; nothing of that action was kept.")


def to_roll(player: str) -> str:
    return shown("%(player)s to roll.", player=player)


def plays(player: str, dice: str) -> str:
    return shown("%(player)s plays %(dice)s", player=player, dice=dice)


def offered_cube(player: str, value: int) -> str:
    return shown("%(player)s is offered the cube at %(value)s.", player=player, value=value)


def game_over(player: str, points: int, how: str) -> str:
    return shown("Game over: %(player)s wins %(points)s (%(how)s).", player=player, points=points,
                 how=say(f"ended.{how}"))


@pytest.fixture
def viewer_config():
    """The viewer of these tests (``scorer``: tests/conftest.py) takes forms without their
    CSRF token, but for the test of the token."""
    return {"WTF_CSRF_ENABLED": False}


def start(scorer, **fields) -> str:
    response = scorer.post("/record/", data={"variant": "backgammon", "white": "Ann", "black": "Bob",
                                             "starter": "lead", **fields})
    assert response.status_code == 303, response.data
    return response.headers["Location"]


def status(scorer, at: str) -> str:
    page = scorer.get(at).data.decode()
    return " ".join(re.findall(r'role="(?:status|alert)">([^<]*)', page))


def refusal(scorer, at: str) -> str:
    """What the game's page shows as refused (its notes, ``role="alert"``): the rule's id and
    the reason, whatever the page's language."""
    return " ".join(re.findall(r'role="alert">([^<]*)', scorer.get(at).data.decode()))


def offered(scorer, at: str) -> list[str]:
    return re.findall(r'value="step" data-from-white="\w+" data-to-white="\w+">([^ <]*)', scorer.get(at).data.decode())


def version(scorer, at: str) -> str:
    """The version of the game that its page's forms carry."""
    return re.search(r'name="version" value="(\d+)"', scorer.get(at).data.decode()).group(1)


def post(scorer, at: str, **fields):
    """A form of the game's page, sent from its current version."""
    return scorer.post(at, data={"version": version(scorer, at), **fields})


def act(scorer, at: str, action: str, **fields):
    response = post(scorer, at, action=action, **fields)
    assert response.status_code == 303, response.data
    return response


def confirmed(scorer, at: str, action: str, **fields):
    """An action asked again first (resign, drop, correct), answered yes."""
    asked = act(scorer, at, action, **fields)
    assert "confirm=" in asked.headers["Location"]
    return act(scorer, at, action, confirm="yes", **fields)


def test_a_short_backgammon_game_recorded_saved_and_found(scorer, archive_path):
    at = start(scorer, lead_roll="W3 B1", event="Club night")
    assert shown("%(player)s to play the dice %(dice)s (the lead roll).", player=WHITE, dice="31") in status(scorer, at)
    act(scorer, at, "dice", dice="64")  # the lead roll is the starter's first roll
    assert "R-LEAD" in status(scorer, at)
    act(scorer, at, "roll")
    assert "8/5" in offered(scorer, at) and "6/5" in offered(scorer, at)
    act(scorer, at, "step", **{"from": 8, "to": 5, "die": 3})
    assert offered(scorer, at) == [s for s in offered(scorer, at) if s.endswith(("/5", "/7", "/23", "/21", "/10", "/3", "/4", "/2", "/12", "/9"))]
    act(scorer, at, "undo-step")
    act(scorer, at, "step", **{"from": 8, "to": 5, "die": 3})
    act(scorer, at, "step", **{"from": 6, "to": 5, "die": 1})
    assert to_roll(BLACK) in status(scorer, at)
    act(scorer, at, "dice", dice="6-2")
    act(scorer, at, "play", play="24/10")
    refused = refusal(scorer, at)
    assert "[R-DICE]" in refused and "24/18 13/11" in refused  # the legal plays listed
    act(scorer, at, "play", play="24/18 13/11")
    act(scorer, at, "undo")  # take back Black's play: the dice stay
    assert plays(BLACK, "62") in status(scorer, at)
    act(scorer, at, "play", play="13/11 24/18")
    act(scorer, at, "annotate", comment="A <b>bold</b> split", nag="1")
    page = scorer.get(at).data.decode()
    assert "{A &lt;b&gt;bold&lt;/b&gt; split}" in page and "24/18 13/11 $1" in page
    act(scorer, at, "double")
    assert offered_cube(BLACK, 2) in status(scorer, at)
    confirmed(scorer, at, "drop")
    assert game_over(WHITE, 1, "drop") in status(scorer, at)
    saved = post(scorer, at, action="save")
    page = scorer.get(saved.headers["Location"]).data.decode()
    game_id = int(re.search(r'href="/game/(\d+)"', page).group(1))
    assert at not in scorer.get("/record/").text  # off the list of games in progress
    assert scorer.get(at).headers["Location"] == saved.headers["Location"]  # the old address leads there
    db = archive.open_archive(archive_path, readonly=True)
    rows, total = archive.search(db, archive.Query(player="ann"))
    assert total == 1 and rows[0]["id"] == game_id and rows[0]["result"] == "W+1"
    assert rows[0]["event"] == "Club night"
    stored = archive.load_game(db, game_id)
    assert [n.turn.kind for n in stored.mainline()] == ["roll", "roll", "double", "drop"]
    assert stored.end().parent.parent.comments == ["A <b>bold</b> split"]
    db.close()
    assert scorer.get(f"/game/{game_id}").status_code == 200


def test_only_legal_steps_are_offered_and_others_refused_with_their_rule(scorer):
    at = start(scorer, variant="jacquet", starter="White")
    act(scorer, at, "dice", dice="64")
    assert sorted(offered(scorer, at)) == ["24/18", "24/20"]  # one man leaves the talon
    act(scorer, at, "step", **{"from": 24, "to": 18, "die": 6})
    assert offered(scorer, at) == ["18/14"]  # the courier goes on (R-COURIER)
    act(scorer, at, "step", **{"from": 24, "to": 20, "die": 4})
    assert "[R-COURIER]" in refusal(scorer, at)
    act(scorer, at, "step", **{"from": 18, "to": 14, "die": 4})
    assert to_roll(BLACK) in status(scorer, at)


@pytest.mark.parametrize("dice", ["77", "6", "abc"])
def test_bad_dice_are_refused(scorer, dice):
    at = start(scorer, variant="jacquet", starter="White")
    act(scorer, at, "dice", dice=dice)
    assert refusal(scorer, at) and to_roll(WHITE) in status(scorer, at)


def test_a_game_in_progress_survives_a_restart(make_app, scorer):
    at = start(scorer, variant="jacquet", starter="Black")
    act(scorer, at, "dice", dice="53")
    act(scorer, at, "step", **{"from": 24, "to": 19, "die": 5})
    restarted = make_app().test_client()  # the scorer's session outlives the restart
    restarted.set_cookie("session", scorer.get_cookie("session").value)
    assert plays(BLACK, "53") + shown(": %(steps)s so far", steps="24/19") in status(restarted, at)
    assert offered(restarted, at) == ["19/16"]


def test_a_resignation_scores_what_the_rules_allow(scorer):
    at = start(scorer, variant="jacquet", starter="White")
    confirmed(scorer, at, "resign", points="9")
    assert refusal(scorer, at) and to_roll(WHITE) in status(scorer, at)
    confirmed(scorer, at, "resign", points="1")
    assert game_over(BLACK, 1, "resign") in status(scorer, at)
    assert '[Result "B+1"]' in scorer.get(at).data.decode().replace("&#34;", '"')


def test_a_match_goes_on_with_the_score_and_the_crawford_game(scorer):
    at = start(scorer, lead_roll="W3 B1", match="Final", match_length="2", game="1", score="0-0")
    act(scorer, at, "roll")
    act(scorer, at, "play", play="8/5 6/5")
    act(scorer, at, "double")  # Black doubles before his roll, White drops
    confirmed(scorer, at, "drop")
    saved = scorer.get(post(scorer, at, action="save").headers["Location"]).data.decode()
    assert shown(": the next game is the Crawford game") in saved
    fields = dict(re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', saved))
    assert fields["score"] == "0-1" and fields["game"] == "2" and fields["crawford"] == "yes"
    fields.pop("csrf_token", None)
    following = start(scorer, **fields, lead_roll="W6 B2")
    page = scorer.get(following).data.decode()
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


def test_forms_without_the_csrf_token_are_refused(make_app):
    visitor = make_app(WTF_CSRF_ENABLED=True).test_client()
    assert sign_in(visitor).status_code == 401  # no account yet: the form, CSRF token and all, works
    scorer = signed_in_client(make_app(WTF_CSRF_ENABLED=True))
    refused = scorer.post("/record/", data={"variant": "jacquet", "starter": "White"})
    assert refused.status_code == 400 and b"CSRF" in refused.data
    form = scorer.get("/record/").data.decode()
    token = re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)
    accepted = scorer.post("/record/", data={"variant": "jacquet", "starter": "White", "csrf_token": token})
    assert accepted.status_code == 303
    at = accepted.headers["Location"]
    assert scorer.post(at, data={"action": "roll"}).status_code == 400  # no token, no roll
    assert to_roll(WHITE) in status(scorer, at)


def test_player_names_are_shown_as_text(scorer):
    at = start(scorer, white="<script>alert(1)</script>", variant="jacquet", starter="White")
    page = scorer.get(at).data.decode()
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_unknown_recordings_and_actions(scorer):
    assert scorer.get("/record/nosuchkey").status_code == 404
    at = start(scorer, variant="jacquet", starter="White")
    assert post(scorer, at, action="explode").status_code == 400
    assert scorer.post("/record/", data={"variant": "chess"}).status_code == 400
    with scorer.get(at + ".jqn") as download:
        assert download.status_code == 200 and b'[White "Ann"]' in download.data
    assert scorer.get(at + ".mat").status_code == 404  # .mat holds backgammon only


@pytest.mark.parametrize("fields", [{"action": "resign", "points": "²"},
                                    {"action": "resign", "points": "9" * 5000},
                                    {"action": "annotate", "nag": "²"},
                                    {"action": "annotate", "nag": "77"},
                                    {"action": "annotate", "comment": "x" * 2001},
                                    {"action": "play", "play": "24/18(" + "9" * 5000},
                                    {"action": "step", "from": "99999999999999999999", "to": "1", "die": "1"}])
def test_malformed_actions_are_400_not_500(scorer, fields):
    at = start(scorer, variant="jacquet", starter="White")
    if fields["action"] in ("play", "step"):
        act(scorer, at, "dice", dice="64")
    assert post(scorer, at, **fields).status_code == 400


def test_a_form_sent_again_or_from_an_older_page_is_not_applied(scorer):
    """A double click on "Take back" takes back one turn, not two."""
    at = start(scorer, lead_roll="W3 B1")
    act(scorer, at, "roll")
    act(scorer, at, "play", play="8/5 6/5")
    act(scorer, at, "dice", dice="53")
    act(scorer, at, "play", play="24/16")
    page = version(scorer, at)
    for _ in range(2):
        assert scorer.post(at, data={"action": "undo", "version": page}).status_code == 303
    shown_now = status(scorer, at)  # one turn taken back (its dice stay), the second click refused
    assert plays(BLACK, "53") in shown_now and OUT_OF_DATE in shown_now
    assert scorer.post(at, data={"action": "undo"}).status_code == 303  # no version: not applied
    assert OUT_OF_DATE in status(scorer, at)
    assert "8/5 6/5" in scorer.get(at + ".jqn").data.decode()


def test_a_step_off_the_board_is_refused(scorer):
    at = start(scorer, variant="jacquet", starter="White")
    act(scorer, at, "dice", dice="64")
    act(scorer, at, "step", **{"from": 99, "to": 1, "die": 6})
    assert shown("Refused: %(error)s", error=say("recorder.no-step", start=99, end=1, die=6)) in refusal(scorer, at)


@pytest.mark.parametrize("fields", [{"match_length": "x"}, {"score": "abc"}, {"game": "0"},
                                    {"white": "x" * 201}, {"match_length": "3", "score": "5-0"},
                                    {"match_length": "3", "score": "1-3"}, {"date": "not a date"},
                                    {"date": "2024-13"}, {"date": "2024.13.45"}, {"date": "2024.01.32"}])
def test_bad_match_tags_are_refused_at_the_start(scorer, fields):
    response = scorer.post("/record/", data={"variant": "backgammon", "starter": "White", **fields})
    assert response.status_code == 400 and shown("The game cannot start: %(error)s", error="") in response.text


def test_the_starter_is_white_black_or_the_lead_roll(scorer):
    assert scorer.post("/record/", data={"variant": "jacquet", "starter": "Nobody"}).status_code == 400
    for date in ("2024.03.15", "2024", "????.??.??"):
        start(scorer, variant="jacquet", starter="Black", date=date, match_length="3", score="2-2")


def test_the_lead_roll_is_rolled_when_none_is_given(scorer):
    at = start(scorer, variant="backgammon")
    page = scorer.get(at).text.replace("&#34;", '"')
    lead = re.search(r'\[LeadRoll "W(\d) B(\d)"\]', page)
    assert lead and lead.group(1) != lead.group(2)
    starter = WHITE if lead.group(1) > lead.group(2) else BLACK
    dice = max(lead.groups()) + min(lead.groups())
    assert shown("%(player)s to play the dice %(dice)s (the lead roll).", player=starter, dice=dice) in status(scorer, at)


def test_no_double_before_the_opening_roll(scorer):
    at = start(scorer, lead_roll="W3 B1")
    assert 'value="double"' not in scorer.get(at).text
    act(scorer, at, "double")
    assert "[R-CUBE]" in refusal(scorer, at)


def test_two_changes_at_once_do_not_overwrite_each_other(archive_path, scorer):
    at = start(scorer, variant="jacquet", starter="White")
    key = at.rsplit("/", 1)[1]
    db = archive.open_archive(archive_path)
    stale = archive.load_live(db, key, timedelta(days=7))
    act(scorer, at, "annotate", comment="first")
    assert not archive.save_live(db, key, stale.record, stale.pending, stale.version)
    assert "first" in scorer.get(at).text
    assert key not in " ".join(str(row) for row in db.execute("SELECT * FROM live_games"))  # stored hashed
    db.close()


def labels(scorer, at: str) -> dict[int, int]:
    """The number drawn on each point of the board, by White's number (the shapes' names)."""
    page = scorer.get(at).text
    return {int(white): int(label) for white, label in re.findall(
        r'<g class="column" data-point="(\d+)"><polygon[^>]*/><text[^>]*>(\d+)</text>', page)}


def test_the_board_is_numbered_for_the_player_on_roll_and_takes_his_numbers(scorer):
    at = start(scorer, variant="jacquet", starter="White")
    assert labels(scorer, at)[24] == 24 and labels(scorer, at)[13] == 13  # White's own numbers
    act(scorer, at, "dice", dice="64")
    act(scorer, at, "play", play="24/14")
    act(scorer, at, "dice", dice="53")
    shown = labels(scorer, at)
    assert shown[12] == 24 and shown[13] == 1  # Black's talon, his 24, is White's 12
    assert sorted(offered(scorer, at)) == ["24/19", "24/21"]  # offered in the numbers shown
    act(scorer, at, "play", play="24/16")  # typed in the numbers shown
    assert to_roll(WHITE) in status(scorer, at)
    assert "1. 64: 24/14 53: 24/16" in scorer.get(at).text


def test_server_dice_stand_a_take_back_returns_the_play_not_the_roll(scorer, monkeypatch):
    # the server's roll made known (25): 66 leaves a single step to play at jacquet's start
    # (24/18; 12 is the opponent's talon), which ends the turn at its first step, and the
    # test is of a turn taken back half-played (one run in 36 failed before)
    monkeypatch.setattr(random, "SystemRandom", lambda: random.Random(1))
    at = start(scorer, variant="jacquet", starter="White")
    act(scorer, at, "roll")
    dice = re.search(plays(WHITE, r"(\d\d)"), status(scorer, at)).group(1)
    act(scorer, at, "step", **dict(zip(("from", "to", "die"), _first_step(scorer, at), strict=True)))
    act(scorer, at, "undo-steps")
    act(scorer, at, "clear-dice")  # rolled dice cannot be cleared
    assert say("recorder.rolled", dice=dice) in refusal(scorer, at) and plays(WHITE, dice) in status(scorer, at)
    other = "11" if dice != "11" else "22"
    act(scorer, at, "play", play=_some_play(scorer, at))
    act(scorer, at, "undo")  # the play is returned, the roll stays
    assert plays(WHITE, dice) in status(scorer, at)
    act(scorer, at, "play", play=_some_play(scorer, at))
    confirmed(scorer, at, "correct", ply="0")  # taken back to the start: the same dice again
    assert plays(WHITE, dice) in status(scorer, at)
    act(scorer, at, "play", play=_some_play(scorer, at))
    act(scorer, at, "dice", dice=other)  # Black's dice, typed at the table, can be changed
    act(scorer, at, "clear-dice")
    assert to_roll(BLACK) in status(scorer, at)


def _first_step(scorer, at: str) -> tuple[str, str, str]:
    page = scorer.get(at).text
    return re.search(r'name="from" value="(\d+)"><input type="hidden" name="to" value="(\d+)">'
                     r'<input type="hidden" name="die" value="(\d)">', page).groups()


def _some_play(scorer, at: str) -> str:
    """A legal play of the turn in progress, from the refusal of a wrong one."""
    act(scorer, at, "play", play="1/0")
    return re.search(r"Legal plays: ([^,.]+)", status(scorer, at)).group(1)


def test_resign_and_drop_are_asked_again_and_a_no_changes_nothing(scorer):
    at = start(scorer, variant="backgammon", starter="White")
    asked = act(scorer, at, "resign", points="2")
    question = scorer.get(asked.headers["Location"]).text
    assert "White resigns: Black wins 2 points and the game ends. Is that so?" in question
    assert 'name="confirm" value="yes"' in question and shown("No, go back") in question
    assert to_roll(WHITE) in status(scorer, at)  # nothing done yet
    act(scorer, at, "roll")
    act(scorer, at, "play", play=_some_play(scorer, at))
    act(scorer, at, "double")  # Black doubles
    asked = act(scorer, at, "drop")
    assert "White drops the cube: Black wins 1 point" in scorer.get(asked.headers["Location"]).text
    assert offered_cube(WHITE, 2) in status(scorer, at)
    page = scorer.get(at).text
    take, drop = page.index('value="take"'), page.index('value="drop"')
    assert take < drop and "</form>" in page[take:drop]  # two forms, each its own big button
    confirmed(scorer, at, "drop")
    assert game_over(BLACK, 1, "drop") in status(scorer, at)
    assert scorer.get(at + "?confirm=explode").status_code == 400


def test_a_past_turn_is_corrected_with_confirmation(scorer):
    at = start(scorer, variant="jacquet", starter="White")
    for dice, play in (("64", "24/14"), ("53", "24/16"), ("21", "14/13/11")):
        act(scorer, at, "dice", dice=dice)
        act(scorer, at, "play", play=play)
    asked = act(scorer, at, "correct", ply="1")
    question = scorer.get(asked.headers["Location"]).text
    assert "Take the game back to after 1. 64: 24/14? The 2 turns after it will be removed" in question
    assert "2. 21: 14/13/11" in scorer.get(at + ".jqn").text  # not yet
    act(scorer, at, "correct", ply="1", confirm="yes")
    assert plays(BLACK, "53") in status(scorer, at)  # the dice of the turn taken back stand
    assert "2. 21" not in scorer.get(at + ".jqn").text
    act(scorer, at, "correct", ply="7", confirm="yes")
    assert "[R-END]" in refusal(scorer, at)
    assert scorer.get(at + "?confirm=correct&ply=7").status_code == 400  # not a 500
    assert scorer.get(at + "?confirm=drop").status_code == 400  # no cube offered


def test_a_refused_play_keeps_the_input_and_says_why_beside_it(scorer):
    at = start(scorer, variant="jacquet", starter="White")
    act(scorer, at, "dice", dice="64")
    act(scorer, at, "play", play="hello")
    page = scorer.get(at).text
    note = re.search(r'<p class="note" id="note-play" role="alert">([^<]*)</p>', page)
    assert note and escape(say("play.not-a-move", token="'hello'")) in note.group(1)
    assert page.index('id="play-input"') < note.start()  # beside the field, not at the top
    assert re.search(r'id="play-input"[^>]*value="hello"', page)
    assert 'value="hello"' not in scorer.get(at).text  # once


def test_the_start_form_has_today_and_lists_the_games_in_progress(scorer, client):
    today = datetime.date.today().strftime("%Y.%m.%d")
    assert f'name="date" value="{today}"' in scorer.get("/record/").text
    first = start(scorer, variant="jacquet", starter="White", white="Marie", black="Jean")
    second = start(scorer, variant="backgammon", starter="Black", white="Ann", black="Bob")
    listed = scorer.get("/record/").text
    assert f'href="{second}"' in listed and f'href="{first}"' in listed
    assert listed.index(second) < listed.index(first)  # the latest first
    assert "Marie – Jean" in listed and "White to act" in listed
    assert f'href="{first}"' not in client.get("/record/").text  # per browser


def test_the_saved_page_survives_a_reload_and_offers_the_next_game(scorer, client):
    at = start(scorer, lead_roll="W3 B1", match="Final", match_length="3", game="1", score="0-0")
    confirmed(scorer, at, "resign", points="1")
    saved = post(scorer, at, action="save").headers["Location"]
    assert saved.startswith("/record/saved/")
    for _ in range(2):  # a reload shows it again
        page = scorer.get(saved).text
        assert shown("%(player)s won %(points)s (%(how)s)", player=BLACK, points=1, how=say("ended.resign")) in page
        assert shown("Start the next game of the match (game %(game)s)", game=2) in page
    assert scorer.get(at).headers["Location"] == saved
    assert client.get(at).status_code == 404  # another browser: gone
    assert scorer.get("/record/saved/999").status_code == 404


def test_a_game_starts_from_a_position_id(scorer):
    position = Position.from_points({6: 5, 5: 5, 4: 5}, {6: 5, 5: 5, 4: 5})
    at = start(scorer, variant="backgammon", starter="White", position=position.position_id())
    record = scorer.get(at + ".jqn").text
    assert f'[Position "{position.position_id()}"]' in record
    assert ".mat" not in scorer.get(at).text and scorer.get(at + ".mat").status_code == 404  # .mat cannot say it
    act(scorer, at, "dice", dice="61")
    act(scorer, at, "play", play="6/off 5/4")
    game = game_from_text(scorer.get(at + ".jqn").text)
    assert game.state.position == position
    assert game.end().state.position.pip_counts() == (75, 68)  # Black's, on roll, then White's
    refused = scorer.post("/record/", data={"variant": "jacquet", "starter": "White", "position": "hello"})
    unreadable = Message.of("position-id.length", length=14, found=5, id="'hello'")
    assert refused.status_code == 400
    assert escape(say("tag.position", rules="jacquet", error=unreadable)) in refused.text


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_the_corrections_first_choice_is_the_start_in_the_pages_language(scorer, language):
    """The list of turns a correction may go back to begins with the game's start, named in
    the page's language (it said "the start" in English on every page)."""
    at = start(scorer, variant="jacquet", starter="White")
    act(scorer, at, "dice", dice="64")
    act(scorer, at, "play", play="24/14")
    page = scorer.get(at, headers={"Accept-Language": language}).text
    choices = re.search(r'<select name="ply">(.*?)</select>', page, re.S).group(1)
    assert re.findall(r'<option value="(\d+)">([^<]*)</option>', choices) == [
        ("0", shown("the start of the game", language))]


def test_the_prompt_counts_the_plays_the_steps_entered_still_lead_to(scorer):
    """While a play is entered step by step, the count is of the plays still open, not the
    roll's: backgammon's 64 from the start, then 24/18 leaves the five 4s (24/20, 18/14, 13/9,
    8/4, 6/2)."""
    at = start(scorer, starter="White")
    act(scorer, at, "dice", dice="64")
    rules = rule_set("backgammon")
    every = len(legal_plays(GameState.start(rules).position, Dice.parse("64"), rules))
    assert shown_count("%(num)d legal play", "%(num)d legal plays", every) in status(scorer, at)
    act(scorer, at, "step", **{"from": 24, "to": 18, "die": 6})
    assert shown_count("%(num)d legal play", "%(num)d legal plays", 5) in status(scorer, at)
    act(scorer, at, "step", **{"from": 18, "to": 14, "die": 4})
    assert to_roll(BLACK) in status(scorer, at)
