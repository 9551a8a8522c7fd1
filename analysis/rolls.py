"""The 21 distinct rolls of two dice and their weights out of 36, in the order every
table of the engine keeps them (the luck of each roll, the averages of 1 and 2 ply)."""

from __future__ import annotations

import numpy as np

from notation import Dice

ROLLS_21 = [(Dice(a, b), 1 if a == b else 2) for a in range(6, 0, -1) for b in range(a, 0, -1)]
"""The 21 distinct rolls, higher die first, with their weight out of 36."""

WEIGHTS = np.array([weight for _, weight in ROLLS_21], dtype=np.float64)
"""Each roll's weight out of 36, in :data:`ROLLS_21`'s order."""
