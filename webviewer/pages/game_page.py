"""The game page: a game at one node, drawn from its kept view (:mod:`webviewer.pages.kept_games`).

What does not depend on the node is rendered once per game and kept in its view: the frame
(the site's header, the heading, the downloads: ``games/game.html``) and, per kind of link
(:class:`Kind`: flipped or not, numbered for the player on roll or not), the move list and
the pip chart (from the macros of ``games/pieces.html``) and the data the script steps
through (:mod:`webviewer.pages.stepping`).
A page renders only the part that is its own (the board, the steps: the ``node_view``
macro) and marks its turn in the kept move list and its ply in the kept chart; the page's
UTF-8 is joined from the kept parts' UTF-8.
"""

from __future__ import annotations

import secrets
from typing import NamedTuple
from urllib.parse import quote

from flask import Response, render_template, session, url_for

from webviewer.pages.board_view import describe, page_board
from webviewer.pages.chart import PipChart
from webviewer.pages.downloads import DOWNLOADS
from webviewer.pages.kept_games import GameView, PageNode
from webviewer.pages.movelist import MoveList
from webviewer.pages.pieces import pieces
from webviewer.pages.stepping import stepping_data, title, where
from webviewer.pages.stored import Row
from webviewer.pages.tree import Links
from webviewer.plumbing.auth import signed_in

_TOKEN = secrets.token_hex(16)
LIVE, CHART, MOVES, DATA = (f"\x00{_TOKEN}:{part}\x00" for part in ("live", "chart", "moves", "data"))
"""Where the live parts go in the frame: the node's view, the move list, the chart, the
embedded data (no record can hold these, and autoescaping leaves them as they are)."""
SAFE = "!$&'()*+,/:;=@"
"""What werkzeug's path converter leaves unquoted in a URL (a position ID is all such)."""


class Kind(NamedTuple):
    """A kind of link of the game page: the board flipped (Black at the bottom), the points
    numbered for the player on roll (else for the player at the bottom)."""

    flip: bool
    numbers_on_roll: bool

    def links(self, base: str) -> Links:
        """The links to the nodes of the game page at ``base``, of this kind."""
        return Links(f"{base}?", ("&flip=1" if self.flip else "")
                     + ("&numbers=roll" if self.numbers_on_roll else ""))


class Frame(NamedTuple):
    """What a game's page keeps of its frame (for one address of the page and one version
    of its row): the page before, between and after its live parts (no flashed message),
    UTF-8, and the address of a position's page split round the position ID."""

    before: bytes
    before_moves: bytes
    before_chart: bytes
    before_data: bytes
    after: bytes
    position_head: str
    position_tail: str


def _frame(view: GameView, row: Row) -> Frame:
    """The game page's frame: the site's header (with the messages flashed to this
    visitor, if any, and who is signed in), the heading, the downloads (and an admin's
    controls)."""
    page = render_template("games/game.html", row=row, live=LIVE, chart=CHART, moves=MOVES,
                           data=DATA, comments=view.comments, formats=DOWNLOADS)
    before, live, rest = page.partition(LIVE)
    before_moves, moves, rest = rest.partition(MOVES)
    before_chart, chart, rest = rest.partition(CHART)
    before_data, data, after = rest.partition(DATA)
    assert live and chart and moves and data, "the frame holds its live parts"
    head, query, tail = url_for("explore.position", position_id="A", variant=row["variant"]).partition("?")
    return Frame(before.encode(), before_moves.encode(), before_chart.encode(), before_data.encode(),
                 after.encode(), head[:-1], query + tail)


class Turns(NamedTuple):
    """The parts of a game's page kept per kind of link: the move list, the pip chart and
    the data the script steps through."""

    moves: MoveList
    chart: PipChart
    data: bytes


def _turn_pieces(view: GameView, base: str, kind: Kind, frame: Frame) -> Turns:
    """The move list, the pip chart and the stepping data of a game whose page is at ``base``."""
    page = kind.links(base)
    refused = view.error
    if refused is None:
        moves = MoveList(view.items, page)
    else:
        moves = MoveList(view.items, page, refused.text(), f"ply={refused.ply}")
    others = (Kind(not kind.flip, kind.numbers_on_roll).links(base),
              Kind(kind.flip, not kind.numbers_on_roll).links(base))
    data = stepping_data(view, page, kind.flip, kind.numbers_on_roll, others,
                         lambda node, position_id: position_page(frame, node, position_id))
    return Turns(moves, PipChart(view.pips, page), data)


def position_page(frame: Frame, node: PageNode, position_id: str) -> str:
    """The address of the page of ``node``'s position (``position_id``), drawn with the
    player on roll in his colour."""
    return (frame.position_head + quote(position_id, safe=SAFE)
            + frame.position_tail + ("&player=W" if node.white_to_move else "&player=B"))


def game_page(view: GameView, row: Row, index: int, kind: Kind, base: str) -> Response:
    """The page of the game of ``row`` (at ``base``) at its node ``index``: the board, the
    steps (the ``node_view`` macro), the move list, the pip chart (kept, marked here) and
    the data the script steps through (kept)."""

    def href(where: str, other: Kind = kind) -> str:
        return other.links(base).url(where)

    # a message for this visitor, or a signed-in user's header: a frame of its own, not kept
    if "_flashes" in session or signed_in().is_authenticated:
        frame = _frame(view, row)
    else:
        frame = view.part(("frame", base, tuple(row.items())), lambda: _frame(view, row))
    nodes = view.nodes
    node = nodes[index]
    on_main_line = node.branch == index
    end = nodes[node.end]
    here = node.address
    main = None if on_main_line else href(f"ply={nodes[node.branch].ply}")
    turns = view.part(("turns", base, kind), lambda: _turn_pieces(view, base, kind, frame))
    position_id = node.position().position_id()
    board = pieces().node_view(
        "".join(page_board(node, view.rules, kind.flip, kind.numbers_on_roll, title(node))),
        where(view, index), node.caption, node.pips(), position_page(frame, node, position_id),
        position_id, href("ply=0"),
        href(nodes[node.parent].address) if node.parent is not None else None,
        href(nodes[node.children[0]].address) if node.children else None,
        href(end.address), href(here, Kind(not kind.flip, kind.numbers_on_roll)),
        href(here, Kind(kind.flip, not kind.numbers_on_roll)), kind.numbers_on_roll, main,
        view.error.text() if view.error and index == view.mainline[-1] else None,
        describe(node.white_view()))
    return Response(b"".join((frame.before, board.encode(), frame.before_moves,
                              *turns.moves.utf8(here), frame.before_chart,
                              *turns.chart.utf8(node.ply if on_main_line else -1),
                              frame.before_data, turns.data, frame.after)), mimetype="text/html")
