"""Threat features: what a hit costs and how free the back men are (encoding version 4).

Version 2's contact features (:mod:`analysis.contact`) count a side's shots, its prime and
the numbers its rearmost man cannot play. gnubg's contact net adds more such counts beside
the raw board (its inputs ``PIPLOSS``, ``BACKESCAPES``, ``ACONTAIN``, ``FORWARD_ANCHOR``);
version 4 adds four of that kind to version 2's six, each side against the other, in the
game's own words:

- ``pip_loss``: what the other side's hits cost the side: for each of the 36 rolls, the
  pips the side loses with the worst blot that roll hits (a man hit on the side's point
  ``p`` goes back to the bar, losing the ``25 - p`` pips he had made), averaged over the
  36 rolls, / 24. The blots a roll hits are those :mod:`analysis.contact` counts for
  ``shots`` (direct, combined over an open rest point, doubles over open rest points);
- ``back_escapes``: the share of the 36 rolls with which the side's rearmost man (the bar
  included) can play the whole roll by himself, no point he rests on or lands on held by
  the other side (a point past the side's 1 counts as open): 1 in a race;
- ``containment``: how well the side's held points hold the other side's men back:
  1 − the fewest of the 36 rolls with which a man of the other side, standing on any of his
  points 13..24 (the far half of his route), could play the whole roll by himself past
  the side's held points, / 36;
- ``anchor``: the side's most advanced anchor (a point held in the other side's home
  board, his points 1..6): that point's number in his numbering / 6 (his 5 point: 5/6), 0
  without one.

The other side's points are mapped onto the side's route through ``RuleSet.opposite``,
as in :mod:`analysis.contact`. This module is the reference, one board at a time in plain
Python; the fast core computes the same in a kernel (:mod:`analysis.fast.threats`), and
the tests hold the two equal on random boards.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from analysis.rolls import COUNTS, PAIRS
from notation import RuleSet
from notation.engine.board import BAR, HOME, POINTS, SIDE

FEATURES = ("pip_loss", "back_escapes", "containment", "anchor")
FAR_HALF = range(13, POINTS + 1)
"""The points of the far half of a route, where ``containment`` looks at the other side."""


def rolls_played(start: int, blocked: set[int]) -> int:
    """How many of the 36 rolls let a man on ``start`` (a point of his route, 25 the bar)
    play the whole roll by himself, resting and landing on no point of ``blocked`` (points
    of his route; 0 and below, past his 1, count as open)."""
    def open_(point: int) -> bool:
        return point < 1 or point not in blocked

    count = 0
    for (a, b), weight in zip(PAIRS, COUNTS, strict=True):
        if a == b:
            count += all(open_(start - k * a) for k in range(1, 5))
        elif open_(start - a - b) and (open_(start - a) or open_(start - b)):
            count += weight
    return count


def _hit_points(his: tuple[int, ...] | NDArray[np.int8], open_: set[int], a: int, b: int
                ) -> set[int]:
    """The points (his numbering, 1..24) a man of his reaches with the roll ``a``-``b``
    from any of his points 1..25: each die alone, their sum over an open rest point, a
    double's 2, 3 and 4 steps over open rest points (``open_``: his points the side does
    not hold)."""
    reached: set[int] = set()
    for start in range(1, BAR + 1):
        if not his[start]:
            continue
        if a == b:
            point = start
            for step in range(4):
                if step and point not in open_:
                    break
                point -= a
                if point < 1:
                    break
                reached.add(point)
        else:
            for die in (a, b):
                if start - die >= 1:
                    reached.add(start - die)
            total = start - a - b
            if total >= 1 and (start - a in open_ or start - b in open_):
                reached.add(total)
    return reached


def side_features(rules: RuleSet, mine: tuple[int, ...] | NDArray[np.int8],
                  his: tuple[int, ...] | NDArray[np.int8]) -> list[float]:
    """The four features of the side with the 26 counts ``mine`` against the side with
    ``his`` (each in its own numbering), in the order of :data:`FEATURES`."""
    closes, opposite = rules.closes_at, rules.opposite
    # his points (his numbering) with my blots, and those I do not hold
    blots = {q for q in range(1, POINTS + 1) if mine[opposite[q]] == 1}
    open_for_him = {q for q in range(1, POINTS + 1) if mine[opposite[q]] < closes}
    lost = 0
    for (a, b), weight in zip(PAIRS, COUNTS, strict=True):
        hit = _hit_points(his, open_for_him, a, b) & blots
        worst = max((BAR - opposite[q] for q in hit), default=0)
        lost += worst * weight
    # my points he holds (my numbering), and my rearmost man
    held_by_him = {p for p in range(1, POINTS + 1) if his[opposite[p]] >= closes}
    rear = max((p for p in range(1, BAR + 1) if mine[p]), default=0)
    held_by_me = set(range(1, POINTS + 1)) - open_for_him
    fewest = min(rolls_played(q, held_by_me) for q in FAR_HALF)
    anchors = [q for q in HOME if q in held_by_me]
    return [lost / 36 / POINTS, rolls_played(rear, held_by_him) / 36, 1 - fewest / 36,
            max(anchors, default=0) / len(HOME)]


class Threats:
    """The threat features of one rule set (its point mapping and how many men hold a
    point), for whole arrays of boards; a subclass gives other features of one side
    against the other (``side_features``, ``names``) the same way."""

    side_features = staticmethod(side_features)
    names = FEATURES

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules

    def features(self, boards: NDArray[np.int8]) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """The features of (the mover against the opponent, the opponent against the
        mover) of ``boards`` (shape ``(n, 52)``), each of shape ``(n, 4)`` in the order
        of ``names``."""
        n = boards.shape[0]
        mover = np.empty((n, len(self.names)), dtype=np.float32)
        opponent = np.empty((n, len(self.names)), dtype=np.float32)
        for row in range(n):
            board = boards[row]
            mover[row] = self.side_features(self.rules, board[:SIDE], board[SIDE:])
            opponent[row] = self.side_features(self.rules, board[SIDE:], board[:SIDE])
        return mover, opponent
