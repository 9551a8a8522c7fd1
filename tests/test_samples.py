"""The sample records under ``samples/``: they validate, the error file gives exactly the
expected errors, the annotated games and the match are what they claim to be, and the
files are what ``samples/build_samples.py`` writes."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from click.testing import CliRunner

from jacquet_cli import main
from notation import legal_plays
from notation.engine.rules import NAMES
from notation.formats import read_file
from notation.formats.jqn import write_game

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = Path(__file__).parents[1] / "samples"
VARIANTS = NAMES
# The worked openings of the rules digest (section 9, narde; section 10, fevga): the file,
# White's first roll and every legal play, the one played first.
RELATIVE_OPENINGS = [
    ("narde-opening-6-6.jqn", "66", ["24/18(2)"]),
    ("narde-opening-4-4.jqn", "44", ["24/16(2)"]),
    ("narde-opening-3-3.jqn", "33", ["24/18(2)", "24/21 24/15"]),
    ("narde-opening-6-5.jqn", "65", ["24/13"]),
    ("fevga-opening-6-6.jqn", "66", ["24/18"]),
    ("fevga-opening-5-5.jqn", "55", ["24/9 24/19", "24/4"]),
    ("fevga-opening-6-5.jqn", "65", ["24/13"]),
]
ERRORS = "samples/errors/one-of-each.jqn"

# One line per game of the error file, checked by hand: FILE:LINE:COL: error: [RULE] ...
EXPECTED_ERRORS = [
    f"{ERRORS}:11:29: error: [SYNTAX] game 1: unknown token '2;'",
    f"{ERRORS}:23:4: error: [SYNTAX] game 2: the roll 53 has no play: write - for an empty play",
    f"{ERRORS}:35:23: error: [SYNTAX] game 3: ')' closes no variation",
    f"{ERRORS}:44:1: error: [TAG] game 4: unknown rule set 'trictrac'; known: jacquet, murray, versailles, hale, backgammon, narde, fevga",
    f"{ERRORS}:55:1: error: [TAG] game 5: cannot read the result '1-0': write W+2, B+1 or *",
    f"{ERRORS}:69:1: error: [R-LEAD] game 6: [Lead] says White starts, but the lead roll W2 B5 gives the start to Black",
    f"{ERRORS}:85:8: error: [R-DICE] game 7, turn 1. 53: 24/20 does not fit the roll 5-3: it moves 4 pips, the dice give steps of 5 and 3; legal: 24/16",
    f"{ERRORS}:97:8: error: [R-DOUBLET] game 8, turn 1. 55: 24/13 does not fit 5-5: a doublet gives 4 steps of 5 (20 pips), the play moves 11; legal: 24/19/14/9/4",
    f"{ERRORS}:110:14: error: [R-EMPTY] game 9, turn 2. 62: 15/13 moves from point 15, where you have no man; legal: 16/8",
    f"{ERRORS}:122:8: error: [R-OPEN] game 10, turn 1. 66: 18/12 (in 24/18/12) lands on point 12, closed by 15 opposing men; legal: 24/18",
    f"{ERRORS}:134:14: error: [R-COURIER] game 11, turn 1. 53: 24/21 moves a second man while the courier, on 19, has not reached points 6-1; legal: 24/16",
    f"{ERRORS}:146:8: error: [R-MAX] game 12, turn 1. 53: 24/19 plays 1 die of 5-3; 2 dice can be played, e.g. 24/16; legal: 24/16",
    f"{ERRORS}:160:8: error: [R-HIGH] game 13, turn 2. 21: 15/14 plays the 1; when only one die can be played it must be the higher, 2, e.g. 15/13; legal: 15/13",
    f"{ERRORS}:174:8: error: [R-POSTILION] game 14, turn 5. 61: 18/17 (in 24/18/17) makes a block on points 22, 21, 20, 19, 18, 17 wholly ahead of the opponent's courier on his 18 (your 6); legal: 21/15 24/23, 20/14 24/23, 19/13 24/23, 24/18 22/21, 24/18 21/20, 24/18 20/19, 24/18 19/18, 24/18 4/3, 22/16 22/21, 22/21 20/14 and 20 more",
    f"{ERRORS}:190:14: error: [R-FIRSTQUARTER] game 15, turn 6. 42: 24/22 fills all six points 24-19 while point 1 is not held; legal: 23/19 24/22, 21/17 24/22, 20/16 24/22, 19/15 24/22, 5/1 24/22, 24/20 23/21, 24/20 21/19, 24/20/18, 24/20 19/17, 24/20 5/3 and 20 more",
    f"{ERRORS}:203:14: error: [R-BEAROFF] game 16, turn 2. 64: 4/off bears off while men are still outside points 6-1 (on 24); legal: 24/18 24/20, 24/14",
    f"{ERRORS}:234:32: error: [R-SCORE] game 17: the result says B+2, but the rules score B+1 (the loser has borne off 1)",
    f"{ERRORS}:246:8: error: [R-HIT] game 18, turn 1. 53: 24/16* marks a hit on 16, but no lone opposing man is there; legal: 24/16",
    f"{ERRORS}:260:8: error: [R-BAR] game 19, turn 2. 42: 24/20 moves another man while a man is on the bar; legal: bar/19",
    f"{ERRORS}:276:10: error: [R-CLOSE2] game 20, turn 6... 64: 24/20 would close a third point in the starting table (24, 22, 20); at most two may be closed; legal: 22/16 24/20, 24/18 22/18, 24/18 20/16, 24/18/14, 24/18 7/3, 22/16 22/18, 22/18 20/14, 22/18 7/1, 22/16 20/16, 22/16 18/14 and 7 more",
    f"{ERRORS}:292:8: error: [R-MID2] game 21, turn 9. 65: 18/13 puts a third man on point 13; at most two may stand there; legal: 24/18 24/19, 24/19 21/15, 24/19 15/9, 24/19 13/7, 24/18 21/16, 24/18 15/10, 24/18 13/8*, 21/16 15/9, 21/16 13/7, 21/10 and 8 more",
    f"{ERRORS}:339:13: error: [R-BEAROFF-REAR] game 22, turn 69. 42: 2/off bears off from 2; only men on the rear-most point, 4, may be borne off; legal: 6/4/off",
    f"{ERRORS}:386:9: error: [R-WASTE] game 23, turn 69. 42: 6/2 4/2 bears off 0 men; 1 can be borne off, e.g. 6/4/off; legal: 6/4/off",
    f"{ERRORS}:400:6: error: [R-PASS] game 24, turn 2... >4: the die 2 was passed to Black, not 4",
    f"{ERRORS}:414:1: error: [R-CUBE] game 25, turn 1... double: Black cannot double: White owns the cube at 2",
    f"{ERRORS}:428:4: error: [R-END] game 26, turn 2. 31: the game is over: Black won 1 (drop); nothing more can be played",
    f"{ERRORS}:441:14: error: [R-HEAD] game 27, turn 2. 42: 24/22 takes a second man off the head in this turn; one may leave it a turn, two only in a player's first turn with 6-6, 4-4 or 3-3 (head_doublets=6-4-3); legal: 24/22 13/9, 24/18, 24/20 13/11, 13/7",
    f"{ERRORS}:455:8: error: [R-SIXBLOCK] game 28, turn 6. 51: 19/18 (in 24/18) makes six points in a row (18, 17, 16, 15, 14, 13) with none of the opponent's men past them: his most advanced men stand on his 13 (your 1); legal: 24/23 16/11, 24/23 15/10, 24/23 14/9, 24/23 13/8, 24/19 17/16, 24/19 16/15, 24/19 15/14, 24/19 14/13, 17/16/11, 17/16 15/10 and 12 more",
    f"{ERRORS}:467:14: error: [R-RUNNER] game 29, turn 1. 53: 24/21 takes a second man off the head while the runner, on 19, has not passed the opponent's head (points 11-1); legal: 24/16",
    f"{ERRORS}:481:8: error: [R-HOMEQUARTER] game 30, turn 5. 51: 24/19 fills all six points 24-19, the own starting quarter; legal: 24/23 22/17, 24/23 21/16, 24/23 20/15, 24/23 7/2, 22/21 24/19, 21/20 24/19, 20/19 24/19, 23/22/17, 23/22 21/16, 23/22 20/15 and 15 more",
    f"{ERRORS}:506:9: error: [R-UNBLOCK] game 31, turn 29. 54: 16/7 keeps all six points 21, 20, 19, 18, 17, 16 in front of the opponent's men (his 10, your 22); a play that opens one of them is legal (prime=unblock); legal: 21/17 20/15, 21/17 19/14, 21/17 18/13, 21/17 16/11, 21/16 20/16, 21/16 19/15, 21/16 18/14, 21/16 17/13, 21/12, 20/16 19/14 and 21 more",
    f"{ERRORS}:517:14: error: [SYNTAX] game 32: this comment is never closed: end it with '}}' (write \\}} for a brace inside)",
]


def validate(monkeypatch, *paths: str):
    """``jacquet validate`` run from the project folder, so paths in messages are relative."""
    monkeypatch.chdir(ROOT)
    return CliRunner().invoke(main, ["validate", *paths])


def valid_samples() -> list[Path]:
    return sorted(p for p in SAMPLES.rglob("*.jqn") if p.parent.name != "errors")


def games_of(relative: str):
    return list(read_file(SAMPLES / relative))


def test_the_expected_samples_are_there():
    names = {p.relative_to(SAMPLES).as_posix() for p in SAMPLES.rglob("*") if p.is_file()}
    expected = {"README.md", "build_samples.py", "errors/one-of-each.jqn",
                "openings/jacquet-opening-5-5.jqn", "openings/jacquet-opening-6-6.jqn",
                "matches/jacquet-match.jqn"}
    expected |= {f"openings/{name}" for name, _, _ in RELATIVE_OPENINGS}
    expected |= {f"{v}/annotated-game.jqn" for v in VARIANTS}
    expected |= {f"generated/{v}-10.jqn" for v in VARIANTS}
    assert expected <= names


def test_the_error_file_gives_exactly_the_expected_errors(monkeypatch):
    result = validate(monkeypatch, ERRORS)
    assert result.exit_code == 1
    assert result.stdout.splitlines() == EXPECTED_ERRORS
    assert result.stderr.strip() == f"{len(EXPECTED_ERRORS)} games, {len(EXPECTED_ERRORS)} errors"


def test_every_game_of_the_error_file_has_one_error_of_its_own_kind():
    games = games_of("errors/one-of-each.jqn")
    assert len(games) == len(EXPECTED_ERRORS)
    for game, line in zip(games, EXPECTED_ERRORS, strict=False):
        [error] = game.errors
        assert f"[{error.rule_id}]" in line
        # The Event tag names the kind of error the game was written to show.
        assert game.headers["Event"].split(": ", 1)[1].startswith(error.rule_id), game.headers


@pytest.mark.parametrize("path", valid_samples(), ids=lambda p: p.relative_to(SAMPLES).as_posix())
def test_every_other_sample_validates(monkeypatch, path):
    result = validate(monkeypatch, path.relative_to(ROOT).as_posix())
    assert result.exit_code == 0, result.output
    assert result.stdout == ""


def _tree(node):
    """Every node of a game tree, depth first."""
    pending = [node]
    while pending:
        current = pending.pop()
        yield current
        pending.extend(current.variations)


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_annotated_game_is_complete_and_annotated(variant):
    [game] = games_of(f"{variant}/annotated-game.jqn")
    assert not game.errors
    assert game.rules.name == variant
    assert game.end().state.over
    assert game.headers["Result"] != "*" and game.headers["Result"] == game.result
    headers = game.headers
    for tag in ("Event", "Date", "Round", "White", "Black", "LeadRoll"):
        assert headers.get(tag), tag
    assert headers["Site"] == "Generated sample" and headers["Annotator"] == "jacquet samples"
    nodes = list(game.mainline())
    assert game.comments and sum(len(n.comments) for n in nodes) >= 4
    assert any(n.nags for n in nodes)
    alternatives = [n for n in _tree(game) if n.turn is not None and not n.is_mainline()]
    assert 2 <= len(alternatives) <= 3
    for alternative in alternatives:
        # A variation is another legal play for the same roll as the main-line turn.
        main_line = alternative.parent.variations[0]
        assert alternative.turn.dice == main_line.turn.dice
        assert alternative.turn.play.result != main_line.turn.play.result
        assert alternative.comments
    # The comment on the last turn explains the score.
    assert nodes[-1].comments and "wins" in nodes[-1].comments[-1]


def test_the_opening_five_five_runs_the_courier_home():
    [game] = games_of("openings/jacquet-opening-5-5.jqn")
    assert not game.errors and game.headers["Result"] == "*"
    first = game.next()
    assert str(first.turn) == "55: 24/19/14/9/4"
    assert [str(p) for p in legal_plays(game.state.position, "55", game.rules)] == ["24/19/14/9/4"]
    assert first.position.opponent[4] == 1  # seen by Black: White's courier is home on 4
    assert any("R-COURIER" in c for c in first.comments)
    assert any(n.parent.variations[0] is not n for n in _tree(game) if n.parent is not None)


def test_the_opening_six_six_plays_one_six():
    [game] = games_of("openings/jacquet-opening-6-6.jqn")
    assert not game.errors and game.headers["Result"] == "*"
    first = game.next()
    assert str(first.turn) == "66: 24/18"
    assert [str(p) for p in legal_plays(game.state.position, "66", game.rules)] == ["24/18"]
    assert any("R-OPEN" in c and "R-COURIER" in c for c in first.comments)


def test_the_match_scores_are_consistent():
    games = games_of("matches/jacquet-match.jqn")
    assert 3 <= len(games) <= 5
    first = games[0].headers
    length = int(first["MatchLength"])
    score = [0, 0]
    for number, game in enumerate(games, 1):
        headers = game.headers
        assert not game.errors
        assert headers["Match"] == first["Match"] and headers["MatchLength"] == str(length)
        assert headers["Game"] == str(number)
        assert headers["Score"] == f"{score[0]}-{score[1]}"
        assert max(score) < length, "a game after the match was won"
        assert headers["Result"] == game.result != "*"
        winner, points = headers["Result"].split("+")
        score[0 if winner == "W" else 1] += int(points)
    assert max(score) >= length


def _build_module():
    spec = importlib.util.spec_from_file_location("build_samples", SAMPLES / "build_samples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_samples_are_what_the_build_script_writes(tmp_path):
    """Regenerating gives the same bytes: the samples are in step with the engine."""
    build = _build_module()

    def text(relative: str) -> str:
        return (SAMPLES / relative).read_text(encoding="utf-8")

    assert text("openings/jacquet-opening-5-5.jqn") == write_game(build.opening_five_five())
    assert text("openings/jacquet-opening-6-6.jqn") == write_game(build.opening_six_six())
    for variant in ("narde", "fevga"):
        for name, game in build.relative_openings(variant):
            assert text(f"openings/{name}") == write_game(game)
    for variant in VARIANTS:
        assert text(f"{variant}/annotated-game.jqn") == write_game(build.annotated(variant))
    assert text("matches/jacquet-match.jqn") == "\n".join(write_game(g) for g in build.match())
    assert text("errors/one-of-each.jqn") == build.errors()
    for variant in VARIANTS:
        target = tmp_path / f"{variant}-10.jqn"
        build.generated(variant, target)
        assert target.read_bytes() == (SAMPLES / "generated" / f"{variant}-10.jqn").read_bytes()


@pytest.mark.parametrize(("name", "roll", "plays"), RELATIVE_OPENINGS, ids=str)
def test_the_worked_openings_of_narde_and_fevga(name, roll, plays):
    """White's first turn is the digest's worked case: its legal plays are all in the file
    (the main line and the variations), each explained, and the forced ones marked $7."""
    [game] = games_of(f"openings/{name}")
    assert not game.errors and game.headers["Result"] == "*"
    assert game.rules.name == name.split("-")[0]
    assert sorted(str(p) for p in legal_plays(game.state.position, roll, game.rules)) == sorted(plays)
    written = [str(n.turn.play) for n in game.variations]
    assert written == plays
    assert all(n.comments for n in game.variations)
    main_line = game.variations[0]
    assert (7 in main_line.nags) == (len(plays) == 1)
    # The refused plays are named with the rule that refuses them.
    assert any("refused" in c and ("R-HEAD" in c or "R-RUNNER" in c) for c in main_line.comments)


def _left_head(node) -> int:
    """How many men the turn of ``node`` took off the mover's head (his point 24)."""
    return node.parent.state.position.mover[24] - node.turn.play.result.mover[24]


def test_the_narde_game_shows_the_head_rule_and_a_mars():
    [game] = games_of("narde/annotated-game.jqn")
    nodes = [n for n in game.mainline() if n.turn.play is not None]
    # R-HEAD on the real record: one man off the head a turn, two only in a player's
    # first turn with 6-6, 4-4 or 3-3; the game has such a first turn.
    firsts = {nodes[0], nodes[1]}
    for node in nodes:
        left = _left_head(node)
        assert left <= 1 or (node in firsts and node.turn.dice.is_doublet
                             and node.turn.dice.high in (6, 4, 3)), str(node.turn)
    assert any(_left_head(n) == 2 for n in firsts)
    comments = " ".join(c for n in game.mainline() for c in n.comments)
    for rule in ("R-HEAD", "R-SIXBLOCK", "R-BEAROFF", "R-SCORE-MARS"):
        assert rule in comments, rule
    final = nodes[-1].turn.play.result
    assert final.opponent[0] == 0 and game.result.endswith("+2")  # a mars: the loser bore off none


def test_the_fevga_game_shows_the_runner():
    [game] = games_of("fevga/annotated-game.jqn")
    nodes = [n for n in game.mainline() if n.turn.play is not None]
    comments = " ".join(c for n in game.mainline() for c in n.comments)
    for rule in ("R-RUNNER", "R-HOMEQUARTER", "R-BEAROFF", "R-SCORE-MARS"):
        assert rule in comments, rule
    # R-RUNNER on the real record: while none of the mover's men has passed the opponent's
    # head (none on 11-1, none off), the runner is the one man away from the head.
    def in_runner_phase(board) -> bool:
        return not any(board[0:12])

    assert sum(in_runner_phase(n.turn.play.result.mover) for n in nodes) >= 2
    for node in nodes:
        after = node.turn.play.result.mover
        if in_runner_phase(after):
            assert after[24] >= 14, str(node.turn)
