"""Outcomes that respect the position, in a kernel: what :meth:`analysis.outcomes.Outcomes.ceilings`
and :meth:`~analysis.outcomes.Outcomes.mask` do to a candidate's outputs, board by board.

A rule set's ceiling (``RuleSet.ceiling``) is known to the kernel by a code
(:data:`CEILINGS`); one it does not know cannot be trained there (:func:`ceiling_code` gives
``None``). Murray's depends on whether the winner has held a prime (the flags are the
kernel's arguments), hale's on the rates of its penalties (:func:`penalty_rates`). The
races lost by the count of turns (:mod:`analysis.lost_races`) need the worst
case of a side with at most ``FEW_MEN`` men left, computed with the rule set's own legal
plays: :func:`race_table` computes it once per rule set, in Python, for every such board
(a tenth of a second: a tenth of the start of ``jacquet analyse``), :func:`stored_race_table`
keeps it on disk beside the compiled kernels, and the kernel looks it up.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from itertools import combinations_with_replacement
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from analysis.fast.jit import cache_folder, kernel
from analysis.lost_races import FEW_MEN, most_turns
from notation import MEN, OFF, RuleSet
from notation.engine.board import BAR, HOME, SIDE
from notation.engine.rules.backgammon import WINNERS_HOME_FOR_LOSER, gammon_still_possible
from notation.engine.rules.base import Ceiling, double_still_possible
from notation.engine.rules.hale import ceiling_rates, most_penalty
from notation.engine.rules.murray import marcia_still_possible

DOUBLE = 1
"""R-SCORE's ceiling: 2 while the loser has borne off no man, then 1."""
GAMMON = 2
"""Backgammon's: 1 once the loser has a man off; 3 while he has a man on the bar, in the
winner's home board or still hittable; else 2."""
MARCIA = 3
"""R-SCORE-MARCIA's: 1 once the loser has a man off; 2 once the winner has held a prime;
else 3."""
PENALTY = 4
"""R-SCORE-HALE's: what the loser's men left can still pay, each at its point's ceiling rate."""
CEILINGS: dict[Ceiling, int] = {double_still_possible: DOUBLE, gammon_still_possible: GAMMON,
                                marcia_still_possible: MARCIA, most_penalty: PENALTY}
"""The rule sets' ceilings the kernel computes, by their codes."""
HOME_FOR_LOSER = (WINNERS_HOME_FOR_LOSER.start, WINNERS_HOME_FOR_LOSER.stop)
"""The winner's home board on the loser's route (his 19-24), as ints for the kernels."""
_BASE = 4
"""A race board's index in :func:`race_table`: ``Σ count[p] · 4^(p-1)`` over the home
points (at most ``FEW_MEN`` = 3 men, so each count fits in base 4)."""


def ceiling_code(rules: RuleSet) -> int | None:
    """The kernel's code of ``rules``' ceiling, or ``None`` when it is not built in."""
    return CEILINGS.get(rules.ceiling) if rules.ceiling is not None else None


def penalty_rates(rules: RuleSet) -> NDArray[np.int64]:
    """The kernel's rates of a rule set of penalties (``(2, 26)``: what a man left on each
    point pays at the end, then the most it can still pay, :func:`ceiling_rates`); zeros
    elsewhere."""
    rates = np.zeros((2, SIDE), dtype=np.int64)
    if rules.penalty_rates:
        rates[0] = rules.penalty_rates
        rates[1] = ceiling_rates(rules.penalty_rates)
    return rates


def race_table(rules: RuleSet) -> NDArray[np.int64]:
    """:func:`analysis.lost_races.most_turns` of every board all home with at most
    ``FEW_MEN`` men left, at its index (see :data:`_BASE`)."""
    assert FEW_MEN < _BASE and (HOME.start, HOME.stop) == (1, 7)
    table = np.zeros(_BASE ** len(HOME), dtype=np.int64)
    for men in range(1, FEW_MEN + 1):
        for points in combinations_with_replacement(HOME, men):
            board = [0] * SIDE
            board[OFF] = MEN - men
            for point in points:
                board[point] += 1
            table[_index(board)] = most_turns(rules, tuple(board))
    return table


_SOURCES = ("analysis/lost_races.py", "notation/engine")
"""What :func:`race_table` is computed from beyond this package (the kernels' cache folder
is named by a digest of this package): the lost races and the rule sets' legal plays."""


def stored_race_table(rules: RuleSet) -> NDArray[np.int64]:
    """:func:`race_table` of ``rules``, read from the kernels' cache folder where an earlier
    process left it (under a digest of the rule set with its options and of :data:`_SOURCES`),
    else computed and left there (written whole or not at all; computed each time where
    there is no such folder or it cannot be written)."""
    folder = cache_folder()
    if not folder:
        return race_table(rules)
    root = Path(__file__).parents[2]
    digest = hashlib.sha256(rules.describe().encode())
    for name in _SOURCES:
        source = root / name
        for path in sorted(source.rglob("*.py")) if source.is_dir() else [source]:
            digest.update(path.read_bytes())
    stored = Path(folder) / f"races-{digest.hexdigest()[:16]}.npy"
    try:
        found: NDArray[np.int64] = np.load(stored)
        if found.dtype == np.int64 and found.shape == (_BASE ** len(HOME),):
            return found
    except (OSError, ValueError, EOFError):  # none yet, or damaged (empty: EOFError)
        pass
    table = race_table(rules)
    partial = ""
    try:
        stored.parent.mkdir(parents=True, exist_ok=True)
        handle, partial = tempfile.mkstemp(dir=stored.parent, suffix=".npy")
        with os.fdopen(handle, "wb") as out:
            np.save(out, table)
            out.flush()
            os.fsync(out.fileno())
        os.replace(partial, stored)
    except OSError:
        if partial:
            with contextlib.suppress(OSError):
                os.unlink(partial)
    return table


def _index(board: list[int]) -> int:
    return sum(board[point] * _BASE ** (point - 1) for point in HOME)


def most_steps(rules: RuleSet) -> int:
    """The most steps one roll gives (what :func:`analysis.lost_races.fewest_turns` divides by)."""
    return max(rules.doublet_steps(die) for die in range(1, 7))


@kernel
def _rear(board: NDArray[np.int8], base: int) -> int:
    for point in range(BAR, 0, -1):
        if board[base + point]:
            return point
    return 0


@kernel
def _ceiling(board: NDArray[np.int8], winner: int, loser: int, code: int, held: bool,
             rates: NDArray[np.int64]) -> int:
    """The most points a win by the side at ``winner`` over the side at ``loser`` can still
    bring (``RuleSet.most_points`` of the ceiling ``code``; ``held``: the winner has held a
    prime; ``rates``: :func:`penalty_rates`)."""
    if code == PENALTY:
        total = 0
        for point in range(1, BAR):
            total += rates[1, point] * board[loser + point]
        return total
    if board[loser + OFF]:
        return 1
    if code == DOUBLE:
        return 2
    if code == MARCIA:
        return 2 if held else 3
    if board[loser + BAR]:
        return 3
    for point in range(HOME_FOR_LOSER[0], HOME_FOR_LOSER[1]):
        if board[loser + point]:
            return 3
    return 3 if _rear(board, winner) + _rear(board, loser) > BAR else 2


@kernel
def _all_home(board: NDArray[np.int8], base: int) -> bool:
    home = int(board[base + OFF])
    for point in range(1, 7):
        home += board[base + point]
    return home == MEN


@kernel
def _most_turns(board: NDArray[np.int8], base: int, races: NDArray[np.int64]) -> int:
    index = 0
    for point in range(6, 0, -1):
        index = index * _BASE + board[base + point]
    return int(races[index])


@kernel
def _fewest_turns(board: NDArray[np.int8], base: int, steps: int) -> int:
    return -(-(MEN - int(board[base + OFF])) // steps)


@kernel
def ceilings(board: NDArray[np.int8], code: int, races: NDArray[np.int64], steps: int,
             mine_held: bool, his_held: bool, rates: NDArray[np.int64]) -> tuple[int, int]:
    """The most points a win can still bring to the side that has just moved (its counts
    first in ``board``) and to its opponent, 0 where that side can no longer win (as
    :meth:`analysis.outcomes.Outcomes.ceilings`; ``races`` and ``steps`` from
    :func:`race_table` and :func:`most_steps`; whether each side has held a prime;
    ``rates`` from :func:`penalty_rates`)."""
    mover_lost = False
    opponent_lost = False
    if _all_home(board, 0) and _all_home(board, SIDE):
        # the opponent rolls next (lost_races.cannot_win's first)
        if MEN - board[SIDE + OFF] <= FEW_MEN:
            mover_lost = _most_turns(board, SIDE, races) <= _fewest_turns(board, 0, steps)
        if MEN - board[OFF] <= FEW_MEN:
            opponent_lost = _fewest_turns(board, SIDE, steps) > _most_turns(board, 0, races)
    mine = 0 if mover_lost else _ceiling(board, 0, SIDE, code, mine_held, rates)
    his = 0 if opponent_lost else _ceiling(board, SIDE, 0, code, his_held, rates)
    return mine, his


@kernel
def mask(board: NDArray[np.int8], y: NDArray[np.float32], worth: NDArray[np.int64], code: int,
         races: NDArray[np.int64], steps: int, mine_held: bool, his_held: bool,
         rates: NDArray[np.int64], scale: float) -> None:
    """``y``, the outputs of the position ``board``, with every outcome it no longer allows
    set to 0, in place (:meth:`analysis.outcomes.Outcomes.mask`; ``worth``: the points of
    each outcome above the single game, ``Outcomes.points``, empty where the outputs are
    expected penalties over ``scale``, ``Outcomes.scale``, held to what can still be paid)."""
    mine, his = ceilings(board, code, races, steps, mine_held, his_held, rates)
    if mine == 0:
        y[0] = 0.0
    if his == 0:
        y[0] = 1.0
    half = worth.shape[0]
    if half == 0:
        y[1] = min(y[1], np.float32(mine) / np.float32(scale))
        y[2] = min(y[2], np.float32(his) / np.float32(scale))
        return
    for k in range(half):
        if mine < worth[k]:
            y[1 + k] = 0.0
        if his < worth[k]:
            y[1 + half + k] = 0.0
