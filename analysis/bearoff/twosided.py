"""The two-sided bear-off table for few men: exact P(win) with the best play of both
sides for the chance to win (not the expected rolls), where each side has at most
``men`` men left on his home points (6 by default: 924 positions a side, 853,776 pairs).

``wins[a, b]`` is the chance that the side on roll, with the position of index ``a``
(:mod:`analysis.bearoff.positions`), wins against the position ``b``:
``wins[a, b] = Σ_rolls P(roll) · max over the roll's plays a' of (1 if a' has no man
left, else 1 − wins[b, a'])``. A play lowers the pips, so the pairs are filled in order
of the two sides' pips together, a block of (my pips, his pips) at a time.
"""

from __future__ import annotations

import time

import numpy as np
from numpy.typing import NDArray

from analysis.bearoff.moves import ROLL_WEIGHTS, ROLLS, BearOffRule, successors
from analysis.bearoff.onesided import Progress
from analysis.bearoff.positions import Positions

MEN = 6
"""The most men a side may have left for the two-sided table."""


def build_two_sided(rule: BearOffRule, men: int = MEN,
                    progress: Progress | None = None) -> tuple[Positions, NDArray[np.float32]]:
    """The positions of up to ``men`` men and ``wins`` (see the module's docstring)."""
    began = time.perf_counter()
    positions = Positions.up_to(men)
    n = len(positions)
    plays = []
    for a, b in ROLLS:
        origin, result = successors(rule, positions, a, b)
        plays.append((origin, result, np.searchsorted(origin, np.arange(n + 1))))
    layers = np.searchsorted(positions.pips, np.arange(int(positions.pips[-1]) + 2))
    top = len(layers) - 1
    wins = np.zeros((n, n), dtype=np.float64)
    for total in range(2, 2 * top - 1):
        for mine in range(max(1, total - top + 1), min(top, total)):
            theirs = total - mine
            rows = slice(int(layers[mine]), int(layers[mine + 1]))
            cols = slice(int(layers[theirs]), int(layers[theirs + 1]))
            if rows.start == rows.stop or cols.start == cols.stop:
                continue
            block = np.zeros((rows.stop - rows.start, cols.stop - cols.start))
            for weight, (_, result, starts) in zip(ROLL_WEIGHTS, plays, strict=True):
                seg = slice(int(starts[rows.start]), int(starts[rows.stop]))
                after = result[seg]
                # the mover's chance after each play: 1 once every man is off
                value = 1.0 - wins[cols, :][:, after].T
                value[after == 0] = 1.0
                firsts = starts[rows.start:rows.stop] - starts[rows.start]
                block += weight * np.maximum.reduceat(value, firsts, axis=0)
            wins[rows, cols] = block
        if progress is not None and total % 12 == 0:
            progress(f"  two-sided: pips {total} of {2 * top - 2}")
    if progress is not None:
        progress(f"  two-sided table of up to {men} men: {time.perf_counter() - began:.1f} s")
    return positions, wins.astype(np.float32)
