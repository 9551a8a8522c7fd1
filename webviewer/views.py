"""What the game page and the game JSON need of a stored game, computed once per record.

A stored game never changes, and its record is named by its content hash (the archive's
``games.hash``). So what is read from a record is kept under ``(hash, variant)`` in a
bounded cache (the least recently used games are dropped): the game tree read back from
the record (every play parsed and checked), and, each made when first asked for, its move
items, the addresses of its nodes, its pip counts, its JSON, and the parts of its pages
that do not depend on the turn shown (see :mod:`webviewer.games`). A record is read
from the archive only when its game is not in the cache; a game stored under another id
with the same record shares its entry.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Callable, Hashable
from functools import cached_property
from typing import TypeVar

from archive import game_from_record
from notation.game import Game, GameNode
from notation.json_format import game_to_dict

from .cache import BoundedCache
from .tree import MoveItem, move_items

CACHED_GAMES = 256
PARTS = 8
"""Page parts kept per game (one per kind of link and per version of its row: a few)."""

V = TypeVar("V")


class GameView:
    """A game read back from its record, and what pages make of it."""

    def __init__(self, game: Game) -> None:
        self.game = game
        # The view is the only way to its game, and nothing it keeps refers back to it:
        # once the cache drops it and no request holds it, it goes, and its game tree is
        # unlinked then and there (Game.release), freed at once rather than left, cycles
        # and all, to a full collection (which, with a few hundred dropped games to
        # free, paused a server for up to a second: docs/viewer.md).
        weakref.finalize(self, game.release)
        self.mainline: tuple[GameNode, ...] = (game, *game.mainline())
        """The start and every main-line node."""
        self._parts: BoundedCache[Hashable, object] = BoundedCache(PARTS)

    @cached_property
    def items(self) -> tuple[MoveItem, ...]:
        """The move list's items (see :func:`~webviewer.tree.move_items`)."""
        return tuple(move_items(self.game))

    @cached_property
    def addresses(self) -> dict[GameNode, str]:
        """Each node's address: the query string naming it (the start's is ``ply=0``)."""
        return {self.game: "ply=0", **{item.node: item.address for item in self.items
                                       if item.node is not None}}

    @cached_property
    def nodes(self) -> tuple[GameNode, ...]:
        """The start and every turn, each after its parent (the move list's order)."""
        return (self.game, *(item.node for item in self.items if item.node is not None))

    @cached_property
    def branch(self) -> dict[GameNode, GameNode]:
        """Each node's last main-line node on the way from the start to it (itself if it
        is on the main line): where "Back to the main line" goes."""
        branch = {self.game: self.game}
        for node in self.nodes[1:]:
            parent = node.parent
            above = branch[parent]
            branch[node] = node if above is parent and parent.variations[0] is node else above
        return branch

    @cached_property
    def end(self) -> dict[GameNode, GameNode]:
        """The last node of each node's line (its first continuations, followed)."""
        end: dict[GameNode, GameNode] = {}
        for node in reversed(self.nodes):
            end[node] = end[node.variations[0]] if node.variations else node
        return end

    @cached_property
    def pips(self) -> tuple[tuple[int, int], ...]:
        """(White, Black) pip counts after each main-line ply."""
        return tuple(node.state.white_view().pip_counts() for node in self.mainline)

    @cached_property
    def json(self) -> str:
        """The game as the API's JSON text."""
        return json.dumps(game_to_dict(self.game), ensure_ascii=False)

    def part(self, key: Hashable, make: Callable[[], V]) -> V:
        """A part of a page of the game, kept under ``key`` (which names everything the
        part depends on besides the game), else ``make()``, kept."""
        return self._parts.get(key, make)  # type: ignore[return-value]


_views: BoundedCache[tuple[str, str], GameView] = BoundedCache(CACHED_GAMES)


def game_view(content_hash: str, variant: str, record: Callable[[], str]) -> GameView:
    """The view of the game whose record has ``content_hash``; ``record()`` gives the
    record when it has to be read (``variant``: the rule set of a record without a
    ``Variant`` tag)."""
    return _views.get((content_hash, variant), lambda: GameView(game_from_record(record(), variant)))
