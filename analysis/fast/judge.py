"""The net's judgement of boards: what :func:`analysis.players.judge` gives a turn's plays,
given the resulting boards instead (no :class:`~notation.Play` needed), and every roll's
resulting boards of many positions at once, for the rankings at 0, 1 and 2 ply.

The fast core does each step where it can, with the reference's results:

- move generation: :func:`analysis.fast.legal_boards` where :func:`analysis.fast.covers`
  the rule set and numba compiles the kernels (as plain Python they would be two orders of
  magnitude slower than the reference); elsewhere :func:`notation.legal_plays`. In
  ``murray`` the prime flag after a play depends on its steps, which the fast generator
  does not give: its positions use the reference while the mover has held no prime yet;
- the inputs: :func:`analysis.fast.encode.encode` (equal to the encoder's, tested);
- the outcomes still possible: the kernel's ceilings where it knows the rule set's
  (:func:`analysis.fast.outcomes.ceiling_code`), else :meth:`Outcomes.ceilings`;
- the forward pass, the exact bear-offs and the end of the game: as the reference does;
  the evaluator by the board's class (:func:`analysis.race.by_class`: the race net, where
  the net has one, for the ``race`` class).

A board is the 52 counts of a position, the side that has just moved first (a play's
result); a position *to act* is laid out the same way, the player to act first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from analysis.bearoff import exact_outputs
from analysis.encoding import Encoder
from analysis.fast import COMPILED, FastRules, fast_rules, legal_boards
from analysis.fast.encode import encode, layout, table
from analysis.fast.jit import kernel
from analysis.fast.outcomes import ceiling_code, ceilings, most_steps, penalty_rates, race_table
from analysis.network import Network
from analysis.outcomes import Outcomes
from analysis.race import by_class
from analysis.rolls import ROLLS_21
from notation import MEN, OFF, Play, Position, RuleSet, legal_plays

Boards = NDArray[np.int8]
Flags = NDArray[np.bool_]

HOME_END = 7
"""Columns 1-6 of a side are its home points; 7-25 (the bar) are not."""
SIDE = 26
"""A side's columns in a board."""


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
def _pure_bear_offs(boards: Boards) -> NDArray[np.bool_]:
    """Which boards are pure bear-offs: every man of both sides on his home points or off
    (as :func:`analysis.bearoff.exact.pure_bear_off`)."""
    out = np.ones(boards.shape[0], dtype=np.bool_)
    for row in range(boards.shape[0]):
        for column in range(HOME_END, 2 * SIDE):
            if column != SIDE + OFF and (column < SIDE or column >= SIDE + HOME_END) \
                    and boards[row, column]:
                out[row] = False
                break
    return out


_RACES: dict[str, NDArray[np.int64]] = {}


def _race_table(rules: RuleSet) -> NDArray[np.int64]:
    """:func:`analysis.fast.outcomes.race_table`, computed once per rule set (and options:
    ``RuleSet.describe``) in a process (a tenth of a second: more than judging a game)."""
    key = rules.describe()
    if key not in _RACES:
        _RACES[key] = race_table(rules)
    return _RACES[key]


def swapped(boards: Boards) -> Boards:
    """The same boards seen by the other side (its 26 counts first)."""
    return np.ascontiguousarray(np.concatenate((boards[..., 26:], boards[..., :26]), axis=-1))


@dataclass
class Judged:
    """Boards judged: inputs, hidden units, the net's own outputs, the outputs with every
    outcome no longer possible at 0 (or exact), and the equity of the side that moved."""

    x: NDArray[np.float32]
    h: NDArray[np.float32]
    raw: NDArray[np.float32]
    y: NDArray[np.float32]
    equity: NDArray[np.float32]


@dataclass
class Children:
    """Every roll's resulting boards of some positions to act: position ``p``'s plays of
    roll ``k`` (:data:`ROLLS_21`'s order) are rows ``starts[p, k]`` to ``starts[p, k + 1]``
    of ``boards`` (``starts[p, 21]`` = ``starts[p + 1, 0]``); ``flags`` the (mover,
    opponent) prime flags after each (``None`` outside murray)."""

    boards: Boards
    flags: Flags | None
    starts: NDArray[np.int64]


@dataclass
class BoardJudge:
    """``net`` judging boards of ``rules`` (the net's rule set, with the game's options)."""

    net: Network
    rules: RuleSet
    encoder: Encoder = field(init=False)
    outcomes: Outcomes = field(init=False)
    fast: FastRules | None = field(init=False)
    """The fast move generator's view of the rule set, ``None`` where it is not used."""
    compiled: bool = field(init=False)
    numbers: NDArray[np.int64] = field(init=False)
    opposite: NDArray[np.int64] = field(init=False)
    code: int | None = field(init=False)
    races: NDArray[np.int64] = field(init=False)
    steps: int = field(init=False)
    rates: NDArray[np.int64] = field(init=False)

    def __post_init__(self) -> None:
        rules = self.rules
        self.encoder = Encoder.for_rules(rules, self.net.version)
        self.outcomes = self.net.outcomes
        self.compiled = COMPILED
        self.fast = fast_rules(rules) if COMPILED else None
        self.numbers = layout(self.encoder, rules.closes_at)
        self.opposite = np.array(rules.opposite, dtype=np.int64)
        self.code = ceiling_code(rules) if COMPILED and rules.ceiling is not None else None
        if self.code is not None:
            self.races, self.steps = _race_table(rules), most_steps(rules)
            self.rates = penalty_rates(rules)

    def judge(self, boards: Boards, flags: Flags | None, bear_off: bool = True) -> Judged:
        """Each board judged for the side that has just moved (``flags``: the prime flags
        after each, murray): as :func:`analysis.players.judge`."""
        n = boards.shape[0]
        primes = flags if flags is not None else np.zeros((n, 2), dtype=np.bool_)
        if self.compiled:
            x = encode(boards, primes, self.numbers, table(), self.opposite, self.encoder.size)
        else:
            x = self.encoder.encode_boards(boards, flags)
        h, raw = self.net.forward(x)
        outcomes, rules = self.outcomes, self.rules
        raw = by_class(self.net.race, rules, boards, flags, raw)
        if self.code is not None:
            limits = _ceilings_of(boards, primes, self.code, self.races, self.steps, self.rates)
        else:
            limits = outcomes.ceilings([_position(b) for b in boards], flags)
        y = outcomes.mask(raw.copy(), limits)
        if bear_off:
            if self.compiled:
                pure = np.flatnonzero(_pure_bear_offs(boards))
            else:
                pure = np.flatnonzero(~(boards[:, HOME_END:SIDE].any(axis=1)
                                        | boards[:, SIDE + HOME_END:].any(axis=1)))
            if len(pure):
                exact, outputs = exact_outputs(rules, [_position(boards[i]) for i in pure],
                                               flags[pure] if flags is not None else None)
                y[pure[exact]] = outputs[exact]
        for i in np.flatnonzero(boards[:, OFF] == MEN):
            held = bool(flags[i, 0]) if flags is not None else False
            y[i] = outcomes.target(True, rules.score(_position(boards[i]), winner_held_prime=held))
        return Judged(x, h, raw, y, outcomes.equity(y))

    def results(self, plays: Sequence[Play], position: Position, primes: tuple[bool, bool]
                ) -> tuple[Boards, Flags | None]:
        """The boards ``plays`` (a turn's, from ``position``) leave and, in murray, the
        (mover, opponent) prime flags after each (``primes`` being those before the turn)."""
        boards = _boards([p.result.mover + p.result.opponent for p in plays])
        watch = self.encoder.primes
        if watch is None:
            return boards, None
        mine, his = primes
        flags = np.empty((len(plays), 2), dtype=np.bool_)
        flags[:, 1] = his
        flags[:, 0] = [mine or watch.during(position.mover, p.steps) for p in plays]
        return boards, flags

    def children(self, boards: Boards, primes: Flags | None) -> Children:
        """Every roll's resulting boards of the positions to act ``boards`` (``primes``: the
        (player to act, other) prime flags of each, murray)."""
        tracking = self.encoder.primes is not None and primes is not None
        parts: list[Boards] = []
        flag_parts: list[Flags] = []
        starts = np.empty((len(boards), len(ROLLS_21) + 1), dtype=np.int64)
        total = 0
        for p, board in enumerate(boards):
            mine, his = (bool(primes[p, 0]), bool(primes[p, 1])) if tracking and primes is not None \
                else (False, False)
            fast = self.fast is not None and (not tracking or mine)
            position = None if fast else _position(board)
            for k, (dice, _) in enumerate(ROLLS_21):
                starts[p, k] = total
                if fast:
                    assert self.fast is not None and dice.low is not None
                    results = legal_boards(board, dice.high, dice.low, self.fast)
                    held = [mine]
                else:
                    assert position is not None
                    plays = legal_plays(position, dice, self.rules)
                    results = _boards([p.result.mover + p.result.opponent for p in plays])
                    held = [mine or self._during(position, p.steps) for p in plays] if tracking else []
                parts.append(results)
                if tracking:
                    pair = np.empty((len(results), 2), dtype=np.bool_)
                    pair[:, 0], pair[:, 1] = held, his
                    flag_parts.append(pair)
                total += len(results)
            starts[p, len(ROLLS_21)] = total
        return Children(np.concatenate(parts) if parts else np.empty((0, 52), np.int8),
                        np.concatenate(flag_parts) if tracking else None, starts)

    def _during(self, position: Position, steps: Sequence[object]) -> bool:
        watch = self.encoder.primes
        assert watch is not None
        return bool(watch.during(position.mover, steps))  # type: ignore[arg-type]

    def best_per_roll(self, boards: Boards, primes: Flags | None
                      ) -> tuple[NDArray[np.float64], NDArray[np.float64], Boards, Flags | None]:
        """For each position to act of ``boards`` and each of the 21 rolls, the best play at
        0-ply of the player to act: its equity (``(m, 21)``) and outputs (``(m, 21, k)``),
        for him, its resulting board (``(m, 21, 52)``) and prime flags. Every roll of every
        position judged in one pass of the net."""
        children = self.children(boards, primes)
        judged = self.judge(children.boards, children.flags)
        equity = judged.equity
        m = len(boards)
        firsts = children.starts[:, :-1].reshape(-1)  # every (position, roll)'s first row
        rows = np.arange(len(equity))
        top = np.maximum.reduceat(equity, firsts)
        segment = np.repeat(np.arange(len(firsts)), np.diff(np.append(firsts, len(equity))))
        # the first row of each segment with its highest equity (np.argmax's choice)
        best = np.minimum.reduceat(np.where(equity == top[segment], rows, len(equity)), firsts)
        best = best.reshape(m, len(ROLLS_21))
        flags = children.flags[best] if children.flags is not None else None
        return (equity[best].astype(np.float64), judged.y[best].astype(np.float64),
                children.boards[best], flags)


def _position(board: NDArray[np.int8]) -> Position:
    """The position of a board the engine made (checked already: no validation)."""
    counts = board.tolist()
    return Position._trusted(tuple(counts[:26]), tuple(counts[26:]))


def _boards(counts: list[tuple[int, ...]]) -> Boards:
    """The 52 counts of each board as one ``(n, 52)`` array."""
    raw = b"".join([bytes(c) for c in counts])
    boards: Boards = np.frombuffer(raw, dtype=np.int8).reshape(len(counts), 52).copy()
    return boards
