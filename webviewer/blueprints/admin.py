"""The admin's pages: hide a stored game from visitors, show it again or delete it (each
logged), the audit log, and the accounts (made and removed with ``jacquet users``)."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from archive.accounts import list_users
from archive.audit import delete_game, entries, set_hidden
from webviewer.plumbing.args import int_arg
from webviewer.plumbing.auth import ROLE_NAMES, role_required, signed_in
from webviewer.plumbing.db import get_db

blueprint = Blueprint("admin", __name__, url_prefix="/admin")
LOG_PAGE = 100
"""Lines of the audit log per page."""


@blueprint.post("/game/<int:game_id>")
@role_required("admin")
def game(game_id: int) -> ResponseReturnValue:
    """``action``: ``hide``, ``show`` or ``delete`` (with ``confirm=yes``)."""
    action = request.form.get("action", "")
    if action not in ("hide", "show", "delete"):
        abort(400, description=_("the action is hide, show or delete"))
    db = get_db(write=True)
    name = signed_in().name
    if action in ("hide", "show"):
        if not set_hidden(db, game_id, action == "hide", name):
            abort(404, description=_("no game %(game)s, or it is already hidden", game=game_id)
                  if action == "hide" else _("no game %(game)s, or it is already shown", game=game_id))
        flash(_("Game %(game)s is hidden from visitors.", game=game_id) if action == "hide"
              else _("Game %(game)s is shown to everyone.", game=game_id), "info")
        return redirect(url_for("games.game_page", game_id=game_id), code=303)
    if request.form.get("confirm") != "yes":
        flash(_("Tick the box to confirm that the game is to be deleted for good."), "error")
        return redirect(url_for("games.game_page", game_id=game_id), code=303)
    if not delete_game(db, game_id, name):
        abort(404, description=_("no game %(game)s in the archive", game=game_id))
    flash(_("Game %(game)s is deleted.", game=game_id), "info")
    return redirect(url_for("games.index"), code=303)


@blueprint.get("/audit")
@role_required("admin")
def audit() -> ResponseReturnValue:
    """The log, newest first, a page at a time (``?before=`` a line's number)."""
    lines = entries(get_db(), LOG_PAGE + 1, int_arg("before"))
    more = len(lines) > LOG_PAGE
    return render_template("admin/audit.html", lines=lines[:LOG_PAGE],
                           before=lines[LOG_PAGE - 1]["id"] if more else None)


@blueprint.get("/users")
@role_required("admin")
def users() -> ResponseReturnValue:
    return render_template("admin/users.html", users=list_users(get_db()), role_names=ROLE_NAMES)
