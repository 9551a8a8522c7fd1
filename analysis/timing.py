"""Timing features: how long a side can wait, how free its men are, how far it stands from
a race and how spread out its men are (encoding version 5).

Version 4's threat features (:mod:`analysis.threats`) say what a hit costs and how free the
rearmost man is. gnubg's contact net has more counts of that kind beside the raw board
(among its inputs ``TIMING``, ``MOBILITY``, ``BREAK_CONTACT``, ``MOMENT2``); version 5 adds
four of that kind to version 4's ten, each side against the other, in the game's own words:

- ``timing``: the free pips of the side, the pips it can play before it must break a point
  it holds: every man but the :attr:`~notation.RuleSet.closes_at` men holding each of its
  held points (the bar included: a man there is free), each counted down to the side's 1
  point (a man on ``p`` has ``p - 1`` pips to play there), / 100;
- ``mobility``: how freely the side's men outside its home board (its 7..24 and the bar)
  move past the other side's held points: for each such man, the share of the 36 rolls he
  can play by himself (:func:`analysis.threats.rolls_played`), averaged over those men;
  1 with none;
- ``break_contact``: the pips the side needs to break contact: every man of the side still
  behind the other side's foremost man (on the side's route; a man of his on the bar counts
  on the one of his entry points furthest ahead, as for ``contact``) counts the pips that
  take him past that man, / 100; 0 in a race;
- ``spread``: how spread out the side's men still in play are along its route (the bar
  counts 25): the standard deviation of their points, / 12; 0 with fewer than two.

The other side's points are mapped onto the side's route through ``RuleSet.opposite``,
as in :mod:`analysis.contact`. This module is the reference, one board at a time in plain
Python; the fast core computes the same in a kernel (:mod:`analysis.fast.timing`), and
the tests hold the two equal on random boards.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from analysis.threats import Threats, rolls_played
from notation import RuleSet
from notation.engine.board import BAR, HOME, POINTS

FEATURES = ("timing", "mobility", "break_contact", "spread")
PIPS = 100
"""The scale of ``timing`` and ``break_contact`` (pips / 100, as a side's pip count)."""
SPREAD = 12
"""The scale of ``spread`` (half a route)."""
OUTSIDE = range(HOME.stop, BAR + 1)
"""A side's points outside its home board, the bar included: the men ``mobility`` counts."""
ENTRY = range(POINTS - len(HOME) + 1, POINTS + 1)
"""The other side's entry points (his 19..24): where a man of his on the bar comes in."""


def side_features(rules: RuleSet, mine: tuple[int, ...] | NDArray[np.int8],
                  his: tuple[int, ...] | NDArray[np.int8]) -> list[float]:
    """The four features of the side with the 26 counts ``mine`` against the side with
    ``his`` (each in its own numbering), in the order of :data:`FEATURES`."""
    closes, opposite = rules.closes_at, rules.opposite
    counts = {p: int(mine[p]) for p in range(1, BAR + 1) if mine[p]}
    free = 0
    for point, men in counts.items():
        kept = closes if point <= POINTS and men >= closes else 0
        free += (men - kept) * (point - 1)
    held_by_him = {p for p in range(1, POINTS + 1) if his[opposite[p]] >= closes}
    outside = [(p, counts[p]) for p in OUTSIDE if p in counts]
    men_outside = sum(men for _, men in outside)
    played = sum(men * rolls_played(p, held_by_him) for p, men in outside)
    mobility = played / 36 / men_outside if men_outside else 1.0
    his_points = [opposite[q] for q in range(1, POINTS + 1) if his[q]]
    if his[BAR]:
        his_points.append(min(opposite[q] for q in ENTRY))
    front = min(his_points, default=BAR)
    behind = sum(men * (p - front + 1) for p, men in counts.items() if p > front)
    total = sum(counts.values())
    spread = 0.0
    if total > 1:
        mean = sum(p * men for p, men in counts.items()) / total
        square = sum(p * p * men for p, men in counts.items()) / total
        spread = math.sqrt(max(square - mean * mean, 0.0))  # as the kernel, bit for bit
    return [free / PIPS, mobility, behind / PIPS, spread / SPREAD]


class Timing(Threats):
    """The timing features of one rule set, for whole arrays of boards (as
    :class:`~analysis.threats.Threats` gives its own)."""

    side_features = staticmethod(side_features)
    names = FEATURES
