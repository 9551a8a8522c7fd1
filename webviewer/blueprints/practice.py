"""Practice from one's mistakes (``/practice/<player>``): a player's worst analysed plays
(marked ``?`` or ``??``, the largest loss first) shown one at a time, the position and the
roll, for the visitor to play again, clicked on the board (the recorder's steps) or typed;
then the stored ranking with his answer and the play made marked. Answering asks the rules
engine whether the play is legal and reads the stored analysis: no engine is loaded.

Each position comes back by Leitner boxes (:func:`archive.practice.schedule`), kept per
signed-in user in the archive and per visitor in his signed session cookie (bounded:
:data:`webviewer.pages.practice.VISITOR_CARDS`). Every answer and step is a POST with the
CSRF token, as the site's other forms; what it costs the server is a few rule checks.
"""

from __future__ import annotations

from datetime import datetime

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import format_datetime, format_timedelta
from flask_babel import gettext as _

from archive.practice import INTERVALS, PracticePosition, practice_positions, schedule
from archive.stats import player_ids
from notation.engine.checker import check_play
from notation.engine.play import Step
from notation.errors import NotationError
from webviewer.pages.practice import Due, Question, cards, due, judge, keep, now, read_steps, steps_text
from webviewer.pages.recorder import MAX_PLAY, form_number, form_text, refusal
from webviewer.pages.routes import ROUTE
from webviewer.plumbing.db import get_db

blueprint = Blueprint("practice", __name__, url_prefix="/practice")


def _position(name: str, key: str) -> PracticePosition:
    """The position ``key`` (``game.ply``) of ``name``'s practice, else a 404."""
    game, _dot, ply = key.partition(".")
    if not (game.isdigit() and ply.isdigit() and len(key) < 24):
        abort(400, description=_("a position of the practice is written game.ply (12.30)"))
    found = practice_positions(get_db(), name, only=(int(game), int(ply)))
    if not found:
        abort(404, description=_("%(name)s has no marked play at ply %(ply)s of game %(game)s to practise",
                                 name=name, ply=ply, game=game))
    return found[0]


def _question(position: PracticePosition, steps_text: str) -> Question:
    """The question with the steps of the address (a 400 if they are not the rules')."""
    try:
        return Question(position, read_steps(steps_text))
    except NotationError as error:
        abort(400, description=refusal(error))
    except ValueError:
        abort(400, description=_("steps are written from-to-die, one after another (24-18-6 18-15-3), "
                                 "not %(steps)r", steps=steps_text))


def _summary(name: str) -> tuple[Due, dict[str, object]]:
    """The practice's state (the positions due, when the next comes back), and what the
    page shows of it."""
    positions = practice_positions(get_db(), name)
    at = now()
    state = due(positions, cards(), at)
    return state, {"name": name, "positions": positions, "due": state,
                   "next_in": format_timedelta(state.next_at - at) if state.next_at else None,
                   "boxes": [format_timedelta(interval) for interval in INTERVALS]}


@blueprint.get("/<path:name>")
def page(name: str) -> ResponseReturnValue:
    """The next position due (the worst first), or ``?position=game.ply`` (with
    ``steps=``, the steps clicked so far); with ``answer=``, the answer's judgement."""
    state, summary = _summary(name)
    key = request.args.get("position")
    if key is None and not summary["positions"]:
        if not player_ids(get_db(), name):
            abort(404, description=_("no games of %(name)r", name=name))
        return render_template("practice/page.html", **summary, question=None)
    if key is None:
        if not state.positions:
            return render_template("practice/page.html", **summary, question=None)
        position = state.positions[0]
    else:
        position = _position(name, key)
    answer = request.args.get("answer")
    if answer is not None:
        return _answered(summary, position, answer[:MAX_PLAY])
    question = _question(position, request.args.get("steps", "")[:MAX_PLAY])
    return render_template("practice/page.html", **summary, question=question, **question.context())


def _answered(summary: dict[str, object], position: PracticePosition, text: str) -> ResponseReturnValue:
    question = Question(position)
    try:
        play = check_play(question.start, question.dice, text, question.rules)
    except NotationError as error:
        abort(400, description=refusal(error))
    judged = judge(question, play)
    card = cards().get(position.key)
    best = judged.ranking[0].play if judged.ranking else None
    return render_template("practice/page.html", **summary, question=question, judged=judged,
                           **question.context(best), comes_back=comes_back(card.due) if card else None)


def comes_back(due: datetime) -> tuple[str, str]:
    """When a position is due again, as the page says it: how long from now ("in 3 days",
    "dans 3 jours", "через 3 дня") and the date and time in the page's language with its
    time zone named (Babel's long form, in the viewer's time zone: UTC unless the app sets
    ``BABEL_DEFAULT_TIMEZONE``)."""
    return (str(format_timedelta(due - now(), add_direction=True)), str(format_datetime(due, "long")))


@blueprint.post("/<path:name>")
def answer(name: str) -> ResponseReturnValue:
    """An answer typed (``play``), or a step clicked (``from``, ``to``, ``die``) or a man's
    route (``route``) after the steps so far (``steps``): a play complete is judged and
    scheduled, then shown (303 to the page with ``answer=``); steps that are not yet a play
    lead back to the position with them; a play the rules refuse is shown with the rule."""
    form = request.form
    position = _position(name, form_text(form, "position", 24))
    question = _question(position, form_text(form, "steps", MAX_PLAY))
    action = form.get("action")
    try:
        if action == "play":
            typed = form_text(form, "play", MAX_PLAY)
            play = check_play(question.start, question.dice, typed, question.rules)
        elif action in ("step", "route"):
            if action == "step":
                added = [Step(form_number(form, "from"), form_number(form, "to"), form_number(form, "die"))]
            else:
                route = form_text(form, "route", MAX_PLAY)
                if not ROUTE.fullmatch(route):
                    abort(400, description=_("not a man's route: %(route)r", route=route))
                added = read_steps(route)
            steps = question.steps + added
            question = Question(position, steps)
            if not question.complete:
                return redirect(url_for("practice.page", name=name, position=position.key,
                                        steps=steps_text(question.steps)), code=303)
            play = question.play()
        else:
            abort(400, description=_("unknown action %(action)r", action=action))
    except NotationError as error:
        return _refused(name, question, refusal(error), form.get("play", "")[:MAX_PLAY])
    judged = judge(Question(position), play)
    at = now()
    keep(position, schedule(cards().get(position.key), judged.right, at), at)
    return redirect(url_for("practice.page", name=name, position=position.key, answer=judged.play), code=303)


def _refused(name: str, question: Question, note: str, kept: str) -> ResponseReturnValue:
    """The position again with the refusal beside the play field (400)."""
    return render_template("practice/page.html", **_summary(name)[1], question=question, note=note,
                           kept=kept, **question.context()), 400
