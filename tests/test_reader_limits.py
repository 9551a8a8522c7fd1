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
    assert (error.turn, error.column) == ("1. 53", 4) and "at most 256" in error.message


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
