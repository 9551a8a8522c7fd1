"""The game JSON written straight to text is the one ``json.dumps`` makes of the dict; pip
counts worked out turn by turn are those of the positions."""

import json

import pytest

from archive.rows import game_from_record
from notation.board import BAR, OFF
from notation.game import Game
from notation.json_format import game_to_json, game_to_dict
from notation.state import pips_after
from webviewer.views import GameView

from .game_samples import sample_games


@pytest.mark.parametrize("game", sample_games("json"), ids=lambda game: game.rules.name)
def test_game_to_json_is_the_dicts_json(game):
    assert game_to_json(game) == json.dumps(game_to_dict(game), ensure_ascii=False)


def test_game_to_json_of_a_game_without_turns(jacquet):
    game = Game(jacquet, headers={"Event": 'A "quoted" name'})
    assert game_to_json(game) == json.dumps(game_to_dict(game), ensure_ascii=False)


ODD_RECORD = """[Event "Say \\"hi\\" \\\\ there \u00e9\u2028"]
[Site "<b>&amp;</b>"]
[Variant "jacquet"]
[Options "courier_release=next-turn bouchon=last-two"]
[Result "*"]

1. 65: 24/13 {a comment with \\} and \u0001} 51: 24/19 $3 2. 66: 24/12 24/18 *
"""


def test_game_to_json_of_a_game_with_an_error_odd_headers_and_options():
    game = game_from_record(ODD_RECORD)
    assert game.errors and game.rules.options and game.variations
    assert '"' in game.headers["Event"] and "\\" in game.headers["Event"]
    assert game_to_json(game) == json.dumps(game_to_dict(game), ensure_ascii=False)


def test_pips_after_a_turn_are_the_next_states():
    nodes = [node for game in sample_games("pips") for node in game.descendants()]
    steps = [step for node in nodes if node.turn.play for step in node.turn.play.steps]
    assert any(step.hit for step in steps) and any(step.from_point == BAR for step in steps)
    assert any(step.to_point == OFF for step in steps)
    assert {"double", "take", "drop", "resign", "passed"} <= {node.turn.kind for node in nodes}
    for node in nodes:
        opposite = node.root().rules.opposite
        assert pips_after(node.parent.state.pips(), node.turn, opposite) == node.state.pips()


@pytest.mark.parametrize("game", sample_games("view"), ids=lambda game: game.rules.name)
def test_the_pip_charts_counts_are_the_main_lines_positions(game):
    view = GameView(game)
    assert view.pips == tuple(view.nodes[index].pips() for index in view.mainline)
