"""The engine's judgement of games: ranking at 0 and 1 ply, marks, forced plays, luck, the
per-player summary, pubeval, and the commands (`jacquet analyse`, `jacquet legal --rank`).

The nets here are small and barely trained (made in the test): what is checked is what
holds for any net (exact outcomes of game-ending plays, the order, the bookkeeping), not
the shipped nets' strength, which `bench/engine_strength.py` measures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from analysis.analyse import analyse_game, mark_for
from analysis.match import duplicate_match
from analysis.network import Network
from analysis.players import RandomPlayer
from analysis.pubeval import CONTACT, RACE, PubevalPlayer, inputs, is_race
from analysis.ranking import ROLLS_21, Evaluator, roll_average
from analysis.threads import limit_blas_threads
from jacquet_cli import main
from notation import Dice, Position, legal_plays, rule_set
from notation.engine.state import ROLL, Colour, GameState
from notation.formats import read_file, write_file
from notation.messages import render
from notation.tree.game import Game

limit_blas_threads(1)
DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def jacquet_net(tmp_path_factory) -> tuple[Network, str]:
    net = Network.create("jacquet", 12, seed=5)
    path = tmp_path_factory.mktemp("nets") / "jacquet.npz"
    net.save(path)
    return net, str(path)


def _game_from(position: Position, rules_name: str = "jacquet") -> Game:
    """A game whose first turn is played from ``position`` (White to play)."""
    game = Game(rule_set(rules_name))
    game.state = GameState(game.rules, position, Colour.WHITE)
    return game


def test_a_play_that_throws_the_win_away_is_marked_very_bad(jacquet_net):
    """Men on 6 and 1, roll 6-1: 6/off 1/off wins 2 points at once; 6/5/off leaves a man
    on 1 and the opponent (none off) to play: whatever the net thinks, that loses ≥ 0.16."""
    net, _ = jacquet_net
    position = Position.from_points({6: 1, 1: 1}, {24: 15})
    game = _game_from(position)
    game.add_turn(ROLL, Dice(6, 1), "6/5/off")
    analysis = analyse_game(game, Evaluator(net, game.rules))
    (turn,) = analysis.turns
    assert turn.best.play.result.mover[0] == 15 and turn.best.equity == 2.0  # exact: a double game
    assert turn.rank == 2 and turn.loss >= 0.16 and turn.mark == "??"
    assert analysis.players[Colour.WHITE].marks["??"] == 1
    assert analysis.players[Colour.WHITE].decisions == 1


def test_the_best_play_has_no_loss_and_forced_plays_are_not_counted(jacquet_net):
    net, _ = jacquet_net
    game = _game_from(Position.from_points({6: 1, 1: 1}, {24: 15}))
    game.add_turn(ROLL, Dice(6, 1), "6/off 1/off")
    (turn,) = analyse_game(game, Evaluator(net, game.rules)).turns
    assert (turn.rank, turn.loss, turn.mark, turn.forced) == (1, 0.0, None, False)

    rules = rule_set("jacquet")
    game = Game(rules)
    game.add_turn(ROLL, Dice(6, 4), "24/14")  # the courier's only move
    analysis = analyse_game(game, Evaluator(net, rules))
    (turn,) = analysis.turns
    assert turn.forced and turn.mark is None and turn.legal == 1
    assert analysis.players[Colour.WHITE].decisions == 0
    assert analysis.players[Colour.WHITE].error_rate == 0.0


def test_marks_follow_the_rule_sets_thresholds():
    limits = rule_set("jacquet").marks
    assert limits == (0.04, 0.08, 0.16)
    assert [mark_for(x, limits) for x in (0.0, 0.039, 0.04, 0.08, 0.2)] == [None, None, "?!", "?", "??"]
    assert rule_set("hale").marks == pytest.approx((0.32, 0.64, 1.28))


def test_backgammon_marks_are_gnubgs():
    """GNU Backgammon 1.07's `show analysis`: doubtful from 0.030, bad from 0.060, very bad
    from 0.120 (the figures docs/analysis.md once gave, 0.04/0.08/0.16, are not gnubg's)."""
    gnubg = rule_set("backgammon").marks
    assert [mark_for(x, gnubg) for x in (0.029, 0.030, 0.059, 0.060, 0.119, 0.120)] == [
        None, "?!", "?!", "?", "?", "??"]


def test_luck_averages_to_zero_over_the_rolls(jacquet_net):
    """Zare's luck: the weighted average over all 36 rolls of (best equity for the roll −
    the average) is zero, and the best roll is lucky."""
    net, _ = jacquet_net
    rules = rule_set("jacquet")
    position = legal_plays(rules.start, "53", rules)[0].next_position
    evaluator = Evaluator(net, rules)
    values = evaluator.roll_values(position)
    lucks = {dice: values[dice] - roll_average(values) for dice, _ in ROLLS_21}
    assert sum(lucks[d] * w for d, w in ROLLS_21) / 36 == pytest.approx(0.0, abs=1e-6)
    best = max(values, key=values.__getitem__)
    assert lucks[best] == max(lucks.values()) > 0


def test_one_ply_ranks_the_play_made_even_outside_the_few_it_rethinks(jacquet_net):
    net, _ = jacquet_net
    rules = rule_set("jacquet")
    position, plays = next((node.position, plays) for node in next(iter(read_file(SAMPLE))).mainline()
                           if len(plays := legal_plays(node.position, "42", rules)) > 6)
    zero = Evaluator(net, rules).rank(plays, position)
    worst = zero[-1].play
    one = Evaluator(net, rules, ply=1, candidates=2).rank(plays, position, also=worst)
    assert sorted(c.play.notation for c in one) == sorted(p.notation for p in plays)
    deep = [c for c in one if c.depth == 1]
    assert len(deep) == 3 and worst in [c.play for c in deep]
    assert one[:3] == deep  # the plays judged at 1-ply rank first, best first
    assert [c.equity for c in deep] == sorted((c.equity for c in deep), reverse=True)


def test_a_net_judges_only_its_own_rule_set(jacquet_net):
    net, _ = jacquet_net
    with pytest.raises(ValueError, match="cannot judge murray"):
        Evaluator(net, rule_set("murray"))
    with pytest.raises(ValueError, match="0, 1 or 2"):
        Evaluator(net, rule_set("jacquet"), ply=3)


# -- pubeval ------------------------------------------------------------------------------


def test_pubeval_inputs_of_the_backgammon_start():
    """Tesauro's encoding, from its description: five units per point from 24 down to 1
    (opposing blot, one man, two or more, exactly three, (n − 3)/2 beyond)."""
    start = rule_set("backgammon").start
    x = inputs(start)
    assert len(x) == 122
    block = {point: x[5 * (24 - point): 5 * (24 - point) + 5].tolist() for point in range(1, 25)}
    assert block[24] == [0, 0, 1, 0, 0]     # two men
    assert block[13] == [0, 0, 1, 0, 1]     # five: two or more, and (5 − 3)/2
    assert block[8] == [0, 0, 1, 1, 0]      # three
    assert block[6] == [0, 0, 1, 0, 1]
    assert block[1] == [0, 0, 0, 0, 0]      # the opponent's two men: no blot
    assert x[120] == 0 and x[121] == 0
    assert not is_race(start)
    assert is_race(Position.from_points({6: 15}, {6: 15}))


def test_pubeval_scores_as_gnubg_computes_them():
    """300 positions scored by gnubg-nn's own pubeval (tests/data/SOURCE.md): the same
    scores to float precision, races and contact positions alike."""
    rows = [json.loads(line) for line in (DATA / "pubeval_gnubg.jsonl").read_text().splitlines()]
    assert sum(row["race"] for row in rows) > 100 and sum(not row["race"] for row in rows) > 50
    for row in rows:
        after = Position.from_id(row["position"]).swapped()  # as the player who made the play sees it
        assert is_race(after) == row["race"]
        weights = RACE if row["race"] else CONTACT
        assert float(inputs(after) @ weights) == pytest.approx(row["pubeval"], abs=1e-4)


def test_pubeval_beats_random_play():
    """pubeval wins about 99.5% of games against random play (engine.md)."""
    result = duplicate_match(rule_set("backgammon"), PubevalPlayer(), RandomPlayer(2), pairs=15, seed=4)
    assert result.win_rate >= 0.9


# -- the commands -------------------------------------------------------------------------

SAMPLE = "samples/jacquet/annotated-game.jqn"


def test_analyse_json_follows_the_contract(jacquet_net):
    _, path = jacquet_net
    result = CliRunner().invoke(main, ["analyse", SAMPLE, "--net", path, "--json", "--confirm", "none"])
    assert result.exit_code == 0, result.output
    (record,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert record["engine"] == "jacquet-td jacquet v2, 0-ply"
    turns = record["turns"]
    game = next(iter(read_file(SAMPLE)))
    plies = [node.ply for node in game.mainline() if node.turn.kind == ROLL]
    assert [t["ply"] for t in turns] == plies and plies[0] == 1
    for turn in turns:
        assert set(turn) >= {"ply", "player", "dice", "played", "best", "loss", "mark", "forced",
                             "luck", "candidates"}
        equities = [c["equity"] for c in turn["candidates"]]
        assert equities == sorted(equities, reverse=True)
        assert set(turn["candidates"][0]["probabilities"]) == {"win", "win2", "lose2"}
        if turn["played"] == turn["best"]:
            assert turn["loss"] == 0
        assert turn["played"] in [c["play"] for c in turn["candidates"]]
    white = record["players"]["White"]
    decisions = [t for t in turns if t["player"] == "White" and not t["forced"]]
    assert white["decisions"] == len(decisions)
    assert white["error_rate"] == pytest.approx(1000 * sum(t["loss"] for t in decisions) / len(decisions),
                                                abs=0.2)
    assert white["marks"]["??"] == sum(t["mark"] == "??" for t in decisions)
    assert white["luck_adjusted"] == pytest.approx(white["result"] - white["luck"], abs=1e-3)


def test_legal_rank_and_analyse_agree_on_the_order(jacquet_net):
    _, path = jacquet_net
    runner = CliRunner()
    analysed = json.loads(runner.invoke(main, ["analyse", SAMPLE, "--net", path, "--json",
                                               "--candidates", "100", "--confirm", "none"]).output)
    game = next(iter(read_file(SAMPLE)))
    nodes = {node.ply: node for node in game.mainline()}
    turn = next(t for t in analysed["turns"] if t["legal"] > 4)
    before = nodes[turn["ply"] - 1].position if turn["ply"] > 1 else game.position
    ranked = runner.invoke(main, ["legal", "--position", before.position_id(), "--dice", turn["dice"],
                                  "--rank", "--json", "--net", path])
    assert ranked.exit_code == 0, ranked.output
    plays = json.loads(ranked.stdout)
    assert [p["play"] for p in plays] == [c["play"] for c in turn["candidates"]]
    assert [p["equity"] for p in plays] == [c["equity"] for c in turn["candidates"]]
    assert set(plays[0]) >= {"play", "steps", "position", "equity", "probabilities"}


def test_legal_batch_rank_answers_each_line_as_it_is_read(jacquet_net):
    """Another program can play through one process: the answer to a line comes before
    the next line is written."""
    _, path = jacquet_net
    with subprocess.Popen([sys.executable, "-m", "jacquet_cli", "legal", "--batch", "--rank",
                           "--net", path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True) as process:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write('{"variant": "jacquet", "dice": "31"}\n')
        process.stdin.flush()
        first = json.loads(process.stdout.readline())
        process.stdin.write('{"variant": "jacquet", "dice": "xx"}\n')
        process.stdin.flush()
        second = json.loads(process.stdout.readline())
        process.stdin.close()
        process.wait(timeout=60)
    assert first[0]["play"] and "equity" in first[0]
    assert "error" in second


def test_annotated_record_reads_back_and_validates(jacquet_net, tmp_path):
    _, path = jacquet_net
    out = tmp_path / "analysed.jqn"
    marks = ["--marks", "0.001,0.002,0.004",  # fine thresholds: the little net's losses are small
             "--confirm", "none"]
    result = CliRunner().invoke(main, ["analyse", SAMPLE, "--net", path, "-o", str(out), *marks])
    assert result.exit_code == 0, result.output
    analysed = json.loads(CliRunner().invoke(main, ["analyse", SAMPLE, "--net", path, "--json",
                                                    *marks]).stdout)
    assert "error rate" in result.output and "jacquet-td jacquet v2, 0-ply" in result.output
    (game,) = list(read_file(out))
    assert not game.errors
    assert game.headers["Annotator"] == "jacquet-td jacquet v2, 0-ply"
    comments = [c for node in game.mainline() for c in node.comments if c.startswith("jacquet-td")]
    assert len(comments) == sum(1 for node in game.mainline() if node.turn.kind == ROLL)
    nag = {"?!": 6, "?": 2, "??": 4}
    nodes = {node.ply: node for node in game.mainline()}
    marked = [t for t in analysed["turns"] if t["mark"]]
    assert marked
    for turn in marked:
        assert nag[turn["mark"]] in nodes[turn["ply"]].nags
    validated = CliRunner().invoke(main, ["validate", str(out)])
    assert validated.exit_code == 0, validated.output


def test_a_game_with_an_error_is_analysed_up_to_it(jacquet_net, tmp_path):
    _, path = jacquet_net
    record = tmp_path / "broken.jqn"
    record.write_text('[Variant "jacquet"]\n\n1. 64: 24/14 32: 24/19 2. 65: 14/9 *\n', encoding="utf-8")
    error = next(iter(read_file(record))).errors[0]
    for language in ("en", "fr", "ru"):
        result = CliRunner().invoke(main, ["--lang", language, "analyse", str(record), "--net", path, "--json"])
        assert result.exit_code == 1
        analysed = json.loads(result.stdout.splitlines()[0])
        assert [t["ply"] for t in analysed["turns"]] == [1, 2]
        assert analysed["stopped_message"] == error.msg.as_json()  # the same for programs in every language
        assert render(error.msg, language) in analysed["stopped"]
        # where and which rule, as validate --json gives the error (its text in the language asked)
        assert analysed["error"] == error.as_dict(language)
        assert (analysed["error"]["rule"], analysed["error"]["line"], analysed["error"]["turn"]) == (
            "R-MAX", 3, "2. 65")


def test_a_net_of_another_rule_set_is_refused_clearly(jacquet_net, tmp_path):
    _, path = jacquet_net
    record = tmp_path / "hale.jqn"
    write_file([Game(rule_set("hale"))], record)
    result = CliRunner().invoke(main, ["analyse", str(record), "--net", path])
    assert result.exit_code == 2
    assert "is a jacquet net, not a hale one" in result.output
    assert "Traceback" not in result.output
