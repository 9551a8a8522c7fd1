"""Pages: the archive (search form and list) and a game stepped through ply by ply."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, render_template, request
from flask.typing import ResponseReturnValue

from archive import search
from archive.search import SORTS
from notation.engine.rules import NAMES
from notation.formats import render
from webviewer.pages.downloads import attachment, require_format
from webviewer.pages.game_page import game_page as page_of
from webviewer.pages.kept_games import read_back
from webviewer.pages.search import SEARCH_ARGS, query_from_args
from webviewer.pages.stored import record_of, stored_game, stored_row
from webviewer.pages.tree import BadAddress
from webviewer.plumbing.args import choice_arg, int_arg
from webviewer.plumbing.db import get_db
from webviewer.plumbing.site import site_urls

blueprint = Blueprint("games", __name__)


@blueprint.route("/")
def index() -> ResponseReturnValue:
    size = current_app.config["PAGE_SIZE"]
    query = query_from_args(size)
    rows, total = search(get_db(), query)
    page = query.offset // size + 1
    search_args = {name: value for name, value in request.args.items() if name in SEARCH_ARGS and value}
    return render_template("games/list.html", rows=rows, total=total, page=page,
                           pages=max(1, (total + size - 1) // size), args=search_args,
                           sorts=sorted(SORTS), variants=NAMES)


@blueprint.route("/game/<int:game_id>")
def game_page(game_id: int) -> ResponseReturnValue:
    """A game at one node (``?ply=K`` on the main line, ``?path=...`` in a variation;
    the end by default), flipped with ``?flip=1``: see :mod:`webviewer.pages.game_page`."""
    row, view = stored_game(game_id)
    try:
        index = view.node_at(int_arg("ply"), request.args.get("path"))
    except BadAddress as error:
        abort(400, description=str(error))
    flip = choice_arg("flip", {"": False, "0": False, "1": True})
    base = site_urls()["game_0"][:-1] + str(game_id)  # as url_for makes it (an int converter)
    return page_of(view, row, index, flip, base)


@blueprint.route("/game/<int:game_id>.<fmt>")
def download(game_id: int, fmt: str) -> ResponseReturnValue:
    """The game as a file in a writable format (``.mat`` for backgammon only)."""
    require_format(fmt)
    row = stored_row(game_id)
    with read_back(record_of(row)(), row["variant"], bool(row["valid"])) as game:
        try:
            text = render([game], fmt)
        except ValueError as error:
            abort(404, description=str(error))
    return attachment(text, fmt, f"game-{game_id}.{fmt}")
