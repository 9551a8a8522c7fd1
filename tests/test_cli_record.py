"""``jacquet record``: a game typed turn by turn in the terminal, refusals with their rule,
the record written at the end (or when the scorer quits) and stored in the archive."""

from click.testing import CliRunner

import archive
from jacquet_cli import main
from notation.formats import read_file

SHORT_GAME = "\n".join(["", "8/5 6/5", "62", "24/10", "24/18 13/11", "comment a split", "nag 1",
                        "double", "drop"]) + "\n"


def run(args, typed):
    return CliRunner().invoke(main, ["record", *args], input=typed)


def test_a_game_typed_in_the_terminal_is_written_and_stored(tmp_path):
    out, db = tmp_path / "game.jqn", tmp_path / "club.db"
    result = run(["--variant", "backgammon", "--white", "Ann", "--black", "Bob", "--lead-roll", "W3 B1",
                  "-o", str(out), "--db", str(db)], SHORT_GAME)
    assert result.exit_code == 0, result.output
    assert "refused: [R-DICE]" in result.stderr and "legal plays: " in result.stderr
    [game] = list(read_file(out))
    assert not game.errors and game.result == "W+1"
    assert [n.turn.kind for n in game.mainline()] == ["roll", "roll", "double", "drop"]
    assert list(game.mainline())[1].comments == ["a split"] and list(game.mainline())[1].nags == [1]
    with archive.open_archive(db, readonly=True) as stored:
        assert archive.search(stored, archive.Query(player="Bob"))[1] == 1


def test_plays_chosen_by_number_and_undo(tmp_path):
    out = tmp_path / "game.jqn"
    typed = "\n".join(["64", "1", "undo", "53", "9", "1", "quit"]) + "\n"
    result = run(["--first", "White", "-o", str(out)], typed)
    assert result.exit_code == 0, result.output
    assert "refused: choose a play from 1 to" in result.stderr
    assert "unfinished game written" in result.output
    [game] = list(read_file(out))
    assert [str(n.turn.dice) for n in game.mainline()] == ["53"] and game.result == "*"


def test_the_record_so_far_is_kept_when_the_input_ends(tmp_path):
    out = tmp_path / "game.jqn"
    result = run(["--first", "Black", "-o", str(out), "--seed", "3"], "\n1\n")
    assert result.exit_code == 0, result.output
    [game] = list(read_file(out))
    assert len(list(game.mainline())) == 1 and game.first.title == "Black"


def test_a_bad_lead_roll_is_a_usage_error(tmp_path):
    result = run(["--lead-roll", "W9 B1", "-o", str(tmp_path / "x.jqn")], "")
    assert result.exit_code == 2 and "W9 B1" in result.output + result.stderr


def test_an_output_that_cannot_hold_the_game_is_refused_before_it_starts(tmp_path):
    for name in ("game.pgn", "game.mat"):
        result = run(["--first", "White", "-o", str(tmp_path / name)], "64\n")
        assert result.exit_code == 2 and "--output" in result.output + result.stderr
        assert not (tmp_path / name).exists()


def test_odd_numbers_typed_are_refused_not_a_traceback(tmp_path):
    out = tmp_path / "game.jqn"
    result = run(["--first", "White", "-o", str(out)], "nag ²\nresign ²\n²\nquit\n")
    assert result.exit_code == 0, result.output
    assert result.exception is None and "refused" in result.stderr
