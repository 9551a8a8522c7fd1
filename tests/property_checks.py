"""What the property tests share (:mod:`tests.test_properties`, random games;
:mod:`tests.test_properties_plays`, drawn positions): the rule sets, each one's seeds, and
helpers independent of the engine's move generator and checker (a step by the board's
geometry alone, a play's steps replayed so, the invariants of a position)."""

from __future__ import annotations

from notation import Position, rule_set
from notation.engine.board import BAR, MEN, OFF, point_name
from notation.engine.rules import NAMES

SEED_OFFSET = {name: index * 1_000_000 for index, name in enumerate(NAMES)}
"""Each rule set's first game seed, so that ``hale`` does not replay ``jacquet``'s games."""
RULES = {name: rule_set(name) for name in NAMES}
HITTING = tuple(name for name in NAMES if RULES[name].hitting)


def geometric_step(rules, mover, opponent, from_point, die):
    """One die moved by one man, by the board's geometry alone: (mover, opponent, to)."""
    to_point = BAR - die if from_point == BAR else max(from_point - die, OFF)
    board = list(mover)
    board[from_point] -= 1
    board[to_point] += 1
    if rules.hitting and OFF < to_point < BAR:
        theirs = rules.opposite[to_point]
        if opponent[theirs] == 1:
            other = list(opponent)
            other[theirs] = 0
            other[BAR] += 1
            opponent = tuple(other)
    return tuple(board), opponent, to_point


def replay_steps(rules, position, play):
    """Replay ``play.steps`` on ``position`` by geometry alone: (problem or None, whether
    the mover held a prime after any single step)."""
    mover, opponent = position.mover, position.opponent
    held_prime = False
    for step in play.steps:
        if not mover[step.from_point]:
            return f"step {step} starts where the mover has no man", held_prime
        mover, opponent, to_point = geometric_step(rules, mover, opponent, step.from_point,
                                                   step.die)
        if to_point != step.to_point:
            return f"step {step} with a {step.die} should end on {point_name(to_point)}", held_prime
        held_prime = held_prime or prime(mover)
    if (mover, opponent) != (play.result.mover, play.result.opponent):
        return f"the steps of {play} do not lead to its result", held_prime
    return None, held_prime


def board_problems(rules, position):
    """Invariant 1 on one position."""
    problems = []
    for side, counts in (("mover", position.mover), ("opponent", position.opponent)):
        if len(counts) != 26 or sum(counts) != MEN or min(counts) < 0:
            problems.append(f"{side} has counts {counts}")
        if not rules.has_bar and counts[BAR]:
            problems.append(f"{side} has a man on the bar in {rules.name}")
    for point in range(1, 25):
        if position.mover[point] and position.opponent[rules.opposite[point]]:
            problems.append(f"both sides on the mover's point {point}")
    return problems


def id_round_trips(position):
    return Position.from_id(position.position_id()) == position


def prime(board):
    """Six consecutive points of a side's route, two or more men on each."""
    run = 0
    for point in range(24, 0, -1):
        run = run + 1 if board[point] >= 2 else 0
        if run == 6:
            return True
    return False
