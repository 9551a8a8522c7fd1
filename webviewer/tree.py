"""Addressing the nodes of a game tree in a URL, and the move list as a flat sequence.

A main-line node is addressed by its ply (``?ply=12``); a node inside a variation by its
path, the index of the variation taken at each step from the start (``?path=0.0.0.1.0``:
three main-line turns, then the first alternative to the fourth, then its continuation).
The move list is built without recursion, so a deeply nested record cannot exhaust the
stack.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from markupsafe import escape

from notation.formats.jqn.lexer import GLYPHS
from notation.formats.jqn.writer import turn_text
from notation.tree.game import Game, GameNode

MAX_PATH = 10_000
"""The longest path accepted from a query string."""
INDEX = re.compile(r"[0-9]{1,4}")


class BadAddress(ValueError):
    """A ply or path that names no node of the game."""


class Links(NamedTuple):
    """The URLs of the nodes of one game page (of one kind: flipped or not): a node's URL is
    ``before``, the query string naming it (``ply=3``, ``path=0.1``), then ``after``."""

    before: str
    after: str

    def url(self, address: str) -> str:
        """The URL of the node named by ``address``."""
        return f"{self.before}{address}{self.after}"

    def escaped(self) -> Links:
        """These links for HTML. Escaping is character by character, and a node's query
        string has nothing to escape (letters, digits, ``=`` and ``.``), so a node's
        escaped URL is ``escaped().url(address)``."""
        return Links(str(escape(self.before)), str(escape(self.after)))


@dataclass
class MoveItem:
    """One entry of the move list: a turn (``kind="move"``) or the opening or closing of
    a variation around the turns between them. A turn's item holds what the list shows of
    it (no link to the game tree: the viewer keeps items, not trees)."""

    kind: str
    depth: int
    text: str = ""
    nags: tuple[str, ...] = ()
    address: str = ""
    """The query string naming the turn: ``ply=K`` on the main line, else ``path=...``
    (digits and dots only: nothing to escape)."""
    player: str = ""
    """Who played the turn: ``White`` or ``Black``."""
    starting: tuple[str, ...] = ()
    """The comments before the turn (on a variation's first turn)."""
    comments: tuple[str, ...] = ()


def move_items(game: Game) -> list[MoveItem]:
    """The whole tree in reading order: each main-line turn, then the variations that
    replace it (each opened, its turns, closed), then the next turn."""
    return [item for item, _ in walk(game)]


def walk(game: Game) -> Iterator[tuple[MoveItem, GameNode | None]]:
    """:func:`move_items` with each turn's node (``None`` for the bounds of a variation)."""
    # Tasks on a stack: ("line", parent, index, path, depth) walks a line whose first turn is
    # parent.variations[index], ``path`` being the parent's (``None`` on the main line,
    # where a turn is named by its ply), until a turn with alternatives, which are walked
    # next, then its continuation; ("open"/"close", depth) mark a variation's bounds.
    tasks: list[tuple] = [("line", game, 0, None, 0)]
    while tasks:
        task = tasks.pop()
        if task[0] != "line":
            yield MoveItem(task[0], task[1]), None
            continue
        _, parent, index, path, depth = task
        while index < len(parent.variations):
            node = parent.variations[index]
            if path is not None:
                node_path = f"{path}.{index}"
            elif index:
                node_path = ".".join(["0"] * parent.ply + [str(index)])
            else:
                node_path = None
            yield _move_item(node, node_path, depth), node
            if index == 0 and len(parent.variations) > 1:
                tasks.append(("line", node, 0, node_path, depth))
                for alternative in reversed(range(1, len(parent.variations))):
                    tasks += [("close", depth + 1), ("line", parent, alternative, path, depth + 1),
                              ("open", depth + 1)]
                break
            parent, index, path = node, 0, node_path


def _move_item(node: GameNode, path: str | None, depth: int) -> MoveItem:
    """The item of the turn at ``node``, named by its ``path`` (``None``: by its ply)."""
    starting, comments, nags = node.annotations()
    return MoveItem("move", depth, turn_text(node),
                    tuple([GLYPHS.get(n, f"${n}") for n in nags]) if nags else (),
                    f"ply={node.ply}" if path is None else f"path={path}",
                    node.turn.player.title, tuple(starting), tuple(comments))
