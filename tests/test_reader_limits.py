"""The readers' limits (``notation/limits.py``, ``docs/notation.md`` "Limits"): over each,
a ``LIMIT`` error at the file, line and column where it was crossed; in the text notation
an error of the game (the next game reads), in the formats read whole an error raised for
the file. Limits too large to reach cheaply are lowered with ``monkeypatch``; that the real
ones let real records through is shown by ``test_mat.py`` (the whole real corpus) and
``test_samples.py``.
"""

from __future__ import annotations

import pytest

from notation.errors import RecordError
from notation.formats import read_file
from notation.limits import LIMIT, MAX_DEPTH, MAX_LEAD_ROLLS, MAX_LINE_BYTES, MAX_PLAY_CHARS

GAME = b'[Event "next"]\n\n1. 53: 24/16 *\n'


def games(tmp_path, data: bytes, fmt: str = "jqn"):
    path = tmp_path / f"record.{fmt}"
    path.write_bytes(data)
    return list(read_file(path, fmt))


def raised(tmp_path, data: bytes, fmt: str) -> RecordError:
    with pytest.raises(RecordError) as caught:
        games(tmp_path, data, fmt)
    return caught.value


def only_error(game) -> RecordError:
    [error] = game.errors
    return error


def test_a_text_line_over_the_limit_is_an_error_of_its_game(tmp_path):
    first, second = games(tmp_path, b"1. 53: 24/16 {" + b"x" * MAX_LINE_BYTES + b"}\n\n" + GAME)
    error = only_error(first)
    assert (error.rule_id, error.line, error.column) == (LIMIT, 1, MAX_LINE_BYTES + 1)
    assert not second.errors and second.headers["Event"] == "next"


def test_a_text_game_over_the_limit_is_an_error_and_the_next_game_reads(tmp_path, monkeypatch):
    monkeypatch.setattr("notation.formats.jqn.reader.MAX_GAME_BYTES", 1000)
    first, second = games(tmp_path, b"1. 53: 24/16\n" + b"{a comment}\n" * 200 + GAME)
    error = only_error(first)
    assert (error.rule_id, error.line) == (LIMIT, 84) and "longer than 1000 bytes" in error.message
    assert not second.errors


def test_a_text_game_of_too_many_positions_is_an_error_at_the_turn(tmp_path, monkeypatch):
    monkeypatch.setattr("notation.limits.MAX_POSITIONS", 10)
    first, second = games(tmp_path, b"1. 53: 24/16" + b" (53: 24/16)" * 20 + b"\n\n" + GAME)
    error = only_error(first)
    assert (error.rule_id, error.line, error.column) == (LIMIT, 1, 15 + 12 * 8)  # 9th variation
    assert not second.errors


def test_variations_nested_past_the_limit_are_an_error(tmp_path):
    [game] = games(tmp_path, b"1. 53: 24/16 " + b"(" * (MAX_DEPTH + 1) + b"53: 24/16")
    error = only_error(game)
    assert (error.rule_id, error.column) == (LIMIT, 14 + MAX_DEPTH)


def test_a_nag_past_255_is_an_error(tmp_path):
    [game] = games(tmp_path, b"1. 53: 24/16 $255 21: 24/21 $256 *")
    error = only_error(game)
    assert (error.rule_id, error.column) == ("SYNTAX", 29) and "$256" in error.message


def test_a_play_over_the_limit_is_an_error_of_its_turn(tmp_path):
    [game] = games(tmp_path, b"1. 53: " + b"24/16 " * (MAX_PLAY_CHARS // 6 + 1) + b"*")
    error = only_error(game)
    assert (error.turn, error.column) == ("1. 53", 8) and "at most 256" in error.message  # at the play


def test_too_many_lead_rolls_are_an_error(tmp_path):
    lead = ", ".join(["W4 B4"] * MAX_LEAD_ROLLS + ["W5 B3"])
    [game] = games(tmp_path, f'[Variant "versailles"]\n[LeadRoll "{lead}"]\n\n*\n'.encode())
    assert (only_error(game).rule_id, only_error(game).line) == (LIMIT, 2)


RECORDS = {
    "json": b'[{"turns": [{"dice": "53", "play": "24/16"}, {"dice": "21", "play": "24/21"}]},'
            b' {"turns": [{"dice": "53", "play": "24/16"}]}]',
    "mat": b" 1 point match\n\n Game 1\n a : 0    b : 0\n  1) 53: 24/16    21: 24/21\n\n"
           b" Game 2\n a : 0    b : 0\n  1) 53: 24/16\n",
    "sgf": b"(;GM[6];W[53xuup];B[21abbd])(;GM[6];W[53xuup])",
    "xml": b'<games xmlns="urn:jacquet:games:1"><game variant="backgammon">'
           b'<turn player="W" dice="53" play="24/16"/><turn player="B" dice="21" play="24/21"/>'
           b'</game><game variant="backgammon"><turn player="W" dice="53" play="24/16"/></game></games>',
}


@pytest.mark.parametrize("fmt", RECORDS)
def test_a_file_read_whole_over_the_size_limit_is_refused_unread(tmp_path, monkeypatch, fmt):
    assert games(tmp_path, RECORDS[fmt], fmt)  # within the limit
    monkeypatch.setattr("notation.limits.MAX_FILE_BYTES", len(RECORDS[fmt]) - 1)
    error = raised(tmp_path, RECORDS[fmt], fmt)
    assert (error.rule_id, error.line) == (LIMIT, 1) and "larger than the limit" in error.message


@pytest.mark.parametrize("fmt", RECORDS)
def test_a_file_read_whole_of_too_many_positions_is_refused(tmp_path, monkeypatch, fmt):
    assert not any(g.errors for g in games(tmp_path, RECORDS[fmt], fmt))  # 5 positions
    monkeypatch.setattr("notation.limits.MAX_POSITIONS", 4)
    error = raised(tmp_path, RECORDS[fmt], fmt)
    assert error.rule_id == LIMIT and "more than 4 positions" in error.message


def test_a_mat_line_over_the_limit_is_refused(tmp_path):
    error = raised(tmp_path, RECORDS["mat"] + b"; " + b"x" * MAX_LINE_BYTES + b"\n", "mat")
    assert (error.rule_id, error.line) == (LIMIT, 10)


def test_json_variations_nested_past_the_limit_are_refused(tmp_path):
    turn = b'{"dice": "53", "play": "24/16", "variations": [['
    document = b'[{"turns": [' + turn * (MAX_DEPTH + 1) + b"]]}" * (MAX_DEPTH + 1) + b"]}]"
    assert raised(tmp_path, document, "json").rule_id == LIMIT


def test_sgf_trees_nested_past_the_limit_are_refused(tmp_path):
    document = b"(;GM[6]" + b"(;W[53xuup]" * MAX_DEPTH + b")" * (MAX_DEPTH + 1)
    error = raised(tmp_path, document, "sgf")
    assert (error.rule_id, error.column) == (LIMIT, 8 + 11 * (MAX_DEPTH - 1))


@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_a_document_of_too_many_elements_is_refused_before_parsing(tmp_path, monkeypatch, fmt):
    monkeypatch.setattr(f"notation.formats.{fmt}_format.MAX_ELEMENTS", 3)
    error = raised(tmp_path, RECORDS[fmt], fmt)
    assert (error.rule_id, error.line) == (LIMIT, 1) and "more than 3" in error.message


# ------------------------------------------------------------------ what could not be stored


def redoubled_record(takes: int) -> str:
    """A backgammon game in text notation whose cube is doubled and taken ``takes``
    times, one double before each roll, unfinished (written with the engine's limit out
    of the way)."""
    import random
    from unittest import mock

    from notation import rule_set
    from notation.formats.jqn import write_game
    from notation.tree.game import Game
    from notation.tree.tags import lead_roll_text

    rules, rng = rule_set("backgammon"), random.Random(0)
    game = Game(rules, headers={"Variant": "backgammon"}, lead_rolls=((1, 6),))
    game.headers["LeadRoll"] = lead_roll_text([(1, 6)])
    node = game
    with mock.patch("notation.engine.state.MAX_CUBE", 2**100):
        node = _redoubled(node, rules, rng, takes)
    game.headers["Result"] = "*"
    return write_game(game)


def _redoubled(node, rules, rng, takes):
    from notation import Dice, legal_plays

    while takes:
        state = node.state
        assert not state.over, "the random game ended before its cube was high enough"
        dice = state.forced[0][1] if state.forced else Dice(rng.randint(1, 6), rng.randint(1, 6))
        if not state.forced:
            node = node.add_turn("double").add_turn("take")
            takes -= 1
        node = node.add_turn("roll", dice, str(rng.choice(legal_plays(node.state.position, dice,
                                                                        rules))))
    return node


def test_a_cube_past_the_limit_is_an_error_at_the_take(tmp_path):
    from notation.limits import MAX_CUBE

    takes = MAX_CUBE.bit_length()  # one more than the limit allows
    assert not games(tmp_path, redoubled_record(takes - 1).encode())[0].errors
    [game] = games(tmp_path, redoubled_record(takes).encode())
    error = only_error(game)
    assert error.rule_id == LIMIT and f"past {MAX_CUBE}" in error.message
    assert error.line > 0 and error.column > 0 and error.turn.endswith(". take")  # numbered as the record writes it


def test_sixty_six_redoubles_are_refused_and_the_good_games_of_the_import_stored(tmp_path):
    import archive

    path = tmp_path / "cubes.jqn"
    path.write_text(redoubled_record(66) + "\n" + GAME.decode(), encoding="utf-8")
    db = archive.open_archive(tmp_path / "club.db")
    summary = archive.import_files(db, [path])
    assert (summary.imported, summary.refused) == (1, 1)
    assert summary.errors[0].rule_id == LIMIT


LONE_SURROGATES = {
    "json": (b'[{"headers": {"White": "Ann"},\n "turns": [], "comments": ["a \\udc00 b"]}]', 2, 31),
    "json high": (b'[{"turns": [], "comments": ["\\ud83d"]}]', 1, 30),
    "json high, then not low": (b'[{"turns": [], "comments": ["\\ud83d\\u0041"]}]', 1, 30),
    "jqn": (b'[Event "x' + b"\xed\xa0\x80" + b'"]\n\n*\n', 1, 10),
    "xml": ((b'<?xml version="1.0"?>\n<games xmlns="urn:jacquet:games:1"><game variant="jacquet">'
            b'<tag name="Event" value="&#xD800;"/></game></games>'), 2, 0),
}


@pytest.mark.parametrize("case", LONE_SURROGATES)
def test_a_lone_surrogate_is_refused_where_it_is_written(tmp_path, case):
    data, line, column = LONE_SURROGATES[case]
    fmt = case.split()[0]
    try:
        [game] = games(tmp_path, data, fmt)
        error = only_error(game)
    except RecordError as raised_for_the_file:
        error = raised_for_the_file
    assert error.rule_id == "SYNTAX" and error.line == line
    assert column == 0 or error.column == column


@pytest.mark.parametrize("fmt, data", [
    ("mat", b" 1 point match\n\n Game 1\n a\xed\xa0\x80 : 0    b : 0\n  1) 53: 24/16\n"),
    ("sgf", b"(;GM[6]PW[a\xed\xa0\x80];W[53xuup])")])
def test_formats_that_replace_bad_bytes_never_give_a_surrogate(tmp_path, fmt, data):
    for game in games(tmp_path, data, fmt):
        str(game.headers).encode("utf-8")


def test_an_escaped_backslash_before_u_is_no_surrogate_and_a_pair_is_one_character(tmp_path):
    [game] = games(tmp_path, b'[{"turns": [], "comments": ["\\\\ud800 \\ud83d\\ude00"]}]', "json")
    assert not game.errors and game.comments == ["\\ud800 \U0001f600"]
