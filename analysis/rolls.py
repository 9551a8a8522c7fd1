"""The 21 distinct rolls of two dice and their weights out of 36, in the order every
table of the engine keeps them (the luck of each roll, the averages of 1 and 2 ply)."""

from __future__ import annotations

import numpy as np

from notation import Dice

PAIRS = [(a, b) for a in range(6, 0, -1) for b in range(a, 0, -1)]
"""The 21 distinct rolls as (higher die, lower die), the doublet 6-6 first."""

COUNTS = [1 if a == b else 2 for a, b in PAIRS]
"""How many of the 36 rolls each of :data:`PAIRS` is: a doublet once, two numbers twice."""

ROLLS_21 = [(Dice(a, b), count) for (a, b), count in zip(PAIRS, COUNTS, strict=True)]
"""The 21 distinct rolls, higher die first, with their weight out of 36."""

WEIGHTS = np.array(COUNTS, dtype=np.float64)
"""Each roll's weight out of 36, in :data:`ROLLS_21`'s order."""

HIGH_DICE = np.array([a for a, _ in PAIRS], dtype=np.int64)
"""Each roll's higher die, in :data:`ROLLS_21`'s order (for the kernels)."""

LOW_DICE = np.array([b for _, b in PAIRS], dtype=np.int64)
"""Each roll's lower die (a doublet's other die), in :data:`ROLLS_21`'s order."""
