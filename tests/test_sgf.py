"""Reading GNU Backgammon SGF (GM[6]): the same games as the .mat they were made from."""

import glob

import pytest

from notation.errors import RecordError
from notation.formats.mat import read_mat
from notation.formats.sgf import read_sgf

from .conftest import DATA, SHARED

BOARDLORD = "BoardLord_-_Llabba_7pt_Backgammon_Studio_2023_08_09_18_11_07"


def rolls_and_results(games):
    return ([[n.state.position for n in g.mainline() if n.turn.kind == "roll"] for g in games],
            [g.headers["Result"] for g in games])


def test_sgf_reads_to_the_games_of_its_mat():
    sgf = read_sgf(DATA / "sgf" / f"{BOARDLORD}.sgf")
    mat = read_mat(DATA / "mat" / f"{BOARDLORD}.mat")
    assert not [e for g in sgf for e in g.errors]
    assert rolls_and_results(sgf) == rolls_and_results(mat)
    first = sgf[0]
    assert first.headers["White"] == "BoardLord" and first.headers["MatchLength"] == "7"
    assert first.headers["Score"] == "0-0" and sgf[1].headers["Score"] == "4-0"


def test_cube_actions_are_read():
    [game, *_] = read_sgf(DATA / "sgf" / f"{BOARDLORD}.sgf")
    kinds = [n.turn.kind for n in game.mainline()]
    assert kinds.count("double") == 2 and kinds.count("take") == 2
    assert game.end().state.cube == 4


def test_malformed_sgf_is_an_error_with_line_and_column(tmp_path):
    path = tmp_path / "bad.sgf"
    path.write_text("(;FF[4]GM[6]\n;W[51xwmh]\n;B[42qusu]\n", encoding="utf-8")
    [game] = read_sgf(path)
    [error] = game.errors
    assert isinstance(error, RecordError) and error.rule_id == "SYNTAX"
    assert (error.line, "never closed" in error.message) == (4, True)


def test_an_illegal_move_in_sgf_is_reported_at_its_node(tmp_path):
    path = tmp_path / "illegal.sgf"
    path.write_text("(;FF[4]GM[6]PW[a]PB[b]\n;W[51xwmh]\n;B[42qulp])\n", encoding="utf-8")
    [game] = read_sgf(path)
    [error] = game.errors
    assert error.line == 3 and error.rule_id.startswith("R-")


def test_unknown_and_analysis_properties_are_ignored(tmp_path):
    path = tmp_path / "analysed.sgf"
    path.write_text("(;FF[4]GM[6]PW[a]PB[b]XX[whatever]\n;W[51xwmh]A[0][xwmh E ver 3 0.5]DA[x]"
                    "C[a comment \\] with a bracket]\n;B[42qusu]LU[1]MR[0.1])\n", encoding="utf-8")
    [game] = read_sgf(path)
    assert not game.errors
    assert game.next().comments == ["a comment ] with a bracket"]


@pytest.mark.skipif(not (SHARED / "backgammon").exists(), reason="shared data corpus absent")
def test_every_gnubg_sgf_reads_like_its_original_mat():
    files = sorted(glob.glob(str(SHARED / "backgammon" / "gnubg-derived" / "sgf" / "*.sgf")))
    assert len(files) == 50
    for path in files:
        name = path.rsplit("/", 1)[1][:-4]
        [mat] = glob.glob(str(SHARED / "backgammon" / "real-mat" / "*" / f"{name}.mat"))
        sgf_games = read_sgf(path)
        assert not [e for g in sgf_games for e in g.errors], path
        assert rolls_and_results(sgf_games) == rolls_and_results(read_mat(mat)), path
    for path in glob.glob(str(SHARED / "backgammon" / "**" / "*.sgf"), recursive=True):
        assert not [e for g in read_sgf(path) for e in g.errors], path


def test_the_crawford_game_is_said_in_a_tag_that_every_format_keeps(tmp_path):
    from notation.formats.jqn import write_game
    path = tmp_path / "crawford.sgf"
    path.write_text("(;FF[4]GM[6]PW[a]PB[b]MI[length:3][game:2][ws:2][bs:0]RU[Crawford:CrawfordGame]\n"
                    ";W[51xwmh]\n;B[42qusu])\n", encoding="utf-8")
    [game] = read_sgf(path)
    assert not game.errors and game.state.crawford and game.headers["Crawford"] == "yes"
    assert '[Crawford "yes"]' in write_game(game)
