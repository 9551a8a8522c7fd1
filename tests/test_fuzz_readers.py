"""Fuzzing the readers (issue 8, hostile input): whatever a file holds, reading it in any
readable format raises nothing but a located :class:`~notation.errors.RecordError`, gives
every game's problems as located ``RecordError`` records, ends quickly and stays small.

Inputs, for each format (``tests/fuzzing.py`` holds the seeds, the mutations and the rule,
shared with ``bench/fuzz_readers.py``, which runs a million of them):

* random input: bytes, text (surrogates included, so bad UTF-8 too), runs of the format's
  vocabulary;
* mutated records: a seed record (samples, generated games, real ``.mat`` and SGF files)
  with one to four bytes, tokens or lines flipped, deleted, duplicated, inserted, replaced
  or swapped.

Each input must be read in under :data:`SECONDS` and with a peak of Python allocations
under :data:`MEMORY_BASE` + :data:`MEMORY_PER_BYTE` times its size (a position costs about
1.5 kB and takes at least ten bytes to write). **Examples per test: the environment
variable ``JACQUET_FUZZ_EXAMPLES``, default 60** (ten tests, about half a minute in all);
``derandomize=True``, so every run checks the same inputs.

Then one regression test per quirk the fuzzing found, named after it.
"""

from __future__ import annotations

import io
import os
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation import rule_set
from notation.engine.checker import check_play
from notation.errors import IllegalPlayError, RecordError
from notation.formats import read_file
from notation.formats.jqn import GameBuilder, read_games
from notation.formats.mat.parser import parse_mat
from notation.tree.tags import setup_from_tags

from .fuzzing import (
    EXTENSION,
    LONG,
    OPERATIONS,
    PAYLOADS,
    READABLE,
    UNITS,
    Mutation,
    Unstructured,
    measured,
    mutate,
    read_input,
    seed_records,
)

EXAMPLES = int(os.environ.get("JACQUET_FUZZ_EXAMPLES", "60"))
SECONDS = 10.0
"""Per input: generous, for shared CI machines; the inputs read in milliseconds."""
MEMORY_BASE = 16 * 1024 * 1024
MEMORY_PER_BYTE = 200

FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.large_base_example])


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def check(folder: Path, fmt: str, data: bytes):
    """Read ``data`` as ``fmt`` under the rule, in bounded time and memory."""
    path = folder / f"input{EXTENSION[fmt]}"
    path.write_bytes(data)
    reading, seconds, peak = measured(lambda: read_input(path, fmt), memory=True)
    assert seconds < SECONDS, f"{seconds:.1f} s for {len(data)} bytes"
    assert peak < MEMORY_BASE + MEMORY_PER_BYTE * len(data), f"{peak} bytes for {len(data)}"
    return reading


def mutations(fmt: str) -> st.SearchStrategy[Mutation]:
    return st.builds(Mutation, operation=st.sampled_from(OPERATIONS), unit=st.sampled_from(UNITS),
                     index=st.integers(0, 1 << 20), other=st.integers(0, 1 << 20),
                     payload=st.sampled_from(PAYLOADS[fmt]) | st.binary(min_size=1, max_size=8))


def random_inputs(fmt: str) -> st.SearchStrategy[bytes]:
    return st.one_of(st.binary(max_size=2000),
                     st.text(max_size=500).map(lambda text: text.encode("utf-8", "surrogatepass")),
                     st.lists(st.sampled_from(PAYLOADS[fmt]), max_size=40).map(b"".join))


@pytest.mark.long
@pytest.mark.parametrize("fmt", READABLE)
@FUZZ
@given(data=st.data())
def test_random_input_is_read_or_refused_with_record_errors(folder, fmt, data):
    check(folder, fmt, data.draw(random_inputs(fmt)))


@pytest.mark.long
@pytest.mark.parametrize("fmt", READABLE)
@FUZZ
@given(data=st.data())
def test_mutated_records_are_read_or_refused_with_record_errors(folder, fmt, data):
    record = data.draw(st.sampled_from(seed_records(fmt)))
    for mutation in data.draw(st.lists(mutations(fmt), min_size=1, max_size=4)):
        record = mutate(record, mutation)
    check(folder, fmt, record)


@pytest.mark.parametrize("fmt", ["json", "mat", "sgf", "xml"])
def test_the_seed_records_read_without_errors(folder, fmt):
    """The control: before mutation, the seeds are valid (the text notation's seeds include
    the error samples on purpose). Twenty of each, spread over them."""
    records = seed_records(fmt)
    path = folder / f"seed{EXTENSION[fmt]}"
    for record in records[::max(1, len(records) // 20)]:
        path.write_bytes(record)
        reading = read_input(path, fmt)
        assert reading.games and reading.raised is None
        assert not [p for p in reading.problems if p.severity == "error"], reading.problems[:1]


def test_the_rule_catches_what_it_must(folder, monkeypatch):
    """The rule can fail: an exception other than RecordError propagates, and an error that
    is not located is reported."""
    path = folder / "input.jqn"
    path.write_bytes(b"1. 53: 24/16 *")

    def crash(*args, **kwargs):
        raise KeyError("a reader bug")
        yield

    monkeypatch.setattr("tests.fuzzing.read_file", crash)
    with pytest.raises(KeyError):
        read_input(path, "jqn")

    def unlocated(*args, **kwargs):
        game = next(iter(read_file(path)))
        game.errors.append(RecordError("somewhere", file="elsewhere.jqn"))
        yield game

    monkeypatch.setattr("tests.fuzzing.read_file", unlocated)
    with pytest.raises(Unstructured):
        read_input(path, "jqn")


# -- quirks found by fuzzing ---------------------------------------------------------


def errors_of(folder: Path, fmt: str, text: str | bytes) -> list[RecordError]:
    """Every error reading ``text`` gives, raised or carried, after the rule is checked."""
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    reading = check(folder, fmt, data)
    return [reading.raised] if reading.raised else reading.problems


DIGITS = LONG.decode()
LONG_NUMBERS = {
    "jqn NAG": ("jqn", f"1. 53: 24/16 ${DIGITS} *"),
    "jqn repeat": ("jqn", f"1. 53: 24/16(1{DIGITS}) *"),
    "jqn result": ("jqn", f'[Result "W+{DIGITS}"]\n\n1. resign W+{DIGITS}'),
    "jqn option": ("jqn", f'[Variant "hale"]\n[Options "third_table_penalty={DIGITS}"]\n\n*'),
    "json integer": ("json", f'[{{"turns": [{{"dice": "53", "play": "24/16", "nags": [{DIGITS}]}}]}}]'),
    "mat game": ("mat", f" 1 point match\n Game {DIGITS}\n a : 0   b : 0\n"),
    "mat score": ("mat", f" 1 point match\n Game 1\n a : {DIGITS}   b : 0\n"),
    "mat cube": ("mat", f" 1 point match\n Game 1\n a : 0   b : 0\n  1) Doubles => {DIGITS}\n"),
    "mat length": ("mat", f"{DIGITS} point match\n"),
    "sgf result": ("sgf", f"(;GM[6]RE[W+{DIGITS}R])"),
    "sgf game": ("sgf", f"(;GM[6]MI[game:{DIGITS}])"),
    "xml NAG": ("xml", ('<games xmlns="urn:jacquet:games:1"><game><turn player="W" dice="53" '
                       f'play="24/16"><nag>{DIGITS}</nag></turn></game></games>')),
    "xml result": ("xml", (f'<games xmlns="urn:jacquet:games:1"><game result="W+{DIGITS}">'
                          '<turn player="W" kind="resign"/></game></games>')),
}


@pytest.mark.parametrize("fmt, text", LONG_NUMBERS.values(), ids=LONG_NUMBERS)
def test_numbers_of_thousands_of_digits_are_not_crashes(folder, fmt, text):
    """Python refuses to convert an integer of over 4300 digits (a ValueError): every
    number a reader converts is bounded first. (An SGF ``RE`` it cannot read is ignored,
    as before; the others are errors.)"""
    assert errors_of(folder, fmt, text) or fmt == "sgf"


def test_json_that_is_not_utf8_is_a_located_record_error(folder):
    [error] = errors_of(folder, "json", b'[{"headers": {"Event": "\xff"}}]')
    assert error.rule_id == "SYNTAX" and (error.line, error.column) == (1, 25)


def test_json_nested_past_the_recursion_limit_is_a_limit_error(folder):
    [error] = errors_of(folder, "json", "[" * 100_000 + "]" * 100_000)
    assert error.rule_id == "LIMIT"


@pytest.mark.parametrize("field", ['"headers": []', '"comments": 5', '"options": [1]',
                                   '"variant": 5', '"first": 5', '"turns": {}',
                                   '"turns": [5]', '"turns": [{"dice": 53}]',
                                   '"turns": [{"dice": "53", "play": "24/16", "nags": ["x"]}]',
                                   '"turns": [{"dice": "53", "play": "24/16", "nags": [true]}]',
                                   '"turns": [{"dice": "53", "play": 5}]',
                                   '"turns": [{"dice": "53", "play": "24/16", "variations": [5]}]'])
def test_json_fields_of_the_wrong_type_are_errors_of_the_game(folder, field):
    [error] = errors_of(folder, "json", f"[{{{field}}}]")
    assert error.game == 1 and error.rule_id in ("SYNTAX", "TAG")


@pytest.mark.parametrize("fmt, text", [
    ("json", '[{"turns": [{"kind": "roll", "play": "24/16"}]}]'),
    ("json", '[{"turns": [{"kind": "castle", "dice": "53", "play": "24/16"}]}]'),
    ("xml", '<games xmlns="urn:jacquet:games:1"><game><turn player="W" play="24/16"/></game></games>'),
])
def test_a_roll_without_dice_or_a_turn_of_unknown_kind_is_an_error(folder, fmt, text):
    """The game state raised a bare ValueError for a roll without dice, and took any other
    kind of turn for a roll."""
    [error] = errors_of(folder, fmt, text)
    assert error.game == 1 and error.turn == "1."  # the move, numbered as records write it


def test_an_option_written_with_a_superscript_digit_is_a_tag_error():
    """``"²".isdigit()`` is true but ``int("²")`` fails."""
    with pytest.raises(ValueError) as raised:
        setup_from_tags({"Variant": "hale", "Options": "third_table_penalty=\u00b2"})
    assert raised.type.__name__ == "TagProblem"


def test_an_option_called_name_is_a_tag_error():
    """``rule_set(name, **options)`` with an option ``name`` raised a TypeError (the name is
    now positional only)."""
    with pytest.raises(ValueError) as raised:
        setup_from_tags({"Options": "name=hale"})
    assert raised.type.__name__ == "TagProblem" and "no option" in str(raised.value)


def test_an_sgf_resignation_worth_more_than_the_rules_allow_is_an_error(folder):
    """``RE[W+5R]`` at cube 1 raised the game state's own error instead of a RecordError."""
    [error] = errors_of(folder, "sgf", "(;GM[6]RE[W+5R])")
    assert (error.rule_id, error.line, error.column) == ("R-SCORE", 1, 1)


@pytest.mark.parametrize("result, message", [("W+5", "White resigned"),
                                             ("B+5", "scores 1 or 2 or 3, not 5")])
def test_an_xml_resignation_with_a_wrong_result_is_an_error(folder, result, message):
    """A result naming the player who resigned was taken as it stood, and points the rules
    do not allow raised the game state's own error."""
    [error] = errors_of(folder, "xml", f'<games xmlns="urn:jacquet:games:1"><game variant="backgammon" '
                                       f'result="{result}"><turn player="W" kind="resign"/></game></games>')
    assert error.rule_id == "R-SCORE" and message in error.message


def test_mat_problems_name_the_games_position_not_its_number():
    match = parse_mat(" 1 point match\n Game 7\n a : 0   b : 0\n  1) Resigns\n")
    [problem] = match.games[0].problems
    assert problem.game == 1


def test_a_mat_file_of_unreadable_lines_only_reports_them(folder):
    """It read as no game and no error, so ``jacquet validate`` passed it."""
    [error] = errors_of(folder, "mat", "this is not a match\nnor is this\n")
    assert (error.line, error.rule_id) == (1, "SYNTAX")


@pytest.mark.parametrize("line", [" " * 20_000 + "x", "a :1 b" * 5_000, ": 1 " * 5_000],
                         ids=["spaces", "colons", "scores"])
def test_a_mat_score_line_reads_in_linear_time(line):
    """The score line's regular expression took cubic time on a line of spaces (26 s for
    4,000 of them)."""
    start = time.thread_time()
    parse_mat(f" 1 point match\n Game 1\n{line}\n")
    assert time.thread_time() - start < 1.0


def test_a_mat_score_line_is_read_as_before():
    game = parse_mat(" 7 point match\n Game 1\n Ann Lee : 3        Bob : 12\n").games[0]
    assert (game.names, game.score) == (("Ann Lee", "Bob"), (3, 12))
    empty = parse_mat(" 7 point match\n Game 1\n : 0                       lasse : 0\n").games[0]
    assert empty.names == ("", "lasse")


def test_a_mat_tag_line_of_spaces_reads_in_linear_time():
    start = time.thread_time()
    parse_mat("; [" + " " * 20_000 + "\n; [a" + " " * 20_000 + "x\n")
    assert time.thread_time() - start < 1.0


@pytest.mark.parametrize("fmt, text", [
    ("json", '[{"turns": [{"dice": "5' + " " * 200_000 + 'x", "play": "24/16"}]}]'),
    ("jqn", '[LeadRoll "W5' + " " * 200_000 + 'x"]\n\n*'),
], ids=["json dice", "jqn lead roll"])
def test_dice_and_lead_rolls_with_long_white_space_read_in_linear_time(folder, fmt, text):
    start = time.thread_time()
    assert errors_of(folder, fmt, text)
    assert time.thread_time() - start < 1.0


def test_a_play_of_many_moves_is_refused_at_once():
    """The checker searched every order of the written moves: 40 took 1.6 s, 80 took 30 s
    (a play is now at most 256 characters, but that still holds 60 moves)."""
    moves = " ".join(f"{a}/{b}" for a in range(12, 1, -1) for b in range(a - 1, 0, -1))[:256]
    moves = moves[:moves.rindex(" ")]
    rules = rule_set("backgammon")
    start = time.thread_time()
    with pytest.raises(IllegalPlayError) as raised:
        check_play(rules.start, "11", moves, rules)
    assert time.thread_time() - start < 1.0 and raised.value.rule_id == "R-DOUBLET"


def test_a_game_of_the_text_notation_reports_its_first_problem_only():
    """One error per game, as documented: a game of a million bad header lines made a
    million errors."""
    [game] = read_games(io.BytesIO(b"[a\n[b\n[c\n\n*\n"), GameBuilder)
    assert len(game.errors) == 1 and game.errors[0].line == 1
