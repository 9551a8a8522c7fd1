"""What the scorer's pages show (:mod:`webviewer.blueprints.record`): the board of the game
in progress numbered for the player on roll, the steps offered, the questions asked before
an action that ends the game or removes turns, the note left beside the field an action
came from, and the games this browser is recording or has saved.

The browser's session keeps the keys of the games it started (the list on ``/record/``)
and, for a game it saved, the stored game's id, so that the saved game's old address
still leads somewhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any, NamedTuple

from flask import abort, session
from flask_babel import gettext, ngettext

from notation.engine.play import Step
from notation.engine.state import DOUBLE, DROP, RESIGN, TAKE, Colour
from notation.errors import IllegalPlayError, NotationError, listed
from notation.formats import WRITABLE
from notation.formats.jqn.lexer import GLYPHS
from notation.formats.registry import BY_NAME
from notation.messages import Message, render
from notation.recording import LiveGame
from notation.render.svg import board, board_key
from notation.tree.game import Node
from notation.tree.numbering import node_label
from webviewer.pages.board_view import describe
from webviewer.pages.downloads import DOWNLOADS
from webviewer.pages.routes import ROUTE, enter_route, routes
from webviewer.pages.words import colour
from webviewer.plumbing.language import page_language

CONFIRMED = ("resign", DROP, "correct")
"""The actions asked again before they are carried out: they end the game or remove turns."""
FIELDS = ("dice", "play", "turn")
"""The places a note is shown: beside the dice field, the play field, or the turn's status."""
MAX_PLAY = 200
"""The longest play a form may send, in characters (the recorder's and /play/'s)."""
KEPT_GAMES = 20
"""The games in progress a browser's list keeps (the latest)."""


class Confirmation(NamedTuple):
    """A question asked before an action: the action, the form fields it is sent with
    again, the question, and the button's words."""

    action: str
    fields: dict[str, str]
    question: str
    answer: str


class Offered(NamedTuple):
    """A next step the board offers: the step (in the mover's numbering) and the points it
    leaves and reaches in White's numbering, as the board's shapes are named."""

    step: Any
    from_white: str
    to_white: str


def today() -> str:
    """Today's date as the Date tag writes it (``2024.03.15``)."""
    return date.today().strftime("%Y.%m.%d")


def turn_text(node: Node) -> str:
    """A turn as the record writes it, numbered: ``2. 61: 24/18 13/12``, ``3. double``; the
    game's start (the first place a correction may go back to) in the page's language."""
    turn = node.turn
    if turn is None:
        return str(gettext("the start of the game"))
    label = node_label(node)
    return f"{label}: {turn.play.notation}" if turn.play is not None else label


def page_context(live: LiveGame, confirm: Confirmation | None, cube: bool = True) -> dict[str, object]:
    """What the game's page shows besides its key and version; the board without a cube
    unless ``cube`` (a game played without one: ``/play/``)."""
    state = live.node.state
    rules = live.game.rules
    entry = live.entry() if live.dice is not None else None
    position = entry.position_after(live.steps) if entry else state.position
    white = state.player.value == "W"
    turn = live.node.turn
    last = turn.play.steps if entry is None and turn is not None and turn.play else ()
    # before a roll, the last turn's dice beside who rolled them (the engine's, in /play/)
    shown_dice, dice_of_white = live.dice, None
    if shown_dice is None and entry is None and turn is not None and turn.player is not state.player \
            and turn.play is not None and turn.dice is not None:
        shown_dice, dice_of_white = turn.dice, turn.player is Colour.WHITE
    last_shown = last if turn is not None and turn.player is not state.player else ()
    svg = board(position, rules, white_to_move=white, dice=shown_dice, dice_of_white=dice_of_white,
                entered_steps=live.steps, last_steps=last_shown,
                black_numbers=not white, cube=state.cube if cube else None,
                cube_owner=state.cube_owner.value if state.cube_owner else None,
                title=render(Message.of("board.title.recorder", player=state.player.named), page_language()),
                language=page_language())

    def white_point(point: int) -> str:
        """A point of the mover's in White's numbering, as the board's shapes are named."""
        if not 1 <= point <= 24:
            return "bar" if point else "off"
        return str(point if white else rules.opposite[point])

    offered = [Offered(step, white_point(step.from_point), white_point(step.to_point))
               for step in (entry.next_steps(live.steps) if entry else [])]
    turns = [(node.ply, turn_text(node)) for node in [live.game, *live.game.mainline()]][:-1]
    return {
        "live": live, "state": state, "svg": svg, "offered": offered, "confirm": confirm,
        # the board's marks: the last play's outline while it is drawn (the steps entered
        # share it: the player's own), the rings and the head's frame where the rules have them
        "marks_key": board_key(rules, page_language(), last_play=bool(last_shown)),
        "description": describe(position if white else position.swapped(), page_language()),
        "plays_left": entry.plays_after(live.steps) if entry else 0,
        "record": live.record(), "nags": GLYPHS,
        "routes": routes(entry, live.steps, white_point) if entry else {},
        "can": {kind: live.can(kind) for kind in (DOUBLE, TAKE, DROP, RESIGN)},
        "resign_points": state.resign_points(), "turns": turns,
        "last_turn": turn_text(live.node) if live.node.turn is not None else None,
        "formats": [fmt for fmt in DOWNLOADS if fmt in WRITABLE
                    and BY_NAME[fmt].cannot_hold([live.game]) is None]}


def confirmation(live: LiveGame, action: str, fields: Mapping[str, str]) -> Confirmation | None:
    """The question asked before ``action`` (one of :data:`CONFIRMED`), with ``fields``
    already checked as numbers where the action takes one; ``None`` when there is nothing
    to ask (no cube to drop, no turn after the one named)."""
    state = live.node.state
    player, other = colour(state.player), colour(state.player.other)
    if action == "resign":
        points = fields["points"]
        return Confirmation(action, {"points": points},
                            ngettext("%(player)s resigns: %(other)s wins %(num)s point and the game ends. "
                                     "Is that so?",
                                     "%(player)s resigns: %(other)s wins %(num)s points and the game ends. "
                                     "Is that so?", int(points), player=player, other=other),
                            gettext("Yes, %(player)s resigns", player=player))
    if action == DROP:
        if not state.offered:
            return None
        return Confirmation(action, {},
                            ngettext("%(player)s drops the cube: %(other)s wins %(num)s point and the game "
                                     "ends. Is that so?",
                                     "%(player)s drops the cube: %(other)s wins %(num)s points and the game "
                                     "ends. Is that so?", state.cube, player=player, other=other),
                            gettext("Yes, %(player)s drops", player=player))
    ply = int(fields["ply"])
    nodes = [live.game, *live.game.mainline()]
    if ply >= len(nodes) - 1:
        return None
    removed = len(nodes) - 1 - ply
    question = (ngettext("Take the game back to the start? The %(num)s turn after it will be removed "
                         "(rolled dice stand).",
                         "Take the game back to the start? The %(num)s turns after it will be removed "
                         "(rolled dice stand).", removed) if ply == 0
                else ngettext("Take the game back to after %(turn)s? The %(num)s turn after it will be "
                              "removed (rolled dice stand).",
                              "Take the game back to after %(turn)s? The %(num)s turns after it will be "
                              "removed (rolled dice stand).", removed, turn=turn_text(nodes[ply])))
    return Confirmation(action, {"ply": str(ply)}, question, gettext("Yes, take the game back"))


# -- the note beside a field -------------------------------------------------------------------

def refusal(error: NotationError) -> str:
    """The note for what the rules refuse, in the page's language: the rule broken and its
    reason, and for a play the legal ones (a few, and how many more)."""
    language = page_language()
    reason = render(error.msg, language)
    if not isinstance(error, IllegalPlayError):
        return str(gettext("Refused: %(error)s", error=reason))
    legal = listed(error.legal_plays, language=language)
    note = str(gettext("Refused: [%(rule)s] %(reason)s", rule=error.rule_id, reason=reason.rstrip(".") + "."))
    return note + (" " + str(gettext("Legal plays: %(plays)s.", plays=legal)) if legal else "")


def leave_note(key: str, field: str, message: str, kept: str = "") -> None:
    """Leave ``message`` for the game's next page, beside ``field`` (one of
    :data:`FIELDS`), with what was typed there (``kept``) to fill it in again."""
    session["recorder_note"] = {"key": key, "field": field, "message": message, "kept": kept}


def take_note(key: str, live: LiveGame) -> dict[str, str] | None:
    """The note left for the game's page, once; by the turn's status when the page has no
    longer the field it was left beside."""
    note = session.pop("recorder_note", None)
    if not isinstance(note, dict) or note.get("key") != key or note.get("field") not in FIELDS:
        return None
    kept = {name: str(note.get(name, "")) for name in ("field", "message", "kept")}
    state = live.node.state
    asks_dice = not live.over and not state.offered and live.dice is None and live.forced_dice is None
    if (kept["field"], True) not in (("dice", asks_dice), ("play", live.dice is not None)):
        kept["field"] = "turn"
    return kept


# -- the browser's games ---------------------------------------------------------------------

def remember(key: str) -> None:
    """Add the game started under ``key`` to this browser's list."""
    keys = [kept for kept in session.get("recordings", []) if kept != key]
    session["recordings"] = [key, *keys][:KEPT_GAMES]


def remembered() -> list[str]:
    """The keys of the games this browser started, the latest first."""
    keys = session.get("recordings", [])
    return [key for key in keys if isinstance(key, str)] if isinstance(keys, list) else []


def forget(key: str, game_id: int | None) -> None:
    """Take a saved game off the list, noting the stored game's id for its old address."""
    session["recordings"] = [kept for kept in remembered() if kept != key]
    if game_id is not None:
        saved = dict(session.get("saved_games", {}))
        saved[key] = game_id
        session["saved_games"] = dict(list(saved.items())[-KEPT_GAMES:])


def saved_id(key: str) -> int | None:
    """The stored game's id of a game this browser saved from ``key``."""
    saved = session.get("saved_games", {})
    value = saved.get(key) if isinstance(saved, dict) else None
    return value if isinstance(value, int) else None


class InProgress(NamedTuple):
    """A game of the browser's list as ``/record/`` shows it."""

    key: str
    white: str
    black: str
    variant: str
    match: str
    turns: int
    to_act: str
    last: str


def in_progress(key: str, live: LiveGame) -> InProgress:
    """The list's line for the game under ``key``."""
    headers = live.game.headers
    match = gettext("game %(game)s of a match to %(length)s, score %(score)s",
                    game=headers.get("Game", "1"), length=headers["MatchLength"],
                    score=headers.get("Score", "0-0")) if headers.get("MatchLength") else ""
    state = live.node.state
    player = colour(state.player)
    to_act = (gettext("over") if live.over
              else gettext("%(player)s to play %(dice)s", player=player, dice=live.dice)
              if live.dice is not None else gettext("%(player)s to act", player=player))
    return InProgress(key, headers.get("White") or colour(Colour.WHITE),
                      headers.get("Black") or colour(Colour.BLACK),
                      live.game.rules.name, match, live.node.ply, to_act,
                      turn_text(live.node) if live.node.turn is not None else "")


def form_number(form: Mapping[str, str], name: str) -> int:
    """A small whole number from the form (one to four ASCII digits), else a 400."""
    value = form.get(name, "")
    if not (value.isascii() and value.isdigit() and len(value) <= 4):
        abort(400, description=gettext("%(name)s must be a whole number", name=name))
    return int(value)


def form_text(form: Mapping[str, str], name: str, limit: int) -> str:
    """A text from the form of at most ``limit`` characters, else a 400."""
    value = form.get(name, "")
    if len(value) > limit:
        abort(400, description=gettext("%(name)s is longer than %(limit)s characters", name=name,
                                       limit=limit))
    return value


def enter_turn(live: LiveGame, action: str, form: Mapping[str, str]) -> bool:
    """The actions that enter a turn, the recorder's and /play/'s alike (a man moved by one
    die or along a route of several, the moves taken back, a play typed): True if
    ``action`` was one of them; NotationError when the rules refuse it."""
    if action == "step":
        live.add_step(Step(form_number(form, "from"), form_number(form, "to"), form_number(form, "die")))
    elif action == "undo-step":
        live.undo_step()
    elif action == "undo-steps":
        live.undo_steps()
    elif action == "play":
        live.play_text(form_text(form, "play", MAX_PLAY))
    elif action == "route":
        route = form_text(form, "route", MAX_PLAY)
        if not ROUTE.fullmatch(route):
            abort(400, description=gettext("not a man's route: %(route)s", route=repr(route)))
        enter_route(live, route)
    else:
        return False
    return True
