"""Pages: the archive (search form and list) and a game stepped through ply by ply."""

from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, render_template, request, url_for

from archive import Query, load_game, record, search
from archive.search import SORTS
from notation.jqn.lexer import GLYPHS
from notation.jqn.writer import line_text, turn_text
from notation.formats import WRITABLE, render
from notation.svg import board

from .chart import pip_chart
from .db import get_db

blueprint = Blueprint("games", __name__)
TEXT_FILTERS = ("player", "white", "black", "event", "variant", "text")


def _int(name: str) -> int | None:
    value = request.args.get(name, "").strip()
    if not value:
        return None
    try:
        return int(value)
    except ValueError:
        abort(400, description=f"{name} must be a whole number")


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
    valid = {"yes": True, "no": False}.get(args.get("valid", ""), None)
    return Query(**{name: (args.get(name) or None) for name in TEXT_FILTERS},
                 date_from=args.get("from") or None, date_to=args.get("to") or None,
                 result=result, points_min=_int("points_min"), points_max=_int("points_max"),
                 turns_min=_int("turns_min"), turns_max=_int("turns_max"), valid=valid,
                 sort=sort, descending=args.get("desc") == "1",
                 limit=page_size, offset=(page - 1) * page_size)


@blueprint.route("/")
def index():
    size = current_app.config["PAGE_SIZE"]
    query = query_from_args(size)
    rows, total = search(get_db(), query)
    page = query.offset // size + 1
    return render_template("games/list.html", rows=rows, total=total, page=page,
                           pages=max(1, (total + size - 1) // size), args=request.args,
                           sorts=sorted(SORTS))


def _moves(game) -> list[dict]:
    """The main line for the move list: ply, number, who, text, NAG glyphs, comments,
    and the variations as text."""
    moves = []
    parent = game
    for node in game.mainline():
        alternatives = [line_text(v) for v in parent.variations[1:]]
        moves.append({"ply": node.ply, "player": node.turn.player.title, "text": turn_text(node),
                      "nags": [GLYPHS.get(n, f"${n}") for n in node.nags],
                      "comments": node.starting_comments + node.comments,
                      "variations": alternatives})
        parent = node
    return moves


@blueprint.route("/game/<int:game_id>")
def game_page(game_id: int):
    db = get_db()
    row = record(db, game_id)
    if row is None:
        abort(404, description=f"no game {game_id}")
    game = load_game(db, game_id)
    nodes = [game, *game.mainline()]
    ply = _int("ply")
    ply = len(nodes) - 1 if ply is None else ply
    if not 0 <= ply < len(nodes):
        abort(400, description=f"ply is 0 to {len(nodes) - 1}")
    node = nodes[ply]
    state = node.state
    flipped = request.args.get("flip") == "1"
    last = node.turn.play.steps if node.turn is not None and node.turn.play and node.turn.player is not state.player else ()
    svg = board(state.position, game.rules, white_to_move=state.player.value == "W", flipped=flipped,
                dice=node.turn.dice if node.turn is not None else None, last_steps=last,
                title=f"Position after ply {ply}")
    white, black = state.white_view().pip_counts()
    chart = pip_chart([n.state.white_view().pip_counts() for n in nodes], ply,
                      lambda k: url_for("games.game_page", game_id=game_id, ply=k))
    return render_template("games/game.html", row=row, game=game, moves=_moves(game), ply=ply,
                           last=len(nodes) - 1, svg=svg, flipped=flipped, to_play=state.player.title,
                           pips=(white, black), position_id=state.position.position_id(),
                           comments=game.comments, chart=chart, formats=DOWNLOADS)


DOWNLOADS = {"jqn": "text/plain", "xml": "application/xml", "json": "application/json",
             "mat": "text/plain"}


@blueprint.route("/game/<int:game_id>.<fmt>")
def download(game_id: int, fmt: str):
    """The game as a file in a writable format (``.mat`` for backgammon only)."""
    if fmt not in DOWNLOADS or fmt not in WRITABLE:
        abort(404, description=f"no format {fmt!r}")
    game = load_game(get_db(), game_id)
    if game is None:
        abort(404, description=f"no game {game_id}")
    try:
        text = render([game], fmt)
    except ValueError as error:
        abort(404, description=str(error))
    return Response(text, mimetype=DOWNLOADS[fmt], headers={
        "Content-Disposition": f'attachment; filename="game-{game_id}.{fmt}"'})
