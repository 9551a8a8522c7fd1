"""Play the engine (``/play/``): choose the rule set, your side and the engine's strength,
then play your turns on the board or typed, as in the recorder; the engine answers at once
with the server's dice; hints rank your plays; once the game is over it is shown analysed,
can be downloaded, and a signed-in scorer can store it in the archive.

Anyone may play, so every request is bounded: a game is kept in the archive
(:mod:`archive.played`) under an unguessable key, for the visitor whose session started it,
at most ``PLAY_GAMES_PER_VISITOR`` per visitor, ``PLAY_GAMES_PER_ADDRESS`` per client
address (not signed in) and ``PLAY_GAMES`` on the server (a game never played makes room
first; visitors never shut a signed-in member out), gone when
untouched for ``PLAY_GAME_EXPIRY_HOURS``, at most ``PLAY_MAX_TURNS`` turns long; the engine's
1-ply turns, every ranking and the final analysis run in the worker pool within its time.
Dice come from the server only. What the pages show is made in
:mod:`webviewer.pages.play_page`.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from analysis.confirm import fallbacks
from analysis.shipped import NoNet
from archive import import_games, stored_id
from archive.audit import logging_stored
from archive.played import (
    PlayedBounds,
    PlayedRecord,
    TooManyPlayedGames,
    create_played,
    keep_analysis,
    load_played,
    save_played,
)
from notation import RuleSet
from notation.engine.rules import NAMES, TITLES
from notation.errors import NotationError
from notation.formats import render
from notation.messages import Message
from notation.recording import LiveGame, game_from_text, new_game, roll_lead
from webviewer.pages.downloads import attachment, require_format, unwritable
from webviewer.pages.play_engine import (
    STRENGTHS,
    analysed,
    engine_name,
    engine_turns,
    legal_limit,
    ranking,
)
from webviewer.pages.play_page import (
    LIMITS,
    forget_game,
    limit,
    new_visitor_token,
    play_context,
    played_games,
    remember_game,
    visitor_token,
)
from webviewer.pages.recorder import MAX_PLAY, enter_turn, form_number, leave_note, refusal, take_note
from webviewer.plumbing.auth import role_required, signed_in
from webviewer.plumbing.db import get_db
from webviewer.plumbing.language import said
from webviewer.plumbing.workers import OverBudget, run_work

blueprint = Blueprint("play", __name__, url_prefix="/play")
MAX_NAME = 100
SIDES = {"White": "W", "Black": "B"}


def analyses(rules: RuleSet) -> tuple[tuple[bool, str], ...]:
    """A finished game's analyses (with the luck?, the marks confirmed by), tried in turn
    until one fits in a job's time: as ``jacquet analyse`` makes it by default (the marks
    confirmed as the rule set's ``confirmation`` says), then with the lighter confirmations
    of :func:`~analysis.confirm.fallbacks`, the last (none) at 0-ply alone without the
    luck."""
    *lighter, lightest = fallbacks(rules.confirmation)
    return (*((True, setting) for setting in lighter), (False, lightest))


def _expiry() -> timedelta:
    return timedelta(hours=limit("PLAY_GAME_EXPIRY_HOURS"))


@blueprint.get("/")
def start_form() -> ResponseReturnValue:
    """The start form and the games this browser is playing."""
    return render_template("play/start.html", variants=TITLES, strengths=STRENGTHS, form={},
                           games=played_games(_expiry()), limits=LIMITS)


@blueprint.post("/")
def start() -> ResponseReturnValue:
    """Start a game: the lead roll decides who starts; if the engine does, it plays at once."""
    form = request.form
    variant, side, strength = form.get("variant"), form.get("side"), form.get("strength")
    if variant not in NAMES or side not in SIDES or strength not in STRENGTHS:
        abort(400, description=_("choose a rule set, your side (White or Black) and the engine's "
                                 "strength (random, 0, 1 or 2)"))
    name = " ".join(form.get("name", "").split())[:MAX_NAME] or signed_in().name or _("Visitor")
    try:
        engine = engine_name(variant, strength)
    except NoNet as error:
        abort(400, description=said(error.msg))
    you = SIDES[side]
    live = LiveGame(new_game({"Variant": variant, "Event": _("A game against the engine"),
                              "Date": datetime.date.today().strftime("%Y.%m.%d"),
                              "LeadRoll": roll_lead(variant, random.SystemRandom()),
                              side: name, "Black" if you == "W" else "White": engine}))
    db = get_db(write=True)
    try:  # the bounds first: no engine's work for a game that cannot be kept
        key = create_played(db, *live.dump(), new_visitor_token(), you, strength, PlayedBounds(
            _expiry(), limit("PLAY_GAMES_PER_VISITOR"), limit("PLAY_GAMES_PER_ADDRESS"),
            limit("PLAY_GAMES")), address=request.remote_addr, member=signed_in().is_authenticated)
    except TooManyPlayedGames as error:
        return render_template("play/start.html", variants=TITLES, strengths=STRENGTHS,
                               form=form, games=played_games(_expiry()), limits=LIMITS,
                               refused=_("The game cannot start: %(error)s.", error=error)), 429
    remember_game(key)
    if live.node.state.player.value != you:
        save_played(db, key, *_engine_answers(live.dump(), you, strength), 1)
    return redirect(url_for("play.page", key=key), code=303)


def _engine_answers(dumped: tuple[str, dict[str, Any]], you: str, strength: str
                    ) -> tuple[str, dict[str, Any]]:
    """The game after the engine's turns (in the worker pool at 1 and 2 ply: its heavy work)."""
    engine = "B" if you == "W" else "W"
    arguments = (*dumped, engine, strength, limit("PLAY_MAX_TURNS"))
    if strength in ("1", "2"):
        return run_work(engine_turns, *arguments)
    return engine_turns(*arguments)


def _load(key: str) -> tuple[PlayedRecord, LiveGame]:
    stored = load_played(get_db(write=True), key, _expiry())
    if stored is None:
        abort(404, description=_("no game against the engine under this address (it may have "
                                 "expired: a game untouched for %(hours)s hours is removed)",
                                 hours=limit("PLAY_GAME_EXPIRY_HOURS")))
    try:
        return stored, LiveGame.load(stored.record, stored.pending)
    except NotationError as error:
        current_app.logger.error("a played game cannot be read: %s", error)
        abort(500, description=_("this game cannot be read back"))


@blueprint.get("/<key>")
def page(key: str) -> ResponseReturnValue:
    """The game: your turn to roll or to play (``?hints=1``: the engine's ranking of your
    plays), the engine's last play on the board; once over, the game analysed."""
    stored, live = _load(key)
    hints = None
    if request.args.get("hints") and live.dice is not None and not live.over:
        state = live.node.state
        primes = (state.prime_held[state.player.index], state.prime_held[state.player.other.index])
        hints = run_work(ranking, live.game.rules.name, state.position.position_id(),
                         str(live.dice), 0, legal_limit(), primes)
    analysis = stored.analysis
    if live.over and analysis is None:
        analysis = _analyse(key, stored.record, live.game.rules)
    return render_template("play/page.html", key=key, version=stored.version,
                           note=take_note(key, live), mine=stored.belongs_to(visitor_token()),
                           **play_context(live, stored, hints, analysis))


def _analyse(key: str, record: str, rules: RuleSet) -> dict[str, Any]:
    """The finished game's analysis, made once in the worker pool and kept: the first of
    :func:`analyses` of ``rules`` that takes no longer than a job may (``WORK_SECONDS``; the
    analysis says what it lacks), else only what went wrong: which budget and its figures, said in the
    language of each page that shows it (:func:`~webviewer.pages.play_page.analysis_error`)."""
    analysis: dict[str, Any] = {}
    for luck, confirm in analyses(rules):
        try:
            analysis = run_work(analysed, record, luck, confirm)
            break
        except OverBudget as error:
            analysis = {"error": {"reason": error.reason, "params": error.params}}
    keep_analysis(get_db(write=True), key, analysis)
    return analysis


def _act(live: LiveGame, action: str, form: Mapping[str, str]) -> None:
    """One of the player's actions; NotationError when the rules refuse it."""
    if enter_turn(live, action, form):
        return
    if action == "roll":
        live.set_dice(None, random.SystemRandom())
    elif action == "resign":
        live.resign(form_number(form, "points"))
    else:
        abort(400, description=_("unknown action %(action)r", action=action))


@blueprint.post("/<key>")
def act(key: str) -> ResponseReturnValue:
    """One action of the player's, sent from the page of the game's current version (403
    for another visitor's game); the engine answers at once when the turn passes to it."""
    stored, live = _load(key)
    if not stored.belongs_to(visitor_token()):
        abort(403, description=_("This game was started in another browser: you may watch it, "
                                 "not play it."))
    if live.node.ply >= limit("PLAY_MAX_TURNS") and not live.over:
        abort(400, description=_("This game has %(turns)s turns, the most a game here may have "
                                 "(PLAY_MAX_TURNS): download it, or start another.", turns=live.node.ply))
    if request.form.get("version") != str(stored.version):
        leave_note(key, "turn", _("This page was out of date (a second click, or another "
                                  "window): here is the game as it stands; nothing of that action "
                                  "was kept."))
        return redirect(url_for("play.page", key=key), code=303)
    action = request.form.get("action", "")
    if live.node.state.player.value != stored.side and not live.over:
        if action != "answer":  # the engine's answer was cut short (over time, or busy)
            abort(400, description=_("the engine is to play: let it answer first"))
        record, pending = _engine_answers(live.dump(), stored.side, stored.strength)
        save_played(get_db(write=True), key, record, pending, stored.version)
        return redirect(url_for("play.page", key=key), code=303)
    field = "play" if action == "play" else "turn"
    try:
        _act(live, action, request.form)
    except NotationError as error:
        leave_note(key, field, refusal(error), request.form.get("play", "")[:MAX_PLAY])
        return redirect(url_for("play.page", key=key), code=303)
    dumped = live.dump()
    if live.dice is None and not live.over:
        dumped = _engine_answers(dumped, stored.side, stored.strength)
    if not save_played(get_db(write=True), key, *dumped, stored.version, played=True):
        leave_note(key, "turn", _("The game was changed meanwhile (from another window?): look "
                                  "again, nothing of this action was kept."))
    return redirect(url_for("play.page", key=key), code=303)


@blueprint.post("/<key>/store")
@role_required("scorer")
def store(key: str) -> ResponseReturnValue:
    """Store the finished game in the archive (a signed-in scorer who played it, or an
    admin: 403 for anyone else); its page there."""
    stored, live = _load(key)
    if not stored.belongs_to(visitor_token()) and not signed_in().is_admin:
        abort(403, description=_("This game was played in another browser: only its player "
                                 "(or an admin) may store it."))
    if not live.over:
        leave_note(key, "turn", _("The game is not over: finish it first."))
        return redirect(url_for("play.page", key=key), code=303)
    db = get_db(write=True)
    game = game_from_text(stored.record)
    # idempotent: storing twice adds nothing; the audit's line stored with the game
    import_games(db, [game], on_stored=logging_stored(db, signed_in().name, Message.of("audit.played")))
    game_id = stored_id(db, game)
    if game_id is None:  # pragma: no cover - a game just imported is found by its hash
        abort(500, description=_("the stored game cannot be found in the archive"))
    forget_game(key)
    return redirect(url_for("games.game_page", game_id=game_id), code=303)


@blueprint.get("/<key>.<fmt>")
def download(key: str, fmt: str) -> ResponseReturnValue:
    """The game as a file: once analysed, with the engine's comments and marks."""
    require_format(fmt)
    stored, _ = _load(key)
    record = stored.analysis.get("record", stored.record) if stored.analysis else stored.record
    try:
        text = render([game_from_text(record)], fmt)
    except ValueError as error:
        unwritable(error, fmt)
    return attachment(text, fmt, f"played.{fmt}")
