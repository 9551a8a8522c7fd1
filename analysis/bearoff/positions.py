"""One side's bear-off positions: up to 15 men on the six home points (points 6-1), the
rest borne off; 54,264 of them with 15 men (C(21, 6)).

Each position is numbered by an *index* into one fixed order: fewer pips first (then by
its key), so that every play leads to a smaller index and a table can be filled from
index 0 (all men off) upwards. A position's *key* packs its counts in base 16
(``Σ men[p] · 16^(p-1)``), which a step changes by adding and subtracting powers of 16.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

import numpy as np
from numpy.typing import NDArray

from notation.engine.board import HOME, MEN

POINTS = len(HOME)
"""The home points, 1 to 6."""
MAX_MEN = MEN

Keys = NDArray[np.int64]
Indices = NDArray[np.int64]

POWERS = np.array([16 ** p for p in range(POINTS)], dtype=np.int64)
"""A man on point p adds ``POWERS[p - 1]`` to a key."""


def count(men: int = MAX_MEN) -> int:
    """How many positions of up to ``men`` men there are (54,264 for 15)."""
    return comb(men + POINTS, POINTS)


@dataclass(frozen=True)
class Positions:
    """Every position of up to ``men`` men on the home points, in index order."""

    men: int
    counts: NDArray[np.int8]
    """``counts[i, p - 1]``: the men on point p of the position of index i."""
    keys: Keys
    pips: NDArray[np.int64]
    on_board: NDArray[np.int64]
    _sorted_keys: Keys
    _sorted_index: Indices

    @classmethod
    def up_to(cls, men: int = MAX_MEN) -> Positions:
        """All positions of at most ``men`` men (0 to 15)."""
        if not 0 <= men <= MAX_MEN:
            raise ValueError(f"a bear-off position holds 0 to {MAX_MEN} men, not {men}")
        rows = np.zeros((1, 0), dtype=np.int8)
        for _ in range(POINTS):
            used = rows.sum(axis=1)
            grown = [np.column_stack([rows[used + k <= men],
                                      np.full((int((used + k <= men).sum()), 1), k, np.int8)])
                     for k in range(men + 1)]
            rows = np.concatenate(grown)
        keys = rows.astype(np.int64) @ POWERS
        pips = rows.astype(np.int64) @ np.arange(1, POINTS + 1, dtype=np.int64)
        order = np.lexsort((keys, pips))
        rows, keys, pips = rows[order], keys[order], pips[order]
        by_key = np.argsort(keys)
        return cls(men, rows, keys, pips, rows.sum(axis=1).astype(np.int64),
                   keys[by_key], by_key.astype(np.int64))

    def __len__(self) -> int:
        return len(self.keys)

    def index_of_keys(self, keys: Keys) -> Indices:
        """The index of each key (every key must be of a position held here)."""
        return self._sorted_index[np.searchsorted(self._sorted_keys, keys)]

    def index(self, home: tuple[int, ...] | list[int]) -> int:
        """The index of one position given as the men on points 1 to 6."""
        if len(home) != POINTS or min(home) < 0 or sum(home) > self.men:
            raise ValueError(f"not a bear-off position of at most {self.men} men: {home}")
        key = int(np.dot(np.asarray(home, dtype=np.int64), POWERS))
        at = int(np.searchsorted(self._sorted_keys, key))
        return int(self._sorted_index[at])


def key_of(home: tuple[int, ...] | list[int]) -> int:
    """The key of the men on points 1 to 6."""
    return int(np.dot(np.asarray(home, dtype=np.int64), POWERS))
