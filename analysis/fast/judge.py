"""The fast core's part of the judgement of boards (:class:`analysis.board_judge.BoardJudge`
loads it where it pays): every legal play's resulting board (and, in murray, its prime
flag), the inputs and the outcome ceilings of many boards, in kernels.

Importing this module imports numba and loads the kernels (from numba's on-disk cache,
:mod:`analysis.fast.jit`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from analysis.encoding import Encoder
from analysis.fast import COMPILED, FastRules, fast_rules
from analysis.fast.encode import encode, layout, table
from analysis.fast.evaluate import judge_boards
from analysis.fast.jit import kernel
from analysis.fast.movegen import _KEYS, legal_results, legal_results_paths, legal_results_primes
from analysis.fast.outcomes import ceiling_code, ceilings, most_steps, penalty_rates, stored_race_table
from analysis.fast.race import classes, race_inputs
from analysis.network import Network
from analysis.outcomes import Outcomes
from analysis.race import RaceInputs, places
from analysis.rolls import HIGH_DICE, LOW_DICE
from notation import RuleSet
from notation.engine.rules.base import POSITION_CLASSES

Boards = NDArray[np.int8]
Flags = NDArray[np.bool_]

@kernel
def _ceilings_of(boards: Boards, primes: Flags, code: int, races: NDArray[np.int64], steps: int,
                 rates: NDArray[np.int64]) -> NDArray[np.float32]:
    """:func:`analysis.fast.outcomes.ceilings` of every board (``primes``: each side's prime
    held after it, murray; ``rates``: :func:`analysis.fast.outcomes.penalty_rates`), as
    ``Outcomes.ceilings`` lays them out."""
    out = np.empty((boards.shape[0], 2), dtype=np.float32)
    for row in range(boards.shape[0]):
        mine, his = ceilings(boards[row], code, races, steps, primes[row, 0], primes[row, 1], rates)
        out[row, 0] = mine
        out[row, 1] = his
    return out


@kernel
def _every_roll(board: Boards, highs: NDArray[np.int64], lows: NDArray[np.int64],
                params: NDArray[np.int64], opposite: NDArray[np.int64], keys: NDArray[np.int64],
                primes: bool) -> tuple[Boards, Flags, NDArray[np.int64], NDArray[np.int64]]:
    """:func:`analysis.fast.movegen.legal_results_paths` of every roll ``highs[k]``,
    ``lows[k]`` from ``board`` in one call: the resulting boards one roll after the other,
    their prime flags, their plays' paths, and where each roll's start (``starts[k]`` to
    ``starts[k + 1]``)."""
    count = len(highs)
    parts = []
    held = []
    routes = []
    starts = np.zeros(count + 1, dtype=np.int64)
    for k in range(count):
        results, flags, paths = legal_results_paths(board, highs[k], lows[k], params, opposite, keys,
                                                    primes)
        parts.append(results)
        held.append(flags)
        routes.append(paths)
        starts[k + 1] = starts[k] + results.shape[0]
    out = np.empty((starts[count], board.shape[0]), dtype=np.int8)
    out_flags = np.empty(starts[count], dtype=np.bool_)
    out_paths = np.empty(starts[count], dtype=np.int64)
    for k in range(count):
        out[starts[k]:starts[k + 1]] = parts[k]
        out_flags[starts[k]:starts[k + 1]] = held[k]
        out_paths[starts[k]:starts[k + 1]] = routes[k]
    return out, out_flags, out_paths, starts


@kernel
def _best_rows(equity: NDArray[np.float32], firsts: NDArray[np.int64]) -> NDArray[np.int64]:
    """The row of each segment (rows ``firsts[s]`` to the next first, the last to the end)
    with the highest ``equity``, the first of equals (``np.argmax``'s choice)."""
    count = firsts.shape[0]
    out = np.empty(count, dtype=np.int64)
    for s in range(count):
        end = firsts[s + 1] if s + 1 < count else equity.shape[0]
        best = firsts[s]
        for row in range(best + 1, end):
            if equity[row] > equity[best]:
                best = row
        out[s] = best
    return out


_RACES: dict[str, NDArray[np.int64]] = {}


def _race_table(rules: RuleSet) -> NDArray[np.int64]:
    """:func:`analysis.fast.outcomes.stored_race_table`, once per rule set (and options:
    ``RuleSet.describe``) in a process."""
    key = rules.describe()
    if key not in _RACES:
        _RACES[key] = stored_race_table(rules)
    return _RACES[key]


@dataclass
class FastJudge:
    """The kernels' view of a rule set and an encoder: what the judgement of boards asks
    the fast core for."""

    rules: RuleSet
    encoder: Encoder
    fast: FastRules | None
    """The fast move generator's view of the rule set (``None``: not covered)."""
    numbers: NDArray[np.int64]
    opposite: NDArray[np.int64]
    code: int | None
    """The ceiling's code where the kernel knows the rule set's, else ``None``."""
    races: NDArray[np.int64]
    steps: int
    rates: NDArray[np.int64]
    places: NDArray[np.int64] | None
    """:func:`analysis.race.places` where the rule set's classes are the standard ones (the
    kernel's), else ``None``."""

    def classes(self, boards: Boards) -> NDArray[np.int64] | None:
        """:func:`analysis.race.classes` of ``boards``, or ``None`` where the rule set's
        classes are not the standard ones."""
        if self.places is None:
            return None
        return classes(boards, self.places)

    @staticmethod
    def race_inputs(inputs: RaceInputs, boards: Boards, flags: Flags | None) -> NDArray[np.float32]:
        """``inputs.encode(boards, flags)`` (:meth:`analysis.race.RaceInputs.encode`; ``flags``:
        each side's prime held, murray), in the kernel."""
        primes = flags if flags is not None else np.zeros((len(boards), 2), dtype=np.bool_)
        return race_inputs(boards, primes, inputs.rules.tracks_prime, inputs.side_size)

    def encode(self, boards: Boards, primes: Flags) -> NDArray[np.float32]:
        """The inputs of ``boards`` (``primes``: each side's prime flag after each)."""
        return encode(boards, primes, self.numbers, table(), self.opposite, self.encoder.size)

    def ceilings(self, boards: Boards, flags: Flags | None) -> NDArray[np.float32] | None:
        """``Outcomes.ceilings`` of ``boards``, or ``None`` where the kernel does not know
        the rule set's ceiling."""
        if self.code is None:
            return None
        primes = flags if flags is not None else np.zeros((len(boards), 2), dtype=np.bool_)
        return _ceilings_of(boards, primes, self.code, self.races, self.steps, self.rates)

    def fuses(self, net: Network) -> bool:
        """Whether :meth:`judge_boards` can judge boards with ``net``: the kernel knows the
        rule set's ceiling, and where there is a race net, its classes."""
        return self.code is not None and (net.race is None or self.places is not None)

    @staticmethod
    def judge_boards(boards: Boards, flags: Flags | None, fused: tuple[Any, ...]
                     ) -> tuple[NDArray[np.float32], NDArray[np.float32], Flags]:
        """:func:`analysis.fast.evaluate.judge_boards` of ``boards`` by a net (``fused``: its
        arguments and the rule set's, :meth:`fused`, made once): each board's outputs with
        the outcomes it no longer allows at 0, its equity, and whether it is a pure bear-off
        or the game over (settled by the caller)."""
        primes = flags if flags is not None else np.zeros((len(boards), 2), dtype=np.bool_)
        return judge_boards(boards, primes, *fused)

    def fused(self, net: Network, outcomes: Outcomes) -> tuple[Any, ...]:
        """The arguments of :func:`analysis.fast.evaluate.judge_boards` after the boards and
        their flags, for ``net`` and ``outcomes`` (where :meth:`fuses`), for
        :meth:`judge_boards`."""
        assert self.code is not None
        race = net.race
        if race is not None:
            assert self.places is not None
            r_w1, r_b1, r_w2, r_b2 = race.w1, race.b1, race.w2, race.b2
            race_prime, race_side = race.inputs.rules.tracks_prime, race.inputs.side_size
        else:
            r_w1 = np.zeros((0, 0), dtype=np.float32)
            r_b1 = r_b2 = np.zeros(0, dtype=np.float32)
            r_w2, race_prime, race_side = r_w1, False, 0
        where = self.places if self.places is not None else np.zeros(0, dtype=np.int64)
        return (self.numbers, table(), self.opposite, self.encoder.size, where, net.w1, net.b1, net.w2,
                net.b2, r_w1, r_b1, r_w2, r_b2, race_prime, race_side, self.code, self.races, self.steps,
                self.rates, np.array(outcomes.points, dtype=np.int64), float(outcomes.scale),
                np.array(outcomes.values, dtype=np.float32), float(outcomes.constant), _KEYS)

    @staticmethod
    def best_rows(equity: NDArray[np.float32], firsts: NDArray[np.int64]) -> NDArray[np.int64]:
        """The row of each segment of ``equity`` (each starting at ``firsts``' row, the last
        running to the end) with its highest equity, the first of equals."""
        return _best_rows(equity, firsts)

    def every_roll(self, board: Boards, primes: bool
                   ) -> tuple[Boards, Flags, NDArray[np.int64], NDArray[np.int64]]:
        """:meth:`legal_boards` of the 21 rolls (:data:`analysis.rolls.ROLLS_21`'s order) in
        one call: every roll's resulting boards one after the other, their prime flags (with
        ``primes``), their plays' paths (:func:`analysis.fast.paths.path_steps`), and where
        each roll's start (22 numbers, the last the total)."""
        assert self.fast is not None
        return _every_roll(board, HIGH_DICE, LOW_DICE, self.fast.params, self.fast.opposite, _KEYS, primes)

    def legal_boards(self, board: Boards, high: int, low: int, primes: bool
                     ) -> tuple[Boards, Flags]:
        """Every legal play's resulting board from ``board`` with the dice ``high`` and
        ``low``, and whether the mover holds a prime after one of its steps (computed only
        with ``primes``; all false without)."""
        assert self.fast is not None
        if primes:
            results, held = legal_results_primes(board, high, low, self.fast.params,
                                                 self.fast.opposite, _KEYS, True)
            return results, held
        results = legal_results(board, high, low, self.fast.params, self.fast.opposite, _KEYS)
        return results, np.zeros(len(results), dtype=np.bool_)


def fast_judge(rules: RuleSet, encoder: Encoder) -> FastJudge | None:
    """The kernels' judgement of ``rules`` with ``encoder``'s inputs, or ``None`` where
    numba is not there or the fast move generator does not cover the rule set (the
    reference then generates the plays and judges them)."""
    fast = fast_rules(rules) if COMPILED else None
    if fast is None:
        return None
    code = ceiling_code(rules) if rules.ceiling is not None else None
    races, steps, rates = np.zeros(0, dtype=np.int64), 0, np.zeros(0, dtype=np.int64)
    if code is not None:
        races, steps, rates = _race_table(rules), most_steps(rules), penalty_rates(rules)
    standard = rules.position_classes == POSITION_CLASSES
    return FastJudge(rules, encoder, fast, layout(encoder, rules.closes_at),
                     np.array(rules.opposite, dtype=np.int64), code, races, steps, rates,
                     places(rules) if standard else None)
