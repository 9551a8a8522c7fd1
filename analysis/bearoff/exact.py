"""Exact outputs where both sides are in a pure bear-off: every man of both sides on his
home points (6-1) or off, so no contact can come again and each side's race is its own.

:func:`exact_outputs` is the one call the evaluator makes before the net: for the
positions it can judge, the outputs of :mod:`analysis.outcomes` for the side that has just
moved (the other side is on roll), from the one-sided tables of the rule set's bear-off
(:mod:`analysis.bearoff.store`). With T the rolls a side needs to bear off every man and F
the rolls to bear off its first (independent, each side playing to minimise its
expectation, as gnubg's one-sided database does), the side on roll rolling first:

- P(win) = Σ_t P(T_mover = t) · P(T_roller > t);
- P(win and the loser has none off) = Σ_t P(T_mover = t) · P(F_roller > t), when the
  roller has none off (else 0); P(lose so) = Σ_t P(T_roller = t) · P(F_mover ≥ t);
- what a win is worth is asked of the rule set itself (``RuleSet.score`` of a finished
  position with the loser's men off or not), so 2-point wins, gammons, marcia and per
  punto follow each rule set's own scoring; a backgammon cannot happen in a pure bear-off
  (the loser's men are all home) and comes out 0;
- penalty scoring (``hale``: the outputs ``won`` and ``lost``): E[points won] =
  Σ_t P(T_mover = t) · E[men the roller has left after t rolls] · the penalty of a man on
  the home points, and likewise lost (the mover has had t − 1 rolls).

Where both sides have at most 6 men left (so both have men off and P(win) is the whole
equity, outside hale), P(win) comes from the two-sided table instead
(:mod:`analysis.bearoff.twosided`): exact for the best play of both sides for the chance
to win. With more men the one-sided figures are exact for the plays that minimise the
expected rolls, which in a few close positions are not those that maximise the chance to
win (or to win 2 points). murray: per punto needs the winner never to have held a prime; the
flags so far are used, and a side with 12 or more men still home is taken not to make
one in the rest of the bear-off (it may choose not to).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from analysis.bearoff.moves import BearOffRule
from analysis.bearoff.onesided import stderr_progress
from analysis.bearoff.positions import MAX_MEN, POINTS, POWERS, Positions
from analysis.bearoff.store import table, two_sided
from analysis.bearoff.twosided import MEN as TWO_SIDED_MEN
from analysis.outcomes import outcomes_for
from notation import OFF, Position, RuleSet
from notation.engine.board import SIDE

Floats = NDArray[np.float64]


def pure_bear_off(position: Position) -> bool:
    """Whether every man of both sides is on his home points or off."""
    return not (any(position.mover[POINTS + 1:]) or any(position.opponent[POINTS + 1:]))


def _final(loser_home: dict[int, int]) -> Position:
    """A finished game seen by the winner: his men off, the loser's on ``loser_home``."""
    return Position.from_points({}, loser_home)


def _win_points(rules: RuleSet, held_prime: bool) -> tuple[int, int]:
    """What a win in a pure bear-off is worth: with the loser's men all home and none
    off, and with one of them off."""
    return (rules.score(_final({1: MAX_MEN}), winner_held_prime=held_prime),
            rules.score(_final({1: MAX_MEN - 1}), winner_held_prime=held_prime))


def _penalty_per_man(rules: RuleSet) -> int | None:
    """What each man the loser has left on his home points costs him, when that is the
    same on every home point (else None)."""
    rates = {rules.score(_final({p: 1})) for p in range(1, POINTS + 1)}
    return rates.pop() if len(rates) == 1 else None


def _rows(positions: Positions, homes: NDArray[np.int64]) -> NDArray[np.int64]:
    """The index among ``positions`` of each side's home points (one row each)."""
    return positions.index_of_keys(homes @ POWERS)


def _tail(distributions: Floats) -> Floats:
    """P(X > t) for each row's distribution of X (the tables' fixed point can make a
    sum come out a hair above 1: kept within [0, 1])."""
    return np.asarray(np.clip(1.0 - np.cumsum(distributions, axis=1), 0.0, 1.0))


def exact_outputs(rules: RuleSet, positions: Sequence[Position],
                  primes: NDArray[np.bool_] | None = None) -> tuple[NDArray[np.bool_], Floats]:
    """Which of ``positions`` (each seen by the side that has just moved) are judged
    exactly, and their outputs (rows of the others are 0). ``primes``: per position,
    whether (the mover, the other side) has held a prime (murray), as the encoder gives.
    The table is built at the first use (seconds, told on standard error)."""
    boards = np.array([p.mover + p.opponent for p in positions], dtype=np.int64).reshape(-1, 2 * SIDE)
    return exact_board_outputs(rules, boards, primes)


def exact_board_outputs(rules: RuleSet, boards: NDArray[np.integer],
                        primes: NDArray[np.bool_] | None = None) -> tuple[NDArray[np.bool_], Floats]:
    """:func:`exact_outputs` of boards (the 52 counts of each position, the side that has
    just moved first), with no :class:`Position` made: the evaluator's call."""
    names = outcomes_for(rules).names
    outputs = np.zeros((len(boards), len(names)))
    outside = boards[:, POINTS + 1:SIDE].any(axis=1) | boards[:, SIDE + POINTS + 1:].any(axis=1)
    mask: NDArray[np.bool_] = np.logical_not(outside)
    if not mask.any():
        return mask, outputs
    tab = table(BearOffRule.of(rules), stderr_progress)
    chosen = np.flatnonzero(mask)
    mover_homes = boards[chosen, 1:POINTS + 1].astype(np.int64)
    roller_homes = boards[chosen, SIDE + 1:SIDE + POINTS + 1].astype(np.int64)
    movers, rollers = _rows(tab.positions, mover_homes), _rows(tab.positions, roller_homes)
    t_mover, t_roller = tab.of("off", movers), tab.of("off", rollers)
    beyond_roller = _tail(t_roller)  # P(T_roller > t)
    win = np.clip(np.einsum("nt,nt->n", t_mover, beyond_roller), 0.0, 1.0)
    outputs[chosen, 0] = win
    if names[1:] == ("won", "lost"):
        rate = _penalty_per_man(rules)
        if rate is None:
            mask[chosen] = False
            outputs[chosen] = 0.0
            return mask, outputs
        scale = outcomes_for(rules).scale
        won = np.einsum("nt,nt->n", t_mover, tab.of("left", rollers))
        lost = np.einsum("nt,nt->n", t_roller[:, 1:], tab.of("left", movers)[:, :-1])
        outputs[chosen, 1] = won * rate / scale
        outputs[chosen, 2] = lost * rate / scale
        return mask, outputs
    mover_men, roller_men = mover_homes.sum(axis=1), roller_homes.sum(axis=1)
    few = np.flatnonzero((mover_men > 0) & (mover_men <= TWO_SIDED_MEN) & (roller_men <= TWO_SIDED_MEN))
    if len(few):  # both sides have men off: P(win) is all there is, exact for the best play of both
        small, wins_on_roll = two_sided(BearOffRule.of(rules), stderr_progress)
        roller_rows = _rows(small, roller_homes[few])
        mover_rows = _rows(small, mover_homes[few])
        win[few] = 1.0 - wins_on_roll[roller_rows, mover_rows]
        outputs[chosen[few], 0] = win[few]
    f_mover, f_roller = tab.of("first", movers), tab.of("first", rollers)
    beyond_first_roller = _tail(f_roller)  # P(F_roller > t)
    from_first_mover = _tail(f_mover) + f_mover  # P(F_mover ≥ t)
    none_off_roller = boards[chosen, SIDE + OFF] == 0
    none_off_mover = boards[chosen, OFF] == 0
    win_shut = np.where(none_off_roller, np.einsum("nt,nt->n", t_mover, beyond_first_roller), 0.0)
    lose_shut = np.where(none_off_mover, np.einsum("nt,nt->n", t_roller, from_first_mover), 0.0)
    win_shut, lose_shut = np.minimum(win, win_shut), np.minimum(1.0 - win, lose_shut)
    lose = 1.0 - win
    wins = len(names) // 2  # the outputs for the mover's wins of 2 points or more, then his losses
    points = {held: _win_points(rules, held) for held in (False, True)}
    held = primes[chosen] if primes is not None else np.zeros((len(chosen), 2), dtype=np.bool_)
    for side, shut, total in ((0, win_shut, win), (1, lose_shut, lose)):
        none_off = np.where(held[:, side], points[True][0], points[False][0])
        some_off = np.where(held[:, side], points[True][1], points[False][1])
        for level in range(2, wins + 2):
            value = np.where(none_off >= level, shut, 0.0) + np.where(some_off >= level, total - shut, 0.0)
            outputs[chosen, 1 + side * wins + level - 2] = np.maximum(value, 0.0)
    return mask, outputs
