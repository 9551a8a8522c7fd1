"""A play drawn as arrows on the SVG board (:mod:`notation.render.svg`): each step from the
point it leaves to the point it reaches, a man entering from the bar, a man borne off
pointing into his tray. The analysis board draws the candidate looked at, or the best
play, so; the arrows have a colour of their own (:data:`ARROW`), apart from the last
play's outline and the rings, and a line in the board's key (``key.arrows``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from html import escape

from notation.engine.board import BAR, OFF
from notation.engine.play import Step
from notation.engine.rules import RuleSet
from notation.render.svg import BAR_W, HALF_H, HEIGHT, MAN_R, MAN_Y, MARGIN, POINT_W, STYLE, TRAY_W, slot

ARROW = STYLE["arrow"]
"""The arrows' colour: an orange, apart from the last play's blue, the ring's magenta and
the head's green."""
BEST = STYLE["best"]
"""The colour of the engine's best play of the roll to play (lichess's arrow on every
move), its shafts dashed: a violet, apart from the play looked at."""
HEAD = 16
"""The arrowhead's length (its width is the same)."""
SPREAD = 14
"""How far apart the arrows of a play's steps along one row are drawn (so that 24/18 24/23
shows two arrows, not one over the other)."""


def point_centre(white_point: int, flipped: bool) -> tuple[float, float]:
    """Where an arrow starts or ends on White's point ``white_point`` (1-24): its x, and
    the y of the third man from the board's edge."""
    x, top = slot(white_point, flipped)
    offset = MAN_Y + 2 * (2 * MAN_R + 1)
    return x, offset if top else HEIGHT - 40 - offset


def _place(point: int, white_moved: bool, rules: RuleSet, flipped: bool) -> tuple[float, float]:
    """Where the mover's ``point`` is on the board: a point, the bar or his tray (each in
    the half of the side that moves)."""
    if 1 <= point <= 24:
        return point_centre(point if white_moved else rules.opposite[point], flipped)
    at_bottom = white_moved != flipped  # White's bar men and tray are at the bottom
    y = MARGIN + HALF_H + (HALF_H / 2 if at_bottom else -HALF_H / 2)
    if point == BAR:
        return MARGIN + 6 * POINT_W + BAR_W / 2, y
    assert point == OFF, point
    return MARGIN + 12 * POINT_W + BAR_W + TRAY_W / 2, y


def _arrow(start: tuple[float, float], end: tuple[float, float], colour: str = ARROW,
           dashed: bool = False) -> str:
    """One arrow from ``start`` to ``end``: a shaft (``dashed`` or not) and a head whose tip
    is at ``end``, in ``colour``."""
    (x1, y1), (x2, y2) = start, end
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    bx, by = x2 - ux * HEAD, y2 - uy * HEAD  # the head's base, on the shaft
    half = HEAD / 2
    head = (f"{x2:.0f},{y2:.0f} {bx - uy * half:.0f},{by + ux * half:.0f} "
            f"{bx + uy * half:.0f},{by - ux * half:.0f}")
    dashes = ' stroke-dasharray="12 7"' if dashed else ""
    return (f'<line class="arrow-step" x1="{x1:.0f}" y1="{y1:.0f}" x2="{bx:.0f}" y2="{by:.0f}" '
            f'stroke="{colour}" stroke-width="6" stroke-linecap="{"butt" if dashed else "round"}"{dashes} '
            f'opacity="0.85"/><polygon class="arrow-head" points="{head}" fill="{colour}" opacity="0.85"/>')


def arrows(steps: Iterable[Step], white_moved: bool, rules: RuleSet, flipped: bool = False,
           title: str = "", best: bool = False) -> str:
    """The SVG group of a play's ``steps`` (in the numbering of the player who makes it:
    White if ``white_moved``) as arrows on a board of ``rules`` (``flipped`` or not), each
    step a ``<g class="arrow">`` with ``data-from`` and ``data-to`` (the mover's points:
    ``0`` off, ``25`` the bar); ``title`` (the play) is the group's title. ``best``: the
    engine's best play of the roll to play, drawn apart (:data:`BEST`, dashed; the group's
    class ``arrows best``).

    >>> from notation import rule_set
    >>> svg = arrows([Step(24, 18, 6)], True, rule_set("jacquet"), title="24/18")
    >>> svg.count('class="arrow"'), 'data-from="24" data-to="18"' in svg
    (1, True)
    """
    parts = [f'<g class="arrows{" best" if best else ""}" pointer-events="none">']
    colour = BEST if best else ARROW
    if title:
        parts.append(f"<title>{escape(title, quote=False)}</title>")
    for index, step in enumerate(steps):
        start = _place(step.from_point, white_moved, rules, flipped)
        end = _place(step.to_point, white_moved, rules, flipped)
        if start[1] == end[1]:  # along one row: each step a little nearer the middle
            shift = SPREAD * (index % 4) * (1 if start[1] < HEIGHT / 2 else -1)
            start, end = (start[0], start[1] + shift), (end[0], end[1] + shift)
        parts.append(f'<g class="arrow" data-from="{step.from_point}" data-to="{step.to_point}">'
                     f"{_arrow(start, end, colour, best)}</g>")
    parts.append("</g>")
    return "".join(parts)
