"""The network's outputs per rule set: outcome probabilities (or, in ``hale``, scaled
expected penalties), the equity derived from them, and the targets a finished game gives.

Every output is seen by the player who has just moved (the side whose play produced the
position), and every equity is linear in the outputs: ``equity = values · y + constant``.

- ``jacquet``, ``versailles`` (1 or 2 points): ``win``, ``win2`` (P(win and the loser has
  borne off none)), ``lose2``; equity = 2·win − 1 + win2 − lose2.
- ``murray`` (1, marcia 2, marcia per punto 3): ``win``, ``win_marcia`` (≥ 2),
  ``win_punto`` (3), ``lose_marcia``, ``lose_punto``; equity = 2·win − 1 + wm + wp − lm − lp.
- ``backgammon`` (cubeless, gnubg's five): ``win``, ``win_gammon``, ``win_backgammon``,
  ``lose_gammon``, ``lose_backgammon``; the same equity as ``murray``.
- ``hale`` (the loser pays by quarter, at most ``score_range[1]`` = 45 points): ``win``,
  ``won`` = E[points won, 0 when losing] / max, ``lost`` = E[points lost] / max;
  equity = max · (won − lost). ``win`` is kept for display and as a learning aid.

All outputs are unconditional probabilities (or expectations) as in gnubg, so each is a
sigmoid in [0, 1] and each target at the end of a game is 0 or 1 (or a fraction in hale).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from notation import RuleSet


@dataclass(frozen=True)
class Outcomes:
    """The outputs of one rule set's network and what they are worth."""

    rule_set: str
    names: tuple[str, ...]
    values: tuple[float, ...]
    constant: float
    scale: float = 1.0
    """Hale: the maximum penalty (targets are points / scale); 1 elsewhere."""

    @property
    def size(self) -> int:
        """How many outputs."""
        return len(self.names)

    def equity(self, y: NDArray[np.floating]) -> NDArray[np.floating]:
        """Expected points for the side that has just moved, one per row of ``y``
        (shape ``(n, size)``, or ``(size,)`` for a single position)."""
        return y @ np.asarray(self.values, dtype=y.dtype) + self.constant

    def target(self, won: bool, points: int) -> NDArray[np.float32]:
        """What the outputs should have been for a side at the end of a game that it
        ``won`` (or lost) by ``points``."""
        names = self.names
        t = np.zeros(len(names), dtype=np.float32)
        if won:
            t[0] = 1.0
        if self.rule_set == "hale":
            t[1 if won else 2] = points / self.scale
            return t
        if len(names) == 3:  # win, win2, lose2
            if points >= 2:
                t[1 if won else 2] = 1.0
            return t
        # win, win ≥2, win 3, lose ≥2, lose 3
        base = 1 if won else 3
        if points >= 2:
            t[base] = 1.0
        if points >= 3:
            t[base + 1] = 1.0
        return t

    def mirrored(self, y: NDArray[np.floating]) -> NDArray[np.floating]:
        """The same outputs seen by the other side (win ↔ loss)."""
        m = np.empty_like(y)
        m[..., 0] = 1.0 - y[..., 0]
        if self.rule_set == "hale" or len(self.names) == 3:
            m[..., 1], m[..., 2] = y[..., 2], y[..., 1]
        else:
            m[..., 1], m[..., 2], m[..., 3], m[..., 4] = y[..., 3], y[..., 4], y[..., 1], y[..., 2]
        return m


_FIVE = (2.0, 1.0, 1.0, -1.0, -1.0)


def outcomes_for(rules: RuleSet) -> Outcomes:
    """The outputs for ``rules``.

    >>> from notation import rule_set
    >>> outcomes_for(rule_set("jacquet")).names
    ('win', 'win2', 'lose2')
    """
    name = rules.name
    if name == "hale":
        top = float(rules.score_range[1])
        return Outcomes(name, ("win", "won", "lost"), (0.0, top, -top), 0.0, scale=top)
    if name == "murray":
        return Outcomes(name, ("win", "win_marcia", "win_punto", "lose_marcia", "lose_punto"),
                        _FIVE, -1.0)
    if name == "backgammon":
        return Outcomes(name, ("win", "win_gammon", "win_backgammon", "lose_gammon",
                               "lose_backgammon"), _FIVE, -1.0)
    return Outcomes(name, ("win", "win2", "lose2"), (2.0, 1.0, -1.0), -1.0)
