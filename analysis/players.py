"""Players: each chooses one of a turn's legal plays.

- :class:`RandomPlayer`: uniformly among the legal plays.
- :class:`HeuristicPlayer`: a hand-written judge of the position after the play (see its
  docstring), the baseline the nets must beat.
- :class:`NetPlayer`: the net at 0-ply, the play whose resulting position the net rates best
  for the side that has just moved (1-ply: :class:`analysis.ranking.LookaheadPlayer`).

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
from analysis.board_judge import BoardJudge
from analysis.encoding import Encoder
from analysis.network import Network
from analysis.outcomes import Outcomes
from analysis.race import by_class
from notation import BAR, MEN, OFF, Play, Position, RuleSet, rule_set


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
    - +3.0 once I am out of the rule set's phases (the courier home frees every man), and,
      while one lasts, the pip term keeps the courier moving;
    - with hitting: −0.8 per blot of mine in his path, +1.5 per man of his on the bar and
      +0.04 per pip he has to go (a hit sends him back);
    - +0.5 per held point in my home board where his men enter from the bar (backgammon's:
      it blocks his entry).

    Ties go to the first play in the engine's order, so the player is deterministic.
    """

    rules: RuleSet
    name: str = "heuristic"
    entry_home: frozenset[int] = field(init=False)
    """The points of my home board (6-1) on which his men enter from the bar."""

    def __post_init__(self) -> None:
        rules = self.rules
        entry = {rules.opposite[q] for q in range(19, BAR)} if rules.has_bar else set()
        self.entry_home = frozenset(p for p in range(1, 7) if p in entry)

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
                if p in self.entry_home:
                    score += 0.5
            elif rules.hitting and in_path:
                score -= 0.8
            if men > 3:
                score -= 0.1 * (men - 3)
        if rules.hitting:
            score += 1.5 * his[BAR] + 0.04 * sum(q * his[q] for q in range(1, BAR + 1))
        if rules.phases and not any(phase.holds(mine) for phase in rules.phases):
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
    """A net's judgement of a turn's candidates: inputs, hidden units, outputs (0 for every
    outcome no longer possible), equities, in murray the prime flags after each play, and
    the net's own outputs before the outcomes no longer possible were set to 0."""

    x: NDArray[np.float32]
    h: NDArray[np.float32]
    y: NDArray[np.float32]
    equity: NDArray[np.float32]
    primes: NDArray[np.bool_] | None
    raw: NDArray[np.float32]


def judge(net: Network, encoder: Encoder, outcomes: Outcomes, rules: RuleSet,
          plays: Sequence[Play], position: Position, primes: tuple[bool, bool],
          bear_off: bool = True) -> Judgement:
    """Every candidate judged at once by ``net``: its outputs with every outcome the
    position a play leaves no longer allows set to 0, for the side that moved and for its
    opponent (:meth:`Outcomes.mask`, from what the rule set says is still possible; ``raw``
    keeps the net's own outputs, whose gradients training follows — the race net's on
    race rows where the net has one: training's nets have none); with ``bear_off`` a
    pure bear-off gets the exact outputs of the bear-off tables
    (:func:`analysis.bearoff.exact_outputs`); a race is judged by the net's race net where it
    has one (:func:`analysis.race.by_class`); a play that ends the game is given its exact
    outcome instead of the net's guess."""
    x, flags = encoder.encode_plays(plays, position, primes)
    h, raw = net.forward(x)
    results = [play.result for play in plays]
    if net.race is not None:
        boards = np.array([r.mover + r.opponent for r in results], dtype=np.int8).reshape(-1, 52)
        raw = by_class(net.race, rules, boards, flags, raw)
    y = outcomes.mask(raw.copy(), outcomes.ceilings(results, flags))
    if bear_off:
        exact, outputs = exact_outputs(rules, results, flags)
        y[exact] = outputs[exact]
    for i, play in enumerate(plays):
        if play.result.mover[OFF] == MEN:
            held = bool(flags[i, 0]) if flags is not None else False
            y[i] = outcomes.target(True, rules.score(play.result, winner_held_prime=held))
    return Judgement(x, h, y, outcomes.equity(y), flags, raw)


@dataclass
class NetPlayer:
    """The net at 0-ply: the play whose result it rates best (judged as :func:`judge`
    judges, through :class:`analysis.board_judge.BoardJudge` with the fast core's encoding
    and outcome ceilings, loaded at once: a player judges turn after turn)."""

    net: Network
    name: str = ""
    rules: RuleSet = field(init=False)
    boards: BoardJudge = field(init=False)

    def __post_init__(self) -> None:
        self.rules = rule_set(self.net.variant)
        self.boards = BoardJudge(self.net, self.rules)
        self.boards.load_kernels()
        if not self.name:
            self.name = f"{self.net.name}, 0-ply"

    @property
    def encoder(self) -> Encoder:
        """The encoder of the net's version for its rule set."""
        return self.boards.encoder

    def choose(self, plays: Sequence[Play], position: Position, primes: tuple[bool, bool]) -> int:
        """The index of the best play."""
        if len(plays) == 1:
            return 0
        judged = self.boards.judge(*self.boards.results(plays, position, primes))
        return int(np.argmax(judged.equity))
