"""Games between two players and duplicate-dice matches.

Game-level rules that belong to the record reader are not played (as in
``tests/selfplay.py``): every turn rolls two fresh dice (no lead roll), versailles' passed
dice are not passed (unplayable dice are lost), there is no cube.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from analysis.players import Player
from notation import MEN, OFF, Dice, RuleSet, legal_plays

MAX_TURNS = 5000
ROLLS = [[Dice(a, b) for b in range(1, 7)] for a in range(1, 7)]
"""Every roll made once: ``ROLLS[a - 1][b - 1]``."""


def roll(rng: random.Random) -> Dice:
    """Two fair dice."""
    return ROLLS[rng.randrange(6)][rng.randrange(6)]


@dataclass(frozen=True)
class GameResult:
    """Who won (0 = the side that moved first, 1 = the other, None: abandoned after
    :data:`MAX_TURNS`), by how many points, after how many turns."""

    winner: int | None
    points: int
    turns: int


class DiceStream:
    """The rolls of one game by turn number, from a seed, made as they are needed: two
    games on one stream see the same dice turn by turn whatever is played."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.rolls: list[Dice] = []

    def __getitem__(self, turn: int) -> Dice:
        while len(self.rolls) <= turn:
            self.rolls.append(roll(self.rng))
        return self.rolls[turn]


def play_game(rules: RuleSet, first: Player, second: Player, dice: DiceStream,
              max_turns: int = MAX_TURNS) -> GameResult:
    """One game, ``first`` moving first."""
    players = (first, second)
    position = rules.start
    primes = [False, False]
    for turn in range(max_turns):
        side = turn & 1
        plays = legal_plays(position, dice[turn], rules)
        index = players[side].choose(plays, position, (primes[side], primes[1 - side])) \
            if len(plays) > 1 else 0
        play = plays[index]
        if rules.primes is not None and not primes[side]:
            primes[side] = rules.primes.during(position.mover, play.steps)
        if play.result.mover[OFF] == MEN:
            return GameResult(side, rules.score(play.result, winner_held_prime=primes[side]), turn + 1)
        position = play.next_position
    return GameResult(None, 0, max_turns)


@dataclass(frozen=True)
class MatchResult:
    """A duplicate-dice match seen by the first player named: games, win rate and its
    standard error (from the pairs of games on one dice stream), points per game."""

    games: int
    wins: int
    win_rate: float
    standard_error: float
    points_per_game: float
    abandoned: int


@dataclass(frozen=True)
class PairResult:
    """One dice stream played twice, seats swapped, seen by the first player named: his
    score over the two games (1 a win, ½ an abandoned game), wins, points, abandoned games."""

    score: float
    wins: int
    points: int
    abandoned: int


def duplicate_pairs(rules: RuleSet, player: Player, opponent: Player, pairs: range,
                    seed: int = 0) -> list[PairResult]:
    """The pairs numbered ``pairs`` of a duplicate match: stream ``pair`` of ``seed`` played
    with ``player`` first, then second (a match may so be split between processes)."""
    results = []
    for pair in pairs:
        stream_seed = seed * 1_000_003 + pair
        score = 0.0
        wins = points = abandoned = 0
        for seat in (0, 1):
            order = (player, opponent) if seat == 0 else (opponent, player)
            result = play_game(rules, order[0], order[1], DiceStream(stream_seed))
            if result.winner is None:
                abandoned += 1
                score += 0.5
                continue
            won = result.winner == seat
            wins += won
            score += won
            points += result.points if won else -result.points
        results.append(PairResult(score, wins, points, abandoned))
    return results


def match_result(pairs: list[PairResult]) -> MatchResult:
    """The match of these pairs: win rate with its standard error from the pairs' scores."""
    n = len(pairs)
    games = 2 * n
    scores = [p.score / 2 for p in pairs]
    mean = sum(scores) / n
    variance = sum((s - mean) ** 2 for s in scores) / max(n - 1, 1)
    wins = sum(p.wins for p in pairs)
    return MatchResult(games, wins, wins / games, math.sqrt(variance / n),
                       sum(p.points for p in pairs) / games, sum(p.abandoned for p in pairs))


def duplicate_match(rules: RuleSet, player: Player, opponent: Player, pairs: int,
                    seed: int = 0) -> MatchResult:
    """``2 × pairs`` games: each dice stream played twice, ``player`` first then second."""
    return match_result(duplicate_pairs(rules, player, opponent, range(pairs), seed))
