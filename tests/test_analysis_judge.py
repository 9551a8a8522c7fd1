"""The engine's judgement through the fast core (analysis/board_judge.py, used by every
``Evaluator``) against the reference path (``legal_plays`` and ``analysis.players.judge``:
the reference move generator, encoder and outcome ceilings): the same equities, the same
ranking and the same value of every roll on the turns of recorded games of every rule set;
and 2-ply: exact where the bear-off tables decide, its depth said, the same for the same
input."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest

from analysis.players import judge
from analysis.ranking import ROLLS_21, Evaluator
from analysis.shipped import load_net
from notation import MEN, OFF, Dice, Position, legal_plays, rule_set
from notation.engine.state import ROLL
from notation.formats import read_file

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
GAMES = {variant: SAMPLES / variant / "annotated-game.jqn"
         for variant in ("jacquet", "versailles", "murray", "hale", "backgammon")}


def _turns(variant: str, every: int = 1):
    """(position, dice, primes) before each rolled turn of the recorded game of ``variant``."""
    (game,) = read_file(GAMES[variant])
    for number, node in enumerate(game.mainline()):
        turn = node.turn
        if turn.kind != ROLL or turn.dice is None or turn.dice.low is None or number % every:
            continue
        before = node.parent.state if node.parent is not None else game.state
        player = turn.player
        yield before.position, turn.dice, (before.prime_held[player.index],
                                           before.prime_held[player.other.index])


def _reference_judgement(evaluator: Evaluator, plays, position, primes):
    return judge(evaluator.net, evaluator.encoder, evaluator.outcomes, evaluator.rules, plays,
                 position, primes)


def _reference_roll_values(evaluator: Evaluator, position, primes) -> list[float]:
    """The best 0-ply equity of each roll, by the reference move generator and judgement
    (every roll's plays judged in one pass, as the reference ranking did)."""
    plays, ends = [], [0]
    for dice, _ in ROLLS_21:
        plays += legal_plays(position, dice, evaluator.rules)
        ends.append(len(plays))
    equity = _reference_judgement(evaluator, plays, position, primes).equity
    return [float(np.max(equity[ends[k]:ends[k + 1]])) for k in range(len(ROLLS_21))]


ROUNDING = 1e-6
"""The net computes in float32: the same boards in another order or batch (the fast move
generator lists a roll's plays in its own order) can come out a unit in the last place
apart (BLAS's kernels), about 6e-8 of a point (times hale's 45 points of a scaled output)."""


@pytest.mark.parametrize("variant", sorted(GAMES))
def test_the_ranking_and_the_roll_values_are_the_references_on_a_recorded_game(variant):
    evaluator = Evaluator(load_net(variant), rule_set(variant))
    rounding = ROUNDING * evaluator.outcomes.scale
    turns = 0
    for position, dice, primes in _turns(variant):
        plays = legal_plays(position, dice, evaluator.rules)
        expected = _reference_judgement(evaluator, plays, position, primes).equity
        ranked = evaluator.rank(plays, position, primes)
        assert len(ranked) == len(plays) and {c.play for c in ranked} == set(plays)
        index = {play: i for i, play in enumerate(plays)}
        got = [c.equity for c in ranked]
        assert got == pytest.approx([float(expected[index[c.play]]) for c in ranked], abs=rounding)
        # best first by the reference's own equities (ties within rounding either way)
        assert all(expected[index[a.play]] >= expected[index[b.play]] - rounding
                   for a, b in pairwise(ranked))
        values = evaluator.roll_values(position, primes)
        assert [values[d] for d, _ in ROLLS_21] == pytest.approx(
            _reference_roll_values(evaluator, position, primes), abs=rounding)
        turns += 1
    assert turns >= 25


def _reference_one_ply(evaluator: Evaluator, position, play, primes) -> float:
    """A candidate's 1-ply equity, step by step on the reference path."""
    outcomes = evaluator.outcomes
    after = play.next_position
    mine = primes[0] or (evaluator.encoder.primes is not None
                         and evaluator.encoder.primes.during(position.mover, play.steps))
    his_primes = (primes[1], mine)
    total = np.zeros(outcomes.size)
    for (dice, weight) in ROLLS_21:
        replies = legal_plays(after, dice, evaluator.rules)
        judged = _reference_judgement(evaluator, replies, after, his_primes)
        total += weight * judged.y[int(np.argmax(judged.equity))].astype(np.float64)
    return float(outcomes.equity(outcomes.mirrored(total / 36.0)))


@pytest.mark.parametrize("variant", ["jacquet", "backgammon", "murray"])
def test_one_ply_is_the_reference_computation(variant):
    evaluator = Evaluator(load_net(variant), rule_set(variant), ply=1, candidates=2)
    checked = 0
    for position, dice, primes in _turns(variant, every=9):
        plays = legal_plays(position, dice, evaluator.rules)
        for candidate in evaluator.rank(plays, position, primes):
            if candidate.depth == 1 and candidate.play.result.mover[OFF] != MEN:
                assert candidate.equity == pytest.approx(
                    _reference_one_ply(evaluator, position, candidate.play, primes), abs=ROUNDING)
                checked += 1
    assert checked >= 10


def _bear_off(mine: dict[int, int], his: dict[int, int]) -> Position:
    mover = [0] * 26
    opponent = [0] * 26
    for point, men in mine.items():
        mover[point] = men
    for point, men in his.items():
        opponent[point] = men
    mover[OFF] = MEN - sum(mine.values())
    opponent[OFF] = MEN - sum(his.values())
    return Position(tuple(mover), tuple(opponent))


LAST_ROLLS = [  # (rule set, the player's men on his home points, the opponent's, dice)
    ("jacquet", {2: 1, 3: 1, 5: 1}, {5: 1, 6: 1}, "31"),
    ("backgammon", {6: 2, 4: 1, 1: 2}, {6: 1, 5: 1, 2: 1}, "21"),
    ("versailles", {6: 1, 4: 2, 3: 1}, {4: 2, 1: 1}, "52"),
]


@pytest.mark.parametrize(("variant", "mine", "his", "dice"), LAST_ROLLS)
def test_two_ply_is_exact_where_the_bear_off_tables_decide(variant, mine, his, dice):
    """With 6 men or fewer a side in a pure bear-off the two-sided table gives the exact
    chance to win after each play, and the chance after the best replies, averaged over the
    rolls, is that chance again: 2-ply (two rolls ahead, both sides playing their best)
    must give each play its exact equity, and say it looked 2 ply deep."""
    rules = rule_set(variant)
    position = _bear_off(mine, his)
    plays = legal_plays(position, Dice.parse(dice), rules)
    assert len(plays) > 1 and all(p.result.mover[OFF] < MEN for p in plays)
    exact = {c.play: c.equity for c in Evaluator(load_net(variant), rules).rank(plays, position)}
    evaluator = Evaluator(load_net(variant), rules, ply=2)
    assert evaluator.name.endswith(", 2-ply")
    ranked = evaluator.rank(plays, position)
    deep = [c for c in ranked if c.depth == 2]
    assert deep and ranked[:len(deep)] == deep  # the plays judged at 2-ply rank first
    assert [c.depth for c in ranked] == sorted((c.depth for c in ranked), reverse=True)
    for candidate in deep + [c for c in ranked if c.depth == 1]:  # 1-ply is exact there too
        assert candidate.equity == pytest.approx(exact[candidate.play], abs=2e-4)
    assert ranked[0].equity == pytest.approx(max(exact.values()), abs=2e-4)
    assert evaluator.rank(plays, position) == ranked  # the same for the same input


@pytest.mark.parametrize("second", [0, 1, 3])
def test_two_ply_filters_the_plays_as_gnubg_does(second):
    """The move filter's first stage: at most ``candidates`` plays, each within the rule
    set's filter threshold of the best at 0-ply (gnubg's 0.16 in backgammon), are judged
    again, at 1-ply first; its second stage: at most ``second`` of those, the best at 1-ply
    within the second threshold of the best (0.04 in backgammon), go on to 2-ply, and so do
    the 0-ply best and the play made, wherever it stands, whatever ``second``; the others
    keep their 1-ply judgement and rank below."""
    rules = rule_set("backgammon")
    net = load_net("backgammon")
    evaluator = Evaluator(net, rules, ply=2, candidates=5, second=second)
    assert evaluator.threshold == pytest.approx(0.16)
    assert evaluator.second_threshold == pytest.approx(0.04)
    position = rules.start
    plays = legal_plays(position, Dice.parse("43"), rules)
    zero = Evaluator(net, rules).rank(plays, position)
    worst = zero[-1].play
    ranked = evaluator.rank(plays, position, also=worst)
    best = zero[0].equity
    first = {c.play for c in zero[:5] if best - c.equity <= 0.16} | {worst}
    assert len(first) > 2
    assert {c.play for c in ranked if c.depth >= 1} == first
    one = {c.play: c.equity for c in Evaluator(net, rules, ply=1, candidates=5).rank(plays, position, also=worst)}
    by_one = sorted(first, key=lambda play: -one[play])
    second_stage = {p for p in by_one[:second] if one[by_one[0]] - one[p] <= 0.04}
    deep = {c.play for c in ranked if c.depth == 2}
    assert deep == second_stage | {zero[0].play, worst}
    for candidate in ranked:
        if candidate.depth == 1:  # filtered out at the second stage: its 1-ply judgement
            assert candidate.equity == pytest.approx(one[candidate.play], abs=ROUNDING)
    assert [c.depth for c in ranked] == sorted((c.depth for c in ranked), reverse=True)
