"""The dice of a rollout: the same for every candidate, balanced over the first two rolls.

A rollout plays every candidate out on the same dice, game ``g`` on the rolls of stream
``g``, so that the candidates differ by their plays and not by their luck. Plain random
dice would leave the first rolls, which weigh most, unevenly spread over a few hundred
games; as gnubg's quasi-random rollouts do, the first rolls are *stratified* instead:

- the 36 ordered outcomes of two dice are numbered 0-35 (a non-doublet counts twice, as
  it comes up twice as often);
- game ``g``'s first roll is outcome ``g mod 36``, so every 36 consecutive games see every
  outcome once;
- its second roll is outcome ``(g mod 36 + ⌊g / 36⌋) mod 36``: every 36 consecutive games
  again see every second roll once, and 1,296 games see every one of the 36 × 36 pairs of
  first and second rolls exactly once (a cyclic Latin square);
- each of the two turns relabels the outcomes by its own random permutation, drawn from the
  rollout's seed, so that which game gets which pair changes with the seed;
- every later roll comes from a generator seeded by the rollout's seed and the game's
  number, so game ``g`` is the same whichever process plays it and whatever was played in
  the games before it (a rollout split over processes gives exactly the one-process result).

Stratification makes the spread of the mean smaller than the standard error computed as if
the games were independent: the standard errors given are so on the safe side.
"""

from __future__ import annotations

import random

from notation import Dice

OUTCOMES = tuple(Dice(a, b) for a in range(1, 7) for b in range(1, 7))
"""The 36 ordered outcomes of two dice (``Dice`` puts the higher first)."""

STRATIFIED_TURNS = 2
"""How many first rolls of each game are stratified over the 36 outcomes."""

BALANCED_GAMES = len(OUTCOMES) ** STRATIFIED_TURNS
"""1,296: the games over which every pair of first and second rolls comes up once."""


class GameDice:
    """The rolls of one game of a rollout, by the number of rolls thrown before (passed dice,
    R-PASS, are no roll); made as they are needed."""

    def __init__(self, first: tuple[Dice, ...], seed: str) -> None:
        self.rolls = list(first)
        self.seed = seed
        self.rng: random.Random | None = None

    def __getitem__(self, turn: int) -> Dice:
        while len(self.rolls) <= turn:
            if self.rng is None:
                self.rng = random.Random(self.seed)
            self.rolls.append(OUTCOMES[self.rng.randrange(36)])
        return self.rolls[turn]


class RolloutDice:
    """Every game's dice of the rollout seeded ``seed`` (see the module docstring)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        rng = random.Random(f"rollout dice {seed}")
        self.permutations = [rng.sample(range(36), 36) for _ in range(STRATIFIED_TURNS)]

    def stratum(self, game: int) -> tuple[int, int]:
        """The numbers (0-35) of game ``game``'s first and second outcomes before their
        relabelling."""
        first = game % 36
        return first, (first + game // 36) % 36

    def game(self, game: int) -> GameDice:
        """The rolls of game number ``game`` (from 0)."""
        first, second = self.stratum(game)
        return GameDice((OUTCOMES[self.permutations[0][first]], OUTCOMES[self.permutations[1][second]]),
                        f"rollout {self.seed} game {game}")
