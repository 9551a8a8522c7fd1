"""The pip-count chart of a game: both players' pip counts after every ply, as SVG drawn
from the numbers only (no user text), with its axes (pips, plies) labelled, each ply a
link to its permalink.

The chart is rendered once per game (and kind of link) from the ``chart_head`` and
``chart_bands`` macros (``templates/games/pieces.html``); a page marks the band of its own
ply in that text, its fill made :data:`MARK` (where the rendering was found to hold each
band's fill when the chart was made: :class:`Bands`, which the evaluation graph of
:mod:`webviewer.pages.evaluation` shares).
"""

from __future__ import annotations

from array import array

from notation.messages import Message, render
from webviewer.pages.pieces import pieces
from webviewer.pages.tree import Links
from webviewer.plumbing.language import page_language

WIDTH, HEIGHT = 600, 150
LEFT, RIGHT, TOP, BOTTOM = 44, 10, 10, 30
"""The margins round the plot: the pip axis at the left, the ply axis below."""
FILL = "transparent"
"""The fill of a ply's band."""
MARK = "#2f7de1"
"""The fill of the current ply's band."""
_FILL, _MARKED = f' fill="{FILL}"'.encode(), f' fill="{MARK}"'.encode()


class Bands:
    """A chart's SVG in UTF-8 (``head``, then one clickable band per ply rendered by the
    ``chart_bands`` macro, then ``</svg>``), with where each band's fill is, so that a
    page marks its own ply without rendering the chart again."""

    def __init__(self, head: str, bands: str, plies: int) -> None:
        drawn = bands.encode()
        self._utf8 = head.encode(), drawn, b"</svg>"
        fills, at = [], drawn.find(_FILL)
        while at >= 0:
            fills.append(at)
            at = drawn.find(_FILL, at + len(_FILL))
        assert len(fills) == plies, "one fill per band (the chart holds no user text)"
        self._fills = array("I", fills)
        """Where each ply's band has its fill in the bands' UTF-8."""

    def utf8(self, current: int) -> tuple[bytes | memoryview, ...]:
        """The chart in UTF-8 with ply ``current`` marked (none if it is not a ply of the
        chart), in pieces (most of them kept from one page to the next)."""
        head, bands, tail = self._utf8
        if not 0 <= current < len(self._fills):
            return head, bands, tail
        whole = memoryview(bands)
        at = self._fills[current]
        return head, whole[:at], _MARKED, whole[at + len(_FILL):], tail


def band_width(plies: int) -> float:
    """The width of a ply's band in a chart of ``plies`` plies (a point per ply)."""
    return (WIDTH - LEFT - RIGHT) / max(1, plies - 1)


def ply_ticks(plies: int, step: float) -> list[tuple[str, int]]:
    """The ply axis's ticks (position, label): every 5, 10, 20, 50... plies, at most 9."""
    last = plies - 1
    every = next(size for size in (5, 10, 20, 50, 100, 200, 500, 10**9) if last / size <= 8)
    return [(f"{LEFT + ply * step:.1f}", ply) for ply in range(0, last + 1, every)]


class PipChart:
    """``pips[k]`` is (White, Black) after ply k; ``links`` those of the game's page. Made
    in a request (or app) context: it renders the app's macros."""

    def __init__(self, pips: tuple[tuple[int, int], ...], links: Links) -> None:
        self.pips = pips
        self.links = links
        self.top = max((max(w, b) for w, b in pips), default=0) or 1
        self.step = band_width(len(pips))
        self.width = f"{max(self.step, 1):.1f}"
        """Every band's width, as written."""
        macros = pieces()
        head = macros.chart_head(WIDTH, HEIGHT, *self._lines(), self._axes())
        language = page_language()
        bands = [(ply, LEFT + ply * self.step - self.step / 2,
                  render(Message.of("chart.pips", white=w, black=b), language))
                 for ply, (w, b) in enumerate(pips)]
        drawn = macros.chart_bands(bands, links, self.width, TOP, HEIGHT - TOP - BOTTOM, FILL)
        self._bands = Bands(head, drawn, len(pips)) if pips else None

    def _y(self, value: float) -> float:
        """The height of ``value`` pips."""
        return HEIGHT - BOTTOM - (HEIGHT - TOP - BOTTOM) * value / self.top

    def _lines(self) -> tuple[str, str]:
        """White's and Black's polylines' points (``x,y`` as written)."""
        step, pips, y = self.step, self.pips, self._y
        xs = [f"{LEFT + ply * step:.1f}," for ply in range(len(pips))]
        white = " ".join([f"{x}{y(w):.1f}" for x, (w, _) in zip(xs, pips, strict=True)])
        black = " ".join([f"{x}{y(b):.1f}" for x, (_, b) in zip(xs, pips, strict=True)])
        return white, black

    def _axes(self) -> dict[str, object]:
        """The axes for the ``chart_head`` macro: the plot's box and the ticks of each axis,
        (position, label): pips at 0, half and the most, plies every 10 (or 20, 50)."""
        half = round(self.top / 2)
        return {"left": LEFT, "right": WIDTH - RIGHT, "top": TOP, "bottom": HEIGHT - BOTTOM,
                "pips": [(f"{self._y(v):.1f}", v) for v in sorted({0, half, self.top})],
                "plies": ply_ticks(len(self.pips), self.step)}

    def utf8(self, current: int) -> tuple[bytes | memoryview, ...]:
        """The chart in UTF-8 with ply ``current`` marked (none if it is not a ply of the
        chart), in pieces (most of them kept from one page to the next)."""
        return () if self._bands is None else self._bands.utf8(current)
