"""The plays of a pure bear-off, for every position and roll at once (numpy).

A pure bear-off has no contact left, so one side's plays depend on its own men alone and
on three facts of its rule set (:class:`BearOffRule`, read from the ``RuleSet``):

- ``bear_off == "highest"`` (R-BEAROFF): a die moves a man from p to p − d, bears off a
  man from exactly d, or from the highest occupied point when d is greater than it;
- ``bear_off == "rear"`` (R-BEAROFF-REAR): only the rear-most man may be borne off, with
  a die equal to or greater than his point; a smaller die moves a man forward;
- ``squared_doublets`` (R-DOUBLET-SQUARED): a doublet n-n gives n steps, not four;
- ``waste`` (R-WASTE): of the sequences R-MAX allows, those that bear off the most men.

Every die can be played while a man is left (a die smaller than the rear-most point moves
that man, a larger one bears off), so R-MAX keeps the sequences that use every die until
the last man is off, and R-HIGH never has to choose. The same holds for R-PASS
(``versailles``): no die is ever left for the other side to play in a pure bear-off.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from analysis.bearoff.positions import POINTS, POWERS, Indices, Keys, Positions
from notation import RuleSet

ROLLS = tuple((a, b) for a in range(6, 0, -1) for b in range(a, 0, -1))
"""The 21 distinct rolls, higher die first (the order of :data:`analysis.ranking.ROLLS_21`)."""
ROLL_WEIGHTS = np.array([1.0 if a == b else 2.0 for a, b in ROLLS]) / 36.0
"""Each roll's probability."""


@dataclass(frozen=True)
class BearOffRule:
    """What a rule set's bear-off is: the facts of its ``RuleSet`` that shape a bear-off's
    plays. Rule sets with the same three facts share one table."""

    bear_off: str = "highest"
    squared_doublets: bool = False
    waste: bool = False

    @classmethod
    def of(cls, rules: RuleSet) -> BearOffRule:
        """The bear-off rule of ``rules``."""
        if rules.bear_off not in ("highest", "rear"):
            raise ValueError(f"no bear-off table for bear_off={rules.bear_off!r}")
        return cls(rules.bear_off, rules.squared_doublets, rules.waste)

    @property
    def name(self) -> str:
        """The table's name: ``highest``, ``highest-squared``, ``rear-waste``."""
        return "-".join([self.bear_off] + (["squared"] if self.squared_doublets else [])
                        + (["waste"] if self.waste else []))

    def steps(self, a: int, b: int) -> list[tuple[int, ...]]:
        """The orders in which a roll's dice may be played."""
        if a != b:
            return [(a, b), (b, a)]
        return [(a,) * (a if self.squared_doublets else 4)]


def _step(rule: BearOffRule, counts: NDArray[np.int8], keys: Keys,
          die: int) -> tuple[NDArray[np.int64], Keys]:
    """Every single step of ``die`` from the positions ``counts`` (keys ``keys``): the row
    each step comes from and the key it leads to."""
    occupied = counts > 0
    # the highest occupied point of each row (0 when every man is off)
    highest = np.where(occupied.any(axis=1),
                       POINTS - np.argmax(occupied[:, ::-1], axis=1), 0)
    rows_out: list[NDArray[np.int64]] = []
    keys_out: list[Keys] = []
    for point in range(1, POINTS + 1):
        here = occupied[:, point - 1]
        if rule.bear_off == "rear":
            if point > die:
                ok = here
            else:
                ok = here & (highest == point)
        elif point >= die:
            ok = here
        else:
            ok = here & (highest == point)
        rows = np.flatnonzero(ok)
        new = keys[rows] - POWERS[point - 1]
        if point > die:
            new = new + POWERS[point - die - 1]
        rows_out.append(rows)
        keys_out.append(new)
    return np.concatenate(rows_out), np.concatenate(keys_out)


def _counts_of(keys: Keys) -> NDArray[np.int8]:
    """The men on each point of the positions ``keys``."""
    return ((keys[:, None] // POWERS[None, :]) % 16).astype(np.int8)


def successors(rule: BearOffRule, positions: Positions, a: int, b: int
               ) -> tuple[Indices, Indices]:
    """Every legal play of the roll ``a``-``b`` from every position: pairs ``(origin,
    result)`` of indices, sorted by origin, one per distinct result."""
    origins_all: list[Indices] = []
    results_all: list[Keys] = []
    dice_all: list[NDArray[np.int64]] = []
    for order in rule.steps(a, b):
        origin = np.arange(len(positions), dtype=np.int64)
        keys = positions.keys.copy()
        used = np.zeros(len(positions), dtype=np.int64)
        for die in order:
            done = keys == 0  # every man off: the sequence stops
            rows, new = _step(rule, _counts_of(keys[~done]), keys[~done], die)
            live = np.flatnonzero(~done)[rows]
            origin = np.concatenate([origin[done], origin[live]])
            used = np.concatenate([used[done], used[live] + 1])
            keys = np.concatenate([keys[done], new])
            # one row per distinct (origin, result, dice used)
            packed = (origin << 34) | (used << 30) | keys
            packed = _distinct(packed)
            origin, used, keys = packed >> 34, (packed >> 30) & 15, packed & ((1 << 30) - 1)
        origins_all.append(origin)
        results_all.append(keys)
        dice_all.append(used)
    origin = np.concatenate(origins_all)
    keys = np.concatenate(results_all)
    used = np.concatenate(dice_all)
    keep = used == _group_max(origin, used, len(positions))[origin]  # R-MAX
    origin, keys = origin[keep], keys[keep]
    if rule.waste:  # R-WASTE: the most men borne off, i.e. the fewest left
        left = _counts_of(keys).sum(axis=1).astype(np.int64)
        keep = left == -_group_max(origin, -left, len(positions))[origin]
        origin, keys = origin[keep], keys[keep]
    packed = _distinct((origin << 30) | keys)
    origin, keys = packed >> 30, packed & ((1 << 30) - 1)
    return origin, positions.index_of_keys(keys)


def _distinct(values: NDArray[np.int64]) -> NDArray[np.int64]:
    """The distinct ``values``, sorted (a sort: numpy's hashing ``unique`` is slower here)."""
    values = np.sort(values)
    keep = np.ones(len(values), dtype=bool)
    keep[1:] = values[1:] != values[:-1]
    return values[keep]


def _group_max(groups: Indices, values: NDArray[np.int64], size: int) -> NDArray[np.int64]:
    """The largest of ``values`` in each group (``size`` groups, every one present)."""
    out = np.full(size, np.iinfo(np.int64).min, dtype=np.int64)
    np.maximum.at(out, groups, values)
    return out
