"""The engine's judgement of a turn: every legal play ranked by equity, at 0, 1 or 2 ply,
and the value of each roll of a position (for the luck of the roll, with :func:`roll_average`).

Equities here are for the player to act, the one who makes the play (expected points,
cubeless, in the rule set's own points); probabilities are the net's outputs for him
(:mod:`analysis.outcomes`).

- **0-ply**: the net's judgement of the position each play leaves.
- **1-ply**: the ``candidates`` best plays at 0-ply judged again by the average, over the
  opponent's 21 rolls (weighted out of 36), of what is left after his best 0-ply reply.
- **2-ply** (as GNU Backgammon's): the plays that pass the move filter judged again by
  the average over the opponent's 21 rolls of his best reply, chosen at 0-ply, each
  reply's position valued at 1-ply (the average over the player's own 21 rolls of what his
  best 0-ply play leaves). The filter has two stages: at most ``candidates`` of the best
  at 0-ply, each within :attr:`Evaluator.threshold` of the best (:data:`FILTER`), are
  judged at 1-ply (the opponent's best replies, which 2-ply needs anyway); at most
  :attr:`Evaluator.second` of those, the best at 1-ply within
  :attr:`Evaluator.second_threshold` of the best (:data:`SECOND_FILTER`), go on to 2-ply,
  with the 0-ply best and the play made always.

The plays not judged deeper keep their shallower judgement and rank below those that were
(each :class:`Candidate` says its depth). A play that ends the game is given its exact
outcome at any depth, and so is a reply that ends it.

The work is done on boards by :class:`analysis.board_judge.BoardJudge`: the fast core's
move generator, encoding and outcome ceilings where it covers the rule set (loaded at the
first judgement that needs the 21 rolls: a 0-ply ranking of one turn does not load numba),
with the reference's results (the same equities and ranking; tested on real games).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import mul

import numpy as np
from numpy.typing import NDArray

from analysis.board_judge import BoardJudge, Boards, Children, Flags, Values, swapped
from analysis.encoding import Encoder
from analysis.network import Network
from analysis.outcomes import Outcomes
from analysis.rolls import ROLLS_21, WEIGHTS
from notation import MEN, OFF, Dice, Play, Position, RuleSet, Step
from notation.messages import MessageError, either

__all__ = ["DEPTHS", "FILTER", "ROLLS_21", "SECOND_FILTER", "WEIGHTS", "Candidate", "CannotJudge",
           "Evaluator", "LookaheadPlayer", "RollsJudged", "roll_average"]

DEPTHS = (0, 1, 2)


class CannotJudge(MessageError, ValueError):
    """A judge the engine cannot make (``msg``: the ``judge.*`` message saying why): a
    depth it does not look, a net of another rule set, a confirmation it does not know."""


FILTER = 4 / 3
"""The 2-ply move filter's threshold, as a share of the rule set's mark for a very bad
play (``RuleSet.marks[2]``): GNU Backgammon's "normal" filter keeps at most 8 plays within
0.16 of the best at 0-ply, and 0.16 is 4/3 of its 0.120 (``backgammon``'s marks); the
same share gives 0.213 in the Jacquet family's points and 1.71 in ``hale``'s."""


SECOND_FILTER = 1 / 3
"""The 2-ply move filter's second stage, as a share of ``RuleSet.marks[2]``: the plays the
first stage keeps are judged at 1-ply (the opponent's best replies, which 2-ply needs
anyway), and only the best few there (:attr:`Evaluator.second`) within this share of the
best go on to 2-ply, with the 0-ply best and the play made. GNU Backgammon's filters do
the same before their deepest level (its 3-ply: 2 plays within 0.04, 1/3 of 0.120)."""


@dataclass(frozen=True)
class Candidate:
    """One legal play as the engine judges it, for the player who makes it."""

    play: Play
    equity: float
    probabilities: tuple[float, ...]
    depth: int

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled small (what a worker of ``--jobs`` sends back for every kept play): the
        play's steps as plain numbers, its result as 52 bytes and its notation, written
        here; the same candidate comes back."""
        play, result = self.play, self.play.result
        steps = tuple([tuple(step) for step in play.steps])
        return (_candidate, (steps, bytes(result.mover + result.opponent), play.notation, self.equity,
                             self.probabilities, self.depth))


def _candidate(steps: tuple[tuple[int, int, int, bool], ...], result: bytes, notation: str, equity: float,
               probabilities: tuple[float, ...], depth: int) -> Candidate:
    """A :class:`Candidate` from what it pickles (its ``__reduce__``)."""
    counts = tuple(result)
    play = Play(tuple([Step(*step) for step in steps]), Position._trusted(counts[:26], counts[26:]), None)
    play.read_as(notation)
    return Candidate(play, equity, probabilities, depth)


@dataclass
class Evaluator:
    """A net judging the plays of ``rules`` (the net's rule set, with the game's options)
    at ``ply`` 0, 1 or 2."""

    net: Network
    rules: RuleSet
    ply: int = 0
    candidates: int = 8
    """At 1 and 2 ply, how many of the best 0-ply plays are judged again (at most)."""
    second: int = 3
    """At 2-ply, how many of the best at 1-ply go on to 2-ply (at most; the move filter's
    second stage, :data:`SECOND_FILTER`)."""
    outcomes: Outcomes = field(init=False)
    boards: BoardJudge = field(init=False)

    def __post_init__(self) -> None:
        if self.ply not in DEPTHS:
            raise CannotJudge("judge.depth", ply=self.ply, depths=either([str(depth) for depth in DEPTHS]))
        if self.rules.name != self.net.variant:
            raise CannotJudge("judge.net-variant", net=self.net.variant, variant=self.rules.name)
        self.boards = BoardJudge(self.net, self.rules)
        self.outcomes = self.net.outcomes

    @property
    def name(self) -> str:
        """The engine's version and depth, printed beside every figure:
        ``jacquet-td jacquet v2, 0-ply``."""
        return f"{self.net.name}, {self.ply}-ply"

    @property
    def encoder(self) -> Encoder:
        """The encoder of the net's version for the rule set."""
        return self.boards.encoder

    @property
    def threshold(self) -> float:
        """The 2-ply move filter's threshold in the rule set's points (:data:`FILTER`)."""
        return FILTER * self.rules.marks[2]

    @property
    def second_threshold(self) -> float:
        """The 2-ply move filter's second threshold, at 1-ply, in the rule set's points
        (:data:`SECOND_FILTER`)."""
        return SECOND_FILTER * self.rules.marks[2]

    def rank(self, plays: Sequence[Play], position: Position,
             primes: tuple[bool, bool] = (False, False),
             also: Play | None = None) -> list[Candidate]:
        """``plays`` (all the legal plays of a turn from ``position``) best first.
        ``primes``: whether the player to act and his opponent have held a prime (murray).
        At 1 and 2 ply, ``also`` (the play made, say) is judged as deep even when it is
        not among the best few."""
        boards, flags = self.boards.results(plays, position, primes)
        judged = self.boards.judge(boards, flags)
        equity = judged.equity.astype(np.float64)
        y = judged.y.astype(np.float64)
        depth = np.zeros(len(plays), dtype=np.int64)
        if self.ply and len(plays) > 1:
            order = self._deeper(equity)
            if also is not None:
                order += [i for i, play in enumerate(plays) if play.result == also.result and i not in order]
            deep = [i for i in order if boards[i, OFF] != MEN]
            depth[[i for i in order if i not in deep]] = self.ply  # the game over: exact
            if deep:
                theirs = swapped(boards[deep])
                their_flags = flags[deep][:, ::-1] if flags is not None else None
                if self.ply == 1:
                    deeper, chosen = self._before_roll(theirs, their_flags), list(range(len(deep)))
                else:
                    kept = [row for row, i in enumerate(deep)
                            if i == order[0] or (also is not None and plays[i].result == also.result)]
                    deeper, chosen = self._filtered_two_ply(theirs, their_flags, kept)
                for row, i in enumerate(deep):
                    y[i] = self.outcomes.mirrored(deeper[row])
                    equity[i] = float(self.outcomes.equity(y[i]))
                    depth[i] = self.ply if row in chosen else 1
        equities, outputs, depths = equity.tolist(), y.tolist(), depth.tolist()
        ranked = sorted(range(len(plays)), key=lambda i: (-depths[i], -equities[i], i))
        return [Candidate(plays[i], equities[i], tuple(outputs[i]), depths[i]) for i in ranked]

    def _deeper(self, equity: NDArray[np.float64]) -> list[int]:
        """The plays judged again at 1 or 2 ply: the ``candidates`` best at 0-ply, at 2-ply
        only those within :attr:`threshold` of the best."""
        order = [int(i) for i in np.argsort(-equity, kind="stable")[: self.candidates]]
        if self.ply == 2:
            order = [i for i in order if equity[order[0]] - equity[i] <= self.threshold]
        return order

    def _filtered_two_ply(self, theirs: Boards, flags: Flags | None, kept: list[int]
                          ) -> tuple[NDArray[np.float64], list[int]]:
        """The outputs, for the opponent before his roll, of plays whose boards are
        ``theirs`` (seen by him) at 1-ply, and at 2-ply for those the second stage of the
        move filter keeps: the rows ``kept`` (the 0-ply best, the play made) and at most
        :attr:`second` of the best at 1-ply within :attr:`second_threshold` of the best
        (:data:`SECOND_FILTER`). Returns the outputs and the rows judged at 2-ply. The
        opponent's best replies are found once for both depths."""
        _, y, best, reply_flags = self.boards.best_per_roll(theirs, flags)
        one_ply = np.stack([np.asarray(WEIGHTS @ y[p] / 36.0) for p in range(len(theirs))])
        mover = np.asarray(self.outcomes.equity(self.outcomes.mirrored(one_ply)), dtype=np.float64)
        ranked = [int(r) for r in np.argsort(-mover, kind="stable")]
        chosen = [r for r in ranked[: self.second] if mover[ranked[0]] - mover[r] <= self.second_threshold]
        chosen += [r for r in kept if r not in chosen]
        outputs = one_ply.copy()
        for r in chosen:
            going = [k for k in range(len(ROLLS_21)) if best[r, k, OFF] != MEN]
            if going:
                mine = reply_flags[r, going][:, ::-1] if reply_flags is not None else None
                replies = self._before_roll(swapped(best[r, going]), mine)
                y[r, going] = self.outcomes.mirrored(replies)
            outputs[r] = np.asarray(WEIGHTS @ y[r] / 36.0)
        return outputs, chosen

    def _before_roll(self, boards: Boards, primes: Flags | None) -> NDArray[np.float64]:
        """The outputs for the player to act in each of ``boards`` (positions to act), before
        his roll, at 1-ply: the average over his 21 rolls of what his best 0-ply play
        leaves."""
        _, y, _, _ = self.boards.best_per_roll(boards, primes)
        return np.stack([np.asarray(WEIGHTS @ y[p] / 36.0) for p in range(len(boards))])

    def _position(self, position: Position, primes: tuple[bool, bool]) -> tuple[Boards, Flags | None]:
        board = np.array([position.mover + position.opponent], dtype=np.int8)
        flags = np.array([primes], dtype=np.bool_) if self.encoder.primes is not None else None
        return board, flags

    def before_roll(self, position: Position,
                    primes: tuple[bool, bool] = (False, False)) -> NDArray[np.float64]:
        """The outputs for the player to act in ``position``, before his roll: the average
        over the 36 rolls of what his best 0-ply play leaves (a rollout truncated at 1-ply
        closes its games so)."""
        return np.asarray(self._before_roll(*self._position(position, primes))[0])

    def roll_outputs(self, position: Position,
                     primes: tuple[bool, bool] = (False, False)) -> NDArray[np.float64]:
        """For each of the 21 rolls (in :data:`ROLLS_21`'s order), the outputs for the
        player to act after his best 0-ply play (a rollout's luck of a roll)."""
        _, y, _, _ = self.boards.best_per_roll(*self._position(position, primes))
        return np.asarray(y[0])

    def roll_values(self, position: Position,
                    primes: tuple[bool, bool] = (False, False)) -> dict[Dice, float]:
        """For each of the 21 rolls, the equity (for the player to act) after his best
        0-ply play."""
        return self.rolls_judged(position, primes).values

    def rolls_judged(self, position: Position, primes: tuple[bool, bool] = (False, False)) -> RollsJudged:
        """Every play of each of the 21 rolls from ``position`` judged at 0-ply, and each
        roll's value (:meth:`roll_values`)."""
        children = self.boards.children(*self._position(position, primes))
        judged = self.boards.values(children.boards, children.flags)
        equities = judged.equity[self.boards.best_rows(children, judged.equity)[0]].tolist()
        return RollsJudged(children, judged, equities)


_DICE = [dice for dice, _ in ROLLS_21]
"""The 21 rolls, in :data:`ROLLS_21`'s order."""
_WEIGHTS = [weight for _, weight in ROLLS_21]
"""Their weights out of 36."""


@dataclass
class RollsJudged:
    """The plays of a position's 21 rolls judged at 0-ply (:meth:`Evaluator.rolls_judged`):
    their boards (``children``, roll ``k``'s rows ``children.starts[0, k]`` to
    ``children.starts[0, k + 1]``), their judgement, and each roll's ``values`` (the
    equity after the best play, for the player to act)."""

    children: Children
    judged: Values
    equities: list[float]
    """Each roll's value, in :data:`ROLLS_21`'s order."""

    @property
    def values(self) -> dict[Dice, float]:
        """Each roll's value by its dice."""
        return dict(zip(_DICE, self.equities, strict=True))

    @property
    def average(self) -> float:
        """:func:`roll_average` of the values."""
        return _average(self.equities)


def roll_average(values: dict[Dice, float]) -> float:
    """The average over the 36 rolls of a value given for each of the 21 distinct rolls:
    before the roll, the equity of the player to act."""
    return _average([values[dice] for dice in _DICE])


def _average(values: list[float]) -> float:
    """The average over the 36 rolls of the 21 rolls' ``values`` in :data:`ROLLS_21`'s order."""
    total: float = sum(map(mul, values, _WEIGHTS))
    return total / 36.0


@dataclass
class LookaheadPlayer:
    """The net at 1 or 2 ply (see :class:`Evaluator`): the best play after the opponent's
    replies. About 21 move generations per candidate judged at 1-ply, 21 × 22 at 2-ply: for
    analysis and play against people, not training."""

    net: Network
    rules: RuleSet
    ply: int = 1
    candidates: int = 8
    name: str = ""
    evaluator: Evaluator = field(init=False)

    def __post_init__(self) -> None:
        self.evaluator = Evaluator(self.net, self.rules, ply=self.ply, candidates=self.candidates)
        if not self.name:
            self.name = self.evaluator.name

    def choose(self, plays: Sequence[Play], position: Position, primes: tuple[bool, bool]) -> int:
        """The index of the best play at the player's depth."""
        if len(plays) == 1:
            return 0
        best = self.evaluator.rank(plays, position, primes)[0].play
        return next(i for i, play in enumerate(plays) if play is best)
