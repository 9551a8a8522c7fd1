"""A play's path as the fast move generator gives it (:func:`analysis.fast.movegen.legal_results_paths`):
its steps' starting points and dice in the canonical order, one byte a step in one number.
Read back in plain Python and numpy, outside the kernels: the steps of a path, and the
order in which the reference lists a turn's plays."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray


def path_steps(path: int) -> list[tuple[int, int]]:
    """The steps of a play's path (:func:`legal_results_paths`), first to last: each step's
    starting point and die."""
    steps = []
    while path:
        code = path & 0xFF
        steps.append((code >> 3, code & 7))
        path >>= 8
    return steps[::-1]


def reference_order(paths: NDArray[np.int64]) -> NDArray[np.int64]:
    """The order in which the reference lists the plays of one turn given as their paths
    (:func:`notation.legal_plays`: by ``Play.sort_key``, the steps' ``(-from_point,
    -to_point)`` sorted, a step's to-point being its starting point less the die, 0 when
    borne off): the indices of ``paths`` in that order. A turn's legal plays all play the
    same number of dice (R-MAX)."""
    steps = paths.astype("<i8").view(np.uint8).reshape(len(paths), 8).astype(np.int64)
    from_points, dice = steps >> 3, steps & 7
    # a step as one number, larger for a higher starting point, then a higher to-point;
    # no step (a play's bytes past its last) is 0
    codes = np.where(steps > 0, 1 + 32 * from_points + np.maximum(from_points - dice, 0), 0)
    codes = -np.sort(codes, axis=1)[:, ::-1]  # each play's (-from, -to), sorted
    return np.lexsort(codes.T[::-1])
