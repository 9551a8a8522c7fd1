"""The one-sided bear-off table of a bear-off rule (gnubg's one-sided database, for each
of this project's bear-off rules).

For every position of up to 15 men on the home points (:mod:`analysis.bearoff.positions`)
and the play that minimises the expected number of rolls to bear off every man (as gnubg):

- ``off``: the distribution of the number of rolls to bear off every man,
  ``off[i, t]`` = P(the last man is off at the t-th roll);
- ``first``: the distribution of the number of rolls to bear off the first man (for the
  2-point, marcia and gammon chances), for the play that minimises its expectation;
- ``left``: the expected men still on the board after t rolls, for the play of ``off``
  (hale's penalties).

Filled from index 0 (all men off) upwards, a pip count at a time: each position's 21
rolls look up the results of its plays, which all have fewer pips. Stored as uint16
fixed point (a probability p as round(p · 65535), men as round(men / 15 · 65535)) in a
compressed ``.npz``.
"""

from __future__ import annotations

import itertools
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from analysis.bearoff.moves import ROLL_WEIGHTS, ROLLS, BearOffRule, successors
from analysis.bearoff.positions import MAX_MEN, Indices, Positions

ROLLS_KEPT = 48
"""The longest bear-off a table holds, in rolls. The ``highest`` table needs 30 at most
(a probability above 0 in float64); a ``versailles`` 1-1 is one step of one pip, so a
bear-off can last longer, but the chance of more than 40 rolls is below 10⁻³³ and what is
cut off sums to less than 10⁻¹⁵."""
FIXED = 65535
FORMAT = 1

Progress = Callable[[str], None]
Floats = NDArray[np.float64]
Stored = NDArray[np.float64] | NDArray[np.uint16]
"""A distribution as built (floats) or as its file holds it (uint16 fixed point)."""


@dataclass
class OneSided:
    """A one-sided table: the positions, and the three distributions, as floats (``off``,
    ``first`` in [0, 1], ``left`` in men) or, when ``fixed``, as the file holds them
    (uint16 fixed point, read through :meth:`of`: a process keeps 15 MB, not 60)."""

    rule: BearOffRule
    positions: Positions
    off: Stored
    first: Stored
    left: Stored
    seconds: float = 0.0
    fixed: bool = False

    def of(self, name: str, rows: NDArray[np.int64] | slice = slice(None)) -> Floats:
        """The rows ``rows`` of the distribution ``name`` (``off``, ``first``, ``left``),
        as floats (probabilities; ``left`` in men)."""
        values = np.asarray(getattr(self, name)[rows], dtype=np.float64)
        if self.fixed:
            values *= (MAX_MEN if name == "left" else 1.0) / FIXED
        return values

    def expected_rolls(self) -> Floats:
        """The expected number of rolls to bear off every man, per position."""
        off = self.of("off")
        return np.asarray(off @ np.arange(off.shape[1], dtype=np.float64))


def _reduce_best(values: Floats, origin: Indices, result: Indices, lo: int, hi: int,
                 starts: Indices) -> Indices:
    """For the origins ``lo`` to ``hi`` (whose pairs start at ``starts``), the result of
    the pair with the smallest value (the first such in the pairs' order on a tie)."""
    seg = slice(int(starts[lo]), int(starts[hi]))
    o, r = origin[seg], result[seg]
    v = values[r]
    order = np.lexsort((v, o))  # by origin, then value; stable for ties
    first = np.ones(len(order), dtype=bool)
    first[1:] = o[order][1:] != o[order][:-1]
    return np.asarray(r[order][first])


def build(rule: BearOffRule, men: int = MAX_MEN, progress: Progress | None = None) -> OneSided:
    """Build the table of ``rule`` for positions of up to ``men`` men; ``progress`` is
    told what is being done, a line at a time."""
    began = time.perf_counter()
    say = progress or (lambda text: None)
    positions = Positions.up_to(men)
    n = len(positions)
    say(f"bear-off table {rule.name}: {n:,} positions, the plays of 21 rolls")
    pairs = []
    for k, (a, b) in enumerate(ROLLS):
        origin, result = successors(rule, positions, a, b)
        starts = np.searchsorted(origin, np.arange(n + 1))
        pairs.append((origin, result, starts))
        if k % 7 == 6:
            say(f"  {k + 1} of 21 rolls")
    say("  the distributions, a pip count at a time")
    L = ROLLS_KEPT
    off = np.zeros((n, L))
    first = np.zeros((n, L))
    left = np.zeros((n, L))
    mean_off = np.zeros(n)
    mean_first = np.zeros(n)
    off[0, 0] = 1.0
    first[0, 0] = 1.0
    on_board = positions.on_board.astype(np.float64)
    layer_ends = np.searchsorted(positions.pips, np.arange(1, int(positions.pips[-1]) + 2))
    for lo, hi in itertools.pairwise(layer_ends):
        lo, hi = int(lo), int(hi)
        acc_off = np.zeros((hi - lo, L))
        acc_first = np.zeros((hi - lo, L))
        acc_left = np.zeros((hi - lo, L))
        for w, (origin, result, starts) in zip(ROLL_WEIGHTS, pairs, strict=True):
            best = _reduce_best(mean_off, origin, result, lo, hi, starts)
            acc_off[:, 1:] += w * off[best, :-1]
            acc_left[:, 1:] += w * left[best, :-1]
            # the first man: done this roll if some play bears one off, else the best wait
            seg = slice(int(starts[lo]), int(starts[hi]))
            o, r = origin[seg], result[seg]
            bears = on_board[r] < on_board[o]
            some = np.zeros(hi - lo, dtype=bool)
            np.logical_or.at(some, o[bears] - lo, True)
            wait = _reduce_best(mean_first, origin, result, lo, hi, starts)
            acc_first[:, 1] += w * some
            acc_first[~some, 1:] += w * first[wait[~some], :-1]
        off[lo:hi], first[lo:hi], left[lo:hi] = acc_off, acc_first, acc_left
        left[lo:hi, 0] = on_board[lo:hi]
        t = np.arange(L, dtype=np.float64)
        mean_off[lo:hi] = acc_off @ t
        mean_first[lo:hi] = acc_first @ t
    seconds = time.perf_counter() - began
    say(f"  done in {seconds:.1f} s")
    return OneSided(rule, positions, off, first, left, seconds)


def stderr_progress(text: str) -> None:
    """Progress on standard error, a line at a time."""
    print(text, file=sys.stderr, flush=True)
