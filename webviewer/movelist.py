"""The game page's move list as HTML, built once per game (and kind of link).

The list is one entry (``<li>``) per main-line turn, holding the variations that replace
that turn. Every entry is built once by :func:`entry` with no turn marked; a page builds
again only the entry that holds its own turn, marked, and joins it with the others.

The markup is joined from strings, every one that comes from the record (comments, the
play as written, NAG glyphs) and every link passed through :func:`markupsafe.escape`,
as the templates' autoescaping would (a link's part round the turn's address, escaped once:
see :meth:`~webviewer.tree.Links.escaped`).
"""

from __future__ import annotations

from itertools import accumulate

from markupsafe import escape

from .tree import Links, MoveItem


def entry(items: tuple[MoveItem, ...], current: str, links: Links) -> str:
    """The ``<li>`` (HTML) of one main-line turn and the variations that replace it, linked
    through ``links`` (escaped: :meth:`~webviewer.tree.Links.escaped`); the turn at
    address ``current`` marked as the page's own (``aria-current``, and the ``<li>``'s
    class when it is the main-line turn)."""
    parts: list[str] = []
    add = parts.append
    for item in items:
        kind = item.kind
        if kind == "open":
            add(f'<span class="variation" data-depth="{item.depth}">(')
        elif kind == "close":
            add(")</span>")
        else:
            here = item.address == current
            if item.depth == 0:
                add('<li class="current">' if here else "<li>")
            for text in item.starting:
                add(f'<span class="comment">{escape(text)}</span>')
            current_mark = ' aria-current="step"' if here else ""
            add(f'\n  <a href="{links.url(item.address)}" class="move"{current_mark}>'
                f"{escape(f'{item.player} {item.text}')}</a>")
            for glyph in item.nags:
                add(f'<span class="nag">{escape(glyph)}</span>')
            for text in item.comments:
                add(f'<span class="comment">{escape(text)}</span>')
    add("</li>")
    return "".join(parts)


def _refused(text: str, href: str) -> str:
    """The last entry of the list of a game stored invalid: the turn its record refuses."""
    return f'<li class="error"><a href="{escape(href)}" class="move">{escape(text)}</a></li>'


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
    invalid, ``refused`` (what its error says) ends the list, linked to ``refused_address``."""

    def __init__(self, items: tuple[MoveItem, ...], links: Links,
                 refused: str | None = None, refused_address: str = "") -> None:
        self.links = links.escaped()
        """The page's links, escaped for HTML."""
        self.entries = _entries(items)
        self.entry_of = {item.address: index for index, entry in enumerate(self.entries)
                         for item in entry if item.kind == "move"}
        encoded = tuple(entry(items, "", self.links).encode() for items in self.entries)
        self._utf8 = b"".join(encoded) + (_refused(refused, links.url(refused_address)).encode() if refused else b"")
        self._ends = tuple(accumulate(len(html) for html in encoded))

    def utf8(self, current: str) -> tuple[bytes | memoryview, ...]:
        """The whole list in UTF-8, the turn at address ``current`` marked as the current
        one (none if the address is not a turn: the start of the game), in pieces (most of
        them kept from one page to the next)."""
        index = self.entry_of.get(current)
        if index is None:
            return (self._utf8,)
        start = self._ends[index - 1] if index else 0
        whole = memoryview(self._utf8)
        return (whole[:start], entry(self.entries[index], current, self.links).encode(),
                whole[self._ends[index]:])
