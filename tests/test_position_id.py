"""Position IDs: GNU Backgammon's encoding, the player not on roll first."""

import base64
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from notation import InvalidPositionError, Position, rule_set
from notation.engine.position_id import decode, encode, ids_from_bits, position_ids, side_bits
from notation.engine.rules import NAMES
from notation.tree.generate import random_game

from .conftest import load_jsonl


def test_start_of_jacquet_is_the_briefs_id(jacquet):
    assert encode(jacquet.start) == "AACA/z8AAID/Pw"


def test_start_of_backgammon_is_gnubgs_id(backgammon):
    assert encode(backgammon.start) == "4HPwATDgc/ABMA"


def test_player_not_on_roll_is_encoded_first():
    # Only the player on roll has a man on the bar: gnubg puts his 25-bit block second.
    position = Position.from_points({25: 1, 6: 14}, {6: 15})
    decoded = decode(encode(position))
    assert decoded.mover[25] == 1 and decoded.opponent[25] == 0
    assert encode(position.swapped()) != encode(position)


@pytest.mark.parametrize("vector", load_jsonl("legal_plays_500_real_positions.jsonl")[:100],
                         ids=lambda v: v["posid"])
def test_real_ids_decode_and_encode_back(vector):
    assert encode(decode(vector["posid"])) == vector["posid"]


@pytest.mark.parametrize("bad", ["", "AACA/z8AAID/P", "AACA/z8AAID/Pw=", "!!!!!!!!!!!!!!",
                                 "//////////////"])
def test_malformed_ids_are_invalid(bad):
    with pytest.raises(InvalidPositionError):
        decode(bad)


@st.composite
def positions(draw):
    sides = []
    for _ in range(2):
        points = draw(st.lists(st.integers(1, 25), max_size=15))
        counts = {}
        for p in points:
            counts[p] = counts.get(p, 0) + 1
        sides.append(counts)
    return Position.from_points(*sides)


@given(positions())
def test_encode_decode_round_trip(position):
    position_id = encode(position)
    assert len(position_id) == 14
    assert decode(position_id) == position


def bit_by_bit(position: Position) -> str:
    """The ID as the format describes it, one bit at a time (a reference for ``encode``)."""
    bits = []
    for side in (position.opponent, position.mover):
        for point in range(1, 26):
            bits += [1] * side[point] + [0]
    raw = bytes(sum(bit << (i % 8) for i, bit in enumerate(bits[start:start + 8]))
                for start in range(0, 80, 8))
    return base64.b64encode(raw).decode("ascii")[:14]


@given(positions())
def test_encode_is_the_bit_by_bit_layout(position):
    assert encode(position) == bit_by_bit(position)


@given(st.lists(positions(), max_size=12))
def test_ids_converted_together_are_each_ones_id(many):
    bits = [side_bits(p.mover) + side_bits(p.opponent) for p in many]
    assert ids_from_bits(bits) == [bit_by_bit(p) for p in many]


@given(st.lists(positions(), max_size=12))
def test_ids_of_many_positions_are_each_ones_id(many):
    assert position_ids(many) == [bit_by_bit(p) for p in many]


@pytest.mark.parametrize("variant", NAMES)
def test_ids_of_a_games_positions_are_each_nodes_id(variant):
    """Every node of an annotated game (variations included), in any order."""
    game = random_game(rule_set(variant), random.Random(f"ids:{variant}"), annotate=True, max_turns=300)
    nodes = [game, *game.descendants()]
    assert len(nodes) > 20
    random.Random(variant).shuffle(nodes)
    positions = [node.state.position for node in nodes]
    assert position_ids(positions) == [bit_by_bit(position) for position in positions]
