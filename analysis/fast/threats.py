"""The threat features of :mod:`analysis.threats` in a kernel, board by board, for the
encoding kernel (:mod:`analysis.fast.encode`, version 4). The test suite holds it equal to
the reference on random boards.

Every roll is played by every man at once, on point masks: bit ``p`` for point ``p``
(the men a roll moves, the points it reaches), and for the rolls a man can play by himself,
bit ``p +`` :data:`_OFFSET` for point ``p`` (points down to −24, past the side's 1, where
a double's fourth step from the 1 point lands). A roll's mask shifted by a die is every
man's step by that die, so a feature costs a few operations a roll instead of a loop over
the points a roll (a third of the whole judgement of a board before). The masks of the
men and the blots each roll hits are the contact features' (:func:`analysis.fast.encode._contact`
makes them once for both: the threat features took a sixth of a board's encoding making
them again)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from analysis.fast.jit import kernel
from analysis.threats import FAR_HALF
from notation.engine.board import BAR, HOME, POINTS

_HOME_START, _HOME_STOP = HOME.start, HOME.stop
"""A side's home points as ints (a kernel takes no range from outside)."""
_FAR_START = FAR_HALF.start
"""The first point of the far half of a route (``containment`` looks at 13..24)."""

_OFFSET = POINTS
"""Bit ``p + _OFFSET`` of an open mask stands for point ``p`` (−24 .. 25)."""
_PAST_ONE = (1 << (_OFFSET + 1)) - 1
"""The points 0 and below of an open mask: always open."""
_POINT_BITS = ((1 << (POINTS + 1)) - 1) ^ 1
"""Points 1..24 of a point mask."""
_DE_BRUIJN = 0x077CB531
"""A de Bruijn sequence of 32 bits: a power of two times it has a distinct top five bits."""
_BIT_OF = np.zeros(32, dtype=np.int64)
_BIT_OF[((_DE_BRUIJN << np.arange(32, dtype=np.int64)) & 0xFFFFFFFF) >> 27] = np.arange(32)
"""Which bit a power of two below ``2**32`` is, by the top five bits of its product with
:data:`_DE_BRUIJN`."""


@kernel
def _bit(power: int) -> int:
    """``k`` of ``power`` = ``2**k`` (``k`` below 32)."""
    return int(_BIT_OF[((power * _DE_BRUIJN) & 0xFFFFFFFF) >> 27])


@kernel
def _open_mask(blocked: int) -> int:
    """The open points (bit ``p + _OFFSET``) where ``blocked`` (bit ``p``) holds points
    of 1..24: every point below 1 open, and those of 1..24 not blocked."""
    return _PAST_ONE | ((~blocked & _POINT_BITS) << _OFFSET)


@kernel
def _playable(open_: int, a: int, b: int) -> int:
    """The starting points (bit ``p + _OFFSET``) from which a man plays the roll ``a``-``b``
    by himself, resting and landing on open points only (``open_``: :func:`_open_mask`):
    a double's four steps, or both dice over either rest point. The bits above the
    starting points are not meaningful (shifted past the word)."""
    if a == b:
        return (open_ << a) & (open_ << (2 * a)) & (open_ << (3 * a)) & (open_ << (4 * a))
    return (open_ << (a + b)) & ((open_ << a) | (open_ << b))


@kernel
def rolls_played(start: int, blocked: int) -> int:
    """How many of the 36 rolls let a man on ``start`` play the whole roll by himself,
    resting and landing on no point of the mask ``blocked``
    (:func:`analysis.threats.rolls_played`)."""
    open_ = _open_mask(blocked)
    count = 0
    for a in range(1, 7):
        for b in range(a, 7):
            count += ((_playable(open_, a, b) >> (start + _OFFSET)) & 1) * (1 if a == b else 2)
    return count


Planes = tuple[int, int, int, int, int, int]
"""Six bit planes of counts: plane ``j`` holds bit ``j`` of every point's count (36 at most)."""


@kernel
def roll_counts(blocked: int, first: int) -> Planes:
    """:func:`rolls_played` (``blocked``) from every point ``first`` and up at once, each
    roll played from all of them on the open points' mask: bit ``k`` of each plane is
    point ``first + k``'s (:func:`count_at` reads a point's count)."""
    open_ = _open_mask(blocked)
    c0 = c1 = c2 = c3 = c4 = c5 = 0
    for a in range(1, 7):
        for b in range(a, 7):
            carry = _playable(open_, a, b) >> (first + _OFFSET)
            if a == b:
                c0, carry = c0 ^ carry, c0 & carry
            c1, carry = c1 ^ carry, c1 & carry
            c2, carry = c2 ^ carry, c2 & carry
            c3, carry = c3 ^ carry, c3 & carry
            c4, carry = c4 ^ carry, c4 & carry
            c5 = c5 ^ carry
    return c0, c1, c2, c3, c4, c5


@kernel
def count_at(planes: Planes, k: int) -> int:
    """The count held at bit ``k`` of ``planes`` (:func:`roll_counts`)."""
    c0, c1, c2, c3, c4, c5 = planes
    return (((c0 >> k) & 1) | (((c1 >> k) & 1) << 1) | (((c2 >> k) & 1) << 2)
            | (((c3 >> k) & 1) << 3) | (((c4 >> k) & 1) << 4) | (((c5 >> k) & 1) << 5))


@kernel
def _fewest_far(blocked: int) -> int:
    """The fewest of :func:`rolls_played` (``blocked``) over the far half's points
    (13..24)."""
    planes = roll_counts(blocked, _FAR_START)
    fewest = 36
    for k in range(POINTS + 1 - _FAR_START):
        fewest = min(fewest, count_at(planes, k))
    return fewest


@kernel
def worst_hit(hit: int, opposite: NDArray[np.int64]) -> int:
    """The pips the side loses by its worst blot of ``hit`` (his points, bit ``p`` for
    point ``p``) being hit: its point's distance from the side's bar (0: no blot hit)."""
    worst = 0
    while hit:  # each point hit, by its bit
        lowest = hit & -hit
        hit ^= lowest
        worst = max(worst, BAR - opposite[_bit(lowest)])
    return worst


@kernel
def threats(lost: int, my_open: int, held_by_him: int, rear: int, out: NDArray[np.float32],
            at: int) -> None:
    """The four threat features of a side, written to ``out[at:at + 4]``, from what the
    contact features make of it (:func:`analysis.fast.encode._contact`): ``lost``, the
    pips its worst blot hit loses summed over the 36 rolls (:func:`worst_hit` of each
    roll's blots hit), ``my_open`` (his points 1..24 the side leaves open, his numbering,
    bit ``p`` for point ``p``), ``held_by_him`` (the side's points he holds, its numbering)
    and ``rear``, the side's rear-most man's point (0: none)."""
    held_by_me = _POINT_BITS & ~my_open  # his points 1..24 the side holds
    anchor = 0
    for point in range(_HOME_START, _HOME_STOP):
        if (held_by_me >> point) & 1:
            anchor = point
    out[at] = lost / 36 / POINTS
    out[at + 1] = rolls_played(rear, held_by_him) / 36
    out[at + 2] = 1 - _fewest_far(held_by_me) / 36
    out[at + 3] = anchor / (_HOME_STOP - _HOME_START)
