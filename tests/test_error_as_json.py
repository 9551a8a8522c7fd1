"""An error as programs read it (``NotationError.as_dict``): the same keys whether a reader
found it in a record or a program made the game (``jacquet validate --json``, the JSON
export, the ``error`` of ``jacquet analyse --json`` and of the viewer's analyses)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from analysis.analyse import analyse_game
from analysis.network import Network
from analysis.ranking import Evaluator
from analysis.report import analysis_json
from analysis.threads import limit_blas_threads
from jacquet_cli import main
from notation import Dice, legal_plays, rule_set
from notation.engine.state import ROLL
from notation.errors import IllegalPlayError, InvalidDiceError, NotationError
from notation.formats import read_file
from notation.formats.json_writer import game_to_dict
from notation.messages import render
from notation.tree.game import Game

limit_blas_threads(1)
BROKEN = '[Variant "jacquet"]\n\n1. 64: 24/14 32: 24/19 2. 65: 14/9 *\n'


def _program_game() -> tuple[Game, IllegalPlayError]:
    """A game a program made: White's 64 played, then Black's 32 tried as 24/19 (the
    courier's rule refuses a second man), the refusal kept as the game's error."""
    game = Game(rule_set("jacquet"))
    node = game.add_turn(ROLL, Dice(6, 4), "24/14")
    with pytest.raises(IllegalPlayError) as refused:
        node.add_turn(ROLL, Dice(3, 2), "24/21 24/22")
    game.errors.append(refused.value)
    return game, refused.value


def _read_error(tmp_path) -> NotationError:
    record = tmp_path / "broken.jqn"
    record.write_text(BROKEN, encoding="utf-8")
    return next(iter(read_file(record))).errors[0]


def test_an_error_no_reader_placed_has_the_keys_of_a_record_s_error(tmp_path):
    game, error = _program_game()
    read = _read_error(tmp_path).as_dict()
    made = error.as_dict("fr")
    assert list(made) == list(read)
    assert (made["rule"], made["id"], made["params"]) == (error.rule_id, error.msg.id, error.msg.params)
    assert made["message"] == render(error.msg, "fr")
    assert (made["file"], made["line"], made["column"], made["game"], made["turn"]) == (None,) * 5
    end = game.end().state
    assert made["legal_plays"] == [str(play) for play in legal_plays(end.position, Dice(3, 2), game.rules)]
    assert made["legal_plays"]  # the rule's legal plays, where the position and dice are known


def test_an_error_that_knows_no_roll_gives_no_legal_plays():
    error = InvalidDiceError("dice 7")
    assert error.as_dict()["legal_plays"] == [] and error.as_dict()["rule"] == "SYNTAX"


def test_the_analysis_of_a_program_s_game_gives_its_error_as_a_record_s(tmp_path):
    game, error = _program_game()
    evaluator = Evaluator(Network.create("jacquet", 8, seed=3), game.rules)
    analysed = analysis_json(analyse_game(game, evaluator, luck=False), evaluator.outcomes.names)
    assert analysed["error"] == error.as_dict()
    assert analysed["error"]["legal_plays"] and set(analysed["error"]) == set(_read_error(tmp_path).as_dict())


def test_the_json_export_and_validate_give_an_error_the_same_way(tmp_path):
    game, error = _program_game()
    assert game_to_dict(game)["errors"] == [error.as_dict()]
    record = tmp_path / "broken.jqn"
    record.write_text(BROKEN, encoding="utf-8")
    [line] = CliRunner().invoke(main, ["validate", "--json", str(record)]).stdout.splitlines()
    assert json.loads(line)["errors"] == [_read_error(tmp_path).as_dict()]
