"""The board as SVG: a pure function of the position, like python-chess's ``svg.board``.

The board is drawn from White's side as the rules digest lays it out: White's talon (his
24) top right, his route running right to left along the top and left to right along the
bottom to his home (6-1) bottom right. ``flipped=True`` turns the board round. Each point
shows up to five men and a count above that; the bar and the borne-off trays, the dice,
the courier (a ring) and the last play (highlighted points) are drawn when given.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from html import escape

from notation.engine.board import BAR, OFF, Position
from notation.engine.dice import Dice
from notation.engine.play import Step
from notation.engine.rules import RuleSet, courier_phase, courier_point

POINT_W = 40
MAN_R = 17
HALF_H = 200
MARGIN = 20
BAR_W = 40
TRAY_W = 50
WIDTH = MARGIN * 2 + POINT_W * 12 + BAR_W + TRAY_W
HEIGHT = MARGIN * 2 + HALF_H * 2 + 40
STYLE = {
    "board": "#e8d4a6", "frame": "#6b4423", "point_a": "#8b2e16", "point_b": "#d9b77a",
    "white": "#fdfdf8", "black": "#222222", "edge": "#555555", "mark": "#2f7de1",
}


def _slot(white_point: int, flipped: bool) -> tuple[float, bool]:
    """(x centre, on top row) of White's point 1-24."""
    if white_point >= 13:
        column, top = 24 - white_point, True          # 24 at the right of the top row
        column = 11 - column
    else:
        column, top = 12 - white_point, False         # 12 at the left of the bottom row
    if flipped:
        column, top = 11 - column, not top
    x = MARGIN + column * POINT_W + (BAR_W if column >= 6 else 0) + POINT_W / 2
    return x, top


@lru_cache(maxsize=4096)
def _men(x: float, top: bool, count: int, colour: str, label_colour: str) -> str:
    """The men of one side on one point (up to five drawn, a count above that)."""
    parts = []
    shown = min(count, 5)
    for i in range(shown):
        offset = MARGIN + MAN_R + 2 + i * (2 * MAN_R + 1)
        y = offset if top else HEIGHT - 40 - offset
        parts.append(f'<circle class="man" cx="{x:.0f}" cy="{y:.0f}" r="{MAN_R}" fill="{colour}" '
                     f'stroke="{STYLE["edge"]}" stroke-width="1.5"/>')
    if count > 5:
        offset = MARGIN + MAN_R + 2 + 4 * (2 * MAN_R + 1)
        y = offset if top else HEIGHT - 40 - offset
        parts.append(f'<text x="{x:.0f}" y="{y + 5:.0f}" text-anchor="middle" font-size="15" '
                     f'font-weight="bold" fill="{label_colour}">{count}</text>')
    return "".join(parts)


FRAME = (f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="{STYLE["frame"]}"/>'
         f'<rect x="{MARGIN}" y="{MARGIN}" width="{POINT_W * 12 + BAR_W}" '
         f'height="{HALF_H * 2}" fill="{STYLE["board"]}"/>'
         f'<rect x="{MARGIN + 6 * POINT_W}" y="{MARGIN}" width="{BAR_W}" height="{HALF_H * 2}" '
         f'fill="{STYLE["frame"]}"/>')
"""The frame, the playing area and the bar, under everything else."""


def _point_head(white_point: int, flipped: bool, marked: bool, label: int) -> str:
    """White's point ``white_point`` up to its men: its group opened, the point (with the
    last play's mark or not) and its number ``label`` (in White's numbering or Black's)."""
    x, top = _slot(white_point, flipped)
    tip = MARGIN + HALF_H - 20 if top else MARGIN + HALF_H + 20
    base = MARGIN if top else MARGIN + HALF_H * 2
    colour = STYLE["point_a"] if white_point % 2 else STYLE["point_b"]
    mark = ' stroke="{}" stroke-width="3"'.format(STYLE["mark"]) if marked else ""
    # The point, its number and its men form one group: a click anywhere on it names it.
    label_y = (MARGIN - 5) if top else (HEIGHT - 40 + 16 - 2)
    return (f'<g class="column" data-point="{white_point}">'
            f'<polygon class="point" data-point="{white_point}" points="{x - POINT_W / 2:.0f},'
            f'{base} {x + POINT_W / 2:.0f},{base} {x:.0f},{tip}" fill="{colour}"{mark}/>'
            f'<text x="{x:.0f}" y="{label_y}" text-anchor="middle" font-size="11" '
            f'fill="#f4e7c9">{label}</text>')


WHITE_NUMBERS = tuple(range(25))


@lru_cache(maxsize=32)
def _points(flipped: bool, marked: bool,
            labels: tuple[int, ...]) -> tuple[tuple[int, float, bool, str], ...]:
    """For White's points 1 to 24, (the point, its x, on the top row, the point drawn up to
    its men, numbered ``labels[point]``). The board is drawn from these, only the men, the
    marks, the couriers, the bar, the trays and the dice depending on the position."""
    return tuple((white_point, *_slot(white_point, flipped),
                  _point_head(white_point, flipped, marked, labels[white_point]))
                 for white_point in range(1, 25))


def board(position: Position, rules: RuleSet, *, white_to_move: bool = True,
          flipped: bool = False, dice: Dice | None = None,
          last_steps: Iterable[Step] = (), entered_steps: Iterable[Step] = (),
          size: int | None = None, mover_numbers: bool = False,
          title: str | None = None) -> str:
    """The SVG of ``position`` (seen by the player on roll; ``white_to_move`` says who
    that is). The points are numbered in White's numbering, or with ``mover_numbers`` in
    the numbering of the player on roll (as he writes his plays). ``last_steps`` are the
    last play's steps, in the numbering of the player who made it (the one not on roll);
    ``entered_steps`` the steps the player on roll has entered so far, in his numbering;
    both are highlighted. ``dice`` is the roll to draw.

    >>> from notation import rule_set
    >>> from notation.engine.play import Step
    >>> jacquet = rule_set("jacquet")
    >>> import re
    >>> def marked(svg):
    ...     return sorted(int(p) for p in re.findall(r'data-point="(\\d+)"[^>]*stroke-width="3"', svg))
    >>> after = jacquet.start.swapped()  # White has played 24/14: Black to play
    >>> marked(board(after, jacquet, white_to_move=False, last_steps=[Step(24, 14, 10)]))
    [14, 24]
    >>> marked(board(jacquet.start, jacquet, entered_steps=[Step(24, 18, 6)]))  # White entering
    [18, 24]
    """
    white = position if white_to_move else position.swapped()
    black_of = rules.opposite  # White's point p is Black's opposite[p]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}"'
             + (f' width="{size}" height="{size * HEIGHT // WIDTH}"' if size else "")
             + ' role="img" class="jacquet-board">']
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    parts.append(FRAME)
    highlighted = (_highlighted(last_steps, not white_to_move, rules)
                   | _highlighted(entered_steps, white_to_move, rules))
    labels = WHITE_NUMBERS if white_to_move or not mover_numbers else tuple(black_of)
    plain, marked = _points(flipped, False, labels), _points(flipped, True, labels)
    mine, theirs = white.mover, white.opponent
    white_colour, black_colour = STYLE["white"], STYLE["black"]
    for white_point, x, top, head in plain:
        if white_point in highlighted:
            head = marked[white_point - 1][3]
        parts.append(head)
        count = mine[white_point]
        if count:
            parts.append(_men(x, top, count, white_colour, "#000"))
        count = theirs[black_of[white_point]]
        if count:
            parts.append(_men(x, top, count, black_colour, "#fff"))
        parts.append("</g>")
    parts += _couriers(white, rules, flipped)
    parts += _bar_and_trays(white, flipped)
    if dice is not None:
        parts += _dice(dice)
    parts.append("</svg>")
    return "".join(parts)


def _highlighted(steps: Iterable[Step], white_moved: bool, rules: RuleSet) -> set[int]:
    """White's numbers of the points the last play left and reached."""
    points = set()
    for step in steps:
        for point in (step.from_point, step.to_point):
            if 1 <= point <= 24:
                points.add(point if white_moved else rules.opposite[point])
    return points


def _couriers(white: Position, rules: RuleSet, flipped: bool) -> list[str]:
    """A ring round each side's courier while its courier phase lasts."""
    if not rules.courier:
        return []
    parts = []
    for board_side, to_white in ((white.mover, lambda p: p), (white.opponent, lambda p: rules.opposite[p])):
        if courier_phase(board_side):
            point = courier_point(board_side)
            if 1 <= point <= 24 and point != 24:
                x, top = _slot(to_white(point), flipped)
                y = MARGIN + MAN_R + 2 if top else HEIGHT - 40 - MAN_R - 2
                parts.append(f'<circle class="courier" cx="{x:.0f}" cy="{y:.0f}" r="{MAN_R + 3}" '
                             f'fill="none" stroke="{STYLE["mark"]}" stroke-width="3"/>')
    return parts


def _bar_and_trays(white: Position, flipped: bool) -> list[str]:
    """The men on the bar and the men borne off. The bar and the trays are groups named
    ``data-point="bar"`` and ``"off"``, like the points, so a scorer can click them."""
    bar_x = MARGIN + 6 * POINT_W + BAR_W / 2
    tray_x = MARGIN + 12 * POINT_W + BAR_W + TRAY_W / 2
    parts = [(f'<g class="bar" data-point="bar"><rect x="{bar_x - BAR_W / 2:.0f}" y="{MARGIN}" '
              f'width="{BAR_W}" height="{HALF_H * 2}" fill="transparent"/>')]
    for count, colour, label, top in ((white.mover[BAR], STYLE["white"], "#000", False),
                                      (white.opponent[BAR], STYLE["black"], "#fff", True)):
        if count:
            top = top != flipped
            y = MARGIN + HALF_H - 40 if top else MARGIN + HALF_H + 40
            parts.append(f'<circle class="bar-man" cx="{bar_x:.0f}" cy="{y}" r="{MAN_R}" fill="{colour}" '
                         f'stroke="{STYLE["edge"]}"/>')
            parts.append(f'<text x="{bar_x:.0f}" y="{y + 5}" text-anchor="middle" font-size="14" '
                         f'fill="{label}">{count}</text>')
    parts.append(f'</g><g class="tray" data-point="off"><rect x="{tray_x - TRAY_W / 2:.0f}" '
                 f'y="{MARGIN}" width="{TRAY_W}" height="{HALF_H * 2}" fill="transparent"/>')
    for count, colour, top in ((white.mover[OFF], STYLE["white"], False),
                               (white.opponent[OFF], STYLE["black"], True)):
        top = top != flipped
        y0 = MARGIN + 10 if top else MARGIN + HALF_H * 2 - 10
        for i in range(count):
            y = y0 + i * 8 if top else y0 - i * 8 - 6
            parts.append(f'<rect class="off" x="{tray_x - 16:.0f}" y="{y}" width="32" height="6" '
                         f'fill="{colour}" stroke="{STYLE["edge"]}" stroke-width="0.5"/>')
    parts.append("</g>")
    return parts


def _dice(dice: Dice) -> list[str]:
    parts = []
    x0 = MARGIN + 9 * POINT_W + BAR_W - 30
    y = MARGIN + HALF_H - 18
    for i, value in enumerate(dice.values):
        x = x0 + i * 44
        parts.append(f'<rect class="die" x="{x}" y="{y}" width="36" height="36" rx="6" fill="#fff" '
                     f'stroke="#333"/>')
        parts.append(f'<text x="{x + 18}" y="{y + 25}" text-anchor="middle" font-size="20" '
                     f'font-weight="bold" fill="#111">{value}</text>')
    return parts
