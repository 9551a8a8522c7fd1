"""The game page's move list as HTML, rendered once per game (and kind of link).

The list is one entry (``<li>``) per main-line turn, holding the variations that replace
that turn, rendered from the ``move_list`` macro (``templates/games/pieces.html``,
autoescaped) with no turn marked. A page marks its own turn in that text: the entry of a
main-line turn gets :data:`ENTRY_MARK`, the turn's link :data:`TURN_MARK`, each put where
the rendering was found to need it when the list was made (every ``<li>`` and
``class="move"`` in it is the macro's own: the record's text is escaped, its ``<`` and
``"`` with it).
"""

from __future__ import annotations

import re

from webviewer.pages.pieces import pieces
from webviewer.pages.tree import Links, MoveItem

ENTRY_MARK = b' class="current"'
"""What the ``<li>`` of the page's own main-line turn has besides the others'."""
TURN_MARK = b' aria-current="step"'
"""What the link of the page's own turn has besides the others'."""
_ENTRY, _TURN = b"<li", b' class="move"'
_MARKS = re.compile(re.escape(_ENTRY) + b">|" + re.escape(_TURN))


def _entries(items: tuple[MoveItem, ...]) -> list[tuple[MoveItem, ...]]:
    """The items split before each main-line turn."""
    entries: list[list[MoveItem]] = []
    for item in items:
        if item.kind == "move" and item.depth == 0:
            entries.append([])
        entries[-1].append(item)
    return [tuple(entry) for entry in entries]


class MoveList:
    """The move list of a game whose turns link through ``links``; for a game stored
    invalid, ``refused`` (what its error says) ends the list, linked to ``refused_address``.
    Made in a request (or app) context: it renders the app's macros."""

    def __init__(self, items: tuple[MoveItem, ...], links: Links,
                 refused: str | None = None, refused_address: str = "") -> None:
        macros = pieces()
        listed = macros.move_list(_entries(items), links).encode()
        last = macros.refused_entry(refused, links.url(refused_address)).encode() if refused else b""
        self._utf8 = listed + last
        turns = [item for item in items if item.kind == "move"]
        found = iter(_MARKS.finditer(listed))
        marks: dict[str, tuple[int, int]] = {}
        entry = -1
        for turn in turns:
            mark = next(found)
            if mark.group() != _TURN:  # the turn opens an entry: its link comes next
                entry = mark.start() + len(_ENTRY)
                mark = next(found)
            marks[turn.address] = (entry if turn.depth == 0 else -1, mark.end())
        self._marks = marks
        """Where to mark each turn (by address): its entry's ``<li`` (-1: a turn in a
        variation, whose entry is not marked) and its link, as offsets in the UTF-8."""

    def utf8(self, current: str) -> tuple[bytes | memoryview, ...]:
        """The whole list in UTF-8, the turn at address ``current`` marked as the current
        one (none if the address is not a turn: the start of the game), in pieces (most of
        them kept from one page to the next)."""
        marks = self._marks.get(current)
        if marks is None:
            return (self._utf8,)
        entry, link = marks
        whole = memoryview(self._utf8)
        if entry < 0:
            return whole[:link], TURN_MARK, whole[link:]
        return whole[:entry], ENTRY_MARK, whole[entry:link], TURN_MARK, whole[link:]
