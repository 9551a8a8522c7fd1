"""Writing the text notation: canonical, and lossless round trips."""

import io
import json
import random
from functools import partial

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation import rule_set
from notation.engine.rules import NAMES
from notation.formats.jqn import GameBuilder, read_games, write_game
from notation.formats.json_format import dumps, loads
from notation.tree.generate import random_game
from tests.trees import same_tree

COMMENT_TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40)


def reread(text: str):
    [game] = list(read_games(io.BytesIO(text.encode("utf-8")), partial(GameBuilder, "jacquet")))
    assert not game.errors, game.errors
    return game


def annotate(game, data):
    """Sprinkle hypothesis-drawn comments (any characters, braces and backslashes
    included) and NAGs over the main line."""
    nodes = [game, *game.mainline()]
    for node in data.draw(st.lists(st.sampled_from(nodes), max_size=8)):
        node.comments.append(data.draw(COMMENT_TEXT))
    for node in data.draw(st.lists(st.sampled_from(nodes[1:]), max_size=5)):
        node.nags.append(data.draw(st.integers(0, 255)))


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(NAMES), seed=st.integers(0, 10**6), data=st.data())
def test_read_write_read_gives_the_same_tree_and_bytes(variant, seed, data):
    game = random_game(rule_set(variant), random.Random(seed), annotate=True)
    annotate(game, data)
    text = write_game(game)
    again = reread(text)
    assert same_tree(game, again)
    assert again.headers == game.headers
    assert write_game(again) == text


@settings(max_examples=25, deadline=None, derandomize=True)
@given(variant=st.sampled_from(NAMES), seed=st.integers(0, 10**6))
def test_json_round_trip_keeps_the_tree(variant, seed):
    game = random_game(rule_set(variant), random.Random(seed), annotate=True)
    [again] = loads(dumps([game]))
    assert not again.errors
    assert same_tree(game, again)
    assert write_game(again) == write_game(game)


def test_writer_is_canonical_from_lenient_input():
    text = "[White \"A\"]\n[Event \"E\"]\n\n5-6: 24/19/13 {x} 1 2: 24/22/21 !? *\n"
    game = reread(text)
    written = write_game(game)
    assert written == ('[Event "E"]\n[White "A"]\n[Result "*"]\n[Variant "jacquet"]\n\n'
                       "1. 65: 24/13 {x} 1... 21: 24/21 $5 *\n")


def test_lines_are_wrapped_at_80_columns_without_breaking_a_turn():
    game = random_game(rule_set("jacquet"), random.Random(1))
    movetext = write_game(game).split("\n\n", 1)[1]
    lines = movetext.splitlines()
    assert len(lines) > 5
    assert all(len(line) <= 80 for line in lines)
    assert not any(line.rstrip().endswith(".") for line in lines)  # numbers stay with turns
    assert not any(line.rstrip().endswith(":") for line in lines)  # rolls stay with plays


def test_comment_with_braces_round_trips():
    game = reread("{open { and close } and \\\\ backslash} 55: 24/4 *".replace("} and", "\\} and"))
    assert game.comments == ["open { and close } and \\ backslash"]
    assert same_tree(reread(write_game(game)), game)


def test_black_starting_game_numbers_like_pgn():
    game = reread('[Lead "Black"]\n\n55: 24/4 66: 24/18 21: 4/1 *')
    assert "1... 55: 24/19/14/9/4 2. 66: 24/18 21: 4/1" in write_game(game)


def test_tag_values_with_line_breaks_round_trip_on_one_line():
    game = reread('[Event "x"]\n\n55: 24/4 *')
    game.headers["Event"] = 'two\nlines, a "quote", a \\ and a\r\nbreak'
    game.headers["GameComment"] = '[ClockType "Live8 780/10"]\n'
    text = write_game(game)
    assert text.splitlines()[0] == r'[Event "two\nlines, a \"quote\", a \\ and a\r\nbreak"]'
    back = reread(text)
    assert back.headers["Event"] == game.headers["Event"]
    assert back.headers["GameComment"] == game.headers["GameComment"]
    assert write_game(back) == text


def test_a_backslash_before_another_letter_stands_for_the_letter():
    assert reread('[Event "a\\qb \\\\n"]\n\n55: 24/4 *').headers["Event"] == "aqb \\n"


def test_a_tag_name_that_cannot_be_written_is_refused():
    game = reread("55: 24/4 *")
    game.headers["two words"] = "x"
    with pytest.raises(ValueError, match="two words"):
        write_game(game)


def test_a_comment_with_lines_like_tags_round_trips_within_its_game():
    game = reread("55: 24/4 *")
    game.comments.append('a tag line quoted:\n[Event "x"]\n  [White "y"] and [z')
    text = write_game(game)
    assert "\\[Event" in text and "\\[White" in text and " [z" in text
    [back] = list(read_games(io.BytesIO((text + "\n" + text).encode()), partial(GameBuilder, "jacquet")))[:1]
    assert back.comments == game.comments and not back.errors
    assert len(list(read_games(io.BytesIO((text + "\n" + text).encode()), partial(GameBuilder, "jacquet")))) == 2


def test_json_keeps_who_played_each_turn():
    """A JSON turn's player is checked (R-TURN), and a resignation by the side not to act
    comes back as that side's."""
    game = reread('[Variant "backgammon"]\n[LeadRoll "W3 B1"]\n\n1. 31: 8/5 6/5 White resigns B+2\n')
    [back] = loads(dumps([game]))
    assert not back.errors and same_tree(back, game) and back.end().state.winner.value == "B"
    data = json.loads(dumps([game]))
    data[0]["turns"][0]["player"] = "B"
    [wrong] = loads(json.dumps(data))
    assert wrong.errors[0].rule_id == "R-TURN"
    data[0]["turns"][0]["player"] = "X"
    assert loads(json.dumps(data))[0].errors[0].rule_id == "SYNTAX"
