"""Random positions for checking the fast core against the reference engine.

Two kinds, both from a seeded ``random.Random``: positions met in random games (every
phase of a real game: the courier, the blocks, hits and the bar, bearing off), and
scattered positions (men put anywhere the rule set allows, a third of them with every
man home, to reach the rarer corners of the rules: bear-offs with gaps, men on the bar
against a closed board, rules already broken at the turn's start).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
from numpy.typing import NDArray

from notation import BAR, MEN, OFF, Dice, Position, RuleSet
from notation.engine.movegen import TurnRules, allowed, step_sequences


def reference_results(position: Position, dice: Dice, rules: RuleSet) -> set[Position]:
    """The resulting positions of every legal play by the reference move generator (its
    sequences and turn rules, without naming the plays)."""
    turn = TurnRules(rules, rules.check_position(position), dice)
    return {Position._trusted(s.mover, s.opponent) for s in allowed(turn, step_sequences(turn))}


def game_positions(rules: RuleSet, rng: random.Random, count: int
                   ) -> Iterator[tuple[Position, Dice, set[Position]]]:
    """``count`` (position, dice, the reference's resulting positions) met in random
    games, one after another."""
    position = rules.start
    for _ in range(count):
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        results = reference_results(position, dice, rules)
        yield position, dice, results
        result = rng.choice(sorted(results, key=lambda p: p.mover + p.opponent))
        position = rules.start if result.mover[OFF] == MEN else result.swapped()


def scattered_position(rules: RuleSet, rng: random.Random) -> Position:
    """Men put at random where ``rules`` allows them (no point shared, the bar only where
    there is hitting); a third of the time every man of both sides is home or off."""
    home = rng.random() < 1 / 3
    mover = [0] * 26
    opponent = [0] * 26
    top = 6 if home else 24
    for _ in range(MEN):
        if rng.random() < (0.25 if home else 0.1):
            mover[OFF] += 1
        elif rules.hitting and not home and rng.random() < 0.05:
            mover[BAR] += 1
        else:
            mover[rng.randint(1, top)] += 1
    mine_there = {rules.opposite[point] for point in range(1, 25) if mover[point]}
    free = [q for q in range(1, top + 1) if q not in mine_there]
    for _ in range(MEN):
        if not free or rng.random() < (0.25 if home else 0.1):
            opponent[OFF] += 1
        elif rules.hitting and not home and rng.random() < 0.05:
            opponent[BAR] += 1
        else:
            opponent[rng.choice(free)] += 1
    return Position(tuple(mover), tuple(opponent))


def scattered_positions(rules: RuleSet, rng: random.Random, count: int
                        ) -> Iterator[tuple[Position, Dice, set[Position]]]:
    """``count`` scattered positions, each with a random roll and the reference's
    resulting positions."""
    for _ in range(count):
        position = scattered_position(rules, rng)
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        yield position, dice, reference_results(position, dice, rules)


def both_kinds(rules: RuleSet, rng: random.Random, count: int
               ) -> Iterator[tuple[Position, Dice, set[Position]]]:
    """``count`` positions met in random games, then ``count`` scattered ones, from the
    same ``rng``."""
    yield from game_positions(rules, rng, count)
    yield from scattered_positions(rules, rng, count)


def random_primes(rng: random.Random, count: int) -> NDArray[np.bool_]:
    """For ``count`` boards, whether each side has held a prime (murray's marcia per
    punto), three times in ten at random: shape ``(count, 2)``."""
    return np.array([(rng.random() < 0.3, rng.random() < 0.3) for _ in range(count)], dtype=np.bool_)


def random_boards(rules: RuleSet, seed: int, count: int) -> tuple[NDArray[np.int8], NDArray[np.bool_]]:
    """The 52 counts of :func:`both_kinds`' ``2 * count`` positions from ``Random(seed)``,
    and the prime flags of each (:func:`random_primes`, from the same ``rng``)."""
    from analysis.fast import board_of  # imports numba: only where the kernels are tested

    rng = random.Random(seed)
    boards = np.array([board_of(p) for p, _dice, _results in both_kinds(rules, rng, count)])
    return boards, random_primes(rng, len(boards))


def encodings(rules: RuleSet, boards: NDArray[np.int8], primes: NDArray[np.bool_], version: int
              ) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """The inputs of ``boards`` at encoding ``version``: the fast kernel's
    (:func:`analysis.fast.encode.encode`) and the reference encoder's, to compare."""
    from analysis.encoding import Encoder
    from analysis.fast.encode import encode, layout, table  # imports numba, as above

    encoder = Encoder.for_rules(rules, version)
    fast = encode(boards, primes, layout(encoder, rules.closes_at), table(),
                  np.array(rules.opposite, dtype=np.int64), encoder.size)
    return fast, encoder.encode_boards(boards, primes)
