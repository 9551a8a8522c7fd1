"""A play's path as the fast move generator gives it (:func:`analysis.fast.movegen.legal_results_paths`):
its steps' starting points and dice in the canonical order, one byte a step in one number.
Read back: the steps of a path (in Python), and the order in which the reference lists a
turn's plays (a kernel: about 4 µs a turn of a real match, where numpy's dozen calls took
13)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from analysis.fast.jit import kernel

MOST_STEPS = 6
"""The most steps a play has: a doublet's four, or six of a squared 6-6 (versailles)."""
_CODES = 1 << 10
"""Every step's code is below this (``1 + 32 · 25 + 24``)."""


def path_steps(path: int) -> list[tuple[int, int]]:
    """The steps of a play's path (:func:`legal_results_paths`), first to last: each step's
    starting point and die."""
    steps = []
    while path:
        code = path & 0xFF
        steps.append((code >> 3, code & 7))
        path >>= 8
    return steps[::-1]


@kernel
def reference_order(paths: NDArray[np.int64]) -> NDArray[np.int64]:
    """The order in which the reference lists the plays of one turn given as their paths
    (:func:`notation.legal_plays`: by ``Play.sort_key``, the steps' ``(-from_point,
    -to_point)`` sorted, a step's to-point being its starting point less the die, 0 when
    borne off): the indices of ``paths`` in that order, equals in their order. A turn's
    legal plays all play the same number of dice (R-MAX), at most :data:`MOST_STEPS`.

    Each step is a code, larger for a higher starting point, then a higher to-point
    (below :data:`_CODES`); a play's codes, highest first, are the digits of one number
    (no step: the highest digit), whose stable order is the plays'."""
    keys = np.empty(paths.shape[0], dtype=np.int64)
    codes = np.empty(MOST_STEPS, dtype=np.int64)
    for row in range(paths.shape[0]):
        path = paths[row]
        for k in range(MOST_STEPS):
            step = (path >> (8 * k)) & 0xFF
            from_point, die = step >> 3, step & 7
            codes[k] = 1 + 32 * from_point + max(from_point - die, 0) if step else 0
        codes.sort()
        key = 0
        for k in range(MOST_STEPS - 1, -1, -1):  # the highest code first
            key = key * _CODES + (_CODES - 1 - codes[k])
        keys[row] = key
    return np.argsort(keys, kind="mergesort")
