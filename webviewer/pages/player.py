"""The player page's analyses: for each engine that analysed his games, his error rate in
each analysed game as a chart (drawn from numbers and dates only, each point a link to its
game) and his worst plays, each a link to its ply.

The chart's games stand in date order, evenly spaced (the k-th of his dated games, so the
games of one day, a tournament's, are spread apart rather than drawn on one another); the
dates are written under the games they cover, by year, by month or by day (the finest
unit that tells them apart), and the error-rate axis has round ticks."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext
from markupsafe import Markup, escape

from notation.engine.rules import rule_set
from notation.messages import Message, render
from webviewer.plumbing.language import decimals

WIDTH, HEIGHT = 600, 180
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 10, 30
"""The margins round the plot: the error-rate axis at the left, the dates below."""
POINTS = 500
"""The analysed games a chart shows (his newest with a date)."""
LABEL_SPACE = 70
"""The least distance between two dates written under the chart (a day's date is about
60 wide)."""
_DATE = re.compile(r"(\d{4})(?:\.(\d{2}))?(?:\.(\d{2}))?")


def date_parts(date: str) -> tuple[int, int, int] | None:
    """A game's date (``YYYY``, ``YYYY.MM`` or ``YYYY.MM.DD``; unknown parts ``??``) as
    (year, month, day), 0 for a part not known; ``None`` without a year."""
    match = _DATE.match(date)
    if match is None:
        return None
    year, month, day = (int(part) if part else 0 for part in match.groups())
    return year, month, day if month else 0


def nice_step(top: float, ticks: int = 4) -> float:
    """The round step (1, 2 or 5 times a power of ten) of an axis from 0 to ``top`` with
    at most ``ticks`` steps.

    >>> nice_step(289.6), nice_step(12.3), nice_step(1.0), nice_step(0.04)
    (100, 5, 0.5, 0.01)
    """
    raw = top / ticks
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(size * power for size in (1, 2, 5, 10) if size * power >= raw * (1 - 1e-9))
    return int(step) if step >= 1 else round(step, 12)


def _number(value: float) -> str:
    return f"{round(value, 9):g}"


@dataclass
class ErrorChart:
    """The chart of one engine's error rates: ``points``, the polyline's points as
    written, and ``marks``, each point's circle in a link to its game (SVG made here: the
    numbers written as they are, the addresses and dates escaped; escaping every number in
    the template took half the page's time for 500 points); the axes' ticks ((position,
    label) each: ``rates`` the error rates, ``dates`` the dates under their games), the
    plot's box."""

    drawn: int
    line: str
    marks: Markup
    rates: list[tuple[float, str]]
    dates: list[tuple[float, str]]
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM


def _date_ticks(dates: list[tuple[int, int, int]], xs: list[float]) -> list[tuple[float, str]]:
    """The dates written under the chart: each year (or month, or day: the finest unit of
    which the games hold more than one; a day if they all share one) under the middle of
    its games, none closer than :data:`LABEL_SPACE` to the one before."""
    unit = next((size for size in (1, 2, 3) if len({date[:size] for date in dates}) > 1), 3)
    groups: list[tuple[tuple[int, ...], float, float]] = []
    for date, x in zip(dates, xs, strict=True):
        key = tuple(part for part in date[:unit] if part)
        if groups and groups[-1][0] == key:
            groups[-1] = (key, groups[-1][1], x)
        else:
            groups.append((key, x, x))
    ticks: list[tuple[float, str]] = []
    for key, first, last in groups:
        middle = round((first + last) / 2, 1)
        if not ticks or middle - ticks[-1][0] >= LABEL_SPACE:
            ticks.append((middle, ".".join(f"{part:02d}" for part in key)))
    return ticks


def error_chart(points: list[dict[str, Any]], link: Callable[[int], str]) -> ErrorChart | None:
    """The chart of ``points`` (``date``, ``error_rate``, ``game_id`` each, oldest first),
    x by the games' order and y by error rate from 0 to a round value over the largest,
    each point a link to ``link(game_id)``; ``None`` if none has a year."""
    dated = [(parts, point) for point in points if (parts := date_parts(point["date"])) is not None]
    if not dated:
        return None
    largest = max(point["error_rate"] for _, point in dated) or 1.0
    step = nice_step(largest)
    top = step * math.ceil(largest / step - 1e-9)
    span_x, span_y = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def y(rate: float) -> float:
        return round(HEIGHT - BOTTOM - span_y * rate / top, 1)

    xs = [round(LEFT + span_x * (index + 0.5) / len(dated), 1) for index in range(len(dated))]
    rates = [(y(step * k), _number(step * k)) for k in range(round(top / step) + 1)]
    drawn = [(x, y(point["error_rate"]), point) for x, (_, point) in zip(xs, dated, strict=True)]
    marks = "".join(f'<a href="{escape(link(point["game_id"]))}"><circle cx="{cx}" cy="{cy}" r="4" '
                    f'fill="#2f7de1"><title>{escape(_said(point))}</title></circle></a>'
                    for cx, cy, point in drawn)
    return ErrorChart(len(drawn), " ".join(f"{cx},{cy}" for cx, cy, _ in drawn), Markup(marks),
                      rates, _date_ticks([parts for parts, _ in dated], xs))


def _said(point: dict[str, Any]) -> str:
    """A point's title in the page's language: its date, error rate and game."""
    return str(gettext("%(date)s: error rate %(rate)s (game %(game)s)", date=point["date"],
                       rate=decimals(point["error_rate"], 1), game=point["game_id"]))


def skill_scale(variant: str, language: str) -> list[tuple[str, float]]:
    """The scale a player's error rate is labelled on in rule set ``variant``
    (``RuleSet.skill``), for the page to say in words: (label in ``language``, the error
    rate it holds below) each, best first; the last label's bound is the one it holds from
    (the one before it)."""
    scale = rule_set(variant).skill
    labels = [render(Message.of(label), language) for _, label in scale]
    bounds = [bound for bound, _ in scale[:-1]]
    return list(zip(labels, [*bounds, bounds[-1]], strict=True))
