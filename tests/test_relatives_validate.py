"""``/validate`` with an illegal ``narde`` or ``fevga`` play (issue 32, rules digest §9 and
§10): the problem names the rule by its id, says which reading of a rule it applied where
the sources differ (``head_doublets``, ``prime``), lists the legal plays, and draws the
board as the reader left it (narde's head framed). Through Flask's test client, as the
``scorer`` of tests/conftest.py, as :mod:`tests.test_viewer_validate` (the page itself is
seen in a browser in :mod:`tests.test_viewer_browser`)."""

from __future__ import annotations

import html
import io
import re

import pytest

from notation.engine.board import Position
from notation.formats.jqn import GameBuilder, read_games
from notation.messages import Message
from tests.test_viewer_validate import problem_blocks, validate


def record(variant: str, moves: str, position: Position | None = None, options: str = "") -> str:
    """A record of ``variant`` in which White starts, from ``position`` (seen by White)."""
    tags = [f'[Variant "{variant}"]', '[Lead "White"]']
    if position is not None:
        tags.append(f'[Position "{position.position_id()}"]')
    if options:
        tags.append(f'[Options "{options}"]')
    return "\n".join(tags) + f"\n\n{moves} *\n"


def the_problem(page) -> tuple[str, str, list[str], str]:
    """The one problem shown: its rule id, its message, the legal plays listed, its block."""
    [block] = problem_blocks(page)
    rule = re.search(r'<span class="rule">\[([A-Z-]+)\]</span>', block).group(1)
    message = html.unescape(re.search(r'<span class="message">(.*?)</span>', block, re.S).group(1))
    legal = [html.unescape(play) for play in re.findall(r"<code>(.*?)</code>", block)]
    return rule, message, legal, block


def read_as_validate(text: str) -> Message:
    """The message of the one error the reader finds in the record ``text`` (jacquet where it
    has no Variant tag, as the page is asked here): what the page's problem says."""
    [error] = [error for game in read_games(io.StringIO(text), GameBuilder) for error in game.errors]
    return error.msg


@pytest.mark.parametrize("variant, rule, message_id", [("narde", "R-HEAD", "rule.narde.head"),
                                                      ("fevga", "R-RUNNER", "rule.fevga.runner")])
def test_an_opening_6_5_off_the_head_twice(scorer, variant, rule, message_id):
    # worked cases §9.4 and §10.3: only 24/13
    text = record(variant, "1. 65: 24/18 24/19")
    page = validate(scorer, text, variant="jacquet")
    found, message, legal, _ = the_problem(page)
    assert (found, legal) == (rule, ["24/13"])
    said = read_as_validate(text)
    assert (said.id, said.params["step"]) == (message_id, "24/19")  # the second man off the head
    assert message.endswith(str(said))


def test_narde_names_the_head_doublets_reading_it_applied(scorer):
    # §9.3 read as 6-4-3: a first-turn 3-3 lets two men off the head, never three
    text = record("narde", "1. 33: 24/21(3) 21/18")
    _, message, legal, block = the_problem(validate(scorer, text))
    said = read_as_validate(text)  # a third man off the head, read as 6-4-3
    assert said.as_json() == {"id": "rule.narde.head.first-turn", "params": {
        "step": "24/21", "doublets": ["6-6", "4-4", "3-3"], "option": "head_doublets=6-4-3"}}
    assert message.endswith(str(said))
    assert sorted(legal) == ["24/18(2)", "24/21 24/15"]
    assert block.count('<rect class="head"') == 2  # the board as the reader left it: both heads bind
    # read as 6-4 (the Options tag, as -O on the command line): 3-3 is no exception
    text = record("narde", "1. 33: 24/18(2)", options="head_doublets=6-4")
    rule, message, legal, _ = the_problem(validate(scorer, text))
    said = read_as_validate(text)
    assert rule == "R-HEAD" and said.id == "rule.narde.head" and message.endswith(str(said))
    assert said.as_json()["params"] == {"step": {"id": "rule.step-in-move", "params": {"step": "24/21", "move": "24/18"}},
                                        "doublets": ["6-6", "4-4"], "option": "head_doublets=6-4"}
    assert legal == ["24/15"]  # one man, three 3s: 15/12 would land on his head


def test_narde_refuses_a_six_block_with_none_of_his_men_past_it(scorer):
    # worked case §9.6: the step 7/6 makes 11-6 in front of all his men
    mine = Position.from_points({24: 9, 11: 1, 10: 1, 9: 1, 8: 1, 7: 2}, {24: 15})
    text = record("narde", "1. 51: 24/19 7/6", mine)
    rule, message, legal, _ = the_problem(validate(scorer, text))
    assert rule == "R-SIXBLOCK"
    said = read_as_validate(text)
    assert said.id == "rule.sixblock" and said.params["points"] == "11, 10, 9, 8, 7, 6"  # six in a row
    assert message.endswith(str(said))
    assert "24/18" in legal and "24/19 7/6" not in legal
    # with one of his men on my 5 (his 17), past the block, the same play is legal
    past = Position.from_points({24: 9, 11: 1, 10: 1, 9: 1, 8: 1, 7: 2}, {24: 14, 17: 1})
    assert problem_blocks(validate(scorer, record("narde", "1. 51: 24/19 7/6", past))) == []


def test_fevga_refuses_the_sixth_point_of_the_starting_quarter(scorer):
    # worked case §10.4: head and single men on 23-20, the runner past his head (on 5)
    mine = Position.from_points({24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 5: 1}, {24: 15})
    text = record("fevga", "1. 51: 24/19 5/4", mine)
    rule, message, legal, _ = the_problem(validate(scorer, text))
    said = read_as_validate(text)  # all six points 24-19 held
    assert rule == "R-HOMEQUARTER" and said.as_json() == {"id": "rule.fevga.home-quarter", "params": {"step": "24/19"}}
    assert message.endswith(str(said))
    assert "24/19 5/4" not in legal
    assert "23/22 24/19" in legal  # 23 emptied first: the quarter is not all held


def test_fevga_names_the_prime_reading_it_applied(scorer):
    # all Black's men on his 20 (my 8) behind my 7-2: a play keeping the six is refused
    # where one opening them exists (R-UNBLOCK, prime=unblock)
    mine = Position.from_points({24: 9, 7: 1, 6: 1, 5: 1, 4: 1, 3: 1, 2: 1}, {20: 15})
    text = record("fevga", "1. 21: 24/22 24/23", mine)
    rule, message, legal, _ = the_problem(validate(scorer, text))
    assert rule == "R-UNBLOCK" and "(prime=unblock)" in message
    said = read_as_validate(text)  # all six points 7-2 kept in front of his men
    assert said.id == "rule.fevga.unblock" and said.params["points"] == "7, 6, 5, 4, 3, 2"
    assert message.endswith(str(said))
    assert "24/23 7/5" in legal  # the man on 7 moved: the wall opened
    # the older reading (prime=sixblock): no six points in a row before one of his men is past
    older = Position.from_points({24: 9, 11: 1, 10: 1, 9: 1, 8: 1, 7: 2}, {24: 15})
    text = record("fevga", "1. 51: 24/19 7/6", older, options="prime=sixblock")
    rule, message, _, _ = the_problem(validate(scorer, text))
    said = read_as_validate(text)
    assert rule == "R-SIXBLOCK" and message.endswith("(prime=sixblock)") and message.endswith(str(said))
    assert said.id == "rule.sixblock.option" and said.params["option"] == "prime=sixblock"
