"""The encoding: sizes, the vectorised form against a plain loop, mirrors, the courier."""

from __future__ import annotations

import random

import numpy as np
import pytest

from analysis.encoding import Encoder
from analysis.threads import limit_blas_threads
from notation import Position, legal_plays, rule_set
from notation.engine.rules import NAMES
from tests.selfplay import play_random_game

limit_blas_threads(1)
VARIANTS = NAMES
ENCODINGS = [(variant, version) for variant in VARIANTS for version in (1, 2)]


def _blocking_reference(rules, mine, his) -> list[float]:
    """The five blocking features of ``mine`` against ``his``, point by point."""
    rear = max((q for q in range(1, 25) if his[q]), default=0)
    blocking = [q for q in range(1, rear) if mine[rules.opposite[q]] >= rules.closes_at]
    longest = run = 0
    for q in range(1, 25):  # in a row along his route
        run = run + 1 if q in blocking else 0
        longest = max(longest, run)
    blocked = sum(1 for die in range(1, 7)
                  if rear - die >= 1 and mine[rules.opposite[rear - die]] >= rules.closes_at)
    pips = sum(p * mine[p] for p in range(1, 25))
    return [pips / 360, rear / 24, len(blocking) / 12, longest / 6, blocked / 6]


def _contact_reference(rules, mine, his) -> list[float]:
    """The six contact features of ``mine`` against ``his``, man by man and roll by roll."""
    opposite, closes = rules.opposite, rules.closes_at
    rear = max((p for p in range(1, 26) if mine[p]), default=0)
    entry = min(opposite[p] for p in range(19, 25))
    places = [opposite[q] for q in range(1, 25) if his[q]] + ([entry] if his[25] else [])

    def hits(path: list[int]) -> bool:  # his landing points, in his numbering
        *rests, last = path
        return (last >= 1 and mine[opposite[last]] == 1
                and all(r >= 1 and mine[opposite[r]] < closes for r in rests))

    shots = 0
    for a in range(1, 7):
        for b in range(1, 7):
            steps = [a] * 4 if a == b else None
            for q in (q for q in range(1, 26) if his[q]):
                if steps:
                    paths = [[q - a * k for k in range(1, n + 1)] for n in range(1, 5)]
                else:
                    paths = [[q - a], [q - b], [q - a, q - a - b], [q - b, q - a - b]]
                if any(hits(path) for path in paths):
                    shots += 1
                    break
    longest = run = 0
    for p in range(1, 25):
        run = run + 1 if mine[p] >= closes else 0
        longest = max(longest, run)
    escapes = sum(1 for die in range(1, 7)
                  if rear - die >= 1 and his[opposite[rear - die]] >= closes)
    enter = sum(his[opposite[p]] >= closes for p in range(19, 25)) if mine[25] else 0
    pips = sum(p * mine[p] for p in range(1, 26))
    return [pips / 375, float(any(place < rear for place in places)), shots / 36,
            longest / 6, escapes / 6, enter / 6]


def _reference(encoder: Encoder, position: Position, primes: tuple[bool, bool]) -> list[float]:
    """The inputs written out one by one, as the docs describe them."""
    row: list[float] = []
    boards = (position.mover, position.opponent)
    for side, board in enumerate(boards):
        for point in range(1, 25):
            n = board[point]
            row += [n >= 1, n >= 2, n >= 3, max(n - 3, 0) / 2]
        row.append(board[0] / 15)
        if encoder.bar:
            row.append(board[25] / 2)
        row += [phase.holds(board) for phase in encoder.phases]  # the rule's own test
        if encoder.prime:
            row.append(primes[side])
        if encoder.blocking is not None:
            row += _blocking_reference(rule_set(encoder.rule_set), board, boards[1 - side])
        if encoder.contact is not None:
            row += _contact_reference(rule_set(encoder.rule_set), board, boards[1 - side])
    return [float(v) for v in row]


def _positions(variant: str, games: int = 3) -> list[Position]:
    rules = rule_set(variant)
    positions = []
    for seed in range(games):
        game = play_random_game(rules, random.Random(seed), max_turns=300)
        positions += [play.result for _dice, play in game.turns]
    return positions


@pytest.mark.parametrize(("variant", "version", "size"), [
    ("jacquet", 2, 206), ("murray", 2, 212), ("versailles", 2, 206), ("hale", 2, 206),
    ("backgammon", 2, 208), ("jacquet", 1, 196), ("murray", 1, 200), ("backgammon", 1, 196)])
def test_sizes(variant, version, size):
    encoder = Encoder.for_rules(rule_set(variant), version)
    assert encoder.size == size == len(encoder.names())
    assert encoder.version == version


def test_the_latest_version_by_default_and_no_unknown_one():
    rules = rule_set("backgammon")
    assert Encoder.for_rules(rules).version == 2
    with pytest.raises(ValueError, match="no encoding version 3"):
        Encoder.for_rules(rules, 3)


@pytest.mark.parametrize(("variant", "version"), ENCODINGS)
def test_vectorised_encoding_equals_the_plain_loop(variant, version):
    encoder = Encoder.for_rules(rule_set(variant), version)
    positions = _positions(variant)
    rng = random.Random(1)
    primes = [(rng.random() < 0.5, rng.random() < 0.5) for _ in positions]
    x = encoder.encode_positions(positions, primes)
    assert x.dtype == np.float32
    rows = [_reference(encoder, p, f) for p, f in zip(positions, primes, strict=True)]
    expected = np.array(rows, np.float32)
    np.testing.assert_allclose(x, expected, rtol=1e-6)


@pytest.mark.parametrize(("variant", "version"), ENCODINGS)
def test_mirror_swaps_the_side_blocks(variant, version):
    encoder = Encoder.for_rules(rule_set(variant), version)
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
    prime_column = encoder.names().index("me_prime")
    np.testing.assert_array_equal(x[:, prime_column], flags[:, 0])


def test_blocking_features_of_a_hand_made_jacquet_position():
    """White holds 6..11 (six in a row), right ahead of Black's talon (his 24 is White's
    12, his 23..18 are White's 11..6), so Black's rearmost man cannot play any number;
    Black's 24 and 1 (White's 12 and 13) lie ahead of White's rearmost man on 24, out of
    reach of one die."""
    rules = rule_set("jacquet")
    white = [0] * 26
    for point in range(6, 12):
        white[point] = 1
    white[24] = 9
    black = [0] * 26
    black[24] = 14
    black[1] = 1
    x = Encoder.for_rules(rules).encode_positions([Position(tuple(white), tuple(black))])[0]
    names = Encoder.for_rules(rules).names()
    got = dict(zip(names, x.tolist(), strict=True))
    assert got["me_blocks"] == pytest.approx(7 / 12)  # and his 12, White's talon
    assert got["me_run"] == pytest.approx(1.0)  # his 18..23; his 12 stands apart
    assert got["me_blocked_dice"] == pytest.approx(1.0)
    assert got["me_rear"] == pytest.approx(1.0)
    assert got["him_blocks"] == pytest.approx(2 / 12) and got["him_run"] == pytest.approx(2 / 6)
    assert got["him_blocked_dice"] == 0
    assert got["me_pips"] == pytest.approx((sum(range(6, 12)) + 9 * 24) / 360)
