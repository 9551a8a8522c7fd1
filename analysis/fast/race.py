"""The race evaluator's part of the judgement on arrays: every board's class and the race
net's inputs (:mod:`analysis.race`), board by board in kernels, one pass over each board.

:func:`analysis.race.classes` and :class:`analysis.race.RaceInputs` stay the reference
(numpy, and the rule set's own tests where its classes are not the standard ones); the
kernels give the same classes and the same inputs to the last bit (tested on random
boards of every rule set), and know the standard classes only.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from analysis.fast.jit import kernel
from analysis.race import BEAROFF, CONTACT, OFF_UNITS, POINT_UNITS, QUARTER, RACE
from notation.engine.board import BAR, HOME, MEN, POINTS, SIDE

Boards = NDArray[np.int8]
Flags = NDArray[np.bool_]

_HOME_TOP = HOME[-1]
"""A side's home is its points 1..6: a board is a bear-off while no man stands beyond."""
_EXTRA = 4


@kernel
def _rearmost(board: Boards, base: int) -> int:
    """The point of the rearmost man of the side whose 26 counts start at ``base`` (the bar
    25; 0: every man off)."""
    for point in range(BAR, 0, -1):
        if board[base + point] > 0:
            return point
    return 0


@kernel
def _frontmost(board: Boards, base: int, places: NDArray[np.int64]) -> int:
    """Where the man of the side at ``base`` furthest ahead on the other side's route
    stands, in the other side's numbering (``places``: :func:`analysis.race.places`; 25:
    none left)."""
    front = BAR
    for point in range(1, BAR + 1):
        if board[base + point] > 0 and places[point - 1] < front:
            front = places[point - 1]
    return front


@kernel
def pure_bear_off(board: Boards) -> bool:
    """Whether every man of both sides is on his home points (6-1) or off."""
    for point in range(_HOME_TOP + 1, SIDE):  # noqa: SIM110 (numba compiles the loop)
        if board[point] > 0 or board[SIDE + point] > 0:
            return False
    return True


@kernel
def classes(boards: Boards, places: NDArray[np.int64]) -> NDArray[np.int64]:
    """Each board's standard class (:data:`analysis.race.BEAROFF`, ``RACE``, ``CONTACT``),
    as :func:`analysis.race.classes` gives it."""
    out = np.empty(boards.shape[0], dtype=np.int64)
    for row in range(boards.shape[0]):
        out[row] = board_class(boards[row], places)
    return out


@kernel
def board_class(board: Boards, places: NDArray[np.int64]) -> int:
    """:func:`classes` of one board."""
    if pure_bear_off(board):
        return BEAROFF
    if (_rearmost(board, 0) <= _frontmost(board, SIDE, places)
            and _rearmost(board, SIDE) <= _frontmost(board, 0, places)):
        return RACE
    return CONTACT


@kernel
def _side(board: Boards, base: int, held: bool, prime: bool, out: NDArray[np.float32],
          at: int) -> None:
    """The race inputs of the side whose 26 counts start at ``base``, written from
    ``out[at]`` (``prime``: the rule set tracks a prime held, ``held`` whether this side
    has)."""
    pips = 0
    outside = 0
    crossings = 0
    for point in range(1, BAR):
        count = int(board[base + point])
        unit = at + (point - 1) * POINT_UNITS
        for k in range(POINT_UNITS - 1):
            out[unit + k] = 1.0 if count > k else 0.0
        out[unit + POINT_UNITS - 1] = np.float32(max(count - (POINT_UNITS - 1), 0)) / np.float32(3.0)
        pips += point * count
        if point > _HOME_TOP:
            outside += count
        crossings += (point - 1) // QUARTER * count
    on_bar = int(board[base + BAR])
    pips += BAR * on_bar
    outside += on_bar
    crossings += (BAR - 1) // QUARTER * on_bar
    off = int(board[base])
    unit = at + (BAR - 1) * POINT_UNITS
    for k in range(OFF_UNITS):
        out[unit + k] = 1.0 if off > k else 0.0
    unit += OFF_UNITS
    out[unit] = pips / 150.0
    out[unit + 1] = outside / MEN
    out[unit + 2] = crossings / 45.0
    out[unit + 3] = _rearmost(board, base) / POINTS
    if prime:
        out[unit + _EXTRA] = 1.0 if held else 0.0


@kernel
def race_inputs(boards: Boards, primes: Flags, prime: bool, size: int) -> NDArray[np.float32]:
    """:meth:`analysis.race.RaceInputs.encode` of ``boards`` (``primes``: each side's prime
    held, read where the rule set tracks it, ``prime``; ``size``: the inputs of a side)."""
    out = np.empty((boards.shape[0], 2 * size), dtype=np.float32)
    for row in range(boards.shape[0]):
        race_row(boards[row], primes[row, 0], primes[row, 1], prime, size, out[row])
    return out


@kernel
def race_row(board: Boards, mine: bool, his: bool, prime: bool, size: int,
             out: NDArray[np.float32]) -> None:
    """:func:`race_inputs` of one board into ``out`` (``mine``, ``his``: whether each side
    has held a prime)."""
    _side(board, 0, mine, prime, out, 0)
    _side(board, SIDE, his, prime, out, size)
