"""The game page: a game at one node, drawn from its kept view (:mod:`webviewer.pages.kept_games`).

What does not depend on the node is rendered once per game and kept in its view: the frame
(the site's header, the heading, the downloads: ``games/game.html``) and, per kind of link
(flipped or not), the move list and the pip chart (from the macros of ``games/pieces.html``).
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
from webviewer.pages.kept_games import GameView
from webviewer.pages.movelist import MoveList
from webviewer.pages.pieces import pieces
from webviewer.pages.stored import Row
from webviewer.pages.tree import Links
from webviewer.plumbing.auth import signed_in

_TOKEN = secrets.token_hex(16)
LIVE, CHART, MOVES = (f"\x00{_TOKEN}:{part}\x00" for part in ("live", "chart", "moves"))
"""Where the live parts go in the frame: the node's view, the chart, the move list (no
record can hold these, and autoescaping leaves them as they are)."""
SAFE = "!$&'()*+,/:;=@"

"""What werkzeug's path converter leaves unquoted in a URL (a position ID is all such)."""


def links(base: str, flip: bool) -> Links:
    """The links to the nodes of the game page at ``base``, flipped or not."""
    return Links(f"{base}?", "&flip=1" if flip else "")


class Frame(NamedTuple):
    """What a game's page keeps of its frame (for one address of the page and one version
    of its row): the page before, between and after its live parts (no flashed message),
    UTF-8, and the address of a position's page split round the position ID."""

    before: bytes
    before_chart: bytes
    before_moves: bytes
    after: bytes
    position_head: str
    position_tail: str


def _frame(view: GameView, row: Row) -> Frame:
    """The game page's frame: the site's header (with the messages flashed to this
    visitor, if any, and who is signed in), the heading, the downloads (and an admin's
    controls)."""
    page = render_template("games/game.html", row=row, live=LIVE, chart=CHART, moves=MOVES,
                           comments=view.comments, formats=DOWNLOADS)
    before, live, rest = page.partition(LIVE)
    before_chart, chart, rest = rest.partition(CHART)
    before_moves, moves, after = rest.partition(MOVES)
    assert live and chart and moves, "the frame holds its live parts"
    head, query, tail = url_for("explore.position", position_id="A", variant=row["variant"]).partition("?")
    return Frame(before.encode(), before_chart.encode(), before_moves.encode(), after.encode(),
                 head[:-1], query + tail)


def _turn_pieces(view: GameView, base: str, flip: bool) -> tuple[MoveList, PipChart]:
    """The move list and the pip chart of a game whose page is at ``base``."""
    page = links(base, flip)
    refused = view.error
    if refused is None:
        moves = MoveList(view.items, page)
    else:
        moves = MoveList(view.items, page, refused.text(), f"ply={refused.ply}")
    return moves, PipChart(view.pips, page)


def game_page(view: GameView, row: Row, index: int, flip: bool, base: str) -> Response:
    """The page of the game of ``row`` (at ``base``) at its node ``index``: the board, the
    steps (the ``node_view`` macro), the pip chart and the move list (kept, marked here)."""

    def href(where: str, flipped: bool = flip) -> str:
        return links(base, flipped).url(where)

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
    moves, chart = view.part(("turns", base, flip), lambda: _turn_pieces(view, base, flip))
    position_id = node.position().position_id()
    position_page = frame.position_head + quote(position_id, safe=SAFE) + frame.position_tail
    board = pieces().node_view(
        page_board(node, view.rules, flip, f"Position after ply {node.ply}"), node.ply, end.ply,
        node.player.title, node.pips(), position_page, position_id, href("ply=0"),
        href(nodes[node.parent].address) if node.parent is not None else None,
        href(nodes[node.children[0]].address) if node.children else None,
        href(end.address), href(here, not flip), main,
        view.error.text() if view.error and index == view.mainline[-1] else None,
        describe(node.white_view()))
    return Response(b"".join((frame.before, board.encode(), frame.before_chart,
                              *chart.utf8(node.ply if on_main_line else -1), frame.before_moves,
                              *moves.utf8(here), frame.after)), mimetype="text/html")
