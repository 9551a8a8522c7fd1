"""Backgammon legal plays against GNU Backgammon's own lists (tests/data/SOURCE.md)."""

import pytest

from notation import Dice, Position, legal_plays

from .conftest import load_jsonl

VECTORS = load_jsonl("opening_all_21_rolls.jsonl") + load_jsonl("legal_plays_500_real_positions.jsonl")


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: f"{v['posid']}-{v['dice'][0]}{v['dice'][1]}")
def test_resulting_positions_equal_gnubgs(vector, backgammon):
    position = Position.from_id(vector["posid"])
    plays = legal_plays(position, Dice(*vector["dice"]), backgammon)
    ours = {play.next_position.position_id() for play in plays}
    theirs = {move[2] for move in vector["moves"]}
    if not theirs:  # gnubg lists nothing when no die can be played; we list the empty play
        theirs = {position.swapped().position_id()}
        assert [str(play) for play in plays] == ["-"]
    assert ours == theirs
    assert len(plays) == len(ours)


def test_opening_counts_match_the_data_readme(backgammon):
    counts = {"31": 16, "11": 42, "22": 75}
    for dice, count in counts.items():
        assert len(legal_plays(backgammon.start, dice, backgammon)) == count
