"""The net's judgement of boards: what :func:`analysis.players.judge` gives a turn's plays,
given the resulting boards instead (no :class:`~notation.Play` needed), and every roll's
resulting boards of many positions at once, for the rankings at 0, 1 and 2 ply.

The fast core (:mod:`analysis.fast.judge`, numba's kernels) is loaded where it pays: at
the first call that generates the plays of the 21 rolls (:meth:`BoardJudge.children`:
1 and 2 ply, the luck of a roll, rollouts), not for judging one turn's plays (``jacquet
legal --rank`` at 0-ply, a game against the engine at 0-ply), where numba's import and
its kernels' loading (about a second of CPU) would cost a hundred times the judgement.
Once loaded, every judgement uses its kernels. Either way the results are the
reference's:

- move generation: :func:`analysis.fast.legal_boards` where
  :func:`analysis.fast.covers` the rule set and numba compiles the kernels (as plain
  Python they would be two orders of magnitude slower than the reference), with murray's
  prime flags from the same search (:func:`analysis.fast.movegen.legal_results_primes`);
  elsewhere :func:`notation.legal_plays`;
- the inputs: the fast encoding kernel, or :meth:`Encoder.encode_boards` (equal, tested);
- the outcomes still possible: the kernel's ceilings where it knows the rule set's
  (:func:`analysis.fast.outcomes.ceiling_code`), else :meth:`Outcomes.ceilings`;
- the forward pass, the exact bear-offs and the end of the game: as the reference does;
  the evaluator by the board's class (:func:`analysis.race.by_class`: the race net, where
  the net has one, for the ``race`` class); with the kernels, the classes and the race
  inputs are theirs (:mod:`analysis.fast.race`) and the contact net runs on the contact
  boards only.

A board is the 52 counts of a position, the side that has just moved first (a play's
result); a position *to act* is laid out the same way, the player to act first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from analysis.bearoff.exact import exact_board_outputs
from analysis.encoding import Encoder
from analysis.network import Network
from analysis.outcomes import Outcomes
from analysis.race import CONTACT, by_class
from analysis.rolls import ROLLS_21
from notation import MEN, OFF, Play, Position, RuleSet, legal_plays
from notation.engine.movegen import TurnRules

if TYPE_CHECKING:
    from analysis.fast.judge import FastJudge

Boards = NDArray[np.int8]
Flags = NDArray[np.bool_]

def swapped(boards: Boards) -> Boards:
    """The same boards seen by the other side (its 26 counts first)."""
    return np.ascontiguousarray(np.concatenate((boards[..., 26:], boards[..., :26]), axis=-1))


@dataclass
class Values:
    """Boards judged for the side that has just moved: the outputs with every outcome no
    longer possible at 0 (or exact), and the equity."""

    y: NDArray[np.float32]
    equity: NDArray[np.float32]
    by_board: bool = field(default=False, kw_only=True)
    """Whether each board's figures are its own, whatever the other boards judged with it
    (the kernel's, board by board), so that a few of them can be taken from a bigger
    batch; numpy's matrix products can round a row differently in another batch."""


@dataclass
class Judged(Values):
    """Boards judged (:class:`Values`), with the inputs, the hidden units and the net's own
    outputs. With the kernels and a race net, the contact net's hidden units of the boards
    the race net judges are 0 (the contact net does not run on them)."""

    x: NDArray[np.float32] = field(kw_only=True)
    h: NDArray[np.float32] = field(kw_only=True)
    raw: NDArray[np.float32] = field(kw_only=True)


@dataclass
class Children:
    """Every roll's resulting boards of some positions to act: position ``p``'s plays of
    roll ``k`` (:data:`ROLLS_21`'s order) are rows ``starts[p, k]`` to ``starts[p, k + 1]``
    of ``boards`` (``starts[p, 21]`` = ``starts[p + 1, 0]``); ``flags`` the (mover,
    opponent) prime flags after each (``None`` outside murray); ``paths`` each play's steps
    in the canonical order (:func:`analysis.fast.paths.path_steps`), where the fast core
    made them (``None`` where the reference did)."""

    boards: Boards
    flags: Flags | None
    starts: NDArray[np.int64]
    paths: NDArray[np.int64] | None = None


@dataclass
class BoardJudge:
    """``net`` judging boards of ``rules`` (the net's rule set, with the game's options)."""

    net: Network
    rules: RuleSet
    encoder: Encoder = field(init=False)
    outcomes: Outcomes = field(init=False)
    kernels: FastJudge | None = field(init=False, default=None)
    """The fast core's judgement, once loaded (:meth:`load_kernels`); ``None`` before, or
    where numba is not there."""
    loaded: bool = field(init=False, default=False)
    """Whether :meth:`load_kernels` has been called."""
    fused: tuple[Any, ...] | None = field(init=False, default=None, repr=False)
    """The kernels' arguments for this net (:meth:`FastJudge.fused`), made at the first
    :meth:`values`."""

    def __post_init__(self) -> None:
        self.encoder = Encoder.for_rules(self.rules, self.net.version)
        self.outcomes = self.net.outcomes

    def load_kernels(self) -> FastJudge | None:
        """The fast core's judgement (numba imported, its kernels loaded), or ``None``
        where numba is not there (the reference's move generator is then used)."""
        if not self.loaded:
            from analysis.fast.judge import fast_judge  # imports numba

            self.kernels = fast_judge(self.rules, self.encoder)
            self.loaded = True
        return self.kernels

    def judge(self, boards: Boards, flags: Flags | None, bear_off: bool = True) -> Judged:
        """Each board judged for the side that has just moved (``flags``: the prime flags
        after each, murray): as :func:`analysis.players.judge`."""
        n = boards.shape[0]
        kernels = self.kernels
        outcomes, rules = self.outcomes, self.rules
        if kernels is not None:
            primes = flags if flags is not None else np.zeros((n, 2), dtype=np.bool_)
            x = kernels.encode(boards, primes)
            h, raw = self._by_class(kernels, boards, flags, x)
        else:
            x = self.encoder.encode_boards(boards, flags)
            h, raw = self.net.forward(x)
            raw = by_class(self.net.race, rules, boards, flags, raw)
        limits = kernels.ceilings(boards, flags) if kernels is not None else None
        if limits is None:
            limits = outcomes.ceilings([trusted_position(b) for b in boards], flags)
        y = self._settled(boards, flags, outcomes.mask(raw.copy(), limits), bear_off)
        return Judged(y, outcomes.equity(y), x=x, h=h, raw=raw)

    def values(self, boards: Boards, flags: Flags | None) -> Values:
        """:meth:`judge`'s outputs and equities of ``boards``, in one kernel call where the
        kernels are loaded and know the rule set's ceiling and classes
        (:mod:`analysis.fast.evaluate`: the same figures to float32 rounding, not bit for
        bit); else :meth:`judge`'s own. The analysis at 0-ply judges so."""
        kernels = self.kernels
        if kernels is None or not kernels.fuses(self.net):
            judged = self.judge(boards, flags)
            return Values(judged.y, judged.equity)
        if self.fused is None:
            self.fused = kernels.fused(self.net, self.outcomes)
        y, equity, bear_offs = kernels.judge_boards(boards, flags, self.fused)
        rows = np.flatnonzero(bear_offs)
        if len(rows):
            settled = self._settled(boards[rows], None if flags is None else flags[rows], y[rows], True)
            y[rows] = settled
            equity[rows] = self.outcomes.equity(settled)
        return Values(y, equity, by_board=True)

    def _settled(self, boards: Boards, flags: Flags | None, y: NDArray[np.float32], bear_off: bool
                 ) -> NDArray[np.float32]:
        """``y`` (the masked outputs of ``boards``) with the exact outputs of the pure
        bear-offs (with ``bear_off``) and the outcome of the games over, in place."""
        rules, outcomes = self.rules, self.outcomes
        if bear_off:
            exact, outputs = exact_board_outputs(rules, boards, flags)
            y[exact] = outputs[exact]
        for i in np.flatnonzero(boards[:, OFF] == MEN):
            held = bool(flags[i, 0]) if flags is not None else False
            y[i] = outcomes.target(True, rules.score(trusted_position(boards[i]), winner_held_prime=held))
        return y

    def _by_class(self, kernels: FastJudge, boards: Boards, flags: Flags | None,
                  x: NDArray[np.float32]) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """The hidden units and outputs of ``boards`` (inputs ``x``) by the evaluator of
        each one's class (:func:`analysis.race.by_class`'s choice, the classes and the race
        inputs from the kernels): the contact net runs on the contact boards only, and the
        hidden units of the others are 0."""
        race = self.net.race
        kinds = kernels.classes(boards) if race is not None and len(boards) else None
        if race is None or kinds is None:
            h, raw = self.net.forward(x)
            return h, by_class(race, self.rules, boards, flags, raw)
        contact = kinds == CONTACT
        if contact.all():
            return self.net.forward(x)
        rows, others = np.flatnonzero(contact), np.flatnonzero(~contact)
        h = np.zeros((len(boards), self.net.w1.shape[1]), dtype=np.float32)
        raw = np.empty((len(boards), self.net.w2.shape[0]), dtype=np.float32)
        if len(rows):
            h[rows], raw[rows] = self.net.forward(x[rows])
        inputs = kernels.race_inputs(race.inputs, boards[others],
                                     None if flags is None else flags[others])
        raw[others] = race.forward(inputs)[1]
        return h, raw

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
        kernels = self.load_kernels()
        tracking = self.encoder.primes is not None and primes is not None
        parts: list[Boards] = []
        flag_parts: list[Flags] = []
        path_parts: list[NDArray[np.int64]] = []
        starts = np.empty((len(boards), len(ROLLS_21) + 1), dtype=np.int64)
        total = 0
        for p, board in enumerate(boards):
            mine, his = (bool(primes[p, 0]), bool(primes[p, 1])) if tracking and primes is not None \
                else (False, False)
            if kernels is not None:
                results, held, paths, at = kernels.every_roll(board, tracking and not mine)
                held |= mine
                starts[p] = at + total
                self._add(parts, flag_parts, results, held, his, tracking)
                path_parts.append(paths)
                total += len(results)
                continue
            position = trusted_position(board)
            for k, (dice, _) in enumerate(ROLLS_21):
                starts[p, k] = total
                plays = legal_plays(position, dice, self.rules)
                results = _boards([p.result.mover + p.result.opponent for p in plays])
                held = np.array([mine or self._during(position, p.steps) for p in plays]
                                if tracking else [], dtype=np.bool_)
                self._add(parts, flag_parts, results, held, his, tracking)
                total += len(results)
            starts[p, len(ROLLS_21)] = total
        return Children(_joined(parts) if parts else np.empty((0, 52), np.int8),
                        _joined(flag_parts) if tracking else None, starts,
                        _joined(path_parts) if kernels is not None and path_parts else None)

    @staticmethod
    def _add(parts: list[Boards], flag_parts: list[Flags], results: Boards, held: Flags, his: bool,
             tracking: bool) -> None:
        """Add a part of the children: ``results`` and, where primes are tracked, their
        (mover, opponent) flags."""
        parts.append(results)
        if tracking:
            pair = np.empty((len(results), 2), dtype=np.bool_)
            pair[:, 0], pair[:, 1] = held, his
            flag_parts.append(pair)

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
        return self.best_of(children, self.judge(children.boards, children.flags))

    def best_of(self, children: Children, judged: Values
                ) -> tuple[NDArray[np.float64], NDArray[np.float64], Boards, Flags | None]:
        """:meth:`best_per_roll` of the positions whose ``children`` are ``judged``."""
        best = self.best_rows(children, judged.equity)
        flags = children.flags[best] if children.flags is not None else None
        return (judged.equity[best].astype(np.float64), judged.y[best].astype(np.float64),
                children.boards[best], flags)

    def best_rows(self, children: Children, equity: NDArray[np.float32]) -> NDArray[np.int64]:
        """The row of each position's best play of each roll (``(m, 21)``), by ``equity``
        (the children's): the first of equals, as ``np.argmax``."""
        firsts = children.starts[:, :-1].reshape(-1)  # every (position, roll)'s first row
        if self.kernels is not None:
            best = self.kernels.best_rows(equity, np.ascontiguousarray(firsts))
        else:
            rows = np.arange(len(equity))
            top = np.maximum.reduceat(equity, firsts)
            segment = np.repeat(np.arange(len(firsts)), np.diff(np.append(firsts, len(equity))))
            best = np.minimum.reduceat(np.where(equity == top[segment], rows, len(equity)), firsts)
        return best.reshape(len(children.starts), len(ROLLS_21))


def named_play(turn: TurnRules, steps: Sequence[tuple[int, int]]) -> Play:
    """The legal play of ``turn`` whose steps (each's starting point and die, in the
    canonical order: :func:`analysis.fast.paths.path_steps`) are ``steps``, as the
    reference makes it (the same steps, result and notation)."""
    mover, opponent = turn.start.mover, turn.start.opponent
    made = []
    for from_point, die in steps:
        _, mover, opponent, step = turn.step(mover, opponent, from_point, die)
        assert step is not None, "the fast core's play is legal"
        made.append(step)
    return Play(tuple(made), Position._trusted(mover, opponent), turn.write)


def trusted_position(board: NDArray[np.int8]) -> Position:
    """The position of a board the engine made (checked already: no validation)."""
    counts = board.tolist()
    return Position._trusted(tuple(counts[:26]), tuple(counts[26:]))


def _joined(parts: list[NDArray[Any]]) -> NDArray[Any]:
    """The parts one after the other (the one part itself, uncopied, where there is one: a
    single position's children)."""
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


def _boards(counts: list[tuple[int, ...]]) -> Boards:
    """The 52 counts of each board as one ``(n, 52)`` array."""
    raw = b"".join([bytes(c) for c in counts])
    boards: Boards = np.frombuffer(raw, dtype=np.int8).reshape(len(counts), 52).copy()
    return boards
