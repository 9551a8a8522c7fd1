"""The evaluation graph of an analysed game: White's winning chance after every ply of the
main line, as the engine judged the play made (the ``win`` probability of the played
candidate stored for that turn, ``1 − win`` after Black's), as SVG drawn from numbers only,
each ply a link to its page like the pip chart's (:mod:`webviewer.pages.chart`, whose
:class:`~webviewer.pages.chart.Bands` marks the page's own ply).

A ply the engine did not judge (the start, a cube action, a resignation) carries the
chance of the ply before it; the turns marked ``?!``, ``?``, ``??`` are dots in their
mark's colour (:data:`MARK_COLOURS`).
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext

from webviewer.pages.chart import BOTTOM, FILL, HEIGHT, LEFT, RIGHT, TOP, WIDTH, Bands, band_width, ply_ticks
from webviewer.pages.pieces import pieces
from webviewer.pages.tree import Links
from webviewer.plumbing.language import percent

MARK_COLOURS = {"?!": "#c9a227", "?": "#e07b00", "??": "#c62828"}
"""The colour of each mark, in the graph as in the move list (``style.css``)."""


def white_chances(plies: int, turns: dict[int, dict[str, Any]]) -> list[float | None]:
    """White's winning chance after each ply ``0 .. plies − 1`` (``turns``: the analysis's
    turns by ply, :func:`archive.analyses.latest_analysis`); ``None`` before the first
    judged turn."""
    chances: list[float | None] = []
    last: float | None = None
    for ply in range(plies):
        turn = turns.get(ply)
        if turn is not None:
            played = next((c for c in turn["candidates"] if c["play"] == turn["played"]), None)
            if played is not None:
                win = float(played["probabilities"]["win"])
                last = win if turn["player"] == "W" else 1.0 - win
        chances.append(last)
    return chances


class EvaluationGraph:
    """The graph of an analysed game of ``plies`` plies (the start counted), its bands
    linking through ``links``; ``engine`` names the engine and its depth. Made in a request
    (or app) context: it renders the app's macros, and its chances are in the request's
    language (Babel's percent format)."""

    def __init__(self, plies: int, turns: dict[int, dict[str, Any]], links: Links, engine: str) -> None:
        step = band_width(plies)
        chances = white_chances(plies, turns)

        def y(chance: float) -> float:
            return HEIGHT - BOTTOM - (HEIGHT - TOP - BOTTOM) * chance

        line = " ".join(f"{LEFT + ply * step:.1f},{y(chance):.1f}"
                        for ply, chance in enumerate(chances) if chance is not None)
        dots = [(f"{LEFT + ply * step:.1f}", f"{y(chance):.1f}", MARK_COLOURS[turns[ply]["mark"]])
                for ply, chance in enumerate(chances)
                if chance is not None and ply in turns and turns[ply]["mark"] in MARK_COLOURS]
        axes = {"left": LEFT, "right": WIDTH - RIGHT, "top": TOP, "bottom": HEIGHT - BOTTOM,
                "chances": [(f"{y(v):.1f}", percent(v)) for v in (0.0, 0.5, 1.0)],
                "plies": ply_ticks(plies, step)}
        not_judged = gettext("not judged")
        labels = [gettext("White %(chance)s", chance=percent(chance)) if chance is not None
                  else not_judged for chance in chances]
        for ply, turn in turns.items():
            if 0 <= ply < plies and turn["mark"] in MARK_COLOURS:
                labels[ply] += f", {turn['mark']}"
        macros = pieces()
        head = macros.evaluation_head(WIDTH, HEIGHT, line, dots, axes, engine)
        bands = [(ply, LEFT + ply * step - step / 2, label) for ply, label in enumerate(labels)]
        drawn = macros.chart_bands(bands, links, f"{max(step, 1):.1f}", TOP, HEIGHT - TOP - BOTTOM, FILL)
        self._bands = Bands(head, drawn, plies)

    def utf8(self, current: int) -> tuple[bytes | memoryview, ...]:
        """The graph in UTF-8 with ply ``current`` marked (none if it is not a ply of the
        game's main line), in pieces."""
        return self._bands.utf8(current)
