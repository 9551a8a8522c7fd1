"""The board editor (lichess's): set up or edit a position man by man, then rank a roll
from it on the position page. The page works by its form alone (a point and a button, or
a position ID typed); with JavaScript a click on the board does the same through
``/board-editor/board``, which answers the new position's ID and board (the server draws,
the script swaps)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from notation import NotationError, Position
from notation.engine.rules import DEFAULT, NAMES, RuleSet, rule_set
from notation.engine.state import Colour
from notation.messages import Message, render
from notation.render.svg import board
from webviewer.pages.board_editor import ACTIONS, SIDES, edited, point_choice, point_list, seen_by, white_view
from webviewer.pages.board_view import describe
from webviewer.plumbing.args import choice_arg, variant_arg
from webviewer.plumbing.language import page_language

blueprint = Blueprint("editor", __name__)


def _state() -> tuple[RuleSet, str, str]:
    """The rule set, who is on roll and the colour a click adds, as the address gives
    them (400 for a rule set the viewer does not know)."""
    variant = variant_arg(DEFAULT) or DEFAULT
    player = choice_arg("player", {"": "W", "W": "W", "B": "B"})
    side = choice_arg("side", {"": "W", "W": "W", "B": "B"})
    return rule_set(variant), player, side


def _edit(rules: RuleSet, player: str, side: str) -> tuple[Position, str | None]:
    """The position the address asks for (``id``, seen by the player ``seen``, by default
    the player on roll; the rule set's start without one) after the action asked (``do``: one of
    :data:`~webviewer.pages.board_editor.ACTIONS`, on ``point``), seen by White, and the
    rules' refusal in the page's language (the position before the action then kept)."""
    position_id = request.args.get("id", "").strip()
    seen = choice_arg("seen", {"": player, "W": "W", "B": "B"})
    try:
        white = white_view(position_id, seen) if position_id else rules.start
        rules.check_position(white)
    except NotationError as error:
        return rules.start, render(error.msg, page_language())
    action = choice_arg("do", {"": "", **{name: name for name in ACTIONS}})
    if not action:
        return white, None
    try:
        point = point_choice(request.args.get("point", ""), rules) if action in ("add", "remove") else ""
    except ValueError:
        abort(400, description=_("no point %(point)r on this board", point=request.args.get("point", "")))
    try:
        return edited(white, rules, action, point, side), None
    except NotationError as error:
        return white, render(error.msg, page_language())


def _drawn(white: Position, rules: RuleSet, player: str) -> dict[str, Any]:
    """What the page and the script show of a position: its ID (seen by the player on
    roll), its board (White at the bottom, numbered for the player on roll, as he counts),
    the form's points in the same numbers (:func:`~webviewer.pages.board_editor.point_list`),
    the position page's address and the editor's."""
    on_roll = Colour.WHITE if player == "W" else Colour.BLACK
    position_id = seen_by(white, player).position_id()
    language = page_language()
    title = render(Message.of("board.title.position", position=position_id, player=on_roll.named), language)
    svg = board(white, rules, white_to_move=True, cube=None, black_numbers=player == "B", title=title,
                language=language)  # men only
    pips = white.pip_counts()
    return {"id": position_id, "svg": svg, "points": point_list(rules, player),
            "description": describe(white, language),
            "pips": _("Pips: White %(white)s, Black %(black)s.", white=pips[0], black=pips[1]),
            "position": url_for("explore.position", position_id=position_id, variant=rules.name,
                                player=player),
            "editor": url_for("editor.edit", id=position_id, variant=rules.name, player=player,
                              side=request.args.get("side") or None)}


@blueprint.route("/board-editor")
def edit() -> ResponseReturnValue:
    """The editor: ``?id=`` a position ID (seen by the player on roll, or by ``seen=W|B``,
    the player the form's ID was written for, so that changing who is on roll keeps the
    board; default the rule set's start), ``variant=``, ``player=W|B`` (on roll),
    ``side=W|B`` (the colour a man added has); ``do=add|remove&point=P`` (White's point
    1-24 or ``bar``), ``do=clear``, ``do=start`` edit it and lead to the editor of the new
    position. A position the rules refuse is shown with their error (400)."""
    rules, player, side = _state()
    white, error = _edit(rules, player, side)
    drawn = _drawn(white, rules, player)
    if request.args.get("do") and error is None:
        return redirect(drawn["editor"], 303)
    return render_template("explore/editor.html", drawn=drawn, error=error, rules=rules, player=player,
                           side=side, sides=SIDES, variants=NAMES,
                           typed=request.args.get("id", "") if error else drawn["id"]), 400 if error else 200


@blueprint.route("/board-editor/board")
def edit_board() -> ResponseReturnValue:
    """The editor's answer to a click (the script's): the same arguments as the editor,
    answered as JSON: the position's ``id``, its ``svg``, its ``description``, its ``pips``, the
    ``position`` page's address and the ``editor``'s, the form's ``points`` (White's
    number and the player on roll's, each), and the rules' ``error`` (or ``null``)."""
    rules, player, side = _state()
    white, error = _edit(rules, player, side)
    return jsonify({**_drawn(white, rules, player), "error": error})
