"""Contact features: what hitting and held points still threaten between the two sides.

In the rule sets with hitting (``backgammon``, ``murray``) a blot can be hit and sent back
to the bar, and two men hold a point against the other side. The raw point units say
where every man is; these six inputs per side say, in the game's own terms, what a strong
player counts at a glance (TD-Gammon 2 and its heirs were given such hand-made features
beside the raw board, and the net learns faster and further with them):

- ``pips``: the side's pips still to go (a man on the bar counts 25) / 375 (15 × 25);
- ``contact``: 1 while some man of the side still has to pass some man of the other
  side (his point lies ahead on the side's route), else 0: the game is then a race
  for that side;
- ``shots``: the fraction of the 36 rolls with which the other side can hit at least one
  blot of the side (a point 1..24 of the side with exactly one man), from his points and
  his bar (his point 25): direct shots (one die equal to the distance), combined shots
  (the sum of the dice, when at least one of the two rest points is not held by the
  side) and doubles (two, three or four steps of the die, every rest point not held);
- ``prime``: the longest row of points held by the side (at least ``closes_at`` men),
  along its own route, / 6;
- ``escapes``: how many of the six numbers the side's rearmost man (the one furthest
  from home, the bar included) cannot play because his landing point is held by the
  other side, / 6 (0 in a race: no held point lies ahead of him);
- ``enter``: with men on the bar, the fraction of the side's six entry points (its 19..24)
  held by the other side, else 0.

The other side's men are mapped onto the side's route through ``RuleSet.opposite``
(``backgammon``: my ``p`` is his ``25 - p``; ``murray``, where both sides run the same way:
his ``p ± 12``). A man of his on the bar will stand on one of his entry points (his 19..24),
so for ``contact`` he counts as on the one of them that lies furthest ahead on the side's
route.

What ``shots`` simplifies: each shot is looked at alone, as if the man who hits could move
freely: a man of the other side on the bar must enter before any other of his men moves,
and that is ignored; so are the rules that may forbid the hitting play as a whole (the
courier, R-CLOSE2 and R-MID2 of ``murray``, the rule to play both dice), and a shot that
needs the rest point of a man already used for the other die. A roll counts once however
many blots it hits.

All are computed at once for every board of a turn (arrays of shape ``(n, 52)``: the
mover's 26 counts, then the opponent's, each in its own numbering): the points become bit
masks, one bit a point, and every roll's shots are shifts of them, with no Python loop
per board.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from analysis.race import places
from analysis.rolls import COUNTS, HIGH_DICE, LOW_DICE
from notation import RuleSet
from notation.engine.board import BAR, MEN, POINTS, SIDE

FEATURES = ("pips", "contact", "shots", "prime", "escapes", "enter")
_DOUBLE = np.where(HIGH_DICE == LOW_DICE, np.int64(-1), np.int64(0))
"""All bits set for the doubles, none for the others: the third and fourth steps."""
WEIGHT = np.array(COUNTS, dtype=np.int64)
"""Each of the 21 rolls' count among the 36 (summed as integers, then divided: the same
figure whatever order a matrix product adds them in)."""
NUMBERS = np.array([bin(bits).count("1") for bits in range(64)], dtype=np.float32) / 6
"""For six bits (one a die 1..6), the share of the six numbers that are set."""
_MASKS = ("his_men", "my_blots", "my_open", "my_held", "his_held", "my_men")
"""The point masks of each row, bit ``p`` for point ``p``: his men (his 1..25), my blots
and the points I do not hold (his 1..24), the points I hold (my 1..24), those he holds
(my 1..24), my men (my 1..25, and bit 0 always, so that the highest bit is 0 when all are
off)."""
_NEVER, _ALWAYS = (1, 0), (0, 127)


class Contact:
    """The contact features of one rule set (its point mapping and how many men hold a
    point)."""

    def __init__(self, rules: RuleSet) -> None:
        closes = rules.closes_at
        opposite = rules.opposite
        self._place = places(rules)
        """For each of his points 1..25, where it lies on my route (his bar: the entry
        point that lies furthest ahead)."""
        # which column of a row's 52 counts (mine, then his) sets each bit of each mask,
        # and the counts, from low to high, that set it
        column = np.zeros((len(_MASKS), 32), dtype=np.intp)
        bounds = np.array([[_NEVER] * 32] * len(_MASKS), dtype=np.int8)
        for point in range(1, BAR + 1):
            board = point <= POINTS
            column[0, point], bounds[0, point] = SIDE + point, (1, 127)
            column[5, point], bounds[5, point] = point, (1, 127)
            if board:
                column[1, point], bounds[1, point] = opposite[point], (1, 1)
                column[2, point], bounds[2, point] = opposite[point], (0, closes - 1)
                column[3, point], bounds[3, point] = point, (closes, 127)
                column[4, point], bounds[4, point] = SIDE + opposite[point], (closes, 127)
        bounds[5, 0] = _ALWAYS
        self._column = column.ravel()
        self._low = bounds[:, :, 0].ravel()
        self._high = bounds[:, :, 1].ravel()
        self._value = np.kron(np.eye(len(_MASKS)), 2.0 ** np.arange(32)[:, None])
        """Each bit's value in its mask (a matrix product sums them, exactly in float64)."""

    def features(self, boards: NDArray[np.int8]) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """The features of (the mover against the opponent, the opponent against the
        mover), each of shape ``(n, 6)`` in the order of :data:`FEATURES`."""
        n = boards.shape[0]
        both = self._sides(np.concatenate((boards, np.roll(boards, SIDE, axis=1))))
        return both[:n], both[n:]

    def _sides(self, boards: NDArray[np.int8]) -> NDArray[np.float32]:
        """The features of each row's first 26 counts (mine) against its last (his)."""
        counts = boards[:, self._column]
        bits = (counts >= self._low) & (counts <= self._high)
        masks = (bits.astype(np.float64) @ self._value).astype(np.int64)
        his_men, my_blots, my_open, my_held, his_held, my_men = masks.T
        # my rearmost man: the highest bit of my men (0 when all are off)
        rear = np.frexp(my_men)[1] - 1
        # his man furthest ahead on my route
        front = np.where(boards[:, SIDE + 1:] > 0, self._place, BAR).min(axis=1)
        out = np.empty((boards.shape[0], len(FEATURES)), dtype=np.float32)
        out[:, 0] = (boards[:, 1:BAR + 1].astype(np.int64) @ _PIPS) / (MEN * BAR)
        out[:, 1] = rear > front
        out[:, 2] = _shots(his_men[:, None], my_blots[:, None], my_open[:, None])
        out[:, 3] = _longest_row(my_held) / 6
        # bits rear-1 .. rear-6 of his held points: where the dice 1..6 take my rearmost
        # (from the bar, they are my entry points 24..19)
        out[:, 4] = NUMBERS[((his_held << 6) >> rear) & 63]
        out[:, 5] = (rear == BAR) * out[:, 4]
        return out


_PIPS = np.arange(1, BAR + 1, dtype=np.int64)
"""Each point's pips (the sum, in integers, is divided by those of 15 men on the bar)."""


def _shots(his_men: NDArray[np.int64], blots: NDArray[np.int64], open_: NDArray[np.int64]
           ) -> NDArray[np.float32]:
    """The share of the 36 rolls that hit a blot, from point masks in his numbering (each
    of shape ``(rows, 1)``): a step of ``d`` pips is a right shift by ``d``, and a rest
    point must be open. A roll hits when a point it reaches is a blot."""
    first, second = his_men >> HIGH_DICE, his_men >> LOW_DICE
    rested = ((first & open_) >> LOW_DICE) | ((second & open_) >> HIGH_DICE)
    reached = first | second | rested
    for _step in (3, 4):  # the doubles' third and fourth steps
        rested = ((rested & open_) >> HIGH_DICE) & _DOUBLE
        reached |= rested
    shots: NDArray[np.float32] = ((((reached & blots) != 0) @ WEIGHT) / 36).astype(np.float32)
    return shots


def _rows_of_twelve() -> NDArray[np.int64]:
    """For each mask of 12 bits: its longest row of set bits, the row that ends at its
    top bit (11) and the row that starts at its bottom bit (0)."""
    masks = np.arange(1 << 12, dtype=np.int64)
    table = np.zeros((1 << 12, 3), dtype=np.int64)
    shrinking = masks.copy()
    top = bottom = np.ones(1 << 12, dtype=np.bool_)
    for bit in range(12):
        table[:, 0] += shrinking != 0
        shrinking &= shrinking >> 1
        top = top & ((masks >> (11 - bit)) & 1 == 1)
        bottom = bottom & ((masks >> bit) & 1 == 1)
        table[:, 1] += top
        table[:, 2] += bottom
    return table


_ROWS = _rows_of_twelve()


def _longest_row(held: NDArray[np.int64]) -> NDArray[np.int64]:
    """The longest row of points 1..24 (bits 1..24) of each mask: the longest in each half
    (points 1..12, 13..24), or the row across the two (up to 12, from 13)."""
    low, high = _ROWS[(held >> 1) & 4095], _ROWS[held >> 13]
    longest: NDArray[np.int64] = np.maximum(np.maximum(low[:, 0], high[:, 0]), low[:, 1] + high[:, 2])
    return longest
