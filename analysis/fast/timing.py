"""The timing features of :mod:`analysis.timing` in a kernel, board by board, for the
encoding kernel (:mod:`analysis.fast.encode`, version 5). The test suite holds it equal to
the reference on random boards.

One pass over the side's points gives the free pips, the moments of its men and the mask of
the points the other side holds; ``mobility`` counts every point's rolls at once in bit
planes, as ``containment`` does (:func:`analysis.fast.threats.roll_counts`)."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from analysis.fast.jit import kernel
from analysis.fast.threats import count_at, roll_counts
from analysis.timing import ENTRY, OUTSIDE, PIPS, SPREAD
from notation.engine.board import BAR, POINTS

_OUTSIDE_START = OUTSIDE.start
"""The first point outside the home board (a kernel takes no range from outside)."""
_ENTRY_START = ENTRY.start
"""The other side's first entry point (his 19)."""


@kernel
def _rolls_by_point(blocked: int, board: NDArray[np.int8], mine: int) -> int:
    """The rolls (of 36) the side's men outside its home board can play each by himself,
    summed over those men, resting and landing on no point of ``blocked``."""
    planes = roll_counts(blocked, _OUTSIDE_START)
    played = 0
    for point in range(_OUTSIDE_START, BAR + 1):
        men = int(board[mine + point])
        if men:
            played += men * count_at(planes, point - _OUTSIDE_START)
    return played


@kernel
def timing(board: NDArray[np.int8], mine: int, his: int, closes: int,
           opposite: NDArray[np.int64], out: NDArray[np.float32], at: int) -> None:
    """The four timing features of the side at ``mine`` against the side at ``his``
    (offsets of their 26 counts in ``board``), written to ``out[at:at + 4]``."""
    free = 0
    total = 0
    first = 0
    second = 0
    outside = 0
    held_by_him = 0
    entry = POINTS
    for point in range(_ENTRY_START, POINTS + 1):
        entry = min(entry, opposite[point])
    front = BAR
    for point in range(1, BAR + 1):
        men = int(board[mine + point])
        if men:
            kept = closes if point <= POINTS and men >= closes else 0
            free += (men - kept) * (point - 1)
            total += men
            first += men * point
            second += men * point * point
            if point >= _OUTSIDE_START:
                outside += men
        if board[his + point]:
            front = min(front, opposite[point] if point <= POINTS else entry)
        if point <= POINTS and board[his + opposite[point]] >= closes:
            held_by_him |= np.int64(1) << point
    behind = 0
    for point in range(front + 1, BAR + 1):
        behind += int(board[mine + point]) * (point - front + 1)
    spread = 0.0
    if total > 1:
        mean = first / total
        spread = math.sqrt(max(second / total - mean * mean, 0.0))
    out[at] = free / PIPS
    out[at + 1] = _rolls_by_point(held_by_him, board, mine) / 36 / outside if outside else 1.0
    out[at + 2] = behind / PIPS
    out[at + 3] = spread / SPREAD
