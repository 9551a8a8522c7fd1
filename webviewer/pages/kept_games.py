"""The games the viewer keeps: what the game page and the game JSON need of a stored game,
computed once per record.

A stored game never changes, and its record is named by its content hash (the archive's
``games.hash``). So what is read from a record is kept under ``(hash, variant)`` in a
bounded cache (the least recently used games are dropped): not the game tree read back
from the record (every play parsed and checked), but what pages show of each of its
nodes, in numbers, strings and tuples of them (:class:`PageNode`), and, each made when
first asked for, the parts of its pages that do not depend on the turn shown
(see :mod:`webviewer.pages.game_page`). A record is read from the archive only when its game is not
in the cache; a game stored under another id with the same record shares its entry. The
API's JSON of a game is kept apart, as text (:func:`game_json`).

Why not keep the tree: a kept tree is some twenty objects per turn for the garbage
collector to visit on each full collection, and a few hundred kept games made that take
a quarter of a second; kept as page nodes, a game is a few objects per turn. The tree
itself is released (:meth:`~notation.tree.game.Game.release`) as soon as its view is made
(:func:`read_back`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from functools import partial
from itertools import accumulate, chain
from typing import NamedTuple, TypeVar

from flask import abort
from flask_babel import gettext

from archive import game_from_record
from notation.engine.board import Position
from notation.engine.dice import Dice
from notation.engine.play import Step
from notation.engine.rules import RuleSet
from notation.engine.state import Colour, pips_after
from notation.errors import NotationError
from notation.formats import render
from notation.formats.json_format import game_to_json
from notation.messages import Message
from notation.render.captions import caption
from notation.tree.game import Game, Node
from webviewer.pages.tree import INDEX, MAX_PATH, BadAddress, MoveItem, walk
from webviewer.plumbing.cache import BoundedCache

CACHED_GAMES = 256
CACHE_BYTES = 256 * 1024 * 1024
"""Bytes the kept views may take, and as many the kept JSON texts (estimated: see
:data:`NODE_BYTES`): a game of 110,000 variations took 195 MB, so a few such games would
otherwise fill the server's memory well before :data:`CACHED_GAMES`."""
NODE_BYTES = 2048
"""The estimated bytes a view takes per node (its page node, its move-list item and their
strings; measured: about 1.8 kB)."""
PARTS = 16
"""Page parts kept per game (a few per kind of link (flipped, numbered for the player on
roll) and per version of its row)."""

STEP_FIELDS = len(Step._fields)
"""The values of each step in :attr:`PageNode.last`."""

V = TypeVar("V")


class PageNode(NamedTuple):
    """A node of a kept game (the start or a turn) as its page shows it. Links to other
    nodes are their indices in :attr:`GameView.nodes`."""

    ply: int
    address: str
    """The query string naming the node: ``ply=K`` on the main line, else ``path=...``."""
    parent: int | None
    children: tuple[int, ...]
    """The nodes after this one: its main line's next turn first, then the alternatives."""
    branch: int
    """The last main-line node on the way from the start (itself on the main line): where
    "Back to the main line" goes."""
    end: int
    """The last node of this node's line (its first continuations, followed)."""
    white_to_move: bool
    mover: tuple[int, ...]
    opponent: tuple[int, ...]
    """The position after the node's turn, seen by the player to act (his men first)."""
    dice: tuple[int, int | None] | None
    """The turn's dice, ``(high, low)``; ``None`` for the start, a cube action, a resignation."""
    last: tuple[int | bool, ...]
    """The steps of the turn to mark on the board, each one's four values
    (:class:`~notation.engine.play.Step`'s) in a row, in one tuple: the last play, when the other
    player is to act."""
    cube: int
    cube_owner: str | None
    """``W``, ``B``, or ``None`` while the cube is in the middle."""
    rolled_by_white: bool
    """Whether White played the turn (rolled :attr:`dice`, if any)."""
    caption: Message
    """What the turn did and what comes next (:mod:`notation.render.captions`), rendered
    in the page's language."""

    @property
    def player(self) -> Colour:
        """Who acts next."""
        return Colour.WHITE if self.white_to_move else Colour.BLACK

    @property
    def numbered_for_white(self) -> bool:
        """Whether the board is numbered as White counts his points: the points are the
        numbers of the player whose turn is shown, as the move list, the caption and the
        candidates write his play (at the start, of the player to act)."""
        return self.rolled_by_white if self.ply else self.white_to_move

    def position(self) -> Position:
        """The position, seen by the player to act (at the end of a game, the loser:
        :meth:`~notation.engine.state.GameState.seen_next`)."""
        return Position._trusted(self.mover, self.opponent)

    def white_view(self) -> Position:
        """The position seen by White."""
        position = self.position()
        return position if self.white_to_move else position.swapped()

    def pips(self) -> tuple[int, int]:
        """(White, Black) pip counts."""
        return self.white_view().pip_counts()

    def roll(self) -> Dice | None:
        return None if self.dice is None else Dice(*self.dice)

    def last_steps(self) -> tuple[Step, ...]:
        last = self.last
        return tuple(Step._make(last[start:start + STEP_FIELDS])
                     for start in range(0, len(last), STEP_FIELDS))


class RefusedTurn(NamedTuple):
    """Where reading a game stored invalid stopped: the ply, and the rule its error names
    (the page's heading gives the error's text, from the game's row)."""

    ply: int
    rule_id: str


class GameView:
    """What pages make of a game: its nodes, move list items and pip counts, made once;
    nothing of the game tree is kept (see :func:`read_back`)."""

    def __init__(self, game: Game) -> None:
        self.rules: RuleSet = game.rules
        self.comments: tuple[str, ...] = tuple(game.comments)
        items: list[MoveItem] = []
        order: list[Node] = [game]
        addresses = ["ply=0"]
        for item, node in walk(game):
            items.append(item)
            if node is not None:
                order.append(node)
                addresses.append(item.address)
        self.items: tuple[MoveItem, ...] = tuple(items)
        """The move list's items (see :func:`~webviewer.pages.tree.move_items`)."""
        self.nodes: tuple[PageNode, ...] = _page_nodes(order, addresses)
        """The start and every turn, each after its parent (the move list's order)."""
        mainline = [0]
        while self.nodes[mainline[-1]].children:
            mainline.append(self.nodes[mainline[-1]].children[0])
        self.mainline: tuple[int, ...] = tuple(mainline)
        """The start and every main-line node, by ply."""
        turns = [order[index].turn for index in mainline[1:]]
        self.pips: tuple[tuple[int, int], ...] = tuple(accumulate(
            turns, partial(pips_after, opposite=self.rules.opposite), initial=game.state.pips()))
        """(White, Black) pip counts after each main-line ply (worked out turn by turn)."""
        error = game.errors[0] if game.errors else None
        self.error: RefusedTurn | None = None if error is None else RefusedTurn(
            len(self.mainline), getattr(error, "rule_id", "SYNTAX"))
        """Where reading a game stored invalid stopped: the ply after the main line's last."""
        self._parts: BoundedCache[Hashable, object] = BoundedCache(PARTS)

    def node_at(self, ply: int | None, path: str | None) -> int:
        """The index of the node a query string names: ``path`` if given, else the
        main-line ``ply`` (past the end: the end), else the end of the main line;
        :class:`BadAddress` if none. The
        refused ply of a game stored invalid names the main line's end, where it was played."""
        if path:
            if len(path) > MAX_PATH:
                raise BadAddress(gettext("path is too long"))
            index = 0
            for part in path.split("."):
                children = self.nodes[index].children
                if not INDEX.fullmatch(part) or int(part) >= len(children):
                    raise BadAddress(gettext("path %(path)r names no turn of this game", path=path))
                index = children[int(part)]
            return index
        if ply is None or (self.error is not None and ply == self.error.ply):
            return self.mainline[-1]  # a refused ply: the position it was played from
        if ply < 0:
            raise BadAddress(gettext("ply is 0 to %(last)s", last=len(self.mainline) - 1))
        return self.mainline[min(ply, len(self.mainline) - 1)]  # past the end: the end

    def part(self, key: Hashable, make: Callable[[], V]) -> V:
        """A part of a page of the game, kept under ``key`` (which names everything the
        part depends on besides the game), else ``make()``, kept."""
        return self._parts.get(key, make)  # type: ignore[return-value]


def _page_nodes(order: list[Node], addresses: list[str]) -> tuple[PageNode, ...]:
    """The page nodes of ``order`` (the start, then each turn after its parent), named by
    ``addresses``."""
    index = {node: number for number, node in enumerate(order)}
    branch: list[int] = []
    for number, node in enumerate(order):
        parent = node.parent
        if parent is None:
            branch.append(number)
            continue
        above = branch[index[parent]]
        on_line = above == index[parent] and parent.variations[0] is node
        branch.append(number if on_line else above)
    end = [0] * len(order)
    for number in reversed(range(len(order))):
        node = order[number]
        end[number] = end[index[node.variations[0]]] if node.variations else number
    nodes = []
    number_of = index.__getitem__
    white = Colour.WHITE
    for number, node in enumerate(order):
        state, turn = node.state, node.turn
        position, seen_by = state.seen_next()
        last = turn.play if turn is not None and turn.player is not seen_by else None
        nodes.append(PageNode(
            node.ply, addresses[number],
            None if node.parent is None else index[node.parent],
            tuple(map(number_of, node.variations)),
            branch[number], end[number],
            seen_by is white, position.mover, position.opponent,
            None if turn is None or turn.dice is None else (turn.dice.high, turn.dice.low),
            tuple(chain.from_iterable(last.steps)) if last is not None else (),
            state.cube, None if state.cube_owner is None else state.cube_owner.value,
            turn is not None and turn.player is white, caption(turn, state)))
    return tuple(nodes)


@contextmanager
def read_back(record: str, variant: str, valid: bool) -> Iterator[Game]:
    """The game of an archive ``record`` (``variant``: the rule set of a record without a
    ``Variant`` tag; ``valid``: the game was stored valid, see
    :func:`~archive.rows.game_from_record`), released (:meth:`~notation.tree.game.Game.release`)
    when the block ends: the viewer keeps what it makes of a game, never the tree, so the
    tree is freed at once instead of waiting, cycles and all, for a full collection. A
    record that cannot be read back is a 500 that says so."""
    try:
        game = game_from_record(record, variant, valid)
    except NotationError as error:
        abort(500, description=f"this game's stored record cannot be read back: "
                               f"{getattr(error, 'message', error)}")
    try:
        yield game
    finally:
        game.release()


_views: BoundedCache[tuple[str, str], GameView] = BoundedCache(
    CACHED_GAMES, CACHE_BYTES, lambda view: NODE_BYTES * len(view.nodes))
_json: BoundedCache[tuple[str, str], str] = BoundedCache(CACHED_GAMES, CACHE_BYTES, len)
_files: BoundedCache[tuple[str, str, str], str] = BoundedCache(CACHED_GAMES, CACHE_BYTES, len)


def game_view(content_hash: str, variant: str, valid: bool, record: Callable[[], str]) -> GameView:
    """The view of the game whose record has ``content_hash``; ``record()`` gives the
    record when it has to be read (``variant`` and ``valid``: see :func:`read_back`)."""
    def make() -> GameView:
        with read_back(record(), variant, valid) as game:
            return GameView(game)

    return _views.get((content_hash, variant), make)


def game_json(content_hash: str, variant: str, valid: bool, record: Callable[[], str]) -> str:
    """The API's JSON text of the game whose record has ``content_hash`` (as
    :func:`game_view`), kept apart from the views: an API client needs no page."""
    def make() -> str:
        with read_back(record(), variant, valid) as game:
            return game_to_json(game)

    return _json.get((content_hash, variant), make)


def game_file(content_hash: str, variant: str, valid: bool, record: Callable[[], str],
              fmt: str) -> str:
    """The game whose record has ``content_hash`` written in ``fmt`` (a download; as
    :func:`game_json`, kept apart from the views and bounded by bytes, so that a large game
    is not written again for every download). :class:`ValueError` when ``fmt`` cannot
    hold the game (``.mat`` of another rule set than backgammon)."""
    def make() -> str:
        with read_back(record(), variant, valid) as game:
            return render([game], fmt)

    return _files.get((content_hash, variant, fmt), make)
