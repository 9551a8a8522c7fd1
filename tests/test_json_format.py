"""The game JSON written straight to text is the one ``json.dumps`` makes of the dict."""

import json

import pytest

from notation.game import Game
from notation.json_format import game_json, game_to_dict

from .game_samples import sample_games


@pytest.mark.parametrize("game", sample_games("json"), ids=lambda game: game.rules.name)
def test_game_json_is_the_dicts_json(game):
    assert game_json(game) == json.dumps(game_to_dict(game), ensure_ascii=False)


def test_game_json_of_a_game_without_turns(jacquet):
    game = Game(jacquet, headers={"Event": 'A "quoted" name'})
    assert game_json(game) == json.dumps(game_to_dict(game), ensure_ascii=False)
