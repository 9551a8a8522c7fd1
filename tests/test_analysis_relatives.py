"""`jacquet analyse` on the living relatives' sample games, with their shipped nets and the
default confirmation: every turn of the record judged, the play made among the ranked
candidates, the engine and the level named for the rule set (issue 32, "jacquet analyse and
the viewer's analysis work on their games")."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from analysis.shipped import load_net
from jacquet_cli import main
from notation import rule_set
from notation.formats import read_file


@pytest.mark.parametrize("variant", ["narde", "fevga"])
def test_the_sample_game_is_analysed_turn_by_turn(variant):
    path = f"samples/{variant}/annotated-game.jqn"
    game = next(iter(read_file(path)))
    result = CliRunner().invoke(main, ["analyse", path, "--json", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    analysis = json.loads(result.stdout)
    engine = load_net(variant).name  # the shipped net's: jacquet-td narde v2 + race r2, fevga's v7
    assert analysis["variant"] == variant and analysis["engine"].startswith(engine)
    doubtful = rule_set(variant).marks[0]
    turns = analysis["turns"]
    assert [turn["ply"] for turn in turns] == list(range(1, game.end().ply + 1))
    for turn in turns:
        assert turn["legal"] >= 1 and turn["level"].startswith(engine)
        assert turn["played"] in [candidate["play"] for candidate in turn["candidates"]]
        assert turn["loss"] >= 0 and (turn["mark"] is None) == (turn["loss"] < doubtful or turn["forced"])
