"""The game page's move list as HTML, rendered once per game (and kind of link).

The list is one entry (``<li>``) per main-line turn, holding the variations that replace
that turn. Every entry is rendered once by the ``entry`` macro of
``games/moves.html`` (autoescaped) with no turn marked; a page renders again only the
entry that holds its own turn, marked, and joins it with the others.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import current_app
from markupsafe import Markup

from .tree import MoveItem

TEMPLATE = "games/moves.html"


def _entries(items: tuple[MoveItem, ...]) -> list[tuple[MoveItem, ...]]:
    """The items split before each main-line turn."""
    entries: list[list[MoveItem]] = []
    for item in items:
        if item.kind == "move" and item.depth == 0:
            entries.append([])
        entries[-1].append(item)
    return [tuple(entry) for entry in entries]


class MoveList:
    """The move list of a game whose turns link through ``href`` (a turn's address, such
    as ``ply=3``, to its URL)."""

    def __init__(self, items: tuple[MoveItem, ...], href: Callable[[str], str]) -> None:
        self.href = href
        self.entries = _entries(items)
        self.entry_of = {item.address: index for index, entry in enumerate(self.entries)
                         for item in entry if item.kind == "move"}
        self.html = tuple(self._render(entry, "") for entry in self.entries)

    def _render(self, entry: tuple[MoveItem, ...], current: str) -> Markup:
        macro = current_app.jinja_env.get_template(TEMPLATE).module.entry
        return macro(entry, current, self.href)

    def marked(self, current: str) -> Markup:
        """The whole list with the turn at address ``current`` marked as the current one
        (none if the address is not a turn: the start of the game)."""
        html = list(self.html)
        index = self.entry_of.get(current)
        if index is not None:
            html[index] = self._render(self.entries[index], current)
        return Markup("".join(html))  # every entry is Markup already: nothing to escape
