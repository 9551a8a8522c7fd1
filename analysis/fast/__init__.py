"""The fast core: move generation, encoding, the forward pass and self-play training on
arrays, in kernels compiled by numba (:mod:`analysis.fast.jit`; plain Python without it).

The reference stays :mod:`notation.engine.movegen`, which the validator uses; the fast
move generator gives the same resulting positions (tested on random positions of every
rule set it covers). A rule set it does not cover is played by the reference, and
:func:`covers` says which.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from analysis.fast.jit import COMPILED
from analysis.fast.movegen import _KEYS, legal_results
from analysis.fast.rules import FastRules, fast_rules
from notation import Dice, Position, RuleSet
from notation.engine.board import SIDE

__all__ = ["COMPILED", "FastRules", "board_of", "covers", "fast_rules", "legal_boards",
           "legal_positions", "position_of"]


def covers(rules: RuleSet) -> bool:
    """Whether the fast move generator knows every rule of ``rules``."""
    return fast_rules(rules) is not None


def board_of(position: Position) -> NDArray[np.int8]:
    """The 52 counts of a position (the mover's, then the opponent's) as one array."""
    return np.array(position.mover + position.opponent, dtype=np.int8)


def position_of(board: NDArray[np.int8]) -> Position:
    """The position of 52 counts."""
    counts = tuple(int(c) for c in board)
    return Position(counts[:SIDE], counts[SIDE:])


def legal_boards(board: NDArray[np.int8], high: int, low: int, fast: FastRules
                 ) -> NDArray[np.int8]:
    """The resulting boards (``(n, 52)``, as :func:`board_of` lays them out) of every legal
    play of the dice ``high`` and ``low`` from ``board`` (a position the rule set allows),
    by the fast move generator, in no particular order (the same order for the same
    input)."""
    return legal_results(board, high, low, fast.params, fast.opposite, _KEYS)


def legal_positions(position: Position, dice: Dice, fast: FastRules) -> list[Position]:
    """The resulting positions (``Play.result``) of every legal play of ``dice`` (two
    dice) from ``position``, by the fast move generator, in no particular order."""
    if dice.low is None:
        raise ValueError("the fast move generator plays two dice")
    boards = legal_boards(board_of(fast.rules.check_position(position)), dice.high, dice.low, fast)
    return [position_of(board) for board in boards]
