"""The threat features of :mod:`analysis.threats` in a kernel, board by board, on point
masks (bit ``p`` for point ``p``), for the encoding kernel (:mod:`analysis.fast.encode`,
version 4). The test suite holds it equal to the reference on random boards."""

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


@kernel
def _open(point: int, blocked: int) -> bool:
    """Whether ``point`` is not one of ``blocked``'s (a point below 1 always is)."""
    return point < 1 or ((blocked >> point) & 1) == 0


@kernel
def rolls_played(start: int, blocked: int) -> int:
    """How many of the 36 rolls let a man on ``start`` play the whole roll by himself,
    resting and landing on no point of the mask ``blocked``
    (:func:`analysis.threats.rolls_played`)."""
    count = 0
    for a in range(1, 7):
        if _open(start - a, blocked) and _open(start - 2 * a, blocked) \
                and _open(start - 3 * a, blocked) and _open(start - 4 * a, blocked):
            count += 1
        for b in range(a + 1, 7):
            if _open(start - a - b, blocked) and (_open(start - a, blocked)
                                                  or _open(start - b, blocked)):
                count += 2
    return count


@kernel
def threats(board: NDArray[np.int8], mine: int, his: int, closes: int,
            opposite: NDArray[np.int64], out: NDArray[np.float32], at: int) -> None:
    """The four threat features of the side whose 26 counts start at ``mine`` against the
    side at ``his``, written to ``out[at:at + 4]``."""
    his_men = 0       # his points 1..25 with a man, his numbering
    my_blots = 0      # his points 1..24 where I have exactly one man
    held_by_me = 0    # his points 1..24 I hold
    held_by_him = 0   # my points 1..24 he holds
    rear = 0
    for point in range(1, BAR + 1):
        bit = np.int64(1) << point
        if board[his + point]:
            his_men |= bit
        if board[mine + point]:
            rear = point
        if point <= POINTS:
            there = board[mine + opposite[point]]
            if there == 1:
                my_blots |= bit
            if there >= closes:
                held_by_me |= bit
            if board[his + opposite[point]] >= closes:
                held_by_him |= bit
    lost = 0
    for a in range(1, 7):
        for b in range(a, 7):
            reached = 0
            for start in range(1, BAR + 1):
                if not (his_men >> start) & 1:
                    continue
                if a == b:
                    point = start - a
                    for step in range(4):
                        if point < 1 or (step and ((held_by_me >> (point + a)) & 1)):
                            break
                        reached |= np.int64(1) << point
                        point -= a
                else:
                    if start - a >= 1:
                        reached |= np.int64(1) << (start - a)
                    if start - b >= 1:
                        reached |= np.int64(1) << (start - b)
                    total = start - a - b
                    if total >= 1 and (((held_by_me >> (start - a)) & 1) == 0
                                       or ((held_by_me >> (start - b)) & 1) == 0):
                        reached |= np.int64(1) << total
            hit = reached & my_blots
            worst = 0
            if hit:
                for point in range(1, POINTS + 1):
                    if (hit >> point) & 1:
                        worst = max(worst, BAR - opposite[point])
            lost += worst * (1 if a == b else 2)
    fewest = 36
    for point in range(_FAR_START, POINTS + 1):
        fewest = min(fewest, rolls_played(point, held_by_me))
    anchor = 0
    for point in range(_HOME_START, _HOME_STOP):
        if (held_by_me >> point) & 1:
            anchor = point
    out[at] = lost / 36 / POINTS
    out[at + 1] = rolls_played(rear, held_by_him) / 36
    out[at + 2] = 1 - fewest / 36
    out[at + 3] = anchor / (_HOME_STOP - _HOME_START)
