"""What the pages of a game against the engine show (:mod:`webviewer.blueprints.play`): the
recorder's board and turn entry (:func:`webviewer.pages.recorder.page_context`), the
engine's last play, the hints, and the analysed game at the end; the visitor's token and
the games this browser is playing, kept in its session.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any, NamedTuple

from flask import current_app, session
from flask_babel import gettext, pgettext

from archive.played import PlayedRecord, load_played
from notation.engine.state import PASSED, ROLL, Colour, Turn
from notation.errors import NotationError
from notation.messages import render
from notation.recording import LiveGame
from notation.render.captions import played
from webviewer.pages.play_engine import engine_name
from webviewer.pages.recorder import page_context, turn_text
from webviewer.plumbing.db import get_db
from webviewer.plumbing.language import page_language
from webviewer.plumbing.workers import BUDGETS, OverBudget

LIMITS = {"PLAY_GAMES_PER_VISITOR": 3, "PLAY_GAMES_PER_ADDRESS": 10, "PLAY_GAMES": 200,
          "PLAY_GAME_EXPIRY_HOURS": 24, "PLAY_MAX_TURNS": 400}
"""The bounds on the games against the engine (config keys of the same names): games in
progress per visitor, per client address (visitors not signed in) and on the server, the
hours an untouched game is kept, the turns a game may have."""


KEPT_GAMES = 10
"""The games a browser's list keeps (the latest)."""
PLAYER_KEYS = ("player_token", "played_games")
"""What the session keeps of the games against the engine: the visitor's token and the
list of his games (kept when he signs in, so that the games stay his)."""


def limit(name: str) -> int:
    """The bound ``name`` (one of :data:`LIMITS`), as configured."""
    return int(current_app.config.get(name, LIMITS[name]))


def visitor_token() -> str | None:
    """This browser's token (``None`` before it started a game), kept in its signed session:
    the games it started are the ones it may play."""
    token = session.get(PLAYER_KEYS[0])
    return token if isinstance(token, str) else None


def new_visitor_token() -> str:
    """This browser's token, made if it has none."""
    token = visitor_token()
    if token is None:
        token = session[PLAYER_KEYS[0]] = secrets.token_urlsafe(16)
    return token


def remember_game(key: str) -> None:
    """Add the game started under ``key`` to this browser's list."""
    keys = [kept for kept in _keys() if kept != key]
    session[PLAYER_KEYS[1]] = [key, *keys][:KEPT_GAMES]


def forget_game(key: str) -> None:
    """Take a game off this browser's list (stored in the archive)."""
    session[PLAYER_KEYS[1]] = [kept for kept in _keys() if kept != key]


def _keys() -> list[str]:
    keys = session.get(PLAYER_KEYS[1], [])
    return [key for key in keys if isinstance(key, str)] if isinstance(keys, list) else []


class Playing(NamedTuple):
    """A game of the browser's list, as ``/play/`` shows it."""

    key: str
    variant: str
    you: str
    engine: str
    turns: int
    over: bool


def played_games(expiry: timedelta) -> list[Playing]:
    """The games this browser is playing (or has finished), the latest first; those gone
    left out."""
    found = []
    for key in _keys():
        stored = load_played(get_db(write=True), key, expiry)
        if stored is None:
            continue
        try:
            live = LiveGame.load(stored.record, stored.pending)
        except NotationError as error:
            current_app.logger.error("a played game cannot be read: %s", error)
            continue
        you = Colour(stored.side)
        found.append(Playing(key, live.game.rules.name, you.title, engine_named(live, you),
                             live.node.ply, live.over))
    return found


def engine_named(live: LiveGame, you: Colour) -> str:
    """The engine as the pages name it after "against": its name in the game's record
    (``jacquet-td jacquet v2, 1-ply``), or the random player's in the page's language
    (``random``, ``le hasard``, ``случайных ходов``)."""
    name = live.game.headers.get(you.other.title, "")
    return pgettext("engine", "random") if name == engine_name(live.game.rules.name, "random") else name


def play_context(live: LiveGame, stored: PlayedRecord, hints: dict[str, Any] | None,
                 analysis: dict[str, Any] | None) -> dict[str, object]:
    """What the game's page shows besides its key, version and note: the recorder's board
    and turn, your side and the engine's, the engine's turns since yours, the hints, the
    analysis once the game is over. The engine's turns are (play, words) each: a play as
    the record writes it, or, for a roll it could not play, the sentence saying so
    ("Black rolled 66 and could not play.", where the record writes "-")."""
    you = Colour(stored.side)
    nodes = list(live.game.mainline())
    answered: list[tuple[str | None, str | None]] = []
    for node in reversed(nodes):
        if node.turn is None or node.turn.player is you:
            break
        said = played(node.turn)
        if said is not None and could_not_play(node.turn):
            answered.insert(0, (None, render(said, page_language())))
        else:
            answered.insert(0, (turn_text(node), None))
    return {**page_context(live, None, cube=False), "you": you,
            "engine": engine_named(live, you),
            "answered": answered, "hints": hints, "analysis": analysis,
            "analysis_error": analysis_error(analysis),
            "your_turn": not live.over and live.node.state.player is you,
            "full": not live.over and live.node.ply >= limit("PLAY_MAX_TURNS")}


def could_not_play(turn: Turn) -> bool:
    """Whether ``turn`` is a roll its player could not play: no step made (the record's
    ``-``)."""
    return turn.kind in (ROLL, PASSED) and (turn.play is None or not turn.play.steps)


def analysis_error(analysis: dict[str, Any] | None) -> str | None:
    """Why the finished game has no analysis, in the page's language: kept as the budget
    it went over and its figures (an :class:`~webviewer.plumbing.workers.OverBudget`'s);
    a game kept before that has the English text it was kept with, shown as it is."""
    error = analysis.get("error") if analysis else None
    if isinstance(error, dict) and error.get("reason") in BUDGETS:
        return str(gettext("The game could not be analysed within the server's time: %(error)s.",
                           error=OverBudget(str(error["reason"]), dict(error.get("params") or {}))))
    return None if error is None else str(error)
