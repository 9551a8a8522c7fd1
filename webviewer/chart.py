"""The pip-count chart of a game: both players' pip counts after every ply, as SVG built
from the numbers only (no user text), each ply a link to its permalink."""

from __future__ import annotations

WIDTH, HEIGHT, PAD = 600, 160, 24


def pip_chart(pips: list[tuple[int, int]], current: int, href) -> str:
    """``pips[k]`` is (White, Black) after ply k; ``href(k)`` the address of ply k."""
    if not pips:
        return ""
    top = max(max(w, b) for w, b in pips) or 1
    step = (WIDTH - 2 * PAD) / max(1, len(pips) - 1)

    def point(ply: int, value: int) -> str:
        x = PAD + ply * step
        y = HEIGHT - PAD - (HEIGHT - 2 * PAD) * value / top
        return f"{x:.1f},{y:.1f}"

    white = " ".join(point(k, w) for k, (w, _) in enumerate(pips))
    black = " ".join(point(k, b) for k, (_, b) in enumerate(pips))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
             f'class="pip-chart"><title>Pip counts after each ply (White, Black)</title>',
             f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#fafafa" stroke="#ccc"/>',
             f'<polyline points="{white}" fill="none" stroke="#c9a227" stroke-width="2"/>',
             f'<polyline points="{black}" fill="none" stroke="#222" stroke-width="2"/>']
    for ply, (w, b) in enumerate(pips):
        x = PAD + ply * step
        fill = "#2f7de1" if ply == current else "transparent"
        parts.append(f'<a href="{href(ply)}"><rect x="{x - step / 2:.1f}" y="0" width="{max(step, 1):.1f}" '
                     f'height="{HEIGHT}" fill="{fill}" fill-opacity="0.25"><title>ply {ply}: White {w}, '
                     f'Black {b}</title></rect></a>')
    parts.append("</svg>")
    return "".join(parts)
