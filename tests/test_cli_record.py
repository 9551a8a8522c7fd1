"""``jacquet record``: a game typed turn by turn in the terminal, refusals with their rule,
the record written at the end (or when the scorer quits) and stored in the archive."""

import datetime

from click.testing import CliRunner

import archive
from jacquet_cli import main
from notation.formats import read_file
from notation.messages import say

SHORT_GAME = "\n".join(["", "8/5 6/5", "62", "24/10", "24/18 13/11", "comment a split", "nag 1",
                        "double", "drop"]) + "\n"


def run(args, typed):
    return CliRunner().invoke(main, ["record", *args], input=typed)


def test_a_game_typed_in_the_terminal_is_written_and_stored(tmp_path):
    out, db = tmp_path / "game.jqn", tmp_path / "club.db"
    result = run(["--variant", "backgammon", "--white", "Ann", "--black", "Bob", "--lead-roll", "W3 B1",
                  "-o", str(out), "--db", str(db)], SHORT_GAME)
    assert result.exit_code == 0, result.output
    assert say("cli.refused.rule", rule="R-DICE", reason="") in result.stderr
    assert say("cli.legal-plays", plays="") in result.stderr  # then the plays
    [game] = list(read_file(out))
    assert not game.errors and game.result == "W+1"
    assert [n.turn.kind for n in game.mainline()] == ["roll", "roll", "double", "drop"]
    assert list(game.mainline())[1].comments == ["a split"] and list(game.mainline())[1].nags == [1]
    with archive.open_archive(db, readonly=True) as stored:
        assert archive.search(stored, archive.Query(player="Bob"))[1] == 1


def test_plays_chosen_by_number_and_undo_keeps_the_dice(tmp_path):
    out = tmp_path / "game.jqn"
    typed = "\n".join(["64", "1", "undo", "53", "1", "quit"]) + "\n"
    result = run(["--first", "White", "-o", str(out)], typed)
    assert result.exit_code == 0, result.output
    assert say("cli.record.taken-back.again", player=say("colour.white"), dice="64") in result.output
    assert say("cli.refused", reason=say("cli.record.choose", most=1)) in result.stderr  # 53: the dice stood
    assert "unfinished game written" in result.output
    [game] = list(read_file(out))
    [turn] = game.mainline()
    assert str(turn.turn.dice) == "64" and str(turn.turn.play) == "24/14" and game.result == "*"


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


BOARD_TOP = " 13  14  15  16  17  18 |"


def test_each_side_keeps_its_letter_and_the_board_is_drawn_when_it_changes(tmp_path):
    typed = "\n".join(["64", "hello", "help", "1", "53", "1", "quit"]) + "\n"
    result = run(["--first", "White", "-o", str(tmp_path / "game.jqn")], typed)
    assert result.exit_code == 0, result.output
    boards = result.output.split(BOARD_TOP)[1:]
    assert len(boards) == 5  # White to roll, White's plays, Black to roll, Black's plays, White to roll
    assert all("X" not in board.split("\n  1.")[0] and " O" not in board for board in boards)
    assert "W15" in boards[0] and "B15" in boards[0] and "W14" in boards[2] and "B15" in boards[2]
    assert say("cli.board.legend", player=say("colour.black")) in boards[2]
    assert say("play.not-a-move", token="'hello'") in result.stderr
    assert result.output.count("Commands: ") == 2  # at the start and for help, not read as dice
    assert "help" not in result.stderr


def test_comments_and_marks_are_confirmed(tmp_path):
    typed = "\n".join(["64", "1", "comment  a fine  start", "nag 1", "nag 99", "quit"]) + "\n"
    result = run(["--first", "White", "-o", str(tmp_path / "game.jqn")], typed)
    assert say("cli.record.comment-added", node="1. 64", comment="{a fine start}") in result.output
    assert say("cli.record.mark-added", glyph="!", number=1, node="1. 64") in result.output
    refused = say("cli.refused", reason=say("cli.record.no-mark", mark="'99'", marks="MARKS")).split("MARKS")[0]
    assert refused in result.stderr  # the marks known listed after


def test_the_output_is_never_written_over(tmp_path):
    out = tmp_path / "recorded.jqn"
    out.write_text("kept\n", encoding="utf-8")
    result = run(["--first", "White", "-o", str(out)], "64\n1\nquit\n")
    assert result.exit_code == 2 and "exists and is never written over" in result.output + result.stderr
    assert out.read_text(encoding="utf-8") == "kept\n"


def test_append_adds_the_game_to_the_match_record(tmp_path):
    for name in ("match.jqn", "match.json"):
        out = tmp_path / name
        first = run(["--variant", "backgammon", "--lead-roll", "W3 B1", "-o", str(out)], SHORT_GAME)
        assert first.exit_code == 0, first.output
        before = out.read_text(encoding="utf-8")
        second = run(["--variant", "backgammon", "--lead-roll", "W6 B2", "-o", str(out), "--append"],
                     "\n24/18 13/11\nresign 1\n")
        assert second.exit_code == 0, second.output
        assert say("cli.record.appended", result="W+1", path=str(out)) in second.output
        if name.endswith(".jqn"):
            assert out.read_text(encoding="utf-8").startswith(before)  # the file's text kept
        games = list(read_file(out))
        assert [game.result for game in games] == ["W+1", "W+1"] and not any(g.errors for g in games)


def test_append_refuses_a_record_that_does_not_read_back(tmp_path):
    out = tmp_path / "match.jqn"
    out.write_text('[Variant "jacquet"]\n\n1. 64: 24/10 *\n', encoding="utf-8")
    result = run(["--first", "White", "-o", str(out), "--append"], "quit\n")
    assert result.exit_code == 2 and "does not read back as a valid record" in result.output + result.stderr


def test_the_record_is_dated_today_or_on_the_day_given(tmp_path):
    before = datetime.date.today()
    result = run(["--first", "White", "-o", str(tmp_path / "today.jqn")], "64\n1\nquit\n")
    after = datetime.date.today()
    assert result.exit_code == 0, result.output
    [game] = list(read_file(tmp_path / "today.jqn"))
    assert game.headers["Date"] in {f"{day:%Y.%m.%d}" for day in (before, after)}  # as 2026.12.05
    assert '[Date "' in (tmp_path / "today.jqn").read_text(encoding="utf-8")
    result = run(["--first", "White", "--date", "1898.01.12", "-o", str(tmp_path / "old.jqn")], "quit\n")
    assert result.exit_code == 0, result.output
    [old] = list(read_file(tmp_path / "old.jqn"))
    assert old.headers["Date"] == "1898.01.12"
    result = run(["--first", "White", "--date", "12/01/1898", "-o", str(tmp_path / "bad.jqn")], "")
    assert result.exit_code == 2 and "12/01/1898" in result.output + result.stderr
    assert not (tmp_path / "bad.jqn").exists()


def test_the_board_shows_the_cube_taken(tmp_path):
    """After a double taken, the terminal board (the recorder's and ``jacquet play``'s)
    shows the cube at 2 with its owner, as the record has it."""
    typed = "\n".join(["", "8/5 6/5", "62", "24/18 13/11", "double", "take", "board", "quit"]) + "\n"
    result = run(["--variant", "backgammon", "--lead-roll", "W3 B1", "-o", str(tmp_path / "g.jqn")], typed)
    assert result.exit_code == 0, result.output
    cubes = [2 ** n for n in range(7)]  # every cube line the diagram may print, as the catalog says it
    said = {say("diagram.cube.middle", cube=c) for c in cubes} | {
        say("diagram.cube.owned", cube=c, owner=o) for c in cubes for o in "WB"}
    boards = [line for line in result.output.splitlines() if line in said]
    assert boards[0] == say("diagram.cube.middle", cube=1)
    assert boards[-1] == say("diagram.cube.owned", cube=2, owner="B")


def test_the_commands_name_the_cube_only_where_the_rules_have_one(tmp_path):
    """Jacquet has no doubling cube: its scorer is not offered double, take and drop;
    backgammon's is, and so is a narde game played with the cube (``-O cube=true``)."""
    offered = {}
    for name, args in (("jacquet", []), ("backgammon", ["--variant", "backgammon"]),
                       ("narde with a cube", ["--variant", "narde", "-O", "cube=true"])):
        result = run([*args, "--first", "White", "-o", str(tmp_path / f"{len(offered)}.jqn")], "quit\n")
        assert result.exit_code == 0, result.output
        offered[name] = "double, take, drop" in result.output
    assert offered == {"jacquet": False, "backgammon": True, "narde with a cube": True}
