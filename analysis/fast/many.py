"""Every legal play's resulting board for many boards, each with its own roll, in one call
of the fast core: the turn of many games played side by side
(:mod:`analysis.rollout_batch`) without a Python call per game."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from analysis.fast import FastRules
from analysis.fast.jit import kernel
from analysis.fast.movegen import _KEYS, legal_results_primes

Boards = NDArray[np.int8]
Flags = NDArray[np.bool_]


def legal_boards_of_many(fast: FastRules, boards: Boards, highs: NDArray[np.int64], lows: NDArray[np.int64],
                         primes: Flags) -> tuple[Boards, Flags, NDArray[np.int64]]:
    """:func:`analysis.fast.movegen.legal_results_primes` of board ``boards[k]`` with the
    dice ``highs[k]``, ``lows[k]`` (prime flags computed where ``primes[k]``), for every
    ``k``, in the rule set ``fast``: the resulting boards one board's after the other, their
    prime flags, and where each board's start (``starts[k]`` to ``starts[k + 1]``; the last
    the total)."""
    return _many(boards, highs, lows, primes, fast.params, fast.opposite, _KEYS)


@kernel
def _many(boards: Boards, highs: NDArray[np.int64], lows: NDArray[np.int64],
                         primes: Flags, params: NDArray[np.int64], opposite: NDArray[np.int64],
                         keys: NDArray[np.int64]) -> tuple[Boards, Flags, NDArray[np.int64]]:
    """:func:`legal_boards_of_many`'s kernel."""
    count = boards.shape[0]
    parts = []
    held = []
    starts = np.zeros(count + 1, dtype=np.int64)
    for k in range(count):
        results, flags = legal_results_primes(boards[k], highs[k], lows[k], params, opposite, keys,
                                              primes[k])
        parts.append(results)
        held.append(flags)
        starts[k + 1] = starts[k] + results.shape[0]
    out = np.empty((starts[count], boards.shape[1]), dtype=np.int8)
    out_flags = np.empty(starts[count], dtype=np.bool_)
    for k in range(count):
        out[starts[k]:starts[k + 1]] = parts[k]
        out_flags[starts[k]:starts[k + 1]] = held[k]
    return out, out_flags, starts
