"""The sample records under ``samples/``: they validate, the error file gives exactly the
expected errors, the annotated games and the match are what they claim to be, and the
files are what ``samples/build_samples.py`` writes."""

from __future__ import annotations

import importlib.util
import json
import re
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

def msg(message_id: str, **params: object) -> dict[str, object]:
    """A message as ``validate --json`` gives it: its id and its parameters."""
    return {"id": message_id, "params": params}


def error(line: int, column: int, turn: str, rule: str, message: dict[str, object],
          legal: list[str], more: int = 0) -> dict[str, object]:
    """One error as ``validate --json`` gives it: where, the rule id, the message's id and
    parameters, the first ten legal plays and how many more there are."""
    return {"line": line, "column": column, "turn": turn, "rule": rule, **message,
            "legal_plays": legal, "more": more}


# One error per game of the error file, checked by hand against the rules: where it is
# (line, column, turn), its rule id, its message as data, and the legal plays.
EXPECTED_ERRORS = [
    error(11, 29, '', 'SYNTAX', msg('reader.jqn.unknown-token', token="'2;'"), []),
    error(23, 4, '', 'SYNTAX', msg('reader.jqn.no-play', dice='53'), []),
    error(35, 23, '', 'SYNTAX', msg('reader.jqn.close'), []),
    error(44, 1, '', 'TAG', msg('rules.unknown', name="'trictrac'", known='jacquet, murray, versailles, hale, backgammon, narde, fevga'), []),
    error(55, 1, '', 'TAG', msg('reader.result.unreadable', text="'1-0'"), []),
    error(69, 1, '', 'R-LEAD', msg('tag.lead.contradicts', first=msg('colour.white'), white=2, black=5, winner=msg('colour.black')), []),
    error(85, 8, '1. 53', 'R-DICE', msg('rule.dice', play='24/20', roll='5-3', moved=4, faces=['5', '3']), ['24/16']),
    error(97, 8, '1. 55', 'R-DOUBLET', msg('rule.doublet', play='24/13', roll='5-5', steps=4, die=5, pips=20, moved=11), ['24/19/14/9/4']),
    error(110, 14, '2. 62', 'R-EMPTY', msg('rule.empty', step='15/13', point='15'), ['16/8']),
    error(122, 8, '1. 66', 'R-OPEN', msg('rule.open', step=msg('rule.step-in-move', step='18/12', move='24/18/12'), point=12, count=15), ['24/18']),
    error(134, 14, '1. 53', 'R-COURIER', msg('rule.courier.not-passed', step='24/21', point='19'), ['24/16']),
    error(146, 8, '1. 53', 'R-MAX', msg('rule.max', play='24/19', played=msg('count.dice', count=1), roll='5-3', most=msg('count.dice', count=2), example='24/16'), ['24/16']),
    error(160, 8, '2. 21', 'R-HIGH', msg('rule.high', play='15/14', die=1, high=2, example='15/13'), ['15/13']),
    error(174, 8, '5. 61', 'R-POSTILION', msg('rule.bouchon.courier', step=msg('rule.step-in-move', step='18/17', move='24/18/17'), points='22, 21, 20, 19, 18, 17', their=18, yours='6'), ['21/15 24/23', '20/14 24/23', '19/13 24/23', '24/18 22/21', '24/18 21/20', '24/18 20/19', '24/18 19/18', '24/18 4/3', '22/16 22/21', '22/21 20/14'], more=20),
    error(190, 14, '6. 42', 'R-FIRSTQUARTER', msg('rule.bouchon.first-quarter', step='24/22'), ['23/19 24/22', '21/17 24/22', '20/16 24/22', '19/15 24/22', '5/1 24/22', '24/20 23/21', '24/20 21/19', '24/20/18', '24/20 19/17', '24/20 5/3'], more=20),
    error(203, 14, '2. 64', 'R-BEAROFF', msg('rule.bearoff.outside', step='4/off', point='24'), ['24/18 24/20', '24/14']),
    error(234, 32, '', 'R-SCORE', msg('result.differs', declared='B+2', scored='B+1', how=msg('result.borne-off', count=1)), []),
    error(246, 8, '1. 53', 'R-HIT', msg('rule.hit.none-there', move='24/16*', point=16), ['24/16']),
    error(260, 8, '2. 42', 'R-BAR', msg('rule.bar', step='24/20'), ['bar/19']),
    error(276, 10, '6... 64', 'R-CLOSE2', msg('rule.murray.starting-table', step='24/20', points='24, 22, 20'), ['22/16 24/20', '24/18 22/18', '24/18 20/16', '24/18/14', '24/18 7/3', '22/16 22/18', '22/18 20/14', '22/18 7/1', '22/16 20/16', '22/16 18/14'], more=7),
    error(292, 8, '9. 65', 'R-MID2', msg('rule.murray.midpoint', step='18/13'), ['24/18 24/19', '24/19 21/15', '24/19 15/9', '24/19 13/7', '24/18 21/16', '24/18 15/10', '24/18 13/8*', '21/16 15/9', '21/16 13/7', '21/10'], more=8),
    error(339, 13, '69. 42', 'R-BEAROFF-REAR', msg('rule.bearoff.rear', step='2/off', point=2, rear=4), ['6/4/off']),
    error(386, 9, '69. 42', 'R-WASTE', msg('rule.waste', play='6/2 4/2', borne=msg('count.men', count=0), best=1, example='6/4/off'), ['6/4/off']),
    error(400, 6, '2... >4', 'R-PASS', msg('pass.other', dice=msg('pass.die-was', dice='2'), player=msg('colour.black'), written='4'), []),
    error(414, 1, '1... double', 'R-CUBE', msg('cube.owned', player=msg('colour.black'), owner=msg('colour.white'), cube=2), []),
    error(428, 4, '2. 31', 'R-END', msg('game.over', winner=msg('colour.black'), points=1, ended=msg('ended.drop')), []),
    error(441, 14, '2. 42', 'R-HEAD', msg('rule.narde.head', step='24/22', doublets=['6-6', '4-4', '3-3'], option='head_doublets=6-4-3'), ['24/22 13/9', '24/18', '24/20 13/11', '13/7']),
    error(455, 8, '6. 51', 'R-SIXBLOCK', msg('rule.sixblock', step=msg('rule.step-in-move', step='19/18', move='24/18'), points='18, 17, 16, 15, 14, 13', their=13, yours=1, option=''), ['24/23 16/11', '24/23 15/10', '24/23 14/9', '24/23 13/8', '24/19 17/16', '24/19 16/15', '24/19 15/14', '24/19 14/13', '17/16/11', '17/16 15/10'], more=12),
    error(467, 14, '1. 53', 'R-RUNNER', msg('rule.fevga.runner', step='24/21', point='19'), ['24/16']),
    error(481, 8, '5. 51', 'R-HOMEQUARTER', msg('rule.fevga.home-quarter', step='24/19'), ['24/23 22/17', '24/23 21/16', '24/23 20/15', '24/23 7/2', '22/21 24/19', '21/20 24/19', '20/19 24/19', '23/22/17', '23/22 21/16', '23/22 20/15'], more=15),
    error(506, 9, '29. 54', 'R-UNBLOCK', msg('rule.fevga.unblock', play='16/7', points='21, 20, 19, 18, 17, 16', their=10, yours=22), ['21/17 20/15', '21/17 19/14', '21/17 18/13', '21/17 16/11', '21/16 20/16', '21/16 19/15', '21/16 18/14', '21/16 17/13', '21/12', '20/16 19/14'], more=21),
    error(517, 14, '', 'SYNTAX', msg('reader.jqn.comment'), []),
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


def validate_json(monkeypatch) -> list[dict[str, object]]:
    """Every error of the error file as ``jacquet validate --json`` gives it."""
    result = validate(monkeypatch, "--json", ERRORS)
    assert result.exit_code == 1
    return [error for line in result.stdout.splitlines() for error in json.loads(line)["errors"]]


def test_the_error_file_gives_exactly_the_expected_errors(monkeypatch):
    errors = validate_json(monkeypatch)
    assert [error["game"] for error in errors] == list(range(1, len(EXPECTED_ERRORS) + 1))
    assert {error["file"] for error in errors} == {ERRORS}
    assert {error["severity"] for error in errors} == {"error"}
    found = [{"line": e["line"], "column": e["column"], "turn": e["turn"], "rule": e["rule"],
              "id": e["id"], "params": e["params"], "legal_plays": e["legal_plays"][:10],
              "more": len(e["legal_plays"][10:])} for e in errors]
    assert found == EXPECTED_ERRORS


def test_the_text_lines_say_where_the_rule_the_message_and_ten_legal_plays(monkeypatch):
    """One line a problem, FILE:LINE:COL: error: [RULE] ..., its message as ``--json`` gives
    it (the wording is the catalog's: tests/test_cli_language.py), then the first ten legal
    plays and the count of the others; the summary counts games and errors."""
    errors = validate_json(monkeypatch)
    result = validate(monkeypatch, ERRORS)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert len(lines) == len(errors) == len(EXPECTED_ERRORS)
    for line, error, expected in zip(lines, errors, EXPECTED_ERRORS, strict=True):
        assert line.startswith(f"{ERRORS}:{expected['line']}:{expected['column']}: error: "
                               f"[{expected['rule']}] "), line
        assert f"{expected['turn']}: {error['message']}" in line, line
        legal = error["legal_plays"]
        if legal:
            tail = line[line.index(str(error["message"])) + len(str(error["message"])):]
            assert ", ".join(legal[:10]) in tail, line
            assert not any(play in tail.split(", ") for play in legal[10:]), line
            if len(legal) <= 10:
                assert tail.endswith(legal[-1]), line
            else:  # the count of the others after the tenth play
                after = tail[tail.index(", ".join(legal[:10])) + len(", ".join(legal[:10])):]
                assert re.findall(r"\d+", after) == [str(len(legal) - 10)], line
    assert [int(n) for n in re.findall(r"\d+", result.stderr)] == [len(EXPECTED_ERRORS)] * 2


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
