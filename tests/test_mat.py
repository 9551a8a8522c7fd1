"""Reading .mat match files: the real exports' dialects, the edge cases, and the whole
real corpus against GNU Backgammon's counts (tests/data/SOURCE.md for the files)."""

import csv
import io

import pytest
from click.testing import CliRunner

from jacquet_cli import main
from notation.engine.state import RESIGN, ROLL
from notation.formats.jqn import GameBuilder, read_games, write_game
from notation.formats.mat import games_of, read_mat
from notation.formats.mat.parser import parse_mat
from notation.formats.mat.writer import left_out, write_mat
from notation.messages import render

from .conftest import DATA, SHARED

MAT = DATA / "mat"
CORPUS = SHARED / "backgammon"


def mat_tags(text):
    """The header lines of a .mat text, ``; [Name "value"]``."""
    return [line for line in text.splitlines() if line.startswith("; [")]


def through_jqn(games):
    """Games written in the text notation, read back and written as .mat: that text, and
    its games read back."""
    jqn = "\n".join(write_game(game) for game in games)
    text = write_mat(list(read_games(io.BytesIO(jqn.encode("utf-8")), GameBuilder)))
    return text, games_of(parse_mat(text), "-")


def rolls(games):
    """Move records as GNU Backgammon counts them: every roll with its play."""
    return sum(1 for game in games for node in game.mainline() if node.turn.kind == ROLL)


def test_galaxy_match_reads_whole():
    games = read_mat(MAT / "match10013413.mat")
    assert len(games) == 5 and not any(g.errors for g in games)
    assert rolls(games) == 205
    first = games[0]
    assert first.headers["White"] == "lasse" and first.headers["Black"] == "mglough"
    assert first.headers["MatchLength"] == "5"
    assert first.headers["Result"] == "W+1"  # doubled, dropped
    scores = [g.headers["Score"] for g in games]
    assert scores[0] == "0-0" and scores[1] == "1-0"


def test_studio_dialect_bar_off_hits_repeats_and_cannot_move():
    games = read_mat(MAT / "BoardLord_-_Llabba_7pt_Backgammon_Studio_2023_08_09_18_11_07.mat")
    assert len(games) == 3 and not any(g.errors for g in games)
    assert rolls(games) == 141


def test_gnubg_reexport_reads_to_the_same_games():
    studio = read_mat(MAT / "BoardLord_-_Llabba_7pt_Backgammon_Studio_2023_08_09_18_11_07.mat")
    gnubg = read_mat(MAT / "gnubg-reexport-BoardLord_-_Llabba_7pt.mat")
    assert [g.headers["Result"] for g in gnubg] == [g.headers["Result"] for g in studio]
    for a, b in zip(studio, gnubg, strict=False):
        ends_a = [n.state.position for n in a.mainline()]
        ends_b = [n.state.position for n in b.mainline()]
        assert ends_a == ends_b


def test_empty_player_name_is_read():
    [game] = read_mat(MAT / "match8320876.mat")
    assert not game.errors
    assert game.headers["White"] == "" and game.headers["Black"] == "lasse"


def test_repeated_move_number_in_the_right_column_is_skipped():
    games = read_mat(MAT / "match2900236.mat")
    assert not any(g.errors for g in games)


@pytest.mark.parametrize("column, actions", [
    ("52: 13/8 13/11 61: 13/7 8/7", [("roll", "52", "13/8 13/11"), ("roll", "61", "13/7 8/7")]),
    ("52: 25/23 6/off* Doubles => 2", [("roll", "52", "25/23 6/off*"), ("double", None, None)]),
    ("52: 13/8 13/11 2) 61: 13/7", [("roll", "52", "13/8 13/11"), ("roll", "61", "13/7")]),
    ("52: Cannot   Move Takes", [("roll", "52", "-"), ("take", None, None)]),
    ("52: ???? Wins 2 points", [("roll", "52", None), ("wins", None, None)]),
    ("52: 13/8 123/4 1/ 8/3", [("roll", "52", "13/8 123/4 1/ 8/3")]),
])
def test_a_play_ends_at_a_word_that_starts_another_action(column, actions):
    match = parse_mat(f" Game 1\n a : 0   b : 0\n  1) {column}\n")
    assert [(a.kind, a.dice, a.play) for a in match.games[0].actions] == actions


def test_roll_then_resign_and_bogus_wins_value_are_kept_with_a_warning():
    games = read_mat(MAT / "Minchy_-_Llabba_13pt_Backgammon_Studio_2023_02_24_19_44_27.mat")
    assert not any(g.errors for g in games)
    last = games[-1]
    end = last.end()
    assert end.turn.kind == RESIGN and "rolled 21, then resigned" in end.comments
    [warning] = last.warnings
    assert warning.severity == "warning" and "4016" in warning.message
    assert str(warning).startswith(f"{MAT / 'Minchy_-_Llabba_13pt_Backgammon_Studio_2023_02_24_19_44_27.mat'}:220:")


def test_wins_capped_at_the_match_length_is_a_dialect_quirk():
    games = read_mat(MAT / "match1209610.mat")
    assert not any(g.errors for g in games) and not any(g.warnings for g in games)
    assert games[-1].headers["Result"] == "B+4"  # the game is worth 4; the match needed 1


@pytest.mark.parametrize("name, line, column, rule", [
    ("illegal_dice_mismatch_13-10_with_21.mat", 19, 10, "R-DICE"),  # the play as a whole: its first move
    ("illegal_not_maximal_21_played_as_13-11.mat", 19, 10, "R-MAX"),
    ("impossible_move_from_empty_point.mat", 18, 44, "R-EMPTY"),  # 51: 24/23 12/7: at 12/7
])
def test_edge_cases_name_game_line_and_rule(name, line, column, rule):
    games = read_mat(MAT / name)
    errors = [e for g in games for e in g.errors]
    assert len(errors) == 1  # the games after the broken one are read normally
    [error] = errors
    assert (error.game, error.line, error.column, error.rule_id) == (1, line, column, rule)
    result = CliRunner().invoke(main, ["validate", str(MAT / name)])
    assert result.exit_code == 1
    assert f":{line}:{column}: error: [{rule}] game 1, turn" in result.stdout


def test_a_wrong_score_line_is_an_error(tmp_path):
    text = (MAT / "match10013413.mat").read_text(encoding="utf-8")
    broken = tmp_path / "wrong-score.mat"
    broken.write_text(text.replace(" lasse : 1                       mglough : 0",
                                   " lasse : 2                       mglough : 0", 1), encoding="utf-8")
    errors = [e for g in read_mat(broken) for e in g.errors]
    assert [e.rule_id for e in errors] == ["R-MATCH"]
    assert errors[0].game == 2 and "1-0" in errors[0].message


def test_validate_real_local_files_exits_0():
    files = [str(p) for p in sorted(MAT.glob("*.mat")) if not p.name.startswith(("illegal", "impossible"))]
    result = CliRunner().invoke(main, ["validate", *files])
    assert result.exit_code == 0, result.stdout


def manifest():
    with open(CORPUS / "MANIFEST.tsv", encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


@pytest.mark.long  # the whole real corpus: 1,400 matches
@pytest.mark.skipif(not (CORPUS / "MANIFEST.tsv").exists(), reason="shared data corpus absent")
def test_whole_real_corpus_validates_and_agrees_with_gnubgs_counts():
    """Every real file reads with no error; games and moves equal GNU Backgammon's counts
    except where the manifest notes a gnubg quirk: it crashes on an empty player name
    (counting nothing), and it reads a few `Losses` lines as one more record."""
    rows = manifest()
    assert len(rows) == 1422
    for row in rows:
        games = read_mat(CORPUS / row["file"])
        assert not [e for g in games for e in g.errors], row["file"]
        assert games[0].headers["MatchLength"] == row["match_length"]
        if "crash" in row["notes"]:
            continue
        assert len(games) == int(row["games_per_gnubg"]), row["file"]
        extra = int(row["move_records_per_gnubg"]) - rolls(games)
        assert extra == 0 or (extra == 1 and "Losses-line" in row["notes"]), row["file"]


def test_mat_tag_names_become_tag_names_of_the_other_formats(tmp_path):
    path = tmp_path / "tags.mat"
    path.write_text('; [Player 1 Rating "1800"]\n; [Event-Name "Club night"]\n; [123 "x"]\n\n'
                    ' 1 point match\n\n Game 1\n A : 0                              B : 0\n'
                    '  1) 31: 8/5 6/5\n', encoding="utf-8")
    [game] = read_mat(path)
    assert game.headers["Player1Rating"] == "1800" and game.headers["EventName"] == "Club night"
    assert "123" not in game.headers
    assert write_game(game)  # every name can be written in the text notation


def test_mat_writer_puts_a_tag_with_a_line_break_on_one_line(tmp_path):
    games = read_mat(MAT / "match8320876.mat")
    for game in games:
        game.headers["White"] = "Line1\nLine2"
        game.headers["Event"] = "Club\r\nnight"
    path = tmp_path / "out.mat"
    path.write_text(write_mat(games), encoding="utf-8")
    back = read_mat(path)
    assert len(back) == len(games) and not any(game.errors for game in back)
    assert back[0].headers["White"] == "Line1 Line2" and back[0].headers["Event"] == "Club night"


@pytest.mark.parametrize("name", ["match1574327.mat",
                                  "BoardLord_-_Llabba_7pt_Backgammon_Studio_2023_08_09_18_11_07.mat"])
def test_a_real_header_keeps_every_tag_through_the_text_notation(name):
    """Backgammon Galaxy's header (Elo, Variation, Unrated, Crawford, CubeLimit) and
    Backgammon Studio's (Event, Round, ClockType) are written again line for line, under
    their .mat names, and read back to the same tags."""
    games = read_mat(MAT / name)
    text, back = through_jqn(games)
    assert mat_tags(text) == mat_tags((MAT / name).read_text(encoding="utf-8"))
    assert [game.headers for game in back] == [game.headers for game in games]
    assert left_out(games) is None


def test_tags_a_mat_cannot_hold_are_named_in_the_note():
    """A tag the reader would read under another name has no .mat name; a tag a later
    game gives another value than the first has no place (the header is the match's)."""
    games = read_mat(MAT / "match10013413.mat")
    for game in games:
        game.headers["EventDate"] = "2024.08.05"  # read back as Date
        game.headers["Variation"] = "Nackgammon"  # read as no tag: the rules are backgammon
    games[1].headers["Round"] = "2"
    games[2].headers["Date"] = "2024.08.05"
    assert render(left_out(games), "en") == (
        "tags with no .mat name left out: EventDate, Variation; a .mat header holds the first "
        "game's tags: the other games' Date, Round left out")
    text = write_mat(games)
    assert mat_tags(text).count('; [EventDate "2024.08.04"]') == 1
    assert '; [Variation "Backgammon"]' in mat_tags(text) and "Round" not in text


def test_long_player_names_keep_the_score_line_readable(tmp_path):
    games = read_mat(MAT / "match8320876.mat")
    for game in games:
        game.headers["White"] = "Jean-Baptiste de la Rochefoucauld"
    path = tmp_path / "long.mat"
    path.write_text(write_mat(games), encoding="utf-8")
    back = read_mat(path)
    assert not any(game.errors for game in back)
    assert back[0].headers["White"] == "Jean-Baptiste de la Rochefoucauld"


@pytest.mark.long  # the whole real corpus: 1,400 matches
@pytest.mark.skipif(not (CORPUS / "MANIFEST.tsv").exists(), reason="shared data corpus absent")
def test_every_real_match_converts_to_records_that_validate_with_the_same_results():
    """Read as .mat, written in the text notation, XML and JSON, read back: no error, and
    the same results and scores (resignations by either side, adjudicated wins included)."""
    from notation.formats import render
    from notation.formats.jqn import GameBuilder, read_games
    from notation.formats.json_format import loads as json_loads
    from notation.formats.xml_format import loads as xml_loads
    from notation.tree.matches import checked_scores
    for row in manifest():
        games = read_mat(CORPUS / row["file"])
        expected = [(g.headers["Result"], g.headers["Score"], g.end().state.points) for g in games]
        for fmt, load in (("jqn", lambda text: read_games(io.BytesIO(text.encode()), GameBuilder)),
                          ("xml", lambda text: xml_loads(text.encode())), ("json", json_loads)):
            back = list(checked_scores(load(render(games, fmt)), row["file"]))
            assert not [e for g in back for e in g.errors], (row["file"], fmt)
            assert [(g.headers["Result"], g.headers["Score"], g.end().state.points) for g in back] == expected


@pytest.mark.long  # the whole real corpus: 1,400 matches
@pytest.mark.skipif(not (CORPUS / "MANIFEST.tsv").exists(), reason="shared data corpus absent")
def test_every_real_match_keeps_its_header_through_the_text_notation():
    """.mat, then the text notation, then .mat again: the same header lines, read back to
    the same tags, for every real file."""
    for row in manifest():
        games = read_mat(CORPUS / row["file"])
        text, back = through_jqn(games)
        assert mat_tags(text) == mat_tags((CORPUS / row["file"]).read_text(encoding="utf-8")), row["file"]
        assert [game.headers for game in back] == [game.headers for game in games], row["file"]
