"""The pip-count chart of a game: both players' pip counts after every ply, as SVG built
from the numbers only (no user text), each ply a link to its permalink.

The chart is drawn once per game (and kind of link); a page only marks its own ply.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import accumulate

from markupsafe import escape

WIDTH, HEIGHT, PAD = 600, 160, 24
MARK = "#2f7de1"
"""The fill of the current ply's band."""


class PipChart:
    """``pips[k]`` is (White, Black) after ply k; ``href(k)`` the address of ply k."""

    def __init__(self, pips: tuple[tuple[int, int], ...], href: Callable[[int], str]) -> None:
        self.pips = pips
        self.href = href
        self.top = max((max(w, b) for w, b in pips), default=0) or 1
        self.step = (WIDTH - 2 * PAD) / max(1, len(pips) - 1)
        white = " ".join(self._point(k, w) for k, (w, _) in enumerate(pips))
        black = " ".join(self._point(k, b) for k, (_, b) in enumerate(pips))
        self.head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
            f'class="pip-chart"><title>Pip counts after each ply (White, Black)</title>'
            f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#fafafa" stroke="#ccc"/>'
            f'<polyline points="{white}" fill="none" stroke="#c9a227" stroke-width="2"/>'
            f'<polyline points="{black}" fill="none" stroke="#222" stroke-width="2"/>')
        self.bands = tuple(self._band(ply, "transparent") for ply in range(len(pips)))
        self._utf8 = self.head.encode(), "".join(self.bands).encode(), b"</svg>"
        self._ends = tuple(accumulate(len(band) for band in self.bands))  # ASCII: chars are bytes

    def _point(self, ply: int, value: int) -> str:
        x = PAD + ply * self.step
        y = HEIGHT - PAD - (HEIGHT - 2 * PAD) * value / self.top
        return f"{x:.1f},{y:.1f}"

    def _band(self, ply: int, fill: str) -> str:
        """Ply ``ply``'s clickable band, its counts as its title."""
        x = PAD + ply * self.step
        w, b = self.pips[ply]
        return (f'<a href="{escape(self.href(ply))}"><rect x="{x - self.step / 2:.1f}" y="0" '
                f'width="{max(self.step, 1):.1f}" height="{HEIGHT}" fill="{fill}" fill-opacity="0.25">'
                f'<title>ply {ply}: White {w}, Black {b}</title></rect></a>')

    def utf8(self, current: int) -> tuple[bytes | memoryview, ...]:
        """The chart in UTF-8 with ply ``current`` marked (none if it is not a ply of the
        chart), in pieces (most of them kept from one page to the next)."""
        if not self.pips:
            return ()
        head, bands, tail = self._utf8
        if not 0 <= current < len(self.bands):
            return head, bands, tail
        start = self._ends[current] - len(self.bands[current])
        whole = memoryview(bands)
        return (head, whole[:start], self._band(current, MARK).encode(),
                whole[self._ends[current]:], tail)
