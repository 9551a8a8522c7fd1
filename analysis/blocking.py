"""Blocking features: what a side's held points do to the other side's rearmost man.

In the rule sets without hitting (``jacquet``, ``versailles``, ``hale``) a single man
holds a point and nothing is ever sent back, so a game is a race slowed by blocks: the
skill is to hold points that the opponent still has to pass, and to hold them in a row.
The raw point units say where every man is; these five inputs per side say it in the
game's own terms, so that a small net need not learn them from scratch (as TD-Gammon 2
was given hand-made features beside its raw board):

- ``pips``: the side's pips still to go / 360 (15 men × 24 points);
- ``rear``: the point of the opponent's rearmost man in the opponent's numbering / 24;
- ``blocks``: the side's held points that lie ahead of that man (he still has to pass
  them) / 12;
- ``run``: the longest row of such points, side by side along the opponent's route / 6;
- ``blocked_dice``: how many of the six numbers that man cannot play, his landing point
  being held by the side, / 6.

All are computed at once for every board of a turn (arrays of shape ``(n, 52)``: the
mover's 26 counts, then the opponent's, each in its own numbering), with no Python loop
per board.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from notation import RuleSet
from notation.engine.board import MEN, POINTS, SIDE

FEATURES = ("pips", "rear", "blocks", "run", "blocked_dice")
_DISTANCE = np.arange(1, POINTS + 1, dtype=np.int32)


class Blocking:
    """The blocking features of one rule set (its point mapping and how many men hold a
    point)."""

    def __init__(self, rules: RuleSet) -> None:
        self.closes = rules.closes_at
        opposite = np.array(rules.opposite, dtype=np.intp)
        self._mine_at = opposite[1:POINTS + 1]
        """For each point 1..24 of the opponent's route, its number on mine."""
        landing = np.zeros((POINTS + 1, 6), dtype=np.intp)
        for rear in range(1, POINTS + 1):
            for die in range(1, 7):
                if rear - die >= 1:
                    landing[rear, die - 1] = opposite[rear - die]
        self._landing = landing
        """For his rearmost man on each point 0..24 of his route, the points of mine (1..24;
        0: none, he bears off) where each die 1..6 would take him."""

    def features(self, boards: NDArray[np.int8]) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """The features of (the mover against the opponent, the opponent against the
        mover), each of shape ``(n, 5)`` in the order of :data:`FEATURES`."""
        n = boards.shape[0]
        both = self._sides(np.concatenate((boards[:, :SIDE], boards[:, SIDE:])),
                           np.concatenate((boards[:, SIDE:], boards[:, :SIDE])))
        return both[:n], both[n:]

    def _sides(self, mine: NDArray[np.int8], his: NDArray[np.int8]) -> NDArray[np.float32]:
        """The features of each row's ``mine`` against its ``his`` (26 counts each)."""
        points = mine[:, 1:POINTS + 1]
        held = np.zeros((mine.shape[0], POINTS + 1), dtype=np.bool_)  # column 0: never held
        held[:, 1:] = points >= self.closes
        his_points = his[:, 1:POINTS + 1] > 0
        # his rearmost man: the highest of his points that has a man (0 when none is left)
        rear = np.where(his_points.any(axis=1), POINTS - np.argmax(his_points[:, ::-1], axis=1), 0)
        # my held points along his route (1..24), those he still has to pass
        blocking = held[:, self._mine_at] & (np.arange(1, POINTS + 1)[None, :] < rear[:, None])
        # the longest row along his route: the count of blocking points so far, less that
        # count at the last gap before each point
        so_far = np.cumsum(blocking, axis=1)
        at_gap = np.maximum.accumulate(np.where(blocking, 0, so_far), axis=1)
        blocked = held[np.arange(mine.shape[0])[:, None], self._landing[rear]]
        out = np.empty((mine.shape[0], len(FEATURES)), dtype=np.float32)
        out[:, 0] = (points.astype(np.int32) @ _DISTANCE) / (MEN * POINTS)
        out[:, 1] = rear / POINTS
        out[:, 2] = blocking.sum(axis=1) / 12
        out[:, 3] = (so_far - at_gap).max(axis=1) / 6
        out[:, 4] = blocked.sum(axis=1) / 6
        return out
