"""The judgement of many boards in one kernel call: for each board its class, its inputs
(the contact net's only for the boards it judges, one board's at a time), the forward pass
of the evaluator of its class (the contact net, or the race net), the outcomes it no
longer allows set to 0 and its equity, board by board with no return to Python
(:meth:`analysis.board_judge.BoardJudge.values` calls it).

What the kernel does not do is left to the caller and said per board: the pure bear-offs
(every man of both sides home or off) and the games over, whose outputs come from the
exact tables (:func:`analysis.bearoff.exact.exact_board_outputs`) or the rule set's
score. The forward pass is :func:`analysis.fast.forward.forward_row`'s (its two layers, the
contact board's nonzero inputs found among the units of the points with men on them and
the inputs after them, in the inputs' order, the same sums in the same order), so the figures
agree with the reference's (:meth:`analysis.board_judge.BoardJudge.judge`, numpy's BLAS)
to float32 rounding, not bit for bit (``tools/judge_compare.py`` measures what that moves
in the analysis of games).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from analysis.fast.encode import encode_row
from analysis.fast.forward import first_layer, forward_row, output_layer
from analysis.fast.jit import kernel
from analysis.fast.movegen import _key
from analysis.fast.outcomes import mask
from analysis.fast.race import board_class, pure_bear_off, race_row
from analysis.race import CONTACT
from notation import MEN, OFF
from notation.engine.board import POINTS, SIDE, WIDTH

Boards = NDArray[np.int8]
Flags = NDArray[np.bool_]
Floats = NDArray[np.float32]


@kernel
def _set_inputs(board: Boards, x: Floats, indices: NDArray[np.int64]) -> int:
    """The indices of the contact inputs ``x`` of ``board`` that are not 0 into ``indices``,
    in the inputs' order; how many (:func:`analysis.fast.forward.nonzero`'s, looking only
    at the units of the points a side has men on: the others are 0)."""
    half = x.shape[0] // 2
    count = 0
    for side in range(2):
        base, at = SIDE * side, half * side
        for point in range(POINTS):
            if board[base + point + 1]:
                for i in range(at + 4 * point, at + 4 * point + 4):
                    indices[count] = i
                    count += x[i] != 0
        for i in range(at + 4 * POINTS, at + half):
            indices[count] = i
            count += x[i] != 0
    return count


@kernel
def _first_same(table: NDArray[np.int64], hashes: NDArray[np.int64], boards: Boards, primes: Flags,
                row: int, key: int) -> int:
    """The first row before ``row`` with the same board and prime flags as ``row`` (``-1``:
    none, ``row`` then entered in ``table``, open addressing on ``hashes``, the rows' keys)."""
    mask_ = table.shape[0] - 1
    slot = key & mask_
    while table[slot] >= 0:
        first = table[slot]
        if hashes[first] == key and primes[first, 0] == primes[row, 0] and (
                primes[first, 1] == primes[row, 1]):
            same = True
            for column in range(WIDTH):
                if boards[first, column] != boards[row, column]:
                    same = False
                    break
            if same:
                return int(first)
        slot = (slot + 1) & mask_
    table[slot] = row
    return -1


@kernel
def judge_boards(boards: Boards, primes: Flags, numbers: NDArray[np.int64], units: Floats,
                 opposite: NDArray[np.int64], size: int, places: NDArray[np.int64],
                 w1: Floats, b1: Floats, w2: Floats, b2: Floats,
                 r_w1: Floats, r_b1: Floats, r_w2: Floats, r_b2: Floats, race_prime: bool,
                 race_side: int, code: int, races: NDArray[np.int64], steps: int,
                 rates: NDArray[np.int64], worth: NDArray[np.int64], scale: float,
                 values: Floats, constant: float, keys: NDArray[np.int64]
                 ) -> tuple[Floats, Floats, Flags]:
    """Each board's outputs with every outcome it no longer allows at 0 (``(n, outputs)``),
    its equity for the side that has just moved, and whether it is a pure bear-off or the
    game is over (its outputs and equity then the caller's to settle). ``primes``: each side's prime held
    after each board; ``numbers``, ``units``, ``size``: the contact encoding
    (:func:`analysis.fast.encode.encode`); ``places``: :func:`analysis.race.places`, for
    the boards' classes; ``w1`` … ``b2`` the contact net, ``r_w1`` … ``r_b2`` the race
    net (no rows: none, the contact net judges every board) with its inputs' ``race_prime``
    and ``race_side`` (:func:`analysis.fast.race.race_inputs`); ``code`` … ``rates``: the
    ceilings (:func:`analysis.fast.outcomes.ceilings`), ``worth`` and ``scale``: the
    outcomes' points (:func:`analysis.fast.outcomes.mask`); ``values`` and ``constant``:
    the equity (:meth:`analysis.outcomes.Outcomes.equity`); ``keys``: the Zobrist keys of
    :func:`analysis.fast.movegen._key`. A board met again in ``boards`` with the same flags
    (the plays of two rolls may leave the same board: a tenth of the 21 rolls' in real
    backgammon matches) is judged once, its figures copied: a board's figures are its own."""
    n = boards.shape[0]
    outputs = w2.shape[0]
    racing = r_w1.shape[0] > 0
    x = np.empty(size, dtype=np.float32)  # a contact board's inputs, one board at a time
    y = np.empty((n, outputs), dtype=np.float32)
    equity = np.empty(n, dtype=np.float32)
    special = np.zeros(n, dtype=np.bool_)
    hidden = max(w1.shape[1], r_w1.shape[1] if racing else 0)
    h = np.empty(hidden, dtype=np.float32)
    z = np.empty(hidden, dtype=np.float32)
    total = np.empty(outputs, dtype=np.float32)
    bits = np.empty(max(hidden, outputs), dtype=np.int32)
    indices = np.empty(max(size, 2 * race_side), dtype=np.int64)
    race_x = np.empty(2 * race_side, dtype=np.float32)
    table = np.full(1 << max(4, int(np.ceil(np.log2(2 * n + 1)))), -1, dtype=np.int64)
    hashes = np.empty(n, dtype=np.int64)
    for row in range(n):
        board = boards[row]
        hashes[row] = _key(board, keys)
        first = _first_same(table, hashes, boards, primes, row, hashes[row])
        if first >= 0:
            y[row] = y[first]
            equity[row] = equity[first]
            special[row] = special[first]
            continue
        special[row] = pure_bear_off(board) or board[OFF] == MEN
        if racing and board_class(board, places) != CONTACT:
            race_row(board, primes[row, 0], primes[row, 1], race_prime, race_side, race_x)
            width = r_w1.shape[1]
            forward_row(race_x, r_w1, r_b1, r_w2, r_b2, h[:width], y[row], z[:width], total,
                        bits, indices)
        else:
            x[:] = 0.0
            encode_row(board, primes[row, 0], primes[row, 1], numbers, units, opposite, x)
            width = w1.shape[1]
            z[:width] = b1
            first_layer(x, w1, z[:width], indices, _set_inputs(board, x, indices))
            output_layer(z[:width], w2, b2, h[:width], y[row], total, bits)
        mask(board, y[row], worth, code, races, steps, primes[row, 0], primes[row, 1], rates, scale)
        value = np.float32(0.0)
        for k in range(outputs):
            value += y[row, k] * values[k]
        equity[row] = value + np.float32(constant)
    return y, equity, special
