"""Pages that look across games: a position (the board, the games through it, the plays
made from it with how they fared), a player (results by rule set, recent games, his
error rate over time and worst plays by the engine) and a match (its games in order, the
running score, each game's analysis)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, get_template_attribute, jsonify, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from analysis.shipped import NoNet
from archive import games_through, player_results, plays_from
from archive.analyses import player_analyses
from archive.matches import match_games, matches_named
from archive.stats import player_games, player_ids
from notation import NotationError, Position
from notation.engine.rules import DEFAULT, rule_set
from notation.engine.state import Colour
from notation.messages import render
from notation.render.svg import board_key
from webviewer.pages.analysis_board import analysis_board, find_plays, ranked_board
from webviewer.pages.board_view import describe
from webviewer.pages.play_engine import legal_limit, position_ranking
from webviewer.pages.player import POINTS, error_chart, skill_scale
from webviewer.plumbing.args import choice_arg, int_arg, variant_arg
from webviewer.plumbing.auth import signed_in
from webviewer.plumbing.db import get_db
from webviewer.plumbing.language import page_language

blueprint = Blueprint("explore", __name__)
GAMES_SHOWN = 100
"""The games through a position its page lists (the first, by id)."""
RECENT = 20


@blueprint.route("/position/<path:position_id>")
def position(position_id: str) -> ResponseReturnValue:
    """``?variant=`` says which rule set draws the board (default: the rule set of the
    first game through the position, else jacquet); ``?player=W`` or ``B`` who is on roll,
    drawn in his colour (default: who is on roll in the first game through it, else White).
    As an analysis board: ``?dice=61`` ranks the roll's plays by the engine (``&ply=1``:
    looking at the replies too), the best play drawn as arrows; ``&show=24/18 24/23`` draws
    the board after that candidate, its steps as arrows."""
    variant = variant_arg(None)
    player = choice_arg("player", {"": None, "W": "W", "B": "B"})
    try:
        seen = Position.from_id(position_id)
    except NotationError as error:
        abort(400, description=render(error.msg, page_language()))
    db = get_db()
    games = games_through(db, position_id, variant, GAMES_SHOWN + 1)
    more, games = len(games) > GAMES_SHOWN, games[:GAMES_SHOWN]
    rules = rule_set(variant or (games[0]["variant"] if games else DEFAULT))
    try:
        rules.check_position(seen)
    except NotationError as error:
        abort(400, description=render(error.msg, page_language()))
    on_roll = player or (games[0]["player"] if games else "W")
    white = on_roll == "W"
    names = (Colour.WHITE, Colour.BLACK) if white else (Colour.BLACK, Colour.WHITE)
    refused, ranked = None, None
    try:
        ranked = position_ranking(rules.name, position_id, legal_limit())
    except NotationError as error:
        refused = render(error.msg, page_language())
    except NoNet as error:
        refused = render(error.msg, page_language())
    mover, opponent = seen.pip_counts()
    dice = ranked["dice"] if ranked else None
    show, best = ranked_board(rules, position_id, dice, request.args.get("show"),
                              ranked["plays"][0]["play"] if ranked and ranked["plays"] else None)
    svg = analysis_board(seen, position_id, rules, white, page_language(), dice, show, best)
    kept: dict[str, Any] = {"variant": rules.name, "player": on_roll, "dice": dice,
                            "ply": request.args.get("ply") or None}

    def show_url(play: str, fragment: bool) -> str:
        """The address of the board after ``play``: the page's (a link) or the fragment's."""
        return url_for("explore.position_board" if fragment else "explore.position",
                       position_id=position_id, **kept, show=play)
    return render_template("explore/position.html", position_id=position_id, svg=svg,
                           description=describe(seen, page_language(), names), on_roll=names[0].title,
                           variant=rules.name, games=games, more=more,
                           pips=(mover, opponent) if white else (opponent, mover),
                           plays=plays_from(db, position_id, variant), ranked=ranked,
                           refused=refused, shown=show.notation if show else None, show_url=show_url,
                           best=best.notation if best else None,
                           back=url_for("explore.position", position_id=position_id, **kept),
                           # no play was made here; a ranking draws its best play dashed, and a
                           # candidate picked (here, or by the script) with the play looked at's arrows
                           key=[mark for mark in board_key(rules, page_language(), arrows=bool(best or show),
                                                           best=bool(best or show))
                                if mark[0] != "last-play"],
                           white=white), 400 if refused else 200


@blueprint.route("/position-board/<path:position_id>")
def position_board(position_id: str) -> ResponseReturnValue:
    """The position page's board after a candidate, for its script: ``?variant=``,
    ``player=`` as the page takes them, ``dice=`` the roll and ``show=`` one of its plays;
    answered as JSON: the board drawn after that play with its steps as arrows (``svg``),
    the words under it (``shown``, HTML) and the ``play``; no engine call. 400 for a
    position, roll or play the rules refuse."""
    rules = rule_set(variant_arg(DEFAULT) or DEFAULT)
    white = choice_arg("player", {"": "W", "W": "W", "B": "B"}) == "W"
    try:
        seen = rules.check_position(Position.from_id(position_id))
        play, = find_plays(rules, position_id, request.args.get("dice", ""), request.args.get("show", ""))
    except NotationError as error:
        abort(400, description=render(error.msg, page_language()))
    if play is None:
        abort(400, description=_("not a legal play of this roll"))
    svg = analysis_board(seen, position_id, rules, white, page_language(), request.args["dice"], play)
    player = "W" if white else "B"
    back = url_for("explore.position", position_id=position_id, variant=rules.name, player=player,
                   dice=request.args["dice"], ply=request.args.get("ply") or None)
    words = get_template_attribute("explore/shown_play.html", "shown_play")(play.notation, None, back)
    return jsonify({"svg": svg, "shown": str(words), "play": play.notation})


@blueprint.route("/player/<path:name>")
def player(name: str) -> ResponseReturnValue:
    """A player's results by rule set, his newest games, and for each engine that analysed
    his games his error rate over time and his worst plays."""
    db = get_db()
    recent, total = player_games(db, name, RECENT)
    if not total:
        abort(404, description=_("no games of %(name)r", name=name))
    results = player_results(db, name)  # of the games stored valid
    analysed = player_analyses(db, player_ids(db, name), POINTS, page_language())
    for engine in analysed:
        engine["chart"] = error_chart(engine["points"],
                                      lambda game_id: url_for("games.game_page", game_id=game_id))
        engine["scale"] = skill_scale(engine["variant"], page_language())
    return render_template("explore/player.html", name=name, results=results, recent=recent,
                           total=total, analysed=analysed)


@blueprint.route("/match/<path:name>")
def match(name: str) -> ResponseReturnValue:
    """The match called ``name`` (``?length=`` points, if several matches share the name):
    its games by their number with the score before and after each, and each game's
    latest analysis (the players' error rates and marks)."""
    db = get_db()
    found = [{**match, "games": match_games(db, match["id"], signed_in().is_admin, page_language())}
             for match in matches_named(db, name, int_arg("length"))]
    found = [match for match in found if match["games"]]
    if not found:
        abort(404, description=_("no match called “%(name)s”", name=name))
    return render_template("explore/match.html", name=name, matches=found)
