"""The encoding: sizes, the vectorised form against a plain loop, mirrors, the courier."""

from __future__ import annotations

import random

import numpy as np
import pytest

from analysis.encoding import Encoder
from analysis.threads import limit_blas_threads
from notation import Position, legal_plays, rule_set
from notation.engine.rules import courier_phase
from tests.selfplay import play_random_game

limit_blas_threads(1)
VARIANTS = ("jacquet", "murray", "versailles", "hale", "backgammon")


def _reference(encoder: Encoder, position: Position, primes: tuple[bool, bool]) -> list[float]:
    """The inputs written out one by one, as the docs describe them."""
    row: list[float] = []
    for side, board in enumerate((position.mover, position.opponent)):
        for point in range(1, 25):
            n = board[point]
            row += [n >= 1, n >= 2, n >= 3, max(n - 3, 0) / 2]
        row.append(board[0] / 15)
        if encoder.bar:
            row.append(board[25] / 2)
        if encoder.courier:
            row.append(courier_phase(board))
        if encoder.prime:
            row.append(primes[side])
    return [float(v) for v in row]


def _positions(variant: str, games: int = 3) -> list[Position]:
    rules = rule_set(variant)
    positions = []
    for seed in range(games):
        game = play_random_game(rules, random.Random(seed), max_turns=300)
        positions += [play.result for _dice, play in game.turns]
    return positions


@pytest.mark.parametrize(("variant", "size"), [("jacquet", 196), ("murray", 200),
                                               ("versailles", 196), ("hale", 196),
                                               ("backgammon", 196)])
def test_sizes(variant, size):
    encoder = Encoder.for_rules(rule_set(variant))
    assert encoder.size == size == len(encoder.names())


@pytest.mark.parametrize("variant", VARIANTS)
def test_vectorised_encoding_equals_the_plain_loop(variant):
    encoder = Encoder.for_rules(rule_set(variant))
    positions = _positions(variant)
    rng = random.Random(1)
    primes = [(rng.random() < 0.5, rng.random() < 0.5) for _ in positions]
    x = encoder.encode_positions(positions, primes)
    assert x.dtype == np.float32
    rows = [_reference(encoder, p, f) for p, f in zip(positions, primes, strict=True)]
    expected = np.array(rows, np.float32)
    np.testing.assert_array_equal(x, expected)


@pytest.mark.parametrize("variant", VARIANTS)
def test_mirror_swaps_the_side_blocks(variant):
    encoder = Encoder.for_rules(rule_set(variant))
    positions = _positions(variant, games=1)
    primes = [(i % 3 == 0, i % 2 == 0) for i in range(len(positions))]
    x = encoder.encode_positions(positions, primes)
    mirror = encoder.encode_positions([p.swapped() for p in positions], [(b, a) for a, b in primes])
    side = encoder.side_inputs
    np.testing.assert_array_equal(x[:, :side], mirror[:, side:])
    np.testing.assert_array_equal(x[:, side:], mirror[:, :side])


def test_encode_plays_tracks_the_movers_prime():
    rules = rule_set("murray")
    encoder = Encoder.for_rules(rules)
    # points 18..14 made, a blot on 13, a spare on 15: 15/13 or 14/13 completes a prime
    start = Position.from_points({18: 2, 17: 2, 16: 2, 15: 3, 14: 2, 13: 1, 24: 3}, {24: 15})
    plays = legal_plays(start, "21", rules)
    x, flags = encoder.encode_plays(plays, start, (False, True))
    assert flags is not None and flags[:, 1].all()
    primed = [all(p.result.mover[q] >= 2 for q in range(13, 19)) for p in plays]
    assert any(primed) and not all(primed)
    for held, flag in zip(primed, flags[:, 0], strict=True):
        if held:
            assert flag
    prime_column = encoder.side_inputs - 1
    np.testing.assert_array_equal(x[:, prime_column], flags[:, 0])
