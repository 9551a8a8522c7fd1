"""Playing the engine in the viewer (``/play/``) through Flask's test client, as a visitor:
a whole game against the random engine through the forms, the engine answering at once,
hints that are the engine's ranking, the game analysed at the end, downloaded, refused to
a visitor's store (401) and stored by a scorer; a game surviving a reload and a restart;
dice only from the server; another browser's game watched, not played; and the bounds
(games per visitor and on the server, a game's length, the 1-ply engine in the worker pool
within its time)."""

from __future__ import annotations

import html
import random
import re
import types
from datetime import timedelta

import pytest

import archive
from analysis.analyse import analyse_game
from analysis.confirm import confirmation_level, deeper_judge
from analysis.ranking import Evaluator
from analysis.shipped import load_net
from archive.played import load_played, save_played
from notation import rule_set
from notation.engine.rules import DEFAULT, NAMES
from notation.engine.state import PASSED, Colour
from notation.formats import read_file
from notation.formats.jqn import write_game
from notation.messages import Message, render
from notation.recording import LiveGame, game_from_text
from notation.tree.game import Game, GameNode
from tests.accounts_helpers import add_account, sign_in
from tests.viewer_helpers import shown, shown_count, shown_pattern
from webviewer.blueprints.play import analyses

ENGINE = load_net("jacquet").name
"""The shipped jacquet engine's name (its contact and race nets': it changes with them)."""
ENGINE_0PLY = f"{ENGINE}, 0-ply"
ENGINE_PLAYED = '<p class="engine-play">'
"""The engine's answer on the game's page (what it played)."""
GAME_OVER = '<section class="store"'
"""What a game over's page has: the form that stores it (or the link to sign in first)."""


def confirmed_at(engine: str, level: str) -> str:
    """The analysis' engine as the game's page names it, its marks confirmed at ``level``."""
    return engine + shown(", marks confirmed at %(level)s", level=level)


@pytest.fixture
def viewer_config():
    """The viewer of these tests (``app``, ``client``: tests/conftest.py): forms without
    their CSRF token, the engine in the request's thread unless a test says."""
    return {"WTF_CSRF_ENABLED": False, "WORKERS": 0}


def start(client, **fields) -> str:
    response = client.post("/play/", data={"variant": "jacquet", "side": "White",
                                           "strength": "random", **fields})
    assert response.status_code == 303, response.text
    return response.headers["Location"]


def version(page: str) -> str:
    return re.search(r'name="version" value="(\d+)"', page).group(1)


def status(page: str) -> str:
    return html.unescape(re.search(r'class="status" role="status">([^<]*)<', page).group(1))


def hinted(page: str) -> list[tuple[str, str]]:
    """(play, equity) of each row of the page's hints."""
    section = page[page.index('class="candidates"'):]
    return [(html.unescape(play), equity) for play, equity in
            re.findall(r'<td class="play">([^<]*)</td><td>([^<]*)</td>', section[:section.index("</section>")])]


def live_game(app, at: str) -> LiveGame:
    """The game under the page's address, as the archive keeps it."""
    db = archive.open_archive(app.config["ARCHIVE"])
    try:
        stored = load_played(db, at.rsplit("/", 1)[1], timedelta(days=1))
    finally:
        db.close()
    assert stored is not None
    return LiveGame.load(stored.record, stored.pending)


def play_out(client, at: str, rng: random.Random, most: int = 600) -> tuple[str, int]:
    """Play the visitor's turns until the game is over, each play typed from the hints (one
    of them at random) or, now and then, entered step by step; the last page and how many
    times the engine was seen answering at once."""
    answered = played = 0
    for _ in range(most):
        page = client.get(f"{at}?hints=1").text
        assert "Refused" not in page
        if played:
            answered += ENGINE_PLAYED in page
            played = 0
        if GAME_OVER in page:
            return page, answered
        if 'value="roll"' in page:
            assert client.post(at, data={"version": version(page), "action": "roll"}).status_code == 303
            continue
        if rng.random() < 0.2:  # a step button, as a click on the board presses it
            step = re.search(r'name="from" value="(\d+)"><input type="hidden" name="to" value="(\d+)">'
                             r'<input type="hidden" name="die" value="(\d+)">', page).groups()
            data = {"action": "step", "from": step[0], "to": step[1], "die": step[2]}
        else:
            data = {"action": "play", "play": rng.choice(hinted(page))[0]}
        after = client.post(at, data={"version": version(page), **data})
        assert after.status_code == 303
        played = data["action"] == "play"
    raise AssertionError("the game did not end")


def test_a_whole_game_against_the_random_engine(app, client, archive_path):
    at = start(client)
    assert shown("You (%(side)s) against %(engine)s", side=shown("White"), engine="random") in client.get(at).text
    page, answered = play_out(client, at, random.Random(7))
    assert answered > 5  # the engine's turns came with the answer to the visitor's
    analysis = page[page.index('class="analysis"'):]
    engine = re.search(r'<span class="engine">([^<]+)</span>', analysis).group(1)
    net = load_net("jacquet")
    judge = deeper_judge(rule_set("jacquet").confirmation, net, rule_set("jacquet"))
    confirmed = engine != ENGINE_0PLY  # at the default level, or not when that takes over WORK_SECONDS
    assert not confirmed or engine == confirmed_at(ENGINE_0PLY, judge.level)

    download = client.get(f"{at}.jqn")
    assert download.status_code == 200 and "attachment" in download.headers["Content-Disposition"]
    game = game_from_text(download.text)
    assert game.end().state.over and game.headers["White"] == "Visitor" and game.headers["Black"] == "random"
    assert game.headers["Annotator"] == engine
    played = game_from_text(live_game(app, at).record())
    judged = analyse_game(played, Evaluator(net, played.rules), confirm=judge if confirmed else None)
    marked = re.findall(r'<li value="(\d+)"(?: data-mark="([^"]*)")?>', analysis)
    assert marked == [(str(t.ply), t.mark or "") for t in judged.turns]
    white = judged.players[next(iter(judged.players))]
    assert f"<td>{white.decisions}</td>" in analysis and f"{white.error_rate:.1f}" in analysis

    refused = client.post(f"{at}/store")
    assert refused.status_code == 401
    db = archive.open_archive(archive_path)
    assert db["games"].count == 0
    db.close()
    add_account(archive_path)
    assert sign_in(client).status_code == 303
    assert shown("Store the game in the archive") in client.get(at).text
    stored = client.post(f"{at}/store")
    assert stored.status_code == 303 and "/game/" in stored.headers["Location"]
    assert client.post(f"{at}/store").headers["Location"] == stored.headers["Location"]  # once
    db = archive.open_archive(archive_path)
    try:
        assert db["games"].count == 1
        kept = archive.load_game(db, int(stored.headers["Location"].rsplit("/", 1)[1]))
        assert [n.turn.play.notation for n in kept.mainline() if n.turn.play] == \
            [n.turn.play.notation for n in played.mainline() if n.turn.play]
    finally:
        db.close()


def test_hints_are_the_engines_ranking_of_your_roll(app, client):
    at = start(client)
    for _ in range(4):  # the engine may have started: roll until the visitor has dice
        page = client.get(at).text
        if 'value="roll"' not in page:
            break
        client.post(at, data={"version": version(page), "action": "roll"})
    live = live_game(app, at)
    state = live.node.state
    primes = (state.prime_held[state.player.index], state.prime_held[state.player.other.index])
    evaluator = Evaluator(load_net("jacquet"), live.game.rules, ply=0)
    ranked = evaluator.rank(live.entry().plays, state.position, primes)
    assert "candidates" not in client.get(at).text  # only on request
    page = client.get(f"{at}?hints=1").text
    assert hinted(page) == [(c.play.notation, f"{round(c.equity, 4):+.3f}") for c in ranked]
    assert evaluator.name in page


def _passed_die_game() -> tuple[str, str, str]:
    """The first generated versailles sample game up to its ply 82, where the die 3 the
    opponent could not play is passed to the player (R-PASS): (record, the player's side
    W or B, the die)."""
    source = next(iter(read_file("samples/generated/versailles-10.jqn")))
    game = Game(source.rules)
    game.state = source.state
    game.headers.update({k: v for k, v in source.headers.items() if k != "Result"})
    at: Game | GameNode = game
    for node in source.mainline():
        if node.turn is None:
            continue
        if node.ply == 82:
            assert node.turn.kind == PASSED and node.turn.dice.low is None
            return write_game(game), node.turn.player.value, str(node.turn.dice)
        at = at.add_turn(node.turn.kind, node.turn.dice, node.turn.play.notation if node.turn.play else None)
    raise AssertionError("the sample game has changed")


def test_hints_rank_the_one_die_passed_to_you(app, client):
    """Versailles' R-PASS: the die the opponent could not play is the player's to play, and
    the hints rank its plays as the engine ranks them."""
    record, side, die = _passed_die_game()
    at = start(client, variant="versailles", side="White" if side == "W" else "Black")
    db = archive.open_archive(app.config["ARCHIVE"])
    try:
        stored = load_played(db, at.rsplit("/", 1)[1], timedelta(days=1))
        assert save_played(db, at.rsplit("/", 1)[1], record, {"dice": die}, stored.version)
    finally:
        db.close()
    live = live_game(app, at)
    assert live.kind == PASSED and str(live.dice) == die
    plays = live.entry().plays
    assert len(plays) > 1
    ranked = Evaluator(load_net("versailles"), live.game.rules).rank(plays, live.node.state.position)
    page = client.get(f"{at}?hints=1").text
    assert hinted(page) == [(c.play.notation, f"{round(c.equity, 4):+.3f}") for c in ranked]
    chosen = hinted(page)[0][0]
    assert client.post(at, data={"version": version(page), "action": "play", "play": chosen}).status_code == 303
    assert "Refused" not in client.get(at).text


def test_a_game_survives_a_reload_and_a_restart(make_app, client):
    at = start(client, side="Black")
    page = client.get(at).text
    while 'value="roll"' in page:
        client.post(at, data={"version": version(page), "action": "roll"})
        page = client.get(at).text
    step = re.search(r'name="from" value="(\d+)"><input type="hidden" name="to" value="(\d+)">'
                     r'<input type="hidden" name="die" value="(\d+)">', page).groups()
    client.post(at, data={"version": version(page), "action": "step", "from": step[0],
                          "to": step[1], "die": step[2]})
    before = client.get(at).text
    assert status(client.get(at).text) == status(before)  # reloaded: the same dice, the step kept
    restarted = make_app().test_client()
    restarted.set_cookie("session", client.get_cookie("session").value)
    again = restarted.get(at).text
    assert status(again) == status(before)
    assert re.search(r'<pre class="record">(.*?)</pre>', again, re.S).group(1) == \
        re.search(r'<pre class="record">(.*?)</pre>', before, re.S).group(1)
    assert restarted.get("/play/").text.count(at) >= 1  # listed in this browser


def test_dice_come_from_the_server_only(client):
    at = start(client)
    page = client.get(at).text
    assert 'name="dice"' not in page  # no field for dice, as the recorder's scorer has
    refused = client.post(at, data={"version": version(page), "action": "dice", "dice": "66"})
    assert refused.status_code == 400 and "unknown action" in refused.text


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_the_start_page_says_there_is_no_cube_before_a_backgammon_player_looks_for_it(client, language):
    """A backgammon player finds no Double button in the web game: the start page says so
    first, and where the engine takes a double (the terminal's ``jacquet play``)."""
    page = client.get("/play/", headers={"Accept-Language": language}).text
    said = shown("There is no doubling cube here, in backgammon either: a game is worth the points its end "
                 "gives. To double against the engine, play it in the terminal (jacquet play).", language)
    assert f'<p class="hint no-cube">{said}</p>' in page


def test_a_backgammon_game_has_no_cube_on_its_board(client):
    """The web game is played without the cube (the nets are cubeless): its board draws
    none (no cube showing 64 in the middle)."""
    at = start(client, variant="backgammon")
    page = client.get(at).text
    board = re.search(r"<svg.*?</svg>", page, re.S).group(0)
    assert 'class="jacquet-board"' in board and 'class="cube"' not in board and ">64<" not in board


@pytest.mark.parametrize("fields", [{"action": "step", "from": "x1", "to": "2", "die": "1"},
                                    {"action": "resign", "points": "-1"}, {"action": "cube"},
                                    {"action": "play", "play": "24/18 " * 50}])
def test_a_form_out_of_its_choices_is_refused_with_its_reason(client, fields):
    at = start(client)
    refused = client.post(at, data={"version": version(client.get(at).text), **fields})
    assert refused.status_code == 400 and "Traceback" not in refused.text
    assert client.get("/play/no-such-game").status_code == 404


def test_another_browsers_game_is_watched_not_played(app, client):
    at = start(client)
    other = app.test_client()
    page = other.get(at)
    assert page.status_code == 200
    assert shown("This game was started in another browser: you may watch it, not play it.") in page.text
    assert other.post(at, data={"version": version(client.get(at).text), "action": "roll"}).status_code == 403


@pytest.mark.parametrize("fields", [{"variant": "chess"}, {"side": "Red"}, {"strength": "3"}])
def test_a_start_form_out_of_its_choices_is_refused(client, fields):
    response = client.post("/play/", data={"variant": "jacquet", "side": "White", "strength": "random", **fields})
    assert response.status_code == 400 and "Traceback" not in response.text


def rolled(client, at: str) -> str:
    """``at`` after the player's first action (a roll, or a play if the lead roll gave
    him the first turn): a game being played, which a new
    game does not push out (tests/test_play_capacity.py)."""
    page = client.get(f"{at}?hints=1").text
    action = {"action": "roll"} if 'value="roll"' in page else {"action": "play", "play": hinted(page)[0][0]}
    assert client.post(at, data={"version": version(page), **action}).status_code == 303
    return at


def test_games_in_progress_are_capped_per_visitor_and_on_the_server(make_app):
    app = make_app(PLAY_GAMES_PER_VISITOR=2, PLAY_GAMES=3)
    first = app.test_client()
    rolled(first, start(first))
    rolled(first, start(first))
    refused = first.post("/play/", data={"variant": "jacquet", "side": "White", "strength": "random"})
    assert refused.status_code == 429 and "PLAY_GAMES_PER_VISITOR" in refused.text
    second = app.test_client()
    rolled(second, start(second))
    full = second.post("/play/", data={"variant": "jacquet", "side": "White", "strength": "random"})
    assert full.status_code == 429 and "PLAY_GAMES" in full.text


def test_a_game_is_capped_in_length(make_app):
    app = make_app(PLAY_MAX_TURNS=4)
    client = app.test_client()
    at = start(client)
    rng = random.Random(3)
    for _ in range(30):
        page = client.get(f"{at}?hints=1").text
        if "PLAY_MAX_TURNS" in page:
            break
        if 'value="roll"' in page:
            data = {"action": "roll"}
        else:  # a roll, or one die passed to the player (versailles' R-PASS): ranked alike
            data = {"action": "play", "play": rng.choice(hinted(page))[0]}
        client.post(at, data={"version": version(page), **data})
    else:
        raise AssertionError("the game went on past its length")
    assert live_game(app, at).node.ply == 4 and 'name="action"' not in page
    refused = client.post(at, data={"version": "0", "action": "roll"})
    assert refused.status_code == 400 and "PLAY_MAX_TURNS" in refused.text


def test_the_strongest_level_is_the_2ply_engine(client):
    page = client.get(start(client, strength="2")).text
    assert f"{ENGINE}, 2-ply" in page


def test_the_1ply_engine_plays_in_the_worker_pool_within_its_time(make_app, monkeypatch):
    """Its answer is a job of the worker pool; over the pool's time it is refused and
    nothing of it kept (the pool's own timeout is tests/test_server_bounds.py's: a job made
    to outlast WORK_SECONDS here would race the machine's pace)."""
    from webviewer.blueprints import play as blueprint
    from webviewer.plumbing.workers import OverBudget

    client = make_app(WORKERS=1).test_client()
    at = start(client, strength="1")
    page = client.get(f"{at}?hints=1").text  # hints asked at once: the lead roll may be ours to play
    assert f"{ENGINE}, 1-ply" in page
    while 'value="roll"' in page:  # the engine played in a worker if it won the lead roll
        client.post(at, data={"version": version(page), "action": "roll"})
        page = client.get(f"{at}?hints=1").text
    play = hinted(page)[0][0]

    def over_time(function, *args):
        raise OverBudget("time", {"seconds": "0.001"})

    monkeypatch.setattr(blueprint, "run_work", over_time)
    over = client.post(at, data={"version": version(page), "action": "play", "play": play})
    assert over.status_code == 413 and "WORK_SECONDS" in over.text
    assert version(client.get(at).text) == version(page)  # nothing of it kept
    jobs: list[str] = []
    monkeypatch.undo()
    pool = blueprint.run_work
    monkeypatch.setattr(blueprint, "run_work", lambda function, *args: jobs.append(function.__name__)
                        or pool(function, *args))
    answered = client.post(at, data={"version": version(page), "action": "play", "play": play})
    assert answered.status_code == 303 and jobs == ["engine_turns"]
    page = client.get(at).text
    assert ENGINE_PLAYED in page or GAME_OVER in page


def test_an_engine_cut_short_at_the_start_answers_when_asked(app, client, monkeypatch):
    from webviewer.blueprints import play
    from webviewer.plumbing.workers import OverBudget

    def over_time(function, *args):
        raise OverBudget("time", {"seconds": 10})

    monkeypatch.setattr(play, "roll_lead", lambda variant, rng: "W1 B6")  # the engine starts
    monkeypatch.setattr(play, "run_work", over_time)
    answer = client.post("/play/", data={"variant": "jacquet", "side": "White", "strength": "1"})
    assert answer.status_code == 413
    at = re.search(r'<li><a href="(/play/[\w-]+)"', client.get("/play/").text).group(1)
    page = client.get(at).text
    assert shown("The engine has not answered yet (the server was busy, or its answer took too long).") in page
    assert client.post(at, data={"version": version(page), "action": "roll"}).status_code == 400
    monkeypatch.undo()
    assert client.post(at, data={"version": version(page), "action": "answer"}).status_code == 303
    page = client.get(at).text
    assert shown_pattern("The engine played %(plays)s.", plays=r"1\.\.\. \d\d: [^.]+").search(page)
    assert shown("Your turn: roll.") in page


def resigned_game(client) -> str:
    """A game the visitor resigns at once (its analysis is quickly made)."""
    at = start(client)
    page = client.get(at).text
    assert client.post(at, data={"version": version(page), "action": "resign", "points": "1"}).status_code == 303
    return at


def test_the_finished_game_is_analysed_as_jacquet_analyse_does_first_and_lightest_last():
    for name in NAMES:
        tried = analyses(rule_set(name))
        assert tried[0] == (True, rule_set(name).confirmation) and tried[-1] == (False, "none")
        assert len({confirm for _, confirm in tried}) == len(tried)  # each lighter than the one before
        assert (True, "1ply") in tried


ANALYSES = analyses(rule_set("jacquet"))


@pytest.mark.parametrize("over_time", range(1, len(ANALYSES) + 1))
def test_an_analysis_over_time_takes_the_next_lighter_one_then_says_so(client, monkeypatch, over_time):
    from webviewer.blueprints import play
    from webviewer.plumbing.workers import OverBudget

    calls = []

    def hurried(function, *args):
        calls.append(args)
        if len(calls) <= over_time:
            raise OverBudget("time", {"seconds": 10})
        return function(*args)

    at = resigned_game(client)
    monkeypatch.setattr(play, "run_work", hurried)
    page = client.get(at).text
    assert shown_count("Game over: the engine wins %(num)d point", "Game over: the engine wins %(num)d points", 1) in page
    assert [args[1:] for args in calls] == list(ANALYSES[:over_time + 1])
    if over_time < len(ANALYSES):
        luck, confirm = ANALYSES[over_time]
        assert 'class="analysis"' in page
        assert (shown("The luck was not measured: it takes longer than the server allows a request (WORK_SECONDS).")
                in page) == (not luck)
        engine = re.search(r'<span class="engine">([^<]+)</span>', page).group(1)
        level = confirmation_level(confirm, rule_set("jacquet"))
        assert engine == (confirmed_at(ENGINE_0PLY, level) if level else ENGINE_0PLY)
    else:
        assert "could not be analysed within the server" in page and 'class="analysis"' not in page
    made = len(calls)
    client.get(at)
    assert len(calls) == made  # kept: not made again
    assert client.get(f"{at}.jqn").status_code == 200


@pytest.mark.parametrize("variant", [name for name in NAMES if name != DEFAULT])
def test_every_rule_set_against_its_net(client, variant, monkeypatch):
    dice = random.Random(11)  # the server's dice drawn from a seed: the same turns every run
    for module in ("webviewer.blueprints.play", "webviewer.pages.play_engine"):
        monkeypatch.setattr(f"{module}.random", types.SimpleNamespace(SystemRandom=lambda: dice))
    at = start(client, variant=variant, strength="0", side="Black")
    page = client.get(at).text
    assert f"jacquet-td {variant} v" in page and "0-ply" in page
    rng = random.Random(5)
    answered = 0
    for _ in range(12):
        page = client.get(f"{at}?hints=1").text
        if GAME_OVER in page:
            break
        if 'value="roll"' in page:
            data = {"action": "roll"}
        else:  # a roll, or one die passed to the player (versailles' R-PASS): ranked alike
            data = {"action": "play", "play": rng.choice(hinted(page))[0]}
        assert client.post(at, data={"version": version(page), **data}).status_code == 303
        answered += ENGINE_PLAYED in client.get(at).text
    assert answered >= 3


def test_a_game_over_leaves_room_for_new_ones(make_app):
    app = make_app(PLAY_GAMES_PER_VISITOR=1, PLAY_GAMES=2)
    first = app.test_client()
    finished = resigned_game(first)
    assert shown("The game analysed") in first.get(finished).text  # over and analysed: no longer counted
    rolled(first, start(first))
    other = app.test_client()
    rolled(other, start(other))  # the server full: the game over makes room
    assert first.get(finished).status_code == 404
    refused = app.test_client().post("/play/", data={"variant": "jacquet", "side": "White",
                                                     "strength": "random"})
    assert refused.status_code == 429 and "PLAY_GAMES)" in refused.text


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_a_roll_the_engine_could_not_play_is_said_in_words(app, client, language):
    """The engine's roll it could not play is said as the game page says it ("White rolled
    44 and could not play."), in the page's language, not as the record's "-" ("The engine
    played 3. 44: -.")."""
    source = next(iter(read_file("samples/generated/jacquet-10.jqn")))  # 3. 44: - is White's
    at = start(client, side="Black")
    db = archive.open_archive(app.config["ARCHIVE"])
    try:
        key = at.rsplit("/", 1)[1]
        stored = load_played(db, key, timedelta(days=1))
        game = Game(source.rules)
        game.headers.update(game_from_text(stored.record).headers)
        game.headers["LeadRoll"] = source.headers["LeadRoll"]
        game.state = source.state  # Black starts, as the lead roll says
        node: Game | GameNode = game
        for played in source.mainline():
            node = node.add_turn(played.turn.kind, played.turn.dice,
                                 played.turn.play.notation if played.turn.play else None)
            if played.turn.play is None or played.turn.play.notation == "-":
                break
        assert node.turn.player.value == "W" and str(node.turn.dice) == "44"
        assert save_played(db, key, write_game(game), {}, stored.version)
    finally:
        db.close()
    page = client.get(at, headers={"Accept-Language": language}).text
    said = re.search(r'<p class="engine-play">(.*?)</p>', page, re.S).group(1)
    assert html.unescape(said) == render(Message.of("caption.rolled.none", player=Colour.WHITE.named, dice="44"),
                                         language)
