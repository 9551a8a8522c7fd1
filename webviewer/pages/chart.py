"""The pip-count chart of a game: both players' pip counts after every ply, as SVG drawn
from the numbers only (no user text), with its axes (pips, plies) labelled, each ply a
link to its permalink.

The chart is rendered once per game (and kind of link) from the ``chart_head`` and
``chart_bands`` macros (``templates/games/pieces.html``); a page marks the band of its own
ply in that text, its fill made :data:`MARK` (where the rendering was found to hold each
band's fill when the chart was made).
"""

from __future__ import annotations

from array import array

from webviewer.pages.pieces import pieces
from webviewer.pages.tree import Links

WIDTH, HEIGHT = 600, 150
LEFT, RIGHT, TOP, BOTTOM = 44, 10, 10, 30
"""The margins round the plot: the pip axis at the left, the ply axis below."""
FILL = "transparent"
"""The fill of a ply's band."""
MARK = "#2f7de1"
"""The fill of the current ply's band."""
_FILL, _MARKED = f' fill="{FILL}"'.encode(), f' fill="{MARK}"'.encode()


class PipChart:
    """``pips[k]`` is (White, Black) after ply k; ``links`` those of the game's page. Made
    in a request (or app) context: it renders the app's macros."""

    def __init__(self, pips: tuple[tuple[int, int], ...], links: Links) -> None:
        self.pips = pips
        self.links = links
        self.top = max((max(w, b) for w, b in pips), default=0) or 1
        self.step = (WIDTH - LEFT - RIGHT) / max(1, len(pips) - 1)
        self.width = f"{max(self.step, 1):.1f}"
        """Every band's width, as written."""
        macros = pieces()
        head = macros.chart_head(WIDTH, HEIGHT, *self._lines(), self._axes())
        bands = [(ply, LEFT + ply * self.step - self.step / 2, *pips[ply]) for ply in range(len(pips))]
        drawn = macros.chart_bands(bands, links, self.width, TOP, HEIGHT - TOP - BOTTOM, FILL).encode()
        self._utf8 = head.encode(), drawn, b"</svg>"
        fills, at = [], drawn.find(_FILL)
        while at >= 0:
            fills.append(at)
            at = drawn.find(_FILL, at + len(_FILL))
        assert len(fills) == len(pips), "one fill per band (the chart holds no user text)"
        self._fills = array("I", fills)
        """Where each ply's band has its fill in the bands' UTF-8."""

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
        plies = len(self.pips) - 1
        every = next(size for size in (5, 10, 20, 50, 100, 200, 500, 10**9) if plies / size <= 8)
        half = round(self.top / 2)
        return {"left": LEFT, "right": WIDTH - RIGHT, "top": TOP, "bottom": HEIGHT - BOTTOM,
                "pips": [(f"{self._y(v):.1f}", v) for v in sorted({0, half, self.top})],
                "plies": [(f"{LEFT + ply * self.step:.1f}", ply) for ply in range(0, plies + 1, every)]}

    def utf8(self, current: int) -> tuple[bytes | memoryview, ...]:
        """The chart in UTF-8 with ply ``current`` marked (none if it is not a ply of the
        chart), in pieces (most of them kept from one page to the next)."""
        if not self.pips:
            return ()
        head, bands, tail = self._utf8
        if not 0 <= current < len(self.pips):
            return head, bands, tail
        whole = memoryview(bands)
        at = self._fills[current]
        return head, whole[:at], _MARKED, whole[at + len(_FILL):], tail
