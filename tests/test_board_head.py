"""Narde's head on the SVG board (rules digest §9, R-HEAD): while two or more of a side's
men stand on his head, only one may leave it a turn, so the board frames that point, with
a title saying whose head it is, how many men wait there and the rule, and the board's
description repeats it for screen readers. A head with one man or none is not framed
(that man leaves freely), nor is any point of a rule set without R-HEAD."""

import re
from html import unescape

import pytest

from notation import rule_set
from notation.engine.board import Position
from notation.engine.state import Colour
from notation.messages import Message, either, render
from notation.render.svg import board

FRAME = re.compile(r'<rect class="head" x="(\d+)" y="(\d+)" width="(\d+)" height="(\d+)"'
                   r'[^>]*><title>([^<]*)</title></rect>')
MAN = re.compile(r'<circle class="man" cx="(\d+)" cy="(\d+)" r="17" fill="([^"]+)"')
WHITE, BLACK = "#fdfdf8", "#222222"


def head_title(colour: Colour, count: int, rules_name: str = "narde", **options: str) -> str:
    """The frame's title: the message ``mark.head`` (whose head, how many men, the rule set's
    legend of R-HEAD), as the board writes it in English (the wording: tests/test_messages.py)."""
    head = rule_set(rules_name, **options).head
    assert head is not None
    return render(Message.of("mark.head", side=colour.named, point=24, count=count, legend=head.legend,
                             rule="R-HEAD"))


def frames(svg: str) -> list[tuple[int, int, int, int, str]]:
    return [(int(x), int(y), int(w), int(h), unescape(title)) for x, y, w, h, title in FRAME.findall(svg)]


def men_inside(svg: str, frame: tuple[int, int, int, int, str]) -> set[str]:
    """The colours of the men drawn inside ``frame``."""
    x, y, w, h, _ = frame
    return {colour for cx, cy, colour in MAN.findall(svg)
            if x <= int(cx) <= x + w and y <= int(cy) <= y + h}


def men_on(svg: str, colour: str) -> int:
    return sum(1 for *_, c in MAN.findall(svg) if c == colour)


def test_at_the_start_both_heads_are_framed_round_their_fifteen_men():
    narde = rule_set("narde")
    svg = board(narde.start, narde)
    white, black = sorted(frames(svg), key=lambda f: f[4] != head_title(Colour.WHITE, 15))
    assert white[4] == head_title(Colour.WHITE, 15) and black[4] == head_title(Colour.BLACK, 15)
    assert men_inside(svg, white) == {WHITE} and men_inside(svg, black) == {BLACK}
    assert narde.head is not None and narde.head.legend.params["doublets"] == either(["6-6", "4-4", "3-3"])


def test_a_head_with_one_man_left_or_none_is_not_framed():
    narde = rule_set("narde")
    # White (on roll): one man left on his head; Black: two on his (White's 12)
    position = Position.from_points({24: 1, 18: 7, 10: 7}, {24: 2, 20: 6, 6: 7})
    [frame] = frames(board(position, narde))
    assert frame[4] == head_title(Colour.BLACK, 2)
    assert men_inside(board(position, narde), frame) == {BLACK}
    emptied = Position.from_points({18: 8, 10: 7}, {20: 8, 6: 7})
    assert frames(board(emptied, narde)) == []
    assert "<desc>" not in board(emptied, narde)


def test_the_frame_counts_the_men_still_on_the_head_after_some_turns():
    narde = rule_set("narde")
    # worked case 5 of §9: 13 men on the head, one each on 15 and 10; Black all on his head
    position = Position.from_points({24: 13, 15: 1, 10: 1}, {24: 15})
    svg = board(position, narde)
    titles = {frame[4] for frame in frames(svg)}
    assert titles == {head_title(Colour.BLACK, 15), head_title(Colour.WHITE, 13)}
    assert men_on(svg, WHITE) == 5 + 2  # five drawn on the head (13 written), the two others


def test_the_frame_follows_the_men_when_black_is_on_roll_and_when_the_board_is_flipped():
    narde = rule_set("narde")
    position = Position.from_points({24: 14, 20: 1}, {24: 1, 13: 14})  # Black on roll: the mover
    for flipped in (False, True):
        svg = board(position, narde, white_to_move=False, flipped=flipped)
        [frame] = frames(svg)
        assert frame[4] == head_title(Colour.BLACK, 14)
        assert men_inside(svg, frame) == {BLACK}


def test_the_head_doublets_reading_changes_the_words():
    narde = rule_set("narde", head_doublets="6-4")
    assert {frame[4] for frame in frames(board(narde.start, narde))} == {
        head_title(colour, 15, head_doublets="6-4") for colour in (Colour.WHITE, Colour.BLACK)}
    assert narde.head is not None and narde.head.legend.params["doublets"] == either(["6-6", "4-4"])


def test_the_description_gives_the_marks_to_screen_readers():
    narde = rule_set("narde")
    svg = board(narde.start, narde, title="Ply 0")
    description = re.search(r"<desc>(.*?)</desc>", svg).group(1)
    assert description.count("(R-HEAD).") == 2
    assert head_title(Colour.WHITE, 15) in description and head_title(Colour.BLACK, 15) in description
    fevga = rule_set("fevga")
    runners = Position.from_points({24: 14, 18: 1}, {24: 14, 20: 1})
    described = re.search(r"<desc>(.*?)</desc>", board(runners, fevga)).group(1)
    assert described == " ".join(render(Message.of("mark.runner", side=colour.named, point=point, rule="R-RUNNER"))
                                 for colour, point in ((Colour.WHITE, 18), (Colour.BLACK, 20)))


@pytest.mark.parametrize("name", ["jacquet", "murray", "versailles", "hale", "backgammon", "fevga"])
def test_no_other_rule_set_frames_a_head(name):
    rules = rule_set(name)
    assert 'class="head"' not in board(rules.start, rules)


def test_the_frame_is_drawn_in_its_points_group_so_a_click_on_it_names_the_point():
    narde = rule_set("narde")
    svg = board(narde.start, narde)
    groups = re.findall(r'<g class="column" data-point="(\d+)">(.*?)</g>', svg)
    assert sorted(point for point, inside in groups if '<rect class="head"' in inside) == ["12", "24"]
