"""The network's outputs per rule set: outcome probabilities (or, where the loser pays by
the men he has left, scaled expected penalties), the equity derived from them, the targets
a finished game gives, and which outputs a position still allows.

Every output is seen by the player who has just moved (the side whose play produced the
position), and every equity is linear in the outputs: ``equity = values · y + constant``.
All of it is read from the rule set (``RuleSet.outcomes``, ``penalties``, ``most_points``):

- a rule set with outcomes worth more than one point (``jacquet``, ``versailles``: the
  double game; ``murray``: marcia, marcia per punto; ``backgammon``: gammon, backgammon)
  has ``win``, then for each outcome ``P(this side wins so)``, then for each
  ``P(the other side does)``: ``win``, ``win2``, ``lose2`` in jacquet; gnubg's five in
  backgammon. Each outcome's output is worth the points it adds to the one below it:
  equity = 2·win − 1 + win2 − lose2 in jacquet, 2·win − 1 + wm + wp − lm − lp in murray;
- a rule set of penalties (``hale``: the loser pays by quarter, at most
  ``score_range[1]`` = 45 points): ``win``, ``won`` = E[points won, 0 when losing] / max,
  ``lost`` = E[points lost] / max; equity = max · (won − lost). ``win`` is kept for display
  and as a learning aid.

All outputs are unconditional probabilities (or expectations) as in gnubg, so each is a
sigmoid in [0, 1] and each target at the end of a game is 0 or 1 (or a fraction in hale).
An outcome the position no longer allows (:meth:`Outcomes.mask`) is 0, whatever the net says.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from analysis.lost_races import cannot_win
from notation import Position, RuleSet


@dataclass(frozen=True)
class Outcomes:
    """The outputs of one rule set's network and what they are worth."""

    rules: RuleSet
    names: tuple[str, ...]
    values: tuple[float, ...]
    constant: float
    points: tuple[int, ...] = ()
    """The points each outcome above the single game is worth at least (empty: penalties)."""
    scale: float = 1.0
    """Penalties: the maximum penalty (targets are points / scale); 1 elsewhere."""

    @property
    def size(self) -> int:
        """How many outputs."""
        return len(self.names)

    def equity(self, y: NDArray[np.floating]) -> NDArray[np.floating]:
        """Expected points for the side that has just moved, one per row of ``y``
        (shape ``(n, size)``, or ``(size,)`` for a single position).

        A sum of products, not a matrix product: OpenBLAS's kernel for so narrow a product
        may set the floating-point "invalid" flag on finite inputs (a spurious
        ``RuntimeWarning: invalid value encountered in matmul``, seen once under load)."""
        weighted: NDArray[np.floating] = (y * np.asarray(self.values, dtype=y.dtype)).sum(axis=-1)
        return weighted + self.constant

    def target(self, won: bool, points: int) -> NDArray[np.float32]:
        """What the outputs should have been for a side at the end of a game that it
        ``won`` (or lost) by ``points``."""
        t = np.zeros(len(self.names), dtype=np.float32)
        if won:
            t[0] = 1.0
        if not self.points:
            t[1 if won else 2] = points / self.scale
            return t
        base = 1 if won else 1 + len(self.points)
        for k, worth in enumerate(self.points):
            if points >= worth:
                t[base + k] = 1.0
        return t

    def mirrored(self, y: NDArray[np.floating]) -> NDArray[np.floating]:
        """The same outputs seen by the other side (win ↔ loss)."""
        half = (self.size - 1) // 2
        m = np.empty_like(y)
        m[..., 0] = 1.0 - y[..., 0]
        m[..., 1:1 + half] = y[..., 1 + half:]
        m[..., 1 + half:] = y[..., 1:1 + half]
        return m

    def ceilings(self, positions: Sequence[Position],
                 primes: NDArray[np.bool_] | None = None) -> NDArray[np.float32]:
        """For each position (seen by the side that has just moved), the most points a win
        can still bring to that side (column 0) and to its opponent (column 1), as
        ``RuleSet.most_points`` says, or 0 where that side can no longer win at all (a race
        lost by the count of turns: :mod:`analysis.lost_races`); ``primes`` (murray):
        whether each side has held a prime."""
        rules = self.rules
        ceiling = rules.ceiling
        assert ceiling is not None
        flags = primes.tolist() if primes is not None else [(False, False)] * len(positions)
        out = []
        for position, (mine, his) in zip(positions, flags, strict=True):
            mover, opponent = position.mover, position.opponent
            his_lost, my_lost = cannot_win(rules, opponent, mover)
            out.append((0 if my_lost else ceiling(rules, mover, opponent, mine),
                        0 if his_lost else ceiling(rules, opponent, mover, his)))
        return np.array(out, dtype=np.float32).reshape(len(positions), 2)

    def mask(self, y: NDArray[np.floating], ceilings: NDArray[np.float32]) -> NDArray[np.floating]:
        """``y`` (shape ``(n, size)``) with every outcome the positions no longer allow set
        to 0, in place: an outcome worth more than ``ceilings[i, 0]`` (this side wins so) or
        ``ceilings[i, 1]`` (the other side does), a win at all where the ceiling is 0; with
        penalties, the expected points won or lost held to at most what is still possible."""
        y[ceilings[:, 0] == 0, 0] = 0.0
        y[ceilings[:, 1] == 0, 0] = 1.0
        if not self.points:
            np.minimum(y[:, 1], ceilings[:, 0] / self.scale, out=y[:, 1])
            np.minimum(y[:, 2], ceilings[:, 1] / self.scale, out=y[:, 2])
            return y
        half = len(self.points)
        for k, worth in enumerate(self.points):
            y[ceilings[:, 0] < worth, 1 + k] = 0.0
            y[ceilings[:, 1] < worth, 1 + half + k] = 0.0
        return y


def outcomes_for(rules: RuleSet) -> Outcomes:
    """The outputs for ``rules``.

    >>> from notation import rule_set
    >>> outcomes_for(rule_set("jacquet")).names
    ('win', 'win2', 'lose2')
    >>> outcomes_for(rule_set("jacquet")).values
    (2.0, 1.0, -1.0)
    """
    if rules.penalties:
        top = float(rules.score_range[1])
        return Outcomes(rules, ("win", "won", "lost"), (0.0, top, -top), 0.0, scale=top)
    points = tuple(outcome.points for outcome in rules.outcomes)
    added = tuple(float(worth - below) for worth, below in zip(points, (1, *points), strict=False))
    return Outcomes(rules, ("win", *(o.win for o in rules.outcomes), *(o.lose for o in rules.outcomes)),
                    (2.0, *added, *(-a for a in added)), -1.0, points)
