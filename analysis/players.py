"""Players: each chooses one of a turn's legal plays.

- :class:`RandomPlayer`: uniformly among the legal plays.
- :class:`HeuristicPlayer`: a hand-written judge of the position after the play (see its
  docstring), the baseline the nets must beat.
- :class:`NetPlayer`: the net at 0-ply, the play whose resulting position the net rates best
  for the side that has just moved (1-ply: :class:`analysis.ranking.OnePlyPlayer`).

A player is called as ``player.choose(plays, position, primes)`` with ``primes`` =
(whether the side to move, whether its opponent has held a prime so far: murray only) and
answers the index of its play.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from analysis.bearoff import exact_outputs
from analysis.encoding import Encoder
from analysis.network import Network
from analysis.outcomes import Outcomes
from notation import BAR, OFF, Play, Position, RuleSet, rule_set
from notation.engine.rules import courier_phase

MEN = 15


class Player(Protocol):
    """Anything that chooses a play."""

    name: str

    def choose(self, plays: Sequence[Play], position: Position,
               primes: tuple[bool, bool]) -> int: ...  # pragma: no cover


@dataclass
class RandomPlayer:
    """Uniformly random legal play, from its own seeded generator."""

    seed: int = 0
    name: str = "random"
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def choose(self, plays: Sequence[Play], position: Position, primes: tuple[bool, bool]) -> int:
        """A random index."""
        return self.rng.randrange(len(plays))


@dataclass
class HeuristicPlayer:
    """A hand-written judge of the position after the play, for every rule set.

    Points of mine are *held* when they hold enough men to close them (1 without hitting,
    2 with); a held point *blocks* when it lies ahead of the opponent's rearmost man on his
    route (he still has to pass it). The score of a position, higher is better:

    - +1.0 per blocking point and +0.3 per held point (blocking is most of Jacquet's skill;
      held points are also landing spots);
    - −0.1 per man beyond the third on one point (keep spare men flexible);
    - +2.0 per man borne off and −0.04 per pip still to go (race and bear off efficiently);
    - +3.0 once my courier phase is over (the courier home frees every man), and, while it
      lasts, the pip term keeps the courier moving;
    - with hitting: −0.8 per blot of mine in his path, +1.5 per man of his on the bar and
      +0.04 per pip he has to go (a hit sends him back);
    - in backgammon, +0.5 per held point in my home board (it blocks his entry).

    Ties go to the first play in the engine's order, so the player is deterministic.
    """

    rules: RuleSet
    name: str = "heuristic"

    def score(self, position: Position) -> float:
        """The judgement of ``position`` for its mover (who has just played)."""
        rules = self.rules
        mine, his = position.mover, position.opponent
        opposite = rules.opposite
        closes = rules.closes_at
        rear = 0
        for q in range(BAR, 0, -1):
            if his[q]:
                rear = q
                break
        score = 2.0 * mine[OFF] - 0.04 * sum(p * mine[p] for p in range(1, BAR + 1))
        for p in range(1, BAR):
            men = mine[p]
            if not men:
                continue
            in_path = opposite[p] < rear
            if men >= closes:
                score += 0.3 + (1.0 if in_path else 0.0)
                if rules.name == "backgammon" and p <= 6:
                    score += 0.5
            elif rules.hitting and in_path:
                score -= 0.8
            if men > 3:
                score -= 0.1 * (men - 3)
        if rules.hitting:
            score += 1.5 * his[BAR] + 0.04 * sum(q * his[q] for q in range(1, BAR + 1))
        if rules.name != "backgammon" and not courier_phase(mine):
            score += 3.0
        return score

    def choose(self, plays: Sequence[Play], position: Position, primes: tuple[bool, bool]) -> int:
        """The best-scored play."""
        best, best_score = 0, -1e9
        for i, play in enumerate(plays):
            s = self.score(play.result)
            if s > best_score:
                best, best_score = i, s
        return best


@dataclass
class Judgement:
    """A net's judgement of a turn's candidates: inputs, hidden units, outputs, equities,
    and in murray the prime flags after each play."""

    x: NDArray[np.float32]
    h: NDArray[np.float32]
    y: NDArray[np.float32]
    equity: NDArray[np.float32]
    primes: NDArray[np.bool_] | None


def judge(net: Network, encoder: Encoder, outcomes: Outcomes, rules: RuleSet,
          plays: Sequence[Play], position: Position, primes: tuple[bool, bool],
          bear_off: bool = True) -> Judgement:
    """Every candidate judged at once by ``net``; a play that ends the game is given its
    exact outcome instead of the net's guess, and with ``bear_off`` a pure bear-off the
    exact outputs of the bear-off tables (:func:`analysis.bearoff.exact_outputs`)."""
    x, flags = encoder.encode_plays(plays, position, primes)
    h, y = net.forward(x)
    if bear_off:
        exact, outputs = exact_outputs(rules, [play.result for play in plays], flags)
        y[exact] = outputs[exact]
    for i, play in enumerate(plays):
        if play.result.mover[OFF] == MEN:
            held = bool(flags[i, 0]) if flags is not None else False
            y[i] = outcomes.target(True, rules.score(play.result, winner_held_prime=held))
    return Judgement(x, h, y, outcomes.equity(y), flags)


@dataclass
class NetPlayer:
    """The net at 0-ply: the play whose result it rates best."""

    net: Network
    name: str = ""
    rules: RuleSet = field(init=False)
    encoder: Encoder = field(init=False)
    outcomes: Outcomes = field(init=False)

    def __post_init__(self) -> None:
        self.rules = rule_set(self.net.variant)
        self.encoder = Encoder.for_rules(self.rules, self.net.version)
        self.outcomes = self.net.outcomes
        if not self.name:
            self.name = f"{self.net.name}, 0-ply"

    def choose(self, plays: Sequence[Play], position: Position, primes: tuple[bool, bool]) -> int:
        """The index of the best play."""
        if len(plays) == 1:
            return 0
        judged = judge(self.net, self.encoder, self.outcomes, self.rules, plays, position, primes)
        return int(np.argmax(judged.equity))
