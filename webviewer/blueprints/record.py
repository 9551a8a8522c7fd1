"""The scorer's tool: start a game, then enter each turn (roll or enter the dice, then the
play step by step on the board or typed), undo, annotate, the cube and resignations; at
the end save the game to the archive and go on with the match.

A game in progress lives in the archive (``live_games``) under an unguessable key, so it
survives a reload and a restart. Every change is a POST (CSRF-protected) answered by a
redirect to the game's page; a refused action is shown there, beside the field it came
from, with its rule and reason. What the pages show is made in
:mod:`webviewer.pages.recorder`.

Only a signed-in scorer starts a game; the game is theirs: only they (and admins) change
it, anyone may watch it at its address (the page then shows no controls). A game
untouched for ``LIVE_GAME_EXPIRY_DAYS`` is gone; a scorer has at most
``LIVE_GAMES_PER_SCORER`` games in progress.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from analysis.shipped import NoNet
from archive import (
    TooManyLiveGames,
    create_live,
    delete_live,
    import_games,
    load_game,
    load_live,
    save_live,
    stored_id,
)
from archive.audit import logging_stored
from archive.live import show_evaluation
from notation.engine.dice import Dice
from notation.engine.rules import DEFAULT, NAMES, OPTIONS, TITLES
from notation.engine.state import DOUBLE, DROP, TAKE
from notation.errors import NotationError
from notation.formats import render
from notation.formats.jqn.lexer import GLYPHS
from notation.messages import Message
from notation.recording import LiveGame, game_from_text, new_game, next_match_game, roll_lead
from webviewer.pages.analysis_job import LiveEvaluation, live_evaluation
from webviewer.pages.downloads import attachment, require_format, unwritable
from webviewer.pages.recorder import (
    CONFIRMED,
    MAX_PLAY,
    InProgress,
    confirmation,
    enter_turn,
    forget,
    form_number,
    form_text,
    in_progress,
    leave_note,
    page_context,
    refusal,
    remember,
    remembered,
    saved_id,
    take_note,
    today,
)
from webviewer.pages.stored import stored_row
from webviewer.plumbing.auth import role_required, signed_in
from webviewer.plumbing.db import get_db
from webviewer.plumbing.language import said
from webviewer.plumbing.workers import Busy, run_work

blueprint = Blueprint("record", __name__, url_prefix="/record")
MAX_COMMENT = 2000


def _expiry() -> timedelta:
    return timedelta(days=current_app.config["LIVE_GAME_EXPIRY_DAYS"])


@blueprint.get("/")
@role_required("scorer")
def start_form() -> ResponseReturnValue:
    """The start form (today's date filled in) and the games this browser is recording."""
    return render_template("record/start.html", variants=TITLES, options=OPTIONS, form={"date": today()},
                           recordings=_recordings())


def _recordings() -> list[InProgress]:
    """The games in progress this browser started, the latest first (those saved or gone
    left out)."""
    db = get_db(write=True)
    found = []
    for key in remembered():
        stored = load_live(db, key, _expiry())
        if stored is None:
            continue
        try:
            found.append(in_progress(key, LiveGame.load(stored.record, stored.pending)))
        except NotationError as error:
            current_app.logger.error("a live game cannot be read: %s", error)
    return found


def _headers(form: Mapping[str, str]) -> dict[str, str]:
    """The new game's tags from the start form."""
    headers = {"Variant": form.get("variant", DEFAULT), "Options": form.get("options", ""),
               "White": form.get("white", ""),
               "Black": form.get("black", ""), "Event": form.get("event", ""),
               "Site": form.get("site", ""), "Date": form.get("date", ""),
               "Match": form.get("match", ""), "MatchLength": form.get("match_length", ""),
               "Game": form.get("game", ""), "Score": form.get("score", ""),
               "Position": form.get("position", "")}
    lead = form.get("lead_roll", "").strip()
    if form.get("starter") in ("White", "Black"):
        headers["Lead"] = form["starter"]
    elif lead:
        headers["LeadRoll"] = lead
    if form.get("crawford"):
        headers["Crawford"] = "yes"
    return headers


@blueprint.post("/")
@role_required("scorer")
def start() -> ResponseReturnValue:
    """Start a game; with the lead roll chosen and none given, the server rolls it."""
    form = request.form.to_dict()
    if form.get("variant") not in NAMES:
        abort(400, description=_("choose a rule set"))
    if form.get("starter", "lead") not in ("lead", "White", "Black"):
        abort(400, description=_("the starter is White, Black or the lead roll"))
    rolled = ""
    if form.get("starter", "lead") == "lead" and not form.get("lead_roll", "").strip():
        form["lead_roll"] = rolled = roll_lead(form["variant"], random.SystemRandom())
    try:
        game = new_game(_headers(form))
    except NotationError as error:
        flash(_("The game cannot start: %(error)s", error=_words(error)), "error")
        return render_template("record/start.html", variants=TITLES, options=OPTIONS, form=form,
                               recordings=_recordings()), 400
    record, pending = LiveGame(game).dump()
    scorer = signed_in().id
    assert scorer is not None, "role_required lets only a signed-in user through"
    try:
        key = create_live(get_db(write=True), record, pending, scorer,
                          expiry=_expiry(), cap=current_app.config["LIVE_GAMES_PER_SCORER"])
    except TooManyLiveGames as error:
        flash(_("The game cannot start: %(error)s.", error=error), "error")
        return render_template("record/start.html", variants=TITLES, options=OPTIONS, form=form,
                               recordings=_recordings()), 429
    remember(key)
    if rolled:
        leave_note(key, "turn", _("Lead roll: %(roll)s.", roll=rolled))
    return redirect(url_for("record.page", key=key), code=303)


def _words(error: NotationError) -> str:
    """An error's sentence in the page's language, without a reader's file and line prefix."""
    return said(error.msg)


def _load(key: str) -> tuple[LiveGame, int, bool]:
    """The game in progress under ``key``, its version, and whether this user may change
    it (its scorer, or an admin)."""
    stored = load_live(get_db(write=True), key, _expiry())
    if stored is None:
        abort(404, description=_("no game in progress under this address (it may have been saved, "
                                 "or have expired)"))
    user = signed_in()
    mine = user.is_admin or (user.is_authenticated and user.id == stored.owner_id)
    try:
        return LiveGame.load(stored.record, stored.pending), stored.version, mine
    except NotationError as error:
        current_app.logger.error("a live game cannot be read: %s", error)
        abort(500, description=_("this game in progress cannot be read back"))


@blueprint.get("/<key>")
def page(key: str) -> ResponseReturnValue:
    """The game in progress: the board as it stands (with the steps entered so far), what
    the player to act may do, the record so far; with ``?confirm=ACTION``, the question
    asked before an action that ends the game or removes turns. A game this browser saved
    leads to its saved page. A watcher of a game whose scorer lets watchers see the
    engine's evaluation gets it with ``?evaluation=1`` (0-ply, in the worker pool)."""
    stored = load_live(get_db(write=True), key, _expiry())
    if stored is None and (game_id := saved_id(key)) is not None:
        return redirect(url_for("record.saved", game_id=game_id), code=303)
    live, version, mine = _load(key)
    shown = stored is not None and stored.evaluation and not mine  # never on the scorer's page
    evaluation: LiveEvaluation | None = None
    unavailable = None
    if shown and stored is not None and request.args.get("evaluation") == "1":
        try:
            evaluation = run_work(live_evaluation, stored.record, stored.pending)
        except Busy:
            unavailable = _("The engine is busy: ask again in a few seconds.")
        except NoNet as error:
            unavailable = said(error.msg)
    confirm = None
    action = request.args.get("confirm")
    if action is not None:
        if action not in CONFIRMED:
            abort(400, description=_("nothing to confirm for %(action)r", action=action))
        fields = {name: str(form_number(request.args, name)) for name in _CONFIRM_FIELDS[action]}
        confirm = confirmation(live, action, fields) if mine else None
        if confirm is None:
            abort(400, description=_("nothing to confirm: no %(action)s can be made now", action=action))
    return render_template("record/page.html", key=key, version=version, note=take_note(key, live),
                           mine=mine, watchers_see=stored is not None and stored.evaluation,
                           evaluation_shown=shown, evaluation=evaluation, unavailable=unavailable,
                           **page_context(live, confirm))


_CONFIRM_FIELDS = {"resign": ("points",), DROP: (), "correct": ("ply",)}
"""The numbers each confirmed action is sent with."""


def _act(live: LiveGame, action: str, form: Mapping[str, str]) -> None:
    """Apply one of the scorer's actions; NotationError when the rules refuse it."""
    if enter_turn(live, action, form):
        return
    if action == "roll":
        live.set_dice(None)
    elif action == "dice":
        live.set_dice(Dice.parse(form.get("dice", "")))
    elif action == "clear-dice":
        live.clear_dice()
    elif action == "undo":
        live.undo_turn()
    elif action == "correct":
        live.take_back_to(form_number(form, "ply"))
    elif action in (DOUBLE, TAKE, DROP):
        live.cube(action)
    elif action == "resign":
        live.resign(form_number(form, "points"))
    elif action == "annotate":
        nag = form_number(form, "nag") if form.get("nag") else None
        if nag is not None and nag not in GLYPHS:
            abort(400, description=_("no mark $%(nag)s", nag=nag))
        live.annotate(form_text(form, "comment", MAX_COMMENT), nag)
    else:
        abort(400, description=_("unknown action %(action)r", action=action))


_NOTE_FIELD = {"dice": "dice", "play": "play"}
"""Where a refusal is shown: beside the field the action came from, else by the status."""


@blueprint.post("/<key>")
@role_required("scorer")
def act(key: str) -> ResponseReturnValue:
    """One action of the game's scorer's (or an admin's; 403 for anyone else), sent from
    the page of the game's current version (a form sent again, or from an older page, is
    not applied); a refusal or a clash with another change is shown on the game's page,
    beside the field it came from. Resigning, dropping and taking turns back are asked
    again first (``confirm=yes``)."""
    live, version, mine = _load(key)
    if not mine:
        abort(403, description=_("This game is recorded by another scorer: you may watch it, "
                                 "not change it."))
    action = request.form.get("action", "")
    if request.form.get("version") != str(version):
        leave_note(key, "turn", _("This page was out of date (the game moved on meanwhile: a "
                                  "second click, or another window): here it is as it stands; "
                                  "nothing of that action was kept."))
        return redirect(url_for("record.page", key=key), code=303)
    if action == "save":
        return _save(key, live, version)
    if action in ("show-evaluation", "hide-evaluation"):
        show_evaluation(get_db(write=True), key, action == "show-evaluation")
        return redirect(url_for("record.page", key=key), code=303)
    if action in CONFIRMED and request.form.get("confirm") != "yes":
        fields: dict[str, Any] = {name: form_number(request.form, name) for name in _CONFIRM_FIELDS[action]}
        return redirect(url_for("record.page", key=key, confirm=action, **fields), code=303)
    field = _NOTE_FIELD.get(action, "turn")
    kept = form_text(request.form, action, MAX_PLAY) if action in _NOTE_FIELD else ""
    try:
        _act(live, action, request.form)
    except NotationError as error:  # a note is kept in the session cookie: a few legal plays
        leave_note(key, field, refusal(error), kept)
    else:
        _keep(key, live, version, field, kept)
    return redirect(url_for("record.page", key=key), code=303)


def _keep(key: str, live: LiveGame, version: int, field: str, kept: str) -> None:
    """Store the game as the action left it, if its record reads back as the game's page
    and downloads will read it (a game annotated past the reader's limit on a game's size
    would be stored, then never shown again); else refuse the action, keeping nothing."""
    record, pending = live.dump()
    try:
        LiveGame.load(record, pending)
    except NotationError as error:
        leave_note(key, field, _("Refused: with this change the game's record could not be read "
                                 "back (%(error)s), so nothing of it was kept. Make the comments "
                                 "shorter, or save the game as it is.", error=_words(error)), kept)
        return
    if not save_live(get_db(write=True), key, record, pending, version):
        leave_note(key, "turn", _("The game was changed meanwhile (from another window?): look "
                                  "again, nothing of this action was kept."))


def _save(key: str, live: LiveGame, version: int) -> ResponseReturnValue:
    """Store the finished game in the archive and end the recording; its saved page offers
    the match's next game."""
    if not live.over:
        leave_note(key, "turn", _("The game is not over: finish it or resign first."))
        return redirect(url_for("record.page", key=key), code=303)
    db = get_db(write=True)
    game = game_from_text(live.record())
    # idempotent: a second save adds nothing; the audit's line stored with the game
    import_games(db, [game], on_stored=logging_stored(db, signed_in().name, Message.of("audit.recorded")))
    delete_live(db, key, version)
    game_id = stored_id(db, game)
    forget(key, game_id)
    if game_id is None:  # pragma: no cover - a game just imported is found by its hash
        abort(500, description=_("the saved game cannot be found in the archive"))
    return redirect(url_for("record.saved", game_id=game_id), code=303)


@blueprint.get("/saved/<int:game_id>")
def saved(game_id: int) -> ResponseReturnValue:
    """A game saved to the archive: who won, its page, and the match's next game to start
    (404, as every page of it, for a game hidden from this user)."""
    stored_row(game_id)
    game = load_game(get_db(), game_id)
    if game is None:
        abort(404, description=_("no game %(game)s in the archive", game=game_id))
    state = game.end().state
    return render_template("record/saved.html", game_id=game_id, game=game, state=state,
                           following=next_match_game(game) if state.over else None)


@blueprint.get("/<key>.<fmt>")
def download(key: str, fmt: str) -> ResponseReturnValue:
    """The game so far as a file."""
    require_format(fmt)
    live, _, _ = _load(key)
    try:
        text = render([game_from_text(live.record())], fmt)
    except ValueError as error:
        unwritable(error, fmt)
    return attachment(text, fmt, f"recording.{fmt}")
