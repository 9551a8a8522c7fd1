"""Outcomes that respect the position (issue 34): an outcome the position no longer allows
is 0, by construction, wherever the engine judges; what is still possible is the rule set's
to say (``RuleSet.most_points``), and a race already lost by the count of turns is no win.

Positions are built by hand, each side in its own numbering. In a judged position the mover
is the side that has just moved (the engine judges for him); a ranked one is seen by the
player to roll."""

from __future__ import annotations

import random

import numpy as np
import pytest

from analysis.lost_races import cannot_win, most_turns
from analysis.ranking import Evaluator
from analysis.shipped import load_net
from notation import MEN, OFF, Position, legal_plays, rule_set
from notation.engine.position_id import decode
from notation.engine.rules import NAMES
from tests.selfplay import play_random_game

NONE_OFF = {6: 7, 5: 4, 4: 3, 3: 1}
"""All fifteen home, none borne off."""
ONE_OFF = {6: 7, 5: 4, 4: 3}
"""Fourteen home, one borne off."""


def judged(variant: str, mover: dict, opponent: dict, primes=(False, False), **options) -> dict:
    """The shipped net's outputs for the position ``mover`` has just made, by name, with
    the outcomes it no longer allows at 0 (as the engine judges every candidate)."""
    rules = rule_set(variant, **options)
    evaluator = Evaluator(load_net(variant), rules)
    outcomes = evaluator.outcomes
    position = Position.from_points(mover, opponent)
    flags = np.array([primes], dtype=np.bool_) if rules.tracks_prime else None
    x = evaluator.encoder.encode_positions([position], [primes] if rules.tracks_prime else None)
    y = outcomes.mask(evaluator.net.evaluate(x), outcomes.ceilings([position], flags))
    return dict(zip(outcomes.names, y[0].tolist(), strict=True))


def ranked(variant: str, to_roll: dict, other: dict, dice: str) -> list:
    """Every candidate of the roll as the engine ranks them at 0-ply."""
    rules = rule_set(variant)
    position = Position.from_points(to_roll, other)
    return Evaluator(load_net(variant), rules).rank(legal_plays(position, dice, rules), position)


@pytest.mark.parametrize("variant", ["jacquet", "versailles"])
def test_no_double_game_once_the_loser_has_a_man_off(variant):
    rules = rule_set(variant)
    mine, his = Position.from_points(ONE_OFF, NONE_OFF).mover, Position.from_points(ONE_OFF, NONE_OFF).opponent
    assert rules.most_points(mine, his) == 2 and rules.most_points(his, mine) == 1
    assert judged(variant, ONE_OFF, NONE_OFF)["lose2"] == 0.0
    assert judged(variant, NONE_OFF, ONE_OFF)["win2"] == 0.0
    for candidate in ranked(variant, NONE_OFF, ONE_OFF, "21"):  # his man off: my double is gone
        assert candidate.probabilities[1] == 0.0


def test_murray_no_marcia_once_the_loser_has_a_man_off_and_no_per_punto_once_a_prime_is_held():
    rules = rule_set("murray")
    none_off = Position.from_points(NONE_OFF, NONE_OFF).mover
    one_off = Position.from_points(ONE_OFF, ONE_OFF).mover
    assert rules.most_points(none_off, none_off, False) == 3
    assert rules.most_points(none_off, none_off, True) == 2  # he has held a prime
    assert rules.most_points(none_off, one_off, False) == 1
    y = judged("murray", NONE_OFF, ONE_OFF)
    assert y["win_marcia"] == 0.0 and y["win_punto"] == 0.0
    y = judged("murray", ONE_OFF, NONE_OFF)
    assert y["lose_marcia"] == 0.0 and y["lose_punto"] == 0.0
    y = judged("murray", NONE_OFF, NONE_OFF, primes=(True, False))
    assert y["win_punto"] == 0.0 and y["lose_punto"] > 0.0
    y = judged("murray", NONE_OFF, NONE_OFF, primes=(False, True))
    assert y["lose_punto"] == 0.0 and y["win_punto"] > 0.0


def test_backgammon_no_gammon_once_a_man_is_off_and_no_backgammon_without_a_man_to_catch():
    rules = rule_set("backgammon")
    home = Position.from_points(NONE_OFF, NONE_OFF)
    # his men all in his own home, none off, none in mine nor hittable: a gammon at most
    assert rules.most_points(home.mover, home.opponent) == 2
    y = judged("backgammon", NONE_OFF, NONE_OFF)
    assert y["win_backgammon"] == 0.0 and y["lose_backgammon"] == 0.0
    # a man of mine on my 20 (his 5) can still hit his men on his 6 and 5... send one to the bar
    behind = Position.from_points({20: 1, 6: 6, 5: 4, 4: 3, 3: 1}, NONE_OFF)
    assert rules.most_points(behind.mover, behind.opponent) == 3
    # one of his men in my home board (his 24, my 1): a backgammon is possible
    stuck = Position.from_points(NONE_OFF, {24: 1, 6: 6, 5: 4, 4: 3, 3: 1})
    assert rules.most_points(stuck.mover, stuck.opponent) == 3
    y = judged("backgammon", NONE_OFF, ONE_OFF)
    assert y["win_gammon"] == 0.0 and y["win_backgammon"] == 0.0
    for candidate in ranked("backgammon", NONE_OFF, ONE_OFF, "21"):
        assert candidate.probabilities[1] == candidate.probabilities[2] == 0.0


def test_hale_charges_only_what_the_loser_can_still_pay():
    """R-SCORE-HALE: 3 a man in the first quarter (24-19), 2 in the second, the option's
    rate in the third (12-7), 1 in the last (6-1); men only go forward, so a man pays at
    most the highest rate of the points he may still stand on, and nothing once off."""
    rules = rule_set("hale")
    all_on_the_talon = Position.from_points({24: 15}, {24: 15}).mover
    assert rules.most_points(all_on_the_talon, all_on_the_talon) == 45
    home = Position.from_points(NONE_OFF, ONE_OFF)
    assert rules.most_points(home.mover, home.opponent) == 14  # 14 men left, 1 each at most
    on_13 = Position.from_points(NONE_OFF, {13: 1, 6: 14}).opponent
    assert rules.most_points(home.mover, on_13) == 2 + 14
    costly_third = rule_set("hale", third_table_penalty=5)
    assert costly_third.most_points(home.mover, on_13) == 5 + 14  # it may yet stop on 12-7
    y = judged("hale", NONE_OFF, ONE_OFF)
    assert y["won"] <= 14 / rules.score_range[1] and y["lost"] <= 15 / rules.score_range[1]


def test_the_issues_race_loses_exactly_one_point_whatever_the_play():
    """`jacquet legal --variant jacquet --position IAAATPUHAAAAAA --dice 42 --rank`: I have
    twelve men left, he one on his 6: he is off within two turns whatever he rolls, I need
    three at least, and I have a man off, so every play loses exactly 1 point."""
    rules = rule_set("jacquet")
    position = decode("IAAATPUHAAAAAA")
    assert MEN - position.mover[OFF] == 12 and MEN - position.opponent[OFF] == 1
    for ply in (0, 1):
        candidates = Evaluator(load_net("jacquet"), rules, ply=ply).rank(
            legal_plays(position, "42", rules), position)
        assert len(candidates) > 1 and {c.equity for c in candidates} == {-1.0}


def test_the_turns_a_race_needs_at_worst():
    one_on_6 = Position.from_points({6: 1}, {24: 15}).mover
    one_on_1 = Position.from_points({1: 1}, {24: 15}).mover
    assert most_turns(rule_set("jacquet"), one_on_1) == 1
    assert most_turns(rule_set("jacquet"), one_on_6) == 2  # 2-1 leaves him on 3
    assert most_turns(rule_set("versailles"), one_on_6) == 6  # 1-1 is one step of 1
    # both one man on his 6, he to roll first: neither is sure to lose (each needs 1 or 2)
    assert cannot_win(rule_set("jacquet"), one_on_6, one_on_6) == (False, False)
    # he one man on his 1, to roll: he is off at once, I with one on my 6 cannot win
    assert cannot_win(rule_set("jacquet"), one_on_1, one_on_6) == (False, True)


@pytest.mark.parametrize("variant", NAMES)
def test_no_outcome_that_happened_was_called_impossible_before(variant):
    """In random games of every rule set, at every position of the game, the winner's
    final score was within what the rule set called still possible for him then, and he
    was never called unable to win."""
    rules = rule_set(variant)
    rng = random.Random(34)
    for _ in range(6):
        game = play_random_game(rules, rng)
        assert game.finished
        winner = 0 if game.first_player_won else 1
        position, primes = rules.start, [False, False]
        for turn, (_dice, play) in enumerate(game.turns):
            side = turn % 2
            if rules.primes is not None:
                primes[side] = primes[side] or rules.primes.during(position.mover, play.steps)
            mover, opponent = play.result.mover, play.result.opponent
            mine, his = (mover, opponent) if side == winner else (opponent, mover)
            assert rules.most_points(mine, his, primes[winner]) >= game.points, (turn, play)
            if play.result.mover[OFF] < MEN:
                his_lost, my_lost = cannot_win(rules, opponent, mover)
                assert not (my_lost if side == winner else his_lost), (turn, play)
            position = play.next_position
