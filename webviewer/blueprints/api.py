"""The JSON API (documented in docs/viewer.md): games, one game with every position, the
plays from a position, the legal plays for a position and roll."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, jsonify, request
from flask.typing import ResponseReturnValue

from archive import games_through, plays_from, search
from notation import Dice, NotationError, Position, legal_plays
from notation.engine.rules import NAMES, rule_set
from webviewer.pages.kept_games import game_json
from webviewer.pages.search import query_from_args
from webviewer.pages.stored import record_of, stored_row
from webviewer.plumbing.db import get_db

blueprint = Blueprint("api", __name__, url_prefix="/api")
PRIVATE = ("source_file",)
"""Columns of a game's row the API leaves out: where the server read the game from."""


@blueprint.route("/games")
def games() -> ResponseReturnValue:
    rows, total = search(get_db(), query_from_args(current_app.config["PAGE_SIZE"]))
    return jsonify({"total": total, "games": [{key: value for key, value in row.items() if key not in PRIVATE}
                                              for row in rows]})


@blueprint.route("/games/<int:game_id>")
def game(game_id: int) -> ResponseReturnValue:
    row = stored_row(game_id)
    text = game_json(row["hash"], row["variant"], bool(row["valid"]), record_of(row))
    return current_app.response_class(text + "\n", mimetype="application/json")


def _variant() -> str | None:
    variant = request.args.get("variant") or None
    if variant is not None and variant not in NAMES:
        abort(400, description=f"unknown rule set {variant!r}")
    return variant


@blueprint.route("/positions/<path:position_id>")
def position(position_id: str) -> ResponseReturnValue:
    try:
        Position.from_id(position_id)
    except NotationError as error:
        abort(400, description=str(error))
    variant = _variant()
    db = get_db()
    return jsonify({"position": position_id, "games": games_through(db, position_id, variant),
                    "plays": [{"dice": p.dice, "play": p.play, "count": p.count, "wins": p.wins}
                              for p in plays_from(db, position_id, variant)]})


@blueprint.route("/legal")
def legal() -> ResponseReturnValue:
    try:
        rules = rule_set(_variant() or "jacquet")
        raw = request.args.get("position")
        start = Position.from_id(raw) if raw else rules.start  # legal_plays checks it for the rule set
        plays = legal_plays(start, Dice.parse(request.args.get("dice", "")), rules)
    except (NotationError, ValueError) as error:
        abort(400, description=str(error))
    return jsonify([play.as_json() for play in plays])
