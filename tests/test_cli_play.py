"""`jacquet play`: a whole game against the engine in the terminal, hints, the record."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from analysis.network import Network
from jacquet_cli import main
from notation.formats import read_file
from notation.messages import say


@pytest.fixture(scope="module")
def net_file(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("nets") / "jacquet.npz"
    Network.create("jacquet", 8, seed=2).save(path)
    return str(path)


def test_a_whole_game_against_the_engine_is_recorded(net_file, tmp_path):
    out = tmp_path / "game.jqn"
    moves = "\n1\n" * 400  # roll, then the first play offered, to the end
    result = CliRunner().invoke(main, ["play", "--seed", "3", "--net", net_file, "-o", str(out),
                                       "--name", "Ann"], input="hint\n" + moves)
    assert result.exit_code == 0, result.output
    assert "jacquet-td jacquet v2, 0-ply rolls" in result.output
    assert "roll first" in result.output  # the hint before the dice is refused clearly
    (game,) = list(read_file(out))
    assert not game.errors
    assert game.headers["White"] == "Ann" and game.headers["Black"] == "jacquet-td jacquet v2, 0-ply"
    assert game.result != "*" and game.headers["Result"] == game.result
    assert f"written to {out}" in result.output


def test_hints_rank_the_plays_of_the_roll(net_file, tmp_path):
    out = tmp_path / "hint.jqn"
    result = CliRunner().invoke(main, ["play", "--seed", "5", "--net", net_file, "-o", str(out)],
                                input="\nhint\nquit\n")
    assert result.exit_code == 0, result.output
    assert say("cli.play.equities-by", engine="jacquet-td jacquet v2, 0-ply") in result.output
    assert say("cli.play.unfinished", path=str(out)) in result.output
    assert next(iter(read_file(out))).result == "*"


def test_an_existing_record_is_never_overwritten(net_file, tmp_path):
    out = tmp_path / "kept.jqn"
    out.write_text("precious", encoding="utf-8")
    result = CliRunner().invoke(main, ["play", "--net", net_file, "-o", str(out)], input="quit\n")
    assert result.exit_code == 2 and "exists" in result.output
    assert out.read_text(encoding="utf-8") == "precious"


def test_the_engine_answers_a_double(tmp_path):
    net = tmp_path / "backgammon.npz"
    Network.create("backgammon", 8, seed=2).save(net)
    out = tmp_path / "cube.jqn"
    result = CliRunner().invoke(main, ["play", "--variant", "backgammon", "--side", "Black", "--seed", "1",
                                       "--net", str(net), "-o", str(out)], input="\n1\ndouble\nquit\n")
    assert result.exit_code == 0, result.output
    (game,) = list(read_file(out))
    kinds = [node.turn.kind for node in game.mainline()]
    answer = "take" if "takes" in result.output else "drop"
    assert answer in kinds and "double" in kinds
    assert "its winning chance" in result.output
    assert kinds.index("double") >= 2  # after the opening roll and the engine's reply
    assert game.headers["Black"] == "You" and game.headers["White"].startswith("jacquet-td backgammon")
