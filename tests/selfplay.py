"""Random legal games from a simple playing policy: for property tests, benchmarks and
(later) ``jacquet generate``. Reproducible: everything comes from the ``random.Random``
given.

The policy picks uniformly among the legal plays. Game-level rules that belong to the
record reader (who starts by the lead roll, Versailles' passed dice, the doubling cube)
are not played here: every turn rolls two fresh dice, unplayable dice are lost, the cube
stays at 1.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from notation.engine.board import MEN, OFF, Position
from notation.engine.dice import Dice
from notation.engine.movegen import legal_plays
from notation.engine.play import Play
from notation.engine.rules import RuleSet, prime_during


@dataclass
class RandomGame:
    """A finished (or abandoned) random game: every turn's dice and play, from the start."""

    rules: RuleSet
    turns: list[tuple[Dice, Play]] = field(default_factory=list)
    final: Position | None = None
    first_player_won: bool | None = None
    points: int = 0
    prime_held: tuple[bool, bool] = (False, False)

    @property
    def finished(self) -> bool:
        return self.first_player_won is not None


def roll(rng: random.Random) -> Dice:
    """Two fair dice."""
    return Dice(rng.randint(1, 6), rng.randint(1, 6))


def play_random_game(rules: RuleSet, rng: random.Random, max_turns: int = 20000) -> RandomGame:
    """Play a game of random legal plays until someone bears off all 15 men (or
    ``max_turns``, then the game is returned unfinished)."""
    game = RandomGame(rules)
    position = rules.start
    primes = [False, False]  # by side: 0 = first player, 1 = second
    for turn in range(max_turns):
        side = turn % 2
        dice = roll(rng)
        play = rng.choice(legal_plays(position, dice, rules))
        game.turns.append((dice, play))
        primes[side] = primes[side] or prime_during(position.mover, play.steps)
        if play.result.mover[OFF] == MEN:
            game.final = play.result
            game.first_player_won = side == 0
            game.prime_held = (primes[0], primes[1])
            game.points = rules.score(play.result, winner_held_prime=primes[side])
            return game
        position = play.next_position
    game.final = position
    return game
