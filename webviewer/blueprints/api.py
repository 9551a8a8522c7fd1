"""The JSON API (documented in docs/viewer.md): games, one game with every position, the
plays from a position (and with a roll, its plays ranked by the engine), the legal plays
for a position and roll (a doublet's worked out in a worker process; at most
``MAX_LEGAL_PLAYS`` of them returned)."""

from __future__ import annotations

from typing import NoReturn

from flask import Blueprint, abort, current_app, jsonify, make_response, request
from flask.typing import ResponseReturnValue

from analysis.shipped import NoNet
from archive import games_through, plays_from, search
from archive.search import public_row
from notation import Dice, NotationError, Position, legal_plays
from notation.engine.rules import DEFAULT, rule_set
from webviewer.pages.kept_games import game_json
from webviewer.pages.play_engine import legal_limit, position_ranking
from webviewer.pages.search import query_from_args
from webviewer.pages.stored import record_of, stored_row
from webviewer.plumbing.args import variant_arg
from webviewer.plumbing.db import get_db
from webviewer.plumbing.language import said
from webviewer.plumbing.workers import run_work

blueprint = Blueprint("api", __name__, url_prefix="/api")
PRIVATE = ("source_file",)
"""Columns of a game's row the API leaves out: where the server read the game from."""


@blueprint.route("/games")
def games() -> ResponseReturnValue:
    rows, total = search(get_db(), query_from_args(current_app.config["PAGE_SIZE"]))
    return jsonify({"total": total, "games": [{key: value for key, value in public_row(row, said).items()
                                               if key not in PRIVATE} for row in rows]})


@blueprint.route("/games/<int:game_id>")
def game(game_id: int) -> ResponseReturnValue:
    row = stored_row(game_id)
    text = game_json(row["hash"], row["variant"], bool(row["valid"]), record_of(row))
    return current_app.response_class(text + "\n", mimetype="application/json")


def _refuse(error: NotationError | NoNet) -> NoReturn:
    """400 with what the rules or the engine refuse: ``error``, its text in the page's
    language, beside its message's ``id`` and ``params`` for programs (``docs/languages.md``)."""
    abort(make_response(jsonify({"error": said(error.msg), **error.msg.as_json()}), 400))


@blueprint.route("/positions/<path:position_id>")
def position(position_id: str) -> ResponseReturnValue:
    """The games through a position and the plays made from it; with ``?dice=61`` (and
    ``&ply=1``), ``candidates``: the roll's plays ranked by the engine, as the position page
    shows them (the rule set: ``?variant=``, else the first game's through it, else
    jacquet)."""
    try:
        Position.from_id(position_id)
    except NotationError as error:
        _refuse(error)
    variant = variant_arg(None)
    db = get_db()
    games = games_through(db, position_id, variant)
    answer: dict[str, object] = {"position": position_id, "games": games,
              "plays": [{"dice": p.dice, "play": p.play, "count": p.count, "wins": p.wins}
                        for p in plays_from(db, position_id, variant)]}
    try:
        candidates = position_ranking(variant or (games[0]["variant"] if games else DEFAULT),
                                      position_id, legal_limit())
    except (NotationError, NoNet) as error:
        _refuse(error)
    if candidates is not None:
        answer["candidates"] = candidates
    return jsonify(answer)


@blueprint.route("/legal")
def legal() -> ResponseReturnValue:
    """``{"plays": [...], "count": N, "truncated": bool}``: the first
    ``MAX_LEGAL_PLAYS`` legal plays, sorted, and how many there are. A roll of two
    different dice has a few hundred plays at most and is answered in the request; a
    doublet (thousands of plays in versailles) in a worker process."""
    args = (variant_arg(None) or DEFAULT, request.args.get("position"), request.args.get("dice", ""),
            legal_limit())
    try:
        heavy = Dice.parse(args[2]).is_doublet
        answer = run_work(legal_answer, *args) if heavy else legal_answer(*args)
    except (NotationError, NoNet) as error:
        _refuse(error)
    except ValueError as error:
        abort(400, description=str(error))
    return jsonify(answer)


def legal_answer(variant: str, position: str | None, dice: str, limit: int) -> dict[str, object]:
    """The answer of ``/api/legal`` (run in a worker): :class:`NotationError` for a
    position or roll that cannot be read."""
    rules = rule_set(variant)
    start = Position.from_id(position) if position else rules.start  # legal_plays checks it
    plays = legal_plays(start, Dice.parse(dice), rules)
    return {"plays": [play.as_json() for play in plays[:limit]], "count": len(plays),
            "truncated": len(plays) > limit}
