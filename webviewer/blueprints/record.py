"""The scorer's tool: start a game, then enter each turn (roll or enter the dice, then the
play step by step on the board or typed), undo, annotate, the cube and resignations; at
the end save the game to the archive and go on with the match.

A game in progress lives in the archive (``live_games``) under an unguessable key, so it
survives a reload and a restart. Every change is a POST (CSRF-protected) answered by a
redirect to the game's page; a refused action is shown there with its rule and reason.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from archive import create_live, delete_live, import_games, load_live, save_live, stored_id
from notation.engine.dice import Dice
from notation.engine.play import Step
from notation.engine.rules import NAMES
from notation.engine.state import DOUBLE, DROP, RESIGN, TAKE
from notation.errors import IllegalPlayError, NotationError, RecordError, listed
from notation.formats import WRITABLE, render
from notation.formats.jqn.lexer import GLYPHS
from notation.recording import LiveGame, game_from_text, new_game, next_match_game, roll_lead
from notation.render.svg import board
from webviewer.pages.board_view import describe
from webviewer.pages.downloads import DOWNLOADS, attachment, require_format
from webviewer.plumbing.db import get_db

blueprint = Blueprint("record", __name__, url_prefix="/record")
MAX_PLAY = 200
MAX_COMMENT = 2000
NUMBER = re.compile(r"[0-9]{1,4}")


@blueprint.get("/")
def start_form() -> ResponseReturnValue:
    return render_template("record/start.html", variants=NAMES)


def _headers(form: Mapping[str, str]) -> dict[str, str]:
    """The new game's tags from the start form."""
    headers = {"Variant": form.get("variant", "jacquet"), "White": form.get("white", ""),
               "Black": form.get("black", ""), "Event": form.get("event", ""),
               "Site": form.get("site", ""), "Date": form.get("date", ""),
               "Match": form.get("match", ""), "MatchLength": form.get("match_length", ""),
               "Game": form.get("game", ""), "Score": form.get("score", "")}
    lead = form.get("lead_roll", "").strip()
    if form.get("starter") in ("White", "Black"):
        headers["Lead"] = form["starter"]
    elif lead:
        headers["LeadRoll"] = lead
    if form.get("crawford"):
        headers["Crawford"] = "yes"
    return headers


@blueprint.post("/")
def start() -> ResponseReturnValue:
    """Start a game; with the lead roll chosen and none given, the server rolls it."""
    form = request.form.to_dict()
    if form.get("variant") not in NAMES:
        abort(400, description="choose a rule set")
    if form.get("starter", "lead") not in ("lead", "White", "Black"):
        abort(400, description="the starter is White, Black or the lead roll")
    if form.get("starter", "lead") == "lead" and not form.get("lead_roll", "").strip():
        form["lead_roll"] = roll_lead(form["variant"], random.SystemRandom())
        flash(f"Lead roll: {form['lead_roll']}.", "info")
    try:
        game = new_game(_headers(form))
    except NotationError as error:
        flash(f"The game cannot start: {_words(error)}", "error")
        return render_template("record/start.html", variants=NAMES, form=form), 400
    record, pending = LiveGame(game).dump()
    key = create_live(get_db(write=True), record, pending)
    return redirect(url_for("record.page", key=key), code=303)


def _words(error: NotationError) -> str:
    """An error's sentence, without a reader's file and line prefix."""
    return error.message if isinstance(error, RecordError) else str(error)


def _load(key: str) -> tuple[LiveGame, int]:
    """The game in progress under ``key`` and its version."""
    stored = load_live(get_db(write=True), key)
    if stored is None:
        abort(404, description="no game in progress under this address (it may have been saved)")
    try:
        return LiveGame.load(stored.record, stored.pending), stored.version
    except NotationError as error:
        current_app.logger.error("a live game cannot be read: %s", error)
        abort(500, description="this game in progress cannot be read back")


@blueprint.get("/<key>")
def page(key: str) -> ResponseReturnValue:
    """The game in progress: the board as it stands (with the steps entered so far), what
    the player to act may do, the record so far."""
    live, version = _load(key)
    state = live.node.state
    rules = live.game.rules
    entry = live.entry() if live.dice is not None else None
    position = entry.position_after(live.steps) if entry else state.position
    white = state.player.value == "W"
    turn = live.node.turn
    last = turn.play.steps if entry is None and turn is not None and turn.play else ()
    svg = board(position, rules, white_to_move=white, dice=live.dice, entered_steps=live.steps,
                last_steps=last if turn is not None and turn.player is not state.player else (),
                title="The board as it stands")

    def white_point(point: int) -> str:
        """A point of the mover's in White's numbering, as the board names it."""
        if not 1 <= point <= 24:
            return "bar" if point else "off"
        return str(point if white else rules.opposite[point])

    offered = [(step, white_point(step.from_point), white_point(step.to_point))
               for step in (entry.next_steps(live.steps) if entry else [])]
    return render_template(
        "record/page.html", key=key, live=live, state=state, svg=svg,
        description=describe(position if white else position.swapped()), offered=offered,
        nags=GLYPHS, plays=entry.plays if entry else [], record=live.record(),
        can={kind: live.can(kind) for kind in (DOUBLE, TAKE, DROP, RESIGN)},
        resign_points=state.resign_points(), formats=[f for f in DOWNLOADS if f in WRITABLE],
        version=version)


def _number(form: Mapping[str, str], name: str) -> int:
    """A small whole number from the form (ASCII digits only), else a 400."""
    value = form.get(name, "")
    if not NUMBER.fullmatch(value):
        abort(400, description=f"{name} must be a whole number")
    return int(value)


def _text(form: Mapping[str, str], name: str, limit: int) -> str:
    value = form.get(name, "")
    if len(value) > limit:
        abort(400, description=f"{name} is longer than {limit} characters")
    return value


def _act(live: LiveGame, action: str, form: Mapping[str, str]) -> None:
    """Apply one of the scorer's actions; NotationError when the rules refuse it."""
    if action == "roll":
        live.set_dice(None)
    elif action == "dice":
        live.set_dice(Dice.parse(form.get("dice", "")))
    elif action == "step":
        live.add_step(Step(_number(form, "from"), _number(form, "to"), _number(form, "die")))
    elif action == "undo-step":
        live.undo_step()
    elif action == "play":
        live.play_text(_text(form, "play", MAX_PLAY))
    elif action == "undo":
        live.undo_turn()
    elif action in (DOUBLE, TAKE, DROP):
        live.cube(action)
    elif action == "resign":
        live.resign(_number(form, "points"))
    elif action == "annotate":
        nag = _number(form, "nag") if form.get("nag") else None
        if nag is not None and nag not in GLYPHS:
            abort(400, description=f"no mark ${nag}")
        live.annotate(_text(form, "comment", MAX_COMMENT), nag)
    else:
        abort(400, description=f"unknown action {action!r}")


@blueprint.post("/<key>")
def act(key: str) -> ResponseReturnValue:
    """One action of the scorer's, sent from the page of the game's current version (a
    form sent again, or from an older page, is not applied); a refusal or a clash with
    another change is shown on the game's page."""
    live, version = _load(key)
    action = request.form.get("action", "")
    if request.form.get("version") != str(version):
        flash("This page was out of date (the game moved on meanwhile: a second click, or "
              "another window): here it is as it stands; nothing of that action was kept.", "error")
        return redirect(url_for("record.page", key=key), code=303)
    if action == "save":
        return _save(key, live, version)
    try:
        _act(live, action, request.form)
    except IllegalPlayError as error:
        legal = listed(error.legal_plays)  # a flash is kept in the session cookie: a few
        reason = error.reason.rstrip(".") + "."
        flash(f"Refused: [{error.rule_id}] {reason}" + (f" Legal plays: {legal}." if legal else ""), "error")
    except NotationError as error:
        flash(f"Refused: {_words(error)}", "error")
    else:
        if not save_live(get_db(write=True), key, *live.dump(), version):
            flash("The game was changed meanwhile (from another window?): look again, nothing "
                  "of this action was kept.", "error")
    return redirect(url_for("record.page", key=key), code=303)


def _save(key: str, live: LiveGame, version: int) -> ResponseReturnValue:
    """Store the finished game in the archive and end the recording; offer the match's
    next game."""
    if not live.over:
        flash("The game is not over: finish it or resign first.", "error")
        return redirect(url_for("record.page", key=key), code=303)
    db = get_db(write=True)
    game = game_from_text(live.record())
    following = next_match_game(game)
    import_games(db, [game])  # idempotent: a second save adds nothing
    delete_live(db, key, version)
    return render_template("record/saved.html", game_id=stored_id(db, game), live=live,
                           following=following)


@blueprint.get("/<key>.<fmt>")
def download(key: str, fmt: str) -> ResponseReturnValue:
    """The game so far as a file."""
    require_format(fmt)
    live, _ = _load(key)
    try:
        text = render([game_from_text(live.record())], fmt)
    except ValueError as error:
        abort(404, description=str(error))
    return attachment(text, fmt, f"recording.{fmt}")
