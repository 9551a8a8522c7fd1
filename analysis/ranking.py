"""The engine's judgement of a turn: every legal play ranked by equity, at 0-ply or 1-ply,
and the value of each roll of a position (for the luck of the roll, with :func:`roll_average`).

Equities here are for the player to act, the one who makes the play (expected points,
cubeless, in the rule set's own points); probabilities are the net's outputs for him
(:mod:`analysis.outcomes`).

- **0-ply**: the net's judgement of the position each play leaves.
- **1-ply**: the ``candidates`` best plays at 0-ply judged again by the average, over the
  opponent's 21 rolls (weighted out of 36), of what is left after his best 0-ply reply;
  the others keep their 0-ply judgement and rank below them (each :class:`Candidate` says
  its depth). A play that ends the game is given its exact outcome at either depth.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from analysis.encoding import Encoder
from analysis.network import Network
from analysis.outcomes import Outcomes
from analysis.players import judge
from notation import MEN, OFF, Dice, Play, Position, RuleSet, legal_plays

ROLLS_21 = [(Dice(a, b), 1 if a == b else 2) for a in range(6, 0, -1) for b in range(a, 0, -1)]
"""The 21 distinct rolls, higher die first, with their weight out of 36."""

WEIGHTS = np.array([weight for _, weight in ROLLS_21], dtype=np.float64)
"""Each roll's weight out of 36, in :data:`ROLLS_21`'s order."""

DEPTHS = (0, 1)


@dataclass(frozen=True)
class Candidate:
    """One legal play as the engine judges it, for the player who makes it."""

    play: Play
    equity: float
    probabilities: tuple[float, ...]
    depth: int


@dataclass
class Evaluator:
    """A net judging the plays of ``rules`` (the net's rule set, with the game's options)
    at ``ply`` 0 or 1."""

    net: Network
    rules: RuleSet
    ply: int = 0
    candidates: int = 8
    """At 1-ply, how many of the best 0-ply plays are judged again."""
    encoder: Encoder = field(init=False)
    outcomes: Outcomes = field(init=False)

    def __post_init__(self) -> None:
        if self.ply not in DEPTHS:
            raise ValueError(f"the engine looks 0 or 1 ply ahead, not {self.ply}")
        if self.rules.name != self.net.variant:
            raise ValueError(f"a {self.net.variant} net cannot judge {self.rules.name}")
        self.encoder = Encoder.for_rules(self.rules, self.net.version)
        self.outcomes = self.net.outcomes

    @property
    def name(self) -> str:
        """The engine's version and depth, printed beside every figure:
        ``jacquet-td jacquet v2, 0-ply``."""
        return f"{self.net.name}, {self.ply}-ply"

    def rank(self, plays: Sequence[Play], position: Position,
             primes: tuple[bool, bool] = (False, False),
             also: Play | None = None) -> list[Candidate]:
        """``plays`` (all the legal plays of a turn from ``position``) best first.
        ``primes``: whether the player to act and his opponent have held a prime (murray).
        At 1-ply, ``also`` (the play made, say) is judged at 1-ply even when it is not
        among the best few."""
        judged = judge(self.net, self.encoder, self.outcomes, self.rules, plays, position, primes)
        equity = judged.equity.astype(np.float64)
        y = judged.y.astype(np.float64)
        depth = np.zeros(len(plays), dtype=np.int64)
        if self.ply == 1 and len(plays) > 1:
            order = list(np.argsort(-equity, kind="stable")[: self.candidates])
            if also is not None:
                order += [i for i, play in enumerate(plays) if play.result == also.result and i not in order]
            for i in order:
                play = plays[i]
                if play.result.mover[OFF] == MEN:
                    depth[i] = 1
                    continue
                mine = bool(judged.primes[i, 0]) if judged.primes is not None else primes[0]
                y[i] = self._after_replies(play.next_position, (primes[1], mine))
                equity[i] = float(self.outcomes.equity(y[i]))
                depth[i] = 1
        ranked = sorted(range(len(plays)), key=lambda i: (-depth[i], -equity[i], i))
        return [Candidate(plays[i], float(equity[i]), tuple(float(v) for v in y[i]), int(depth[i]))
                for i in ranked]

    def _after_replies(self, position: Position, primes: tuple[bool, bool]) -> np.ndarray:
        """The outputs for the side that has just moved, averaged over the opponent's 21
        rolls from ``position`` (his, to act) of what his best 0-ply reply leaves."""
        return np.asarray(self.outcomes.mirrored(self.before_roll(position, primes)))

    def before_roll(self, position: Position,
                    primes: tuple[bool, bool] = (False, False)) -> np.ndarray:
        """The outputs for the player to act in ``position``, before his roll: the average
        over the 36 rolls of what his best 0-ply play leaves (a rollout truncated at 1-ply
        closes its games so)."""
        return np.asarray(WEIGHTS @ self.roll_outputs(position, primes) / 36.0)

    def roll_outputs(self, position: Position,
                     primes: tuple[bool, bool] = (False, False)) -> np.ndarray:
        """For each of the 21 rolls (in :data:`ROLLS_21`'s order), the outputs for the
        player to act after his best 0-ply play (a rollout's luck of a roll)."""
        _, outputs = self._best_per_roll(position, primes)
        return outputs

    def _best_per_roll(self, position: Position, primes: tuple[bool, bool]
                       ) -> tuple[np.ndarray, np.ndarray]:
        """For each of the 21 rolls (in :data:`ROLLS_21`'s order), the equity and the
        outputs of the best 0-ply play of the player to act: every roll's plays judged in
        one pass of the net."""
        plays: list[Play] = []
        ends = [0]
        for dice, _ in ROLLS_21:
            plays += legal_plays(position, dice, self.rules)
            ends.append(len(plays))
        judged = judge(self.net, self.encoder, self.outcomes, self.rules, plays, position, primes)
        best = [ends[k] + int(np.argmax(judged.equity[ends[k]:ends[k + 1]])) for k in range(len(ROLLS_21))]
        return judged.equity[best].astype(np.float64), judged.y[best].astype(np.float64)

    def roll_values(self, position: Position,
                    primes: tuple[bool, bool] = (False, False)) -> dict[Dice, float]:
        """For each of the 21 rolls, the equity (for the player to act) after his best
        0-ply play."""
        equities, _ = self._best_per_roll(position, primes)
        return {dice: float(equities[k]) for k, (dice, _) in enumerate(ROLLS_21)}


def roll_average(values: dict[Dice, float]) -> float:
    """The average over the 36 rolls of a value given for each of the 21 distinct rolls:
    before the roll, the equity of the player to act."""
    return sum(values[dice] * weight for dice, weight in ROLLS_21) / 36.0


@dataclass
class OnePlyPlayer:
    """The net at 1-ply (see :class:`Evaluator`): the best play after the opponent's
    replies. About 21 move generations per candidate judged: for analysis, not training."""

    net: Network
    rules: RuleSet
    candidates: int = 8
    name: str = ""
    evaluator: Evaluator = field(init=False)

    def __post_init__(self) -> None:
        self.evaluator = Evaluator(self.net, self.rules, ply=1, candidates=self.candidates)
        if not self.name:
            self.name = self.evaluator.name

    def choose(self, plays: Sequence[Play], position: Position, primes: tuple[bool, bool]) -> int:
        """The index of the best play at 1-ply."""
        if len(plays) == 1:
            return 0
        best = self.evaluator.rank(plays, position, primes)[0].play
        return next(i for i, play in enumerate(plays) if play is best)
