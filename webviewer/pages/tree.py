"""Addressing the nodes of a game tree in a URL, and the move list as a flat sequence.

A main-line node is addressed by its ply (``?ply=12``); a node inside a variation by its
path, the index of the variation taken at each step from the start (``?path=0.0.0.1.0``:
three main-line turns, then the first alternative to the fourth, then its continuation).
The move list is made by a visitor of the game tree (:class:`MoveLister`), which walks it
without recursion, so a deeply nested record cannot exhaust the stack.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from notation.engine.state import ROLL, Colour
from notation.formats.jqn.writer import turn_text
from notation.tree.game import Game, GameNode, Node
from notation.tree.numbering import MOVE_STARTS
from notation.tree.walk import Visitor
from webviewer.pages.nags import nag_text, nag_words

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


@dataclass
class MoveItem:
    """One entry of the move list: a turn (``kind="move"``) or the opening or closing of
    a variation around the turns between them. A turn's item holds what the list shows of
    it (no link to the game tree: the viewer keeps items, not trees)."""

    kind: str
    depth: int
    text: str = ""
    nags: tuple[tuple[str, str], ...] = ()
    """Each NAG's symbol and meaning (:mod:`webviewer.pages.nags`)."""
    address: str = ""
    """The query string naming the turn: ``ply=K`` on the main line, else ``path=...``."""
    player: str = ""
    """Who played the turn: ``White`` or ``Black``."""
    starting: tuple[str, ...] = ()
    """The comments before the turn (on a variation's first turn)."""
    comments: tuple[str, ...] = ()
    number: int = 0
    """The turn's move number, as the record writes it (``2.`` for White's, ``2...`` for
    Black's second move)."""
    white_move: bool = True
    """Whether the turn is part of White's move (a take belongs to the doubler's move)."""
    numbered: bool = False
    """Whether the record writes the move's number before this turn (the first of a move,
    of a variation, or after a comment): where a variation shows it."""

    @property
    def label(self) -> str:
        """The move number as written before the turn: ``2.`` or ``2...``."""
        return f"{self.number}." if self.white_move else f"{self.number}..."


def move_items(game: Game) -> list[MoveItem]:
    """The whole tree in reading order: each main-line turn, then the variations that
    replace it (each opened, its turns, closed), then the next turn."""
    return [item for item, _ in walk(game)]


def walk(game: Game) -> list[tuple[MoveItem, GameNode | None]]:
    """:func:`move_items` with each turn's node (``None`` for the bounds of a variation):
    :class:`MoveLister` driven by :meth:`~notation.tree.game.Game.accept`."""
    return game.accept(MoveLister(game.first is Colour.BLACK))


class MoveLister(Visitor[list[tuple[MoveItem, GameNode | None]]]):
    """The move list's items of a game tree as :meth:`~notation.tree.game.Game.accept`
    walks it (iteratively: a deeply nested record cannot exhaust the stack), each with its
    node (``None`` for the bounds of a variation) in :attr:`listed`.

    A turn is named by its ply on the main line, else by its path: its parent's path, then
    its index among the parent's variations (an alternative to a main-line turn: ``0`` for
    each turn before it, then its index). A turn's comments and NAGs are read off its node
    in :meth:`visit_node`: the walk's ``visit_comment`` would not tell the game's opening
    comments (the page shows them apart) from its first turn's.

    Turns are numbered as the record writes them (see
    :func:`~notation.formats.jqn.writer.movetext`): a move starts with a roll, a double
    or a resignation of the player who does not own the move in progress, White's moves
    counted by his rolls (``black_first``: Black made the first move, ``1...``)."""

    def __init__(self, black_first: bool = False) -> None:
        self.listed: list[tuple[MoveItem, GameNode | None]] = []
        self.depth = 0
        self._paths: dict[Node, str | None] = {}
        """Each turn listed so far by its path (``None``: on the main line)."""
        self._offset = 1 if black_first else 0
        self._count: tuple[int, Colour | None] = (0, None)
        """White's rolls so far along the line and who owns the move in progress."""
        self._before: tuple[int, Colour | None] = (0, None)
        """:attr:`_count` before the turn listed last."""
        self._need_number = True
        self._lines: list[tuple[tuple[int, Colour | None], tuple[int, Colour | None]]] = []

    def visit_node(self, node: GameNode) -> None:
        parent = node.parent
        assert parent is not None, "a turn has the node it was played from"
        siblings = parent.variations
        path = self._paths.get(parent)
        if siblings[0] is node:
            own = None if path is None else f"{path}.0"
        else:
            index = next(number for number, sibling in enumerate(siblings) if sibling is node)
            own = ".".join(["0"] * parent.ply + [str(index)]) if path is None else f"{path}.{index}"
        self._paths[node] = own
        turn = node.turn
        assert turn is not None, "a turn's node holds its turn"
        starting, comments, nags = node.annotations()
        white_rolls, owner = self._before = self._count
        starts = turn.kind in MOVE_STARTS and turn.player is not owner
        if starts:
            owner = turn.player
        white_move = owner is not Colour.BLACK
        number = white_rolls + self._offset + (1 if white_move else 0)
        numbered = starts or self._need_number or bool(starting)
        if turn.player is Colour.WHITE and turn.kind == ROLL:
            white_rolls += 1
        self._count = (white_rolls, owner)
        self._need_number = bool(comments)
        self.listed.append((MoveItem(
            "move", self.depth, turn_text(node),
            tuple([(nag_text(n), nag_words(n)) for n in nags]) if nags else (),
            f"ply={node.ply}" if own is None else f"path={own}",
            turn.player.title, tuple(starting), tuple(comments), number, white_move, numbered), node))

    def begin_variation(self) -> None:
        self.depth += 1
        self._lines.append((self._count, self._before))
        self._count = self._before
        self._need_number = True
        self.listed.append((MoveItem("open", self.depth), None))

    def end_variation(self) -> None:
        self.listed.append((MoveItem("close", self.depth), None))
        self.depth -= 1
        self._count, self._before = self._lines.pop()
        self._need_number = True

    def result(self) -> list[tuple[MoveItem, GameNode | None]]:
        """The items listed, each with its node."""
        return self.listed
