"""The player page's analyses: for each engine that analysed his games, his error rate in
each analysed game as a chart over time (drawn from numbers and dates only, each point a
link to its game) and his worst plays, each a link to its ply."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup, escape

WIDTH, HEIGHT = 600, 180
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 10, 30
"""The margins round the plot: the error-rate axis at the left, the dates below."""
POINTS = 500
"""The analysed games a chart shows (his newest with a date)."""
_DATE = re.compile(r"(\d{4})(?:\.(\d{2}))?(?:\.(\d{2}))?")


def date_value(date: str) -> float | None:
    """A game's date (``YYYY``, ``YYYY.MM`` or ``YYYY.MM.DD``; unknown parts ``??``) as a
    year with its fraction, for the chart's time axis; ``None`` without a year."""
    match = _DATE.match(date)
    if match is None:
        return None
    year, month, day = (int(part) if part else None for part in match.groups())
    assert year is not None
    month_part = (min(max(month, 1), 12) - 1) / 12 if month else 0.0
    day_part = (min(max(day, 1), 31) - 1) / 372 if month and day else 0.0
    return year + month_part + day_part


@dataclass
class ErrorChart:
    """The chart of one engine's error rates: ``points``, the polyline's points as
    written, and ``marks``, each point's circle in a link to its game (SVG made here: the
    numbers written as they are, the addresses and dates escaped; escaping every number in
    the template took half the page's time for 500 points); the axes' ticks ((position,
    label) each), the plot's box."""

    drawn: int
    line: str
    marks: Markup
    rates: list[tuple[float, str]]
    years: list[tuple[float, str]]
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM


def error_chart(points: list[dict[str, Any]], link: Callable[[int], str]) -> ErrorChart | None:
    """The chart of ``points`` (``date``, ``error_rate``, ``game_id`` each, oldest first),
    x by date and y by error rate from 0 to the largest, each point a link to
    ``link(game_id)``; ``None`` if none has a year."""
    dated = [(value, point) for point in points if (value := date_value(point["date"])) is not None]
    if not dated:
        return None
    first, last = dated[0][0], dated[-1][0]
    if last - first < 1:  # within a year: a year's width round them
        first, last = first - 0.5, last + 0.5
    top = max(point["error_rate"] for _, point in dated) or 1.0
    span_x, span_y = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(value: float) -> float:
        return round(LEFT + span_x * (value - first) / (last - first), 1)

    def y(rate: float) -> float:
        return round(HEIGHT - BOTTOM - span_y * rate / top, 1)

    every = next(step for step in (1, 2, 5, 10, 20, 50, 100, 10**6) if (last - first) / step <= 8)
    years = [(x(year), str(year)) for year in range(int(first) + 1, int(last) + 1) if year % every == 0]
    if not years:
        years = [(x(first), str(int(first)))]
    rates = [(y(rate), f"{rate:g}") for rate in sorted({0.0, round(top / 2, 1), round(top, 1)})]
    drawn = [(x(value), y(point["error_rate"]), point) for value, point in dated]
    marks = "".join(f'<a href="{escape(link(point["game_id"]))}"><circle cx="{cx}" cy="{cy}" r="4" '
                    f'fill="#2f7de1"><title>{escape(point["date"])}: error rate {point["error_rate"]:g} '
                    f'(game {point["game_id"]})</title></circle></a>' for cx, cy, point in drawn)
    return ErrorChart(len(drawn), " ".join(f"{cx},{cy}" for cx, cy, _ in drawn), Markup(marks),
                      rates, years)
