"""The board as SVG: a pure function of the position, like python-chess's ``svg.board``.

The board is drawn from White's side as the rules digest lays it out: White's talon (his
24) top right, his route running right to left along the top and left to right along the
bottom to his home (6-1) bottom right. ``flipped=True`` turns the board round. Each point
shows up to five men and a count above that; the bar and the borne-off trays, the dice (in
the right half of the board for the player at the bottom, in the left half for the one at
the top: each player's right hand), the doubling cube (for a rule set with one: on the bar,
centred when no one owns it, else at its owner's end), the courier or fevga's runner (a ring
round the man), narde's head while R-HEAD limits the men leaving it (a dashed frame round
the point), each mark with a title and all of them in the board's description, for screen
readers, and the last play (highlighted points) are drawn when given. The points are numbered as
White counts them, or as Black does (``black_numbers``).

The board is drawn as a list of pieces of SVG (:func:`board_parts`), the same pieces again
and again from one position to the next: the game page sends each piece once and each
position as the list of its pieces.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from html import escape
from typing import NamedTuple

from notation.engine.board import BAR, OFF, Position
from notation.engine.dice import Dice
from notation.engine.play import Step
from notation.engine.rules import RuleSet, courier_point
from notation.engine.state import Colour
from notation.messages import Message, render

POINT_W = 40
MAN_R = 17
HALF_H = 200
MARGIN = 20
BAR_W = 40
TRAY_W = 50
WIDTH = MARGIN * 2 + POINT_W * 12 + BAR_W + TRAY_W
HEIGHT = MARGIN * 2 + HALF_H * 2 + 40
MAN_Y = MARGIN + MAN_R + 2
"""How far the centre of the man next to the board's edge is from it (top or bottom)."""
CUBE_W = 34
STYLE = {
    "board": "#e8d4a6", "frame": "#6b4423", "point_a": "#8b2e16", "point_b": "#d9b77a",
    "white": "#fdfdf8", "black": "#222222", "edge": "#555555", "mark": "#2f7de1",
    "head": "#1f6f43", "ring": "#c0178f", "arrow": "#e07b00", "best": "#6f42c1",
}
"""The board's colours: the last play's outline (``mark``), the ring round a man who runs
alone (``ring``), the head's frame (``head``), a play's arrows (``arrow``) and the engine's
best play of the roll to play (``best``, dashed arrows) each of its own, as the key says
(:func:`board_key`)."""


def slot(white_point: int, flipped: bool) -> tuple[float, bool]:
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
        offset = MAN_Y + i * (2 * MAN_R + 1)
        y = offset if top else HEIGHT - 40 - offset
        parts.append(f'<circle class="man" cx="{x:.0f}" cy="{y:.0f}" r="{MAN_R}" fill="{colour}" '
                     f'stroke="{STYLE["edge"]}" stroke-width="1.5"/>')
    if count > 5:
        offset = MAN_Y + 4 * (2 * MAN_R + 1)
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


def _point_head(white_point: int, flipped: bool, marked: bool, number: int) -> str:
    """White's point ``white_point`` up to its men: its group opened, the point (with the
    last play's mark or not) and its ``number`` (White's or Black's)."""
    x, top = slot(white_point, flipped)
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
            f'fill="#f4e7c9">{number}</text>')


@lru_cache(maxsize=64)
def _points(flipped: bool, marked: bool,
            numbers: tuple[int, ...]) -> tuple[tuple[int, float, bool, str], ...]:
    """For White's points 1 to 24, (the point, its x, on the top row, the point drawn up
    to its men), numbered ``numbers[point]``. The board is drawn from these, only the
    men, the marks, the couriers, the bar, the trays, the cube and the dice depending on
    the position."""
    return tuple((white_point, *slot(white_point, flipped),
                  _point_head(white_point, flipped, marked, numbers[white_point]))
                 for white_point in range(1, 25))


WHITE_NUMBERS = tuple(range(26))
"""White's number of each of his points (the identity)."""


def board(position: Position, rules: RuleSet, *, white_to_move: bool = True,
          flipped: bool = False, dice: Dice | None = None, dice_of_white: bool | None = None,
          last_steps: Iterable[Step] = (), entered_steps: Iterable[Step] = (),
          cube: int | None = 1, cube_owner: str | None = None, black_numbers: bool = False,
          size: int | None = None,
          title: str | None = None, language: str = "en", overlay: str = "") -> str:
    """The SVG of ``position`` (seen by the player on roll; ``white_to_move`` says who
    that is). ``last_steps`` are the last play's steps, in the numbering of the player who
    made it (the one not on roll); ``entered_steps`` the steps the player on roll has
    entered so far, in his numbering; both are highlighted. ``dice`` is the roll to draw,
    beside who rolled it (``dice_of_white``; ``None``: the player on roll). ``cube`` and
    ``cube_owner`` (``"W"``, ``"B"``, ``None`` for the middle) are the doubling cube's,
    drawn if the rule set has one (``cube=None``: a game played without it, none drawn).
    ``black_numbers``: the points numbered as Black counts
    them. The marks' titles are in ``language``. ``overlay`` is drawn over the rest (a
    play's arrows, :func:`notation.render.arrows.arrows`). (:func:`board_parts` joined.)

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
    >>> 'class="cube"' in board(rule_set("backgammon").start, rule_set("backgammon"), cube=2, cube_owner="B")
    True
    """
    return "".join(board_parts(position, rules, white_to_move=white_to_move, flipped=flipped,
                               dice=dice, dice_of_white=dice_of_white, last_steps=last_steps,
                               entered_steps=entered_steps, cube=cube, cube_owner=cube_owner,
                               black_numbers=black_numbers, size=size, title=title,
                               language=language, overlay=overlay))


def board_parts(position: Position, rules: RuleSet, *, white_to_move: bool = True,
                flipped: bool = False, dice: Dice | None = None, dice_of_white: bool | None = None,
                last_steps: Iterable[Step] = (), entered_steps: Iterable[Step] = (),
                cube: int | None = 1, cube_owner: str | None = None, black_numbers: bool = False,
                size: int | None = None, title: str | None = None,
                language: str = "en", overlay: str = "") -> list[str]:
    """:func:`board` as the pieces it is joined from: the opening ``<svg>`` tag first, the
    closing one last, the same piece of SVG for the same thing drawn in any position."""
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
    numbers = rules.opposite if black_numbers else WHITE_NUMBERS
    plain, marked = _points(flipped, False, numbers), _points(flipped, True, numbers)
    mine, theirs = white.mover, white.opponent
    white_colour, black_colour = STYLE["white"], STYLE["black"]
    marks = _marks(white, rules, language)
    marked_at = {mark.white_point: [_mark(m, flipped) for m in marks if m.white_point == mark.white_point]
                 for mark in marks}
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
        parts += marked_at.get(white_point, ())
        parts.append("</g>")
    if marks:
        parts.append(f"<desc>{escape(' '.join(mark.words for mark in marks), quote=False)}</desc>")
    parts += _bar_and_trays(white, flipped)
    if rules.has_cube and cube is not None:
        parts.append(_cube(cube, None if cube_owner is None else (cube_owner == "W") != flipped,
                           language))
    if dice is not None:
        rolled_by_white = white_to_move if dice_of_white is None else dice_of_white
        parts.append(_dice(dice, rolled_by_white != flipped))
    if overlay:
        parts.append(overlay)
    parts.append("</svg>")
    return parts


def _highlighted(steps: Iterable[Step], white_moved: bool, rules: RuleSet) -> set[int]:
    """White's numbers of the points the last play left and reached."""
    points = set()
    for step in steps:
        for point in (step.from_point, step.to_point):
            if 1 <= point <= 24:
                points.add(point if white_moved else rules.opposite[point])
    return points


class _Mark(NamedTuple):
    """A side's man or point marked for a rule of its phase or head: the mark's class (the
    phase's name, or ``head``), White's number of the point, and the words saying why."""

    kind: str
    white_point: int
    words: str


def _marks(white: Position, rules: RuleSet, language: str) -> list[_Mark]:
    """Each side's marks: a ring round the man who runs alone (the courier, fevga's runner)
    while the phase that makes him do so lasts; the head while a rule limits the men
    leaving it (narde's R-HEAD); their words in ``language``."""
    marks = []
    for side, board_side, to_white in ((Colour.WHITE, white.mover, lambda p: p),
                                       (Colour.BLACK, white.opponent, lambda p: rules.opposite[p])):
        for phase in rules.phases:
            if phase.holds(board_side):
                point = courier_point(board_side)
                if 1 <= point < 24:
                    marks.append(_Mark(phase.name, to_white(point), render(Message.of(
                        f"mark.{phase.name}", side=side.named, point=point, rule=phase.rule_id), language)))
        head = rules.head
        if head is not None and head.limits(board_side):
            marks.append(_Mark("head", to_white(head.point), render(Message.of(
                "mark.head", side=side.named, point=head.point, count=board_side[head.point],
                legend=head.legend, rule=head.rule_id), language)))
    return marks


def board_key(rules: RuleSet, language: str, arrows: bool = False, best: bool = False,
              last_play: bool = True) -> list[tuple[str, str, str]]:
    """What the marks of a board of ``rules`` mean, for a key beside it: (kind, colour,
    words in ``language``) each: the last play's outline (``last-play``, unless not
    ``last_play``), the ring round a man who runs alone (``courier``, ``runner``: the
    rule set's phases) and the head's frame (``head``) where the rule set has them; with
    ``arrows``, the arrows of a play looked at (``arrows``); with ``best``, the engine's
    best play of the roll to play as dashed arrows (``best``;
    :mod:`notation.render.arrows`)."""
    key = [("last-play", STYLE["mark"], render(Message.of("key.last-play"), language))] if last_play else []
    key += [(phase.name, STYLE["ring"], render(Message.of(f"key.{phase.name}", rule=phase.rule_id), language))
            for phase in rules.phases]
    if rules.head is not None:
        key.append(("head", STYLE["head"], render(Message.of("key.head", rule=rules.head.rule_id), language)))
    if arrows:
        key.append(("arrows", STYLE["arrow"], render(Message.of("key.arrows"), language)))
    if best:
        key.append(("best", STYLE["best"], render(Message.of("key.best"), language)))
    return key


@lru_cache(maxsize=512)
def _mark(mark: _Mark, flipped: bool) -> str:
    """A mark drawn: a ring round the man next to the board's edge, or a dashed frame
    round the head's point; its title says why. Drawn in its point's group, so a click on
    it names the point."""
    x, top = slot(mark.white_point, flipped)
    title = f"<title>{escape(mark.words, quote=False)}</title>"
    if mark.kind == "head":
        y = MARGIN + 2 if top else MARGIN + HALF_H + 20
        return (f'<rect class="head" x="{x - POINT_W / 2 + 2:.0f}" y="{y}" width="{POINT_W - 4}" '
                f'height="{HALF_H - 22}" rx="6" fill="none" stroke="{STYLE["head"]}" '
                f'stroke-width="3" stroke-dasharray="8 4">{title}</rect>')
    y = MAN_Y if top else HEIGHT - 40 - MAN_Y  # round the man next to the edge
    return (f'<circle class="{mark.kind}" cx="{x:.0f}" cy="{y:.0f}" r="{MAN_R + 3}" fill="none" '
            f'stroke="{STYLE["ring"]}" stroke-width="3">{title}</circle>')


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


@lru_cache(maxsize=64)
def _cube(value: int, at_bottom: bool | None, language: str) -> str:
    """The doubling cube on the bar: in the middle showing 64 while no one owns it (at
    1), else at the owner's end (``at_bottom``: the owner is the player at the bottom)
    showing its value; its title in ``language``."""
    x = MARGIN + 6 * POINT_W + (BAR_W - CUBE_W) / 2
    if at_bottom is None:
        y = MARGIN + HALF_H - CUBE_W / 2
    else:
        y = MARGIN + HALF_H * 2 - CUBE_W - 4 if at_bottom else MARGIN + 4
    shown = 64 if at_bottom is None and value == 1 else value
    owner = "middle" if at_bottom is None else ("bottom" if at_bottom else "top")
    said = escape(render(Message.of(f"mark.cube.{owner}", value=value), language), quote=False)
    return (f'<g class="cube" data-value="{value}" data-owner="{owner}"><title>{said}'
            f'</title><rect x="{x:.0f}" y="{y:.0f}" width="{CUBE_W}" height="{CUBE_W}" rx="4" '
            f'fill="#fff" stroke="#111" stroke-width="2"/><text x="{x + CUBE_W / 2:.0f}" '
            f'y="{y + CUBE_W / 2 + 6:.0f}" text-anchor="middle" font-size="{16 if shown < 10 else 14}" '
            f'font-weight="bold" fill="#111">{shown}</text></g>')


@lru_cache(maxsize=256)
def _dice(dice: Dice, at_bottom: bool) -> str:
    """The dice in the right half of the board when the player at the bottom rolled them,
    else in the left half (each player's right hand)."""
    parts = ['<g class="dice">']
    x0 = MARGIN + (9 if at_bottom else 3) * POINT_W + (BAR_W if at_bottom else 0) - 40
    y = MARGIN + HALF_H - 18
    for i, value in enumerate(dice.values):
        x = x0 + i * 44
        parts.append(f'<rect class="die" x="{x}" y="{y}" width="36" height="36" rx="6" fill="#fff" '
                     f'stroke="#333"/>')
        parts.append(f'<text x="{x + 18}" y="{y + 25}" text-anchor="middle" font-size="20" '
                     f'font-weight="bold" fill="#111">{value}</text>')
    parts.append("</g>")
    return "".join(parts)
