"""The pip-count chart of a game: both players' pip counts after every ply, as SVG built
from the numbers only (no user text), each ply a link to its permalink.

The chart is drawn once per game (and kind of link); a page only marks its own ply.
"""

from __future__ import annotations

from itertools import accumulate

from .tree import Links

WIDTH, HEIGHT, PAD = 600, 160, 24
MARK = "#2f7de1"
"""The fill of the current ply's band."""


class PipChart:
    """``pips[k]`` is (White, Black) after ply k; ``links`` those of the game's page."""

    def __init__(self, pips: tuple[tuple[int, int], ...], links: Links) -> None:
        self.pips = pips
        self.links = links.escaped()
        """The page's links, escaped for HTML."""
        self.top = max((max(w, b) for w, b in pips), default=0) or 1
        self.step = (WIDTH - 2 * PAD) / max(1, len(pips) - 1)
        self.width = f"{max(self.step, 1):.1f}"
        """Every band's width, as written."""
        white, black = self._lines()
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
            f'class="pip-chart"><title>Pip counts after each ply (White, Black)</title>'
            f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#fafafa" stroke="#ccc"/>'
            f'<polyline points="{white}" fill="none" stroke="#c9a227" stroke-width="2"/>'
            f'<polyline points="{black}" fill="none" stroke="#222" stroke-width="2"/>')
        bands = self._bands(range(len(pips)), "transparent")
        self._utf8 = head.encode(), "".join(bands).encode(), b"</svg>"
        self._ends = (0, *accumulate(map(len, bands)))  # ASCII: chars are bytes
        """Where each ply's band starts in the bands' UTF-8, then where the last one ends."""

    def _lines(self) -> tuple[str, str]:
        """White's and Black's polylines' points (``x,y`` as written, the height of ``v``
        pips ``HEIGHT - PAD - (HEIGHT - 2 * PAD) * v / top``)."""
        step, top, pips = self.step, self.top, self.pips
        xs = [f"{PAD + ply * step:.1f}," for ply in range(len(pips))]
        white = " ".join([f"{x}{HEIGHT - PAD - (HEIGHT - 2 * PAD) * w / top:.1f}"
                          for x, (w, _) in zip(xs, pips)])
        black = " ".join([f"{x}{HEIGHT - PAD - (HEIGHT - 2 * PAD) * b / top:.1f}"
                          for x, (_, b) in zip(xs, pips)])
        return white, black

    def _bands(self, plies: range, fill: str) -> list[str]:
        """The clickable bands of ``plies``, filled with ``fill``, each ply's counts as
        its title."""
        (before, after), step, width, pips = self.links, self.step, self.width, self.pips
        return [f'<a href="{before}ply={ply}{after}">'
                f'<rect x="{PAD + ply * step - step / 2:.1f}" y="0" width="{width}" '
                f'height="{HEIGHT}" fill="{fill}" fill-opacity="0.25">'
                f'<title>ply {ply}: White {pips[ply][0]}, Black {pips[ply][1]}</title></rect></a>'
                for ply in plies]

    def utf8(self, current: int) -> tuple[bytes | memoryview, ...]:
        """The chart in UTF-8 with ply ``current`` marked (none if it is not a ply of the
        chart), in pieces (most of them kept from one page to the next)."""
        if not self.pips:
            return ()
        head, bands, tail = self._utf8
        if not 0 <= current < len(self.pips):
            return head, bands, tail
        whole = memoryview(bands)
        marked = self._bands(range(current, current + 1), MARK)[0]
        return (head, whole[:self._ends[current]], marked.encode(),
                whole[self._ends[current + 1]:], tail)
