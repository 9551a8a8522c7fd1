"""Pages: the archive (search form and list) and a game stepped through ply by ply."""

from __future__ import annotations

from dataclasses import replace

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from analysis.confirm import confirmation_for, fallbacks
from analysis.shipped import NoNet
from archive.analyses import latest_analysis, latest_analysis_id, store_analysis
from archive.search import SORTS, search_page
from notation.engine.rules import NAMES, rule_set
from webviewer.pages.analysis_job import GameGone, analyse_stored
from webviewer.pages.analysis_view import described
from webviewer.pages.downloads import attachment, require_format, unwritable
from webviewer.pages.game_page import Analysed, Kind
from webviewer.pages.game_page import game_page as page_of
from webviewer.pages.kept_games import game_file, read_back
from webviewer.pages.print_page import print_page
from webviewer.pages.search import SEARCH_ARGS, query_from_args
from webviewer.pages.stored import archive_identity, record_of, stored_game, stored_row
from webviewer.pages.tree import BadAddress
from webviewer.plumbing.args import choice_arg, int_arg
from webviewer.plumbing.auth import role_required, signed_in
from webviewer.plumbing.db import get_db
from webviewer.plumbing.language import said
from webviewer.plumbing.site import site_urls
from webviewer.plumbing.workers import OverBudget, run_work

blueprint = Blueprint("games", __name__)


COUNT_LIMIT = 10_000
"""Matches a filtered list counts at most for its total ("more than 10,000 games"):
counting every match of a broad filter on a large archive costs more than the page."""


@blueprint.route("/")
def index() -> ResponseReturnValue:
    """The games list: newest first unless sorted otherwise. Its next and previous links
    name the game their page follows or precedes (``after``, ``before``), so that a deep
    page is read from the index; ``page`` alone skips games. A page past the last is the
    last, when the total is known."""
    size = current_app.config["PAGE_SIZE"]
    query = replace(query_from_args(size, newest_first=True), count_limit=COUNT_LIMIT,
                    after=int_arg("after"), before=int_arg("before"))
    db = get_db()
    found = search_page(db, query)
    pages = max(1, (found.total + size - 1) // size) if found.exact else None
    page = query.offset // size + 1
    if not found.rows and pages is not None and page > pages:
        page = pages
        found = search_page(db, replace(query, after=None, before=None, offset=(pages - 1) * size))
    search_args = {name: value for name, value in request.args.items() if name in SEARCH_ARGS and value}
    shown = {"sort": query.sort, "desc": "1" if query.descending else "0"}
    links = {}
    if found.rows and found.more_before:
        links["prev"] = dict(search_args, page=page - 1, before=found.rows[0]["id"]) if page > 2 \
            else search_args
    if found.rows and found.more_after:
        links["next"] = dict(search_args, page=page + 1, after=found.rows[-1]["id"])
    return render_template("games/list.html", rows=found.rows, total=found.total,
                           exact=found.exact, count_limit=COUNT_LIMIT, page=page, pages=pages,
                           args=search_args, shown=shown, links=links, sorts=sorted(SORTS),
                           variants=NAMES)


@blueprint.route("/game/<int:game_id>")
def game_page(game_id: int) -> ResponseReturnValue:
    """A game at one node (``?ply=K`` on the main line, past the end: the end;
    ``?path=...`` in a variation; the end by default), flipped with ``?flip=1``, the points
    numbered for the player on roll with ``?numbers=roll``, the best play of the turn
    (by the game's latest analysis) on the board with ``?best=1``, another of its
    candidates with ``?show=24/18 24/23`` (its steps as arrows): see
    :mod:`webviewer.pages.game_page`."""
    row, view = stored_game(game_id)
    try:
        index = view.node_at(int_arg("ply"), request.args.get("path"))
    except BadAddress as error:
        abort(400, description=str(error))
    kind = Kind(choice_arg("flip", {"": False, "0": False, "1": True}),
                choice_arg("numbers", {"": False, "bottom": False, "roll": True}))
    best = choice_arg("best", {"": False, "0": False, "1": True})
    base = site_urls()["game_0"][:-1] + str(game_id)  # as url_for makes it (an int converter)
    db = get_db()
    ask = url_for("games.analyse", game_id=game_id) if signed_in().may("scorer") else None
    latest = latest_analysis_id(db, game_id)
    key = None if latest is None else (archive_identity(), latest)
    analysed = Analysed(key, lambda: latest_analysis(db, game_id), ask)
    return page_of(view, row, index, kind, base, analysed, best, request.args.get("show") or None)


@blueprint.route("/game/<int:game_id>/print")
def print_view(game_id: int) -> ResponseReturnValue:
    """The printed game (:mod:`webviewer.pages.print_page`): diagrams at the marked plays,
    or after every ``?every=N`` plies (1 to 1,000)."""
    row, view = stored_game(game_id)
    every = int_arg("every") or 0
    if not 0 <= every <= 1000:
        abort(400, description=_("every must be a number of plies from 1 to 1000, or 0 for the marked plays"))
    base = site_urls()["game_0"][:-1] + str(game_id)
    analysis = latest_analysis(get_db(), game_id)
    with read_back(record_of(row)(), row["variant"], bool(row["valid"])) as game:
        return print_page(view, game, row, analysis, Kind(False, False).links(base), every)


@blueprint.post("/game/<int:game_id>/analyse")
@role_required("scorer")
def analyse(game_id: int) -> ResponseReturnValue:
    """The game analysed by the engine (0-ply, the shipped net of its rule set, the marks
    confirmed as the app's ``ANALYSIS_CONFIRM`` says: ``jacquet analyse``'s default, the
    rule set's own, unless set; at the lighter levels of :func:`~analysis.confirm.fallbacks`
    if confirming takes longer than a job may, the analysis then saying so by its name) in
    the worker pool, stored beside it, and its page shown again with the analysis; 503 when
    the pool is busy (see :mod:`webviewer.plumbing.workers`)."""
    row = stored_row(game_id)  # 404 for no game, or one hidden from this user
    confirm = confirmation_for(current_app.config.get("ANALYSIS_CONFIRM"), rule_set(row["variant"]))
    archive = current_app.config["ARCHIVE"]
    *lighter, lightest = fallbacks(confirm)
    try:
        for setting in lighter:  # a lighter confirmation when this one takes too long
            try:
                analysis, digest, depth, stopped = run_work(analyse_stored, archive, game_id, setting)
                break
            except OverBudget:
                continue
        else:
            analysis, digest, depth, stopped = run_work(analyse_stored, archive, game_id, lightest)
    except NoNet as error:
        abort(404, description=said(error.msg))
    except GameGone:
        abort(404, description=_("no game %(game)s in the archive", game=game_id))
    except OverBudget as error:
        abort(413, description=_("The analysis was stopped: %(error)s. Analyse this game with "
                                 "`jacquet analyse --db` instead.", error=error))
    store_analysis(get_db(write=True), game_id, analysis, digest, depth, stopped=stopped)
    flash(_("Game %(game)s is analysed by %(engine)s.", game=game_id, engine=described(analysis)), "info")
    return redirect(url_for("games.game_page", game_id=game_id), code=303)


@blueprint.route("/game/<int:game_id>.<fmt>")
def download(game_id: int, fmt: str) -> ResponseReturnValue:
    """The game as a file in a writable format (``.mat`` for backgammon only)."""
    require_format(fmt)
    row = stored_row(game_id)
    try:
        text = game_file(row["hash"], row["variant"], bool(row["valid"]), record_of(row), fmt)
    except ValueError as error:
        unwritable(error, fmt)
    return attachment(text, fmt, f"game-{game_id}.{fmt}")
