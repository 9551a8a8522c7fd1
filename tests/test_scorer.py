"""Entering a play step by step (the scorer's tool): the steps offered after any steps
entered lead exactly to the legal plays, and a step not offered is refused with a rule."""

import random

import pytest

from notation import rule_set
from notation.engine.board import Position
from notation.engine.dice import Dice
from notation.engine.movegen import legal_plays
from notation.engine.play import Step
from notation.engine.rules import NAMES
from notation.engine.step_entry import StepEntry
from notation.errors import IllegalPlayError
from tests.selfplay import play_random_game


def complete_entries(entry: StepEntry) -> set:
    """Every result reachable by clicking only offered steps, checking that each path
    of offered steps ends in a complete play."""
    results = set()
    pending = [()]
    while pending:
        entered = pending.pop()
        offered = entry.next_steps(entered)
        if not offered:
            assert entry.is_complete(entered), entered
            mover, opponent, _ = entry._replay(entered)
            results.add((mover, opponent))
        pending += [(*entered, step) for step in offered]
    return results


@pytest.mark.parametrize("variant", NAMES)
def test_offered_steps_lead_exactly_to_the_legal_plays(variant):
    rules = rule_set(variant)
    rng = random.Random(variant)
    checked = 0
    for _ in range(3):
        game = play_random_game(rules, rng, max_turns=300)
        position = rules.start
        for index, (dice, play) in enumerate(game.turns):
            if index % 5 == 0:
                entry = StepEntry(position, dice, rules)
                expected = {(p.result.mover, p.result.opponent) for p in legal_plays(position, dice, rules)}
                assert complete_entries(entry) == expected
                checked += 1
            position = play.next_position
    assert checked > 20


def test_a_step_not_offered_is_refused_with_its_rule():
    rules = rule_set("jacquet")
    entry = StepEntry(rules.start, Dice.parse("64"), rules)
    with pytest.raises(IllegalPlayError) as refused:
        entry.next_steps((Step(13, 7, 6),))
    assert refused.value.rule_id == "R-EMPTY" and "24/18" in refused.value.reason
    with pytest.raises(IllegalPlayError) as wrong_die:
        entry.next_steps((Step(24, 19, 5),))
    assert wrong_die.value.rule_id == "R-DICE"
    first = Step(24, 18, 6)
    with pytest.raises(IllegalPlayError) as courier:  # a second man may not leave the talon
        entry.next_steps((first, Step(24, 20, 4)))
    assert courier.value.rule_id == "R-COURIER"


def test_a_roll_with_no_legal_step_is_complete_at_once():
    rules = rule_set("backgammon")
    closed = Position.from_points({25: 1, 1: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 3})
    entry = StepEntry(closed, Dice.parse("66"), rules)
    assert entry.length == 0 and entry.next_steps(()) == [] and entry.is_complete(())
