"""``jacquet record`` and ``jacquet play`` at ``narde`` and ``fevga`` (issue 32): the rule
set chosen with ``--variant`` and its options with ``-O`` (written in the record's
``Options`` tag), a second man off the head refused with its rule and the legal plays,
narde's cube with ``cube=true``, the engine's shipped net answering."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from analysis.shipped import load_net
from jacquet_cli import main
from notation.formats import read_file
from notation.messages import say


def run(command: str, args: list[str], typed: str):
    return CliRunner().invoke(main, [command, *args], input=typed)


def test_a_narde_game_recorded_with_a_refusal_and_the_cube(tmp_path):
    out = tmp_path / "narde.jqn"
    typed = "\n".join(["53", "24/19 24/21", "24/16", "44", "24/16(2)", "double", "take", "quit"]) + "\n"
    result = run("record", ["--variant", "narde", "-O", "cube=true", "--lead-roll", "W4 B3",
                            "-o", str(out)], typed)
    assert result.exit_code == 0, result.output
    assert ("refused: [R-HEAD] 24/21 takes a second man off the head in this turn" in result.stderr
            and "(head_doublets=6-4-3)" in result.stderr)
    assert "legal plays: 24/16\n" in result.stderr  # worked case: one man, 24/16
    [game] = list(read_file(out))
    assert not game.errors
    assert game.headers["Variant"] == "narde" and game.headers["Options"] == "cube=true"
    assert [str(n.turn.play) if n.turn.play else n.turn.kind for n in game.mainline()] == \
           ["24/16", "24/16(2)", "double", "take"]


def test_a_fevga_record_keeps_its_reading_and_a_wrong_option_is_refused(tmp_path):
    out = tmp_path / "fevga.jqn"
    typed = "\n".join(["31", "24/21 24/23", "24/20", "quit"]) + "\n"
    result = run("record", ["--variant", "fevga", "-O", "prime=sixblock", "--first", "White",
                            "-o", str(out)], typed)
    assert result.exit_code == 0, result.output
    assert "refused: [R-RUNNER] 24/23 takes a second man off the head while the runner" in result.stderr
    [game] = list(read_file(out))
    assert game.headers["Options"] == "prime=sixblock" and game.rules.options == {"prime": "sixblock"}
    refused = run("record", ["--variant", "fevga", "-O", "prime=never", "-o", str(tmp_path / "x.jqn")], "")
    assert refused.exit_code == 2 and "prime is 'unblock' or 'sixblock'" in refused.output
    assert not (tmp_path / "x.jqn").exists()


@pytest.mark.parametrize("variant", ["narde", "fevga"])
def test_some_turns_against_the_shipped_net(tmp_path, variant):
    out = tmp_path / f"{variant}.jqn"
    result = run("play", ["--variant", variant, "--seed", "4", "-o", str(out)], "\n1\n" * 6 + "quit\n")
    assert result.exit_code == 0, result.output
    assert f"against {load_net(variant).name}, 0-ply" in result.output  # the shipped engine, named
    [game] = list(read_file(out))
    assert not game.errors and game.headers["Variant"] == variant
    assert len(list(game.mainline())) >= 12  # six turns of mine, six answers (and perhaps a first)


def test_the_engine_answers_a_double_in_narde_with_the_cube(tmp_path):
    out = tmp_path / "cube.jqn"
    result = run("play", ["--variant", "narde", "-O", "cube=true", "--side", "Black", "--seed", "3",
                          "-o", str(out)], "double\nquit\n")
    assert result.exit_code == 0, result.output
    assert "takes" in result.output or "drops" in result.output
    [game] = list(read_file(out))
    assert [n.turn.kind for n in game.mainline()][-2:] in (["double", "take"], ["double", "drop"])
    without = run("play", ["--variant", "narde", "--side", "Black", "--seed", "3",
                           "-o", str(tmp_path / "none.jqn")], "double\nquit\n")
    assert say("cli.refused.rule", rule="R-CUBE", reason=say("cube.none", rules="narde")) in without.stderr
