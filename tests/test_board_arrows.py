"""A play drawn as arrows on the SVG board (issue 37, the analysis board): each step's
arrow starts on the point the man leaves and ends, its head's tip, on the point he reaches,
as the board itself draws those points (their triangles, ``data-point`` in White's
numbers); Black's steps land on the points the rules digest gives (jacquet: my p is his
p-12 or p+12; backgammon: 25-p); a man borne off points into his side's tray; and the key
names the arrows in the page's language."""

from __future__ import annotations

import re

import pytest

from notation import Position, rule_set
from notation.engine.play import Step
from notation.render.arrows import arrows
from notation.render.svg import board, board_key

JACQUET = rule_set("jacquet")
BACKGAMMON = rule_set("backgammon")


def point_x(svg: str, white_point: int) -> tuple[int, bool]:
    """The x of the tip of White's point ``white_point`` as the board draws it, and whether
    it is on the top row (its base on the board's top edge, y 20)."""
    found = re.search(rf'<polygon class="point" data-point="{white_point}" points="([^"]+)"', svg)
    assert found, white_point
    corners = [tuple(int(v) for v in pair.split(",")) for pair in found.group(1).split()]
    (_, base_y), _, (tip_x, _) = corners
    return tip_x, base_y == 20


def arrow_ends(svg: str) -> list[tuple[str, str, tuple[int, int], tuple[int, int]]]:
    """Each arrow's (data-from, data-to, its shaft's start, its head's tip)."""
    found = re.findall(r'<g class="arrow" data-from="(\d+)" data-to="(\d+)"><line class="arrow-step" '
                       r'x1="(-?\d+)" y1="(-?\d+)"[^>]*/><polygon class="arrow-head" points="(-?\d+),(-?\d+)', svg)
    return [(a, b, (int(x1), int(y1)), (int(x2), int(y2))) for a, b, x1, y1, x2, y2 in found]


def drawn(position: Position, rules, steps, white: bool, flipped: bool = False) -> str:
    return board(position, rules, white_to_move=white, flipped=flipped,
                 overlay=arrows(steps, white, rules, flipped, title="play"))


def on_point(svg: str, end: tuple[int, int], white_point: int) -> bool:
    """Whether a point of an arrow is over White's point ``white_point``: its x that of the
    point's tip, its y in the point's half of the board (the top half above y 220)."""
    x, top = point_x(svg, white_point)
    return end[0] == x and (end[1] < 220) == top


@pytest.mark.parametrize("flipped", [False, True])
def test_a_white_step_runs_from_the_point_left_to_the_point_reached(flipped):
    svg = drawn(JACQUET.start, JACQUET, [Step(24, 18, 6), Step(24, 23, 1)], True, flipped)
    (a, b, start, tip), (c, d, start2, tip2) = arrow_ends(svg)
    assert (a, b, c, d) == ("24", "18", "24", "23")
    assert on_point(svg, start, 24) and on_point(svg, tip, 18)
    assert on_point(svg, start2, 24) and on_point(svg, tip2, 23)
    assert not on_point(svg, tip, 24)


def test_black_steps_land_on_the_points_of_his_numbering():
    # jacquet: Black's 24 is White's 12, his 18 White's 6 (my p is his p-12 or p+12)
    svg = drawn(JACQUET.start, JACQUET, [Step(24, 18, 6)], False)
    (_, _, start, tip), = arrow_ends(svg)
    assert on_point(svg, start, 12) and on_point(svg, tip, 6)
    # backgammon: Black's 13 is White's 12, his 8 White's 17 (25-p)
    svg = drawn(BACKGAMMON.start, BACKGAMMON, [Step(13, 8, 5)], False)
    (_, _, start, tip), = arrow_ends(svg)
    assert on_point(svg, start, 12) and on_point(svg, tip, 17)


@pytest.mark.parametrize(("white", "tray_at_bottom"), [(True, True), (False, False)])
def test_a_man_borne_off_points_into_his_sides_tray(white, tray_at_bottom):
    home = Position.from_points({3: 15}, {3: 15})
    svg = drawn(home, JACQUET, [Step(3, 0, 5)], white)
    (a, b, start, tip), = arrow_ends(svg)
    assert (a, b) == ("3", "0")
    tray = re.search(r'<g class="tray" data-point="off"><rect x="(\d+)" y="\d+" width="(\d+)"', svg)
    assert tip[0] == int(tray.group(1)) + int(tray.group(2)) // 2
    assert (tip[1] > 220) == tray_at_bottom  # White's tray at the bottom, Black's at the top
    assert on_point(svg, start, 3 if white else 15)


def test_the_arrows_have_a_colour_of_their_own_and_a_line_in_the_key():
    svg = drawn(JACQUET.start, JACQUET, [Step(24, 18, 6)], True)
    colour = re.search(r'class="arrow-step"[^>]*stroke="(#[0-9a-f]+)"', svg).group(1)
    key = {kind: (shade, words) for kind, shade, words in board_key(JACQUET, "fr", arrows=True)}
    assert key["arrows"][0] == colour
    assert colour not in {key["last-play"][0], key["courier"][0]}
    assert "flèches" in key["arrows"][1]
    assert "arrows" not in {kind for kind, _, _ in board_key(JACQUET, "en")}
