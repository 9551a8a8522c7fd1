"""The game page's move list as HTML, rendered once per game (and kind of link).

The list is paired by move, as the record numbers them: a row per move number, White's
move then Black's, each turn a link; the comments and variations of a main-line turn
follow it in an aside across the row (the row is then cut: the other half shows ``…``).
It is rendered from the ``move_list`` macro (``templates/games/pieces.html``,
autoescaped) with no turn marked. A page marks its own turn in that text, its link given
:data:`TURN_MARK` where the rendering was found to need it when the list was made (every
``class="move"`` in it is the macro's own: the record's text is escaped, its ``"`` with it).
"""

from __future__ import annotations

from typing import NamedTuple

from webviewer.pages.pieces import pieces
from webviewer.pages.tree import Links, MoveItem

TURN_MARK = b' aria-current="true"'
"""What the link of the page's own turn has besides the others'."""
_TURN = b' class="move"'

Listed = tuple[MoveItem, int]
"""An item of the list with the index of its node in the game's view (0 for the bounds
of a variation)."""


class Row(NamedTuple):
    """A row of the list: a move number with White's and Black's turns in it, or (with
    ``number`` 0) an aside: comments, variations."""

    number: int
    white: list[Listed]
    black: list[Listed]
    aside: list[Listed]


def rows(items: tuple[MoveItem, ...]) -> list[Row]:
    """The items in rows: each main-line turn in the row of its move number, in White's
    half or Black's; everything else (its comments, the variations) in an aside after it."""
    listed: list[Row] = []
    row: Row | None = None
    node = 0
    for item in items:
        if item.kind == "move":
            node += 1
        if item.kind == "move" and item.depth == 0:
            if row is None or row.number != item.number or (item.white_move and row.black):
                row = Row(item.number, [], [], [])
                listed.append(row)
            (row.white if item.white_move else row.black).append((item, node))
            if item.comments:
                listed.append(Row(0, [], [], [(item, node)]))
                row = None
            continue
        if not listed or listed[-1].number:
            listed.append(Row(0, [], [], []))
        listed[-1].aside.append((item, node if item.kind == "move" else 0))
        row = None
    return listed


class MoveList:
    """The move list of a game whose turns link through ``links``; for a game stored
    invalid, ``refused`` (what its error says) ends the list, linked to ``refused_address``;
    ``marks`` are the engine's marks (``?!``, ``?``, ``??``) of main-line turns, by address,
    made by ``engine`` (its name and depth).
    Made in a request (or app) context: it renders the app's macros."""

    def __init__(self, items: tuple[MoveItem, ...], links: Links,
                 refused: str | None = None, refused_address: str = "",
                 marks: dict[str, str] | None = None, engine: str = "") -> None:
        macros = pieces()
        listed = macros.move_list(rows(items), links, marks or {}, engine).encode()
        last = macros.refused_entry(refused, links.url(refused_address)).encode() if refused else b""
        self._utf8 = listed + last
        links_at: dict[str, int] = {}
        at = listed.find(_TURN)
        for item in items:
            if item.kind == "move":
                assert at >= 0, "one link per turn"
                links_at[item.address] = at + len(_TURN)
                at = listed.find(_TURN, at + len(_TURN))
        self._marks = links_at
        """Where to mark each turn's link (by address), as an offset in the UTF-8."""

    def utf8(self, current: str) -> tuple[bytes | memoryview, ...]:
        """The whole list in UTF-8, the turn at address ``current`` marked as the current
        one (none if the address is not a turn: the start of the game), in pieces (most of
        them kept from one page to the next)."""
        link = self._marks.get(current)
        if link is None:
            return (self._utf8,)
        whole = memoryview(self._utf8)
        return whole[:link], TURN_MARK, whole[link:]
