"""The game JSON written straight to text is the one ``json.dumps`` makes of the dict."""

import json

import pytest

from notation.board import BAR, OFF
from notation.game import Game
from notation.json_format import game_json, game_to_dict
from notation.state import pips_after

from .game_samples import sample_games


@pytest.mark.parametrize("game", sample_games("json"), ids=lambda game: game.rules.name)
def test_game_json_is_the_dicts_json(game):
    assert game_json(game) == json.dumps(game_to_dict(game), ensure_ascii=False)


def test_game_json_of_a_game_without_turns(jacquet):
    game = Game(jacquet, headers={"Event": 'A "quoted" name'})
    assert game_json(game) == json.dumps(game_to_dict(game), ensure_ascii=False)


def test_pips_after_a_turn_are_the_next_states():
    nodes = [node for game in sample_games("pips") for node in game.descendants()]
    steps = [step for node in nodes if node.turn.play for step in node.turn.play.steps]
    assert any(step.hit for step in steps) and any(step.from_point == BAR for step in steps)
    assert any(step.to_point == OFF for step in steps)
    assert {"double", "take", "drop", "resign", "passed"} <= {node.turn.kind for node in nodes}
    for node in nodes:
        opposite = node.root().rules.opposite
        assert pips_after(node.parent.state.pips(), node.turn, opposite) == node.state.pips()
