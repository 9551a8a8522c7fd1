"""Pages: the archive (search form and list) and a game stepped through ply by ply."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from typing import NamedTuple
from urllib.parse import quote

from flask import Blueprint, Response, abort, current_app, render_template, request, session, url_for
from markupsafe import Markup, escape

from archive import Query, search
from archive.search import MAX_SQL_INT, SORTS, date_bound, game_row, record_by_hash
from notation.engine.rules import NAMES
from notation.formats import WRITABLE, render

from .board_view import describe, page_board
from .cache import BoundedCache
from .chart import PipChart
from .db import file_status, get_db
from .movelist import MoveList
from .site import site_urls
from .tree import BadAddress, Links
from .views import GameView, game_view, read_back

blueprint = Blueprint("games", __name__)
TEXT_FILTERS = ("player", "white", "black", "event", "variant", "text")
SEARCH_ARGS = (*TEXT_FILTERS, "from", "to", "result", "points_min", "points_max", "turns_min",
               "turns_max", "valid", "sort", "desc")
"""The query-string arguments of a search (the only ones its links carry on)."""
WHOLE_NUMBER = re.compile(r"-?[0-9]{1,19}")


def _int(name: str) -> int | None:
    """A whole number from the query string (absent or empty: ``None``); 400 for anything
    else, or one beyond SQLite's integers."""
    value = request.args.get(name, "").strip()
    if not value:
        return None
    if not WHOLE_NUMBER.fullmatch(value) or abs(int(value)) > MAX_SQL_INT:
        abort(400, description=f"{name} must be a whole number (at most {MAX_SQL_INT})")
    return int(value)


def _choice(name: str, values: dict[str, object]) -> object:
    """The value of a query-string argument that takes one of a few words (absent or
    empty: ``values[""]``); 400 for any other word."""
    given = request.args.get(name, "")
    if given not in values:
        words = ", ".join(repr(word) for word in values if word)
        abort(400, description=f"{name} is one of {words}")
    return values[given]


def _date(name: str) -> str | None:
    """A date filter from the query string, as the archive writes dates; 400 if no date."""
    value = request.args.get(name, "").strip()
    if not value:
        return None
    try:
        return date_bound(value)
    except ValueError as error:
        abort(400, description=f"{name}: {error}")


def query_from_args(page_size: int) -> Query:
    """A search from the query string; every value is only ever a bound parameter."""
    args = request.args
    sort = args.get("sort", "id")
    if sort not in SORTS:
        abort(400, description=f"cannot sort by {sort!r}")
    result = args.get("result") or None
    if result not in (None, "W", "B", "*"):
        abort(400, description="result is W, B or *")
    page = max(1, _int("page") or 1)
    if page > MAX_SQL_INT // page_size:
        abort(400, description="page is too large")
    valid = _choice("valid", {"": None, "yes": True, "no": False})
    descending = _choice("desc", {"": False, "0": False, "1": True})
    return Query(**{name: (args.get(name) or None) for name in TEXT_FILTERS},
                 date_from=_date("from"), date_to=_date("to"),
                 result=result, points_min=_int("points_min"), points_max=_int("points_max"),
                 turns_min=_int("turns_min"), turns_max=_int("turns_max"), valid=valid,
                 sort=sort, descending=descending,
                 limit=page_size, offset=(page - 1) * page_size)


@blueprint.route("/")
def index():
    size = current_app.config["PAGE_SIZE"]
    query = query_from_args(size)
    rows, total = search(get_db(), query)
    page = query.offset // size + 1
    search_args = {name: value for name, value in request.args.items() if name in SEARCH_ARGS and value}
    return render_template("games/list.html", rows=rows, total=total, page=page,
                           pages=max(1, (total + size - 1) // size), args=search_args,
                           sorts=sorted(SORTS), variants=NAMES)


ROWS = 1024
"""Games' rows kept per app (see :func:`stored_game`)."""
_ROWS = "jacquet.game_rows"


def _archive_version() -> tuple[int, int, int] | None:
    """The archive file's device, inode and change time (``None`` if there is no file)."""
    status = file_status(current_app.config["ARCHIVE"])
    return None if status is None else (status.st_dev, status.st_ino, status.st_ctime_ns)


def stored_row(game_id: int) -> dict:
    """The row of game ``game_id`` (404 if there is none).

    The archive never changes or deletes a stored game (a new game gets a new id), so a
    row read once is kept (bounded, per app) under the id and the archive file's identity
    and change time: another file put at the archive's path, or the file itself written
    (a checkpoint), and the row is read again. An id with no game is never kept."""
    def read_row() -> dict:
        row = game_row(get_db(), game_id)
        if row is None:
            abort(404, description=f"no game {game_id}")
        return row

    version = _archive_version()
    rows = current_app.extensions.setdefault(_ROWS, BoundedCache(ROWS))
    return read_row() if version is None else rows.get((version, game_id), read_row)


def record_of(row: dict) -> Callable[[], str]:
    """Reads the record of the game of ``row`` from the archive (404 if it is gone)."""
    def stored_record() -> str:
        text = record_by_hash(get_db(), row["hash"])
        if text is None:
            abort(404, description=f"no game {row['id']}")
        return text

    return stored_record


def stored_game(game_id: int) -> tuple[dict, GameView]:
    """The row of game ``game_id`` (see :func:`stored_row`) and its view."""
    row = stored_row(game_id)
    return row, game_view(row["hash"], row["variant"], bool(row["valid"]), record_of(row))


def links(base: str, flip: bool) -> Links:
    """The links to the nodes of the game page at ``base``, flipped or not."""
    return Links(f"{base}?", "&flip=1" if flip else "")


def _turn_links(view: GameView, base: str, flip: bool) -> tuple[MoveList, PipChart]:
    """The move list and the pip chart of a game whose page is at ``base``."""
    page = links(base, flip)
    refused = view.error
    moves = MoveList(view.items, page, refused and refused.text(), refused and f"ply={refused.ply}")
    return moves, PipChart(view.pips, page)


LIVE = f"\x00{secrets.token_hex(16)}\x00"
"""Where the live part goes in the frame rendered once per game (no record can hold it)."""
SAFE = "!$&'()*+,/:;=@"
"""What werkzeug's path converter leaves unquoted in a URL (a position ID is all such)."""


class Frame(NamedTuple):
    """What a game's page keeps of its frame (for one address of the page and one version
    of its row): the page before and after its live part (no flashed message), UTF-8, and
    the address of a position's page split round the position ID."""

    before: bytes
    after: bytes
    position_head: str
    position_tail: str


def _frame(view: GameView, row: dict) -> Frame:
    """The game page's frame: the site's header, the heading, the downloads."""
    before, marker, after = _framed(view, row, Markup(LIVE)).rpartition(LIVE)
    assert marker, "the frame holds its live part"
    head, query, tail = url_for("explore.position", position_id="A", variant=row["variant"]).partition("?")
    return Frame(before.encode(), after.encode(), head[:-1], query + tail)


def _framed(view: GameView, row: dict, live: Markup) -> str:
    """The whole game page around ``live`` (and any flashed messages)."""
    return render_template("games/game.html", row=row, live=live,
                           head=Markup(render_template("games/head.html", row=row,
                                                       comments=view.comments)),
                           downloads=Markup(render_template("games/downloads.html", row=row,
                                                            formats=DOWNLOADS)))


def _step(href: str | None, rel: str, text: str) -> str:
    """A line of the steps that the node may not have."""
    return f'      <a href="{escape(href)}" rel="{rel}">{text}</a>\n' if href else "      \n"


@blueprint.route("/game/<int:game_id>")
def game_page(game_id: int):
    """A game at one node (``?ply=K`` on the main line, ``?path=...`` in a variation;
    the end by default): the board, the steps, the move list, the pip chart. What does
    not depend on the node is drawn once per game and kept (:mod:`webviewer.views`); the
    rest is joined from strings, every one not made here escaped, and the page's UTF-8
    from the kept parts' UTF-8."""
    row, view = stored_game(game_id)
    try:
        index = view.node_at(_int("ply"), request.args.get("path"))
    except BadAddress as error:
        abort(400, description=str(error))
    flip = _choice("flip", {"": False, "0": False, "1": True})
    base = site_urls()["game_0"][:-1] + str(game_id)  # as url_for makes it (an int converter)

    def href(where: str, flipped: bool = flip) -> str:
        return links(base, flipped).url(where)

    frame = view.part(("frame", base, tuple(row.items())), lambda: _frame(view, row))
    nodes = view.nodes
    node = nodes[index]
    on_main_line = node.branch == index
    end = nodes[node.end]
    here = node.address
    main = None if on_main_line else href(f"ply={nodes[node.branch].ply}")
    moves, chart = view.part(("turns", base, flip), lambda: _turn_links(view, base, flip))
    pips = node.pips()
    position_id = node.position().position_id()
    position_page = frame.position_head + quote(position_id, safe=SAFE) + frame.position_tail
    board = "".join((
        '<div class="viewer">\n  <figure class="board">\n    ',
        page_board(node, view.rules, flip, f"Position after ply {node.ply}"),
        f"\n    <figcaption>Ply {node.ply} of {end.ply}{' (in a variation)' if main else ''}: "
        f"{escape(node.player.title)} to play.\n"
        f"      Pips: White {pips[0]}, Black {pips[1]}.\n"
        f'      Position <a href="{escape(position_page)}">{escape(position_id)}</a>.</figcaption>\n'
        '  </figure>\n  <div class="side">\n'
        '    <nav class="steps" aria-label="Step through the game">\n'
        f'      <a href="{escape(href("ply=0"))}" rel="first">Start</a>\n',
        _step(href(nodes[node.parent].address) if node.parent is not None else None, "prev", "Back"),
        _step(href(nodes[node.children[0]].address) if node.children else None, "next", "Forward"),
        f'      <a href="{escape(href(end.address))}" rel="last">End</a>\n'
        f'      <a href="{escape(href(here, not flip))}" class="flip">Flip board</a>\n',
        f'      <a href="{escape(main)}" rel="up" class="leave">Back to the main line</a>\n'
        if main else "      \n",
        '      <button type="button" class="autoplay" hidden aria-pressed="false">Autoplay</button>\n'
        '    </nav>\n',
        f'    <p class="error">{escape(view.error.text())}</p>\n'
        if view.error and index == view.mainline[-1] else "",
        f'    <p class="description" id="description">{escape(describe(node.white_view()))}</p>\n'
        '  </div>\n</div>\n<figure class="chart">'))
    live = (board.encode(), *chart.utf8(node.ply if on_main_line else -1),
            b'<figcaption>Pip counts: White (gold) and Black (dark); click a ply.</figcaption></figure>\n'
            b'<ol class="moves" aria-label="Moves">', *moves.utf8(here), b"\n</ol>")
    if "_flashes" in session:  # a message for this visitor: the frame shows it
        return _framed(view, row, Markup(b"".join(live).decode()))
    return Response(b"".join((frame.before, *live, frame.after)), mimetype="text/html")


DOWNLOADS = {"jqn": "text/plain", "xml": "application/xml", "json": "application/json",
             "mat": "text/plain"}


@blueprint.route("/game/<int:game_id>.<fmt>")
def download(game_id: int, fmt: str):
    """The game as a file in a writable format (``.mat`` for backgammon only)."""
    if fmt not in DOWNLOADS or fmt not in WRITABLE:
        abort(404, description=f"no format {fmt!r}")
    row = stored_row(game_id)
    with read_back(record_of(row)(), row["variant"], bool(row["valid"])) as game:
        try:
            text = render([game], fmt)
        except ValueError as error:
            abort(404, description=str(error))
    return Response(text, mimetype=DOWNLOADS[fmt], headers={
        "Content-Disposition": f'attachment; filename="game-{game_id}.{fmt}"'})
