"""Signing in and out. The sign-in form's name and password are checked against the
archive's accounts, with failed attempts limited per name from a client address and per
address (:class:`archive.accounts.SignInLimit`, set by ``LOGIN_FAILURES``,
``LOGIN_ADDRESS_FAILURES`` and ``LOGIN_LOCKOUT_SECONDS``; each attempt counted before its
password is checked); once signed in, the visitor goes back to ``next`` if it is a
path on this site, else to the archive. Choosing the pages' language (the switcher on
every page) keeps it in a cookie, and in the account of a signed-in user
(:mod:`webviewer.plumbing.language`)."""

from __future__ import annotations

from flask import (
    Blueprint,
    abort,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_login import login_user, logout_user

from archive.accounts import SignInLimit, check_password, close_session, open_session, set_language
from notation.messages import LANGUAGES
from webviewer.pages.play_page import PLAYER_KEYS
from webviewer.plumbing.auth import SignedIn, local_path, referring_page, signed_in
from webviewer.plumbing.db import get_db
from webviewer.plumbing.language import COOKIE, COOKIE_DAYS

blueprint = Blueprint("accounts", __name__)


def _limit() -> SignInLimit:
    config = current_app.config
    return SignInLimit(config["LOGIN_FAILURES"], config["LOGIN_ADDRESS_FAILURES"],
                       config["LOGIN_LOCKOUT_SECONDS"])


@blueprint.get("/login")
def login_form() -> ResponseReturnValue:
    return render_template("accounts/login.html", next=local_path(request.args.get("next")))


@blueprint.post("/login")
def login() -> ResponseReturnValue:
    """Sign in: back to ``next`` (a local path), 401 with the form for a wrong name or
    password, 429 while the name or the address must wait."""
    name = request.form.get("name", "")[:200]
    password = request.form.get("password", "")
    back = local_path(request.form.get("next"))
    db = get_db(write=True)
    limit = _limit()
    wait = limit.attempt(db, name, request.remote_addr)  # counted before the password is checked
    if wait > 0:
        minutes = int(wait // 60) + 1
        page = render_template("accounts/login.html", next=back, name=name, error=(
            ngettext("Too many failed sign-ins for this name or from this address: try again in "
                     "%(num)d minute.", "Too many failed sign-ins for this name or from this address: "
                     "try again in %(num)d minutes.", minutes)))
        response = make_response(page, 429)
        response.headers["Retry-After"] = str(int(wait) + 1)
        return response
    user = check_password(db, name, password)
    if user is None:
        return render_template("accounts/login.html", next=back, name=name,
                               error=_("Unknown name or wrong password.")), 401
    limit.succeeded(db, name, request.remote_addr)
    playing = {key: session[key] for key in PLAYER_KEYS if key in session}
    session.clear()  # nothing of the visitor's session carries over into the user's,
    session.update(playing)  # but the games he is playing against the engine
    login_user(SignedIn(user, open_session(db, user)))
    return redirect(back or url_for("games.index"), code=303)


@blueprint.post("/logout")
def logout() -> ResponseReturnValue:
    """Sign out: the session ends on the server too (a copy of its cookie signs nobody in)."""
    user = signed_in()
    if isinstance(user, SignedIn):
        close_session(get_db(write=True), user.session_id)
    logout_user()
    session.clear()
    return redirect(url_for("games.index"), code=303)


@blueprint.post("/language")
def choose_language() -> ResponseReturnValue:
    """The switcher: ``language`` (one of :data:`LANGUAGES`) kept in the cookie, and in the
    account of a signed-in user; back to the page of this site the switcher was on (the
    ``Referer``), else to the archive. 400 for a language the pages are not in. A
    visitor's form carries no CSRF token (the pages he is served are shared by every
    visitor, and his choice changes nothing but his cookie); a signed-in user's must."""
    language = request.form.get("language", "")
    if language not in LANGUAGES:
        abort(400, description=_("The pages are in %(languages)s, not %(language)r.",
                                 languages=", ".join(LANGUAGES), language=language[:20]))
    user = signed_in()
    if isinstance(user, SignedIn):
        current_app.extensions["csrf"].protect()  # CSRFError: refused as any other form
        set_language(get_db(write=True), user.user, language)
    response = redirect(referring_page() or url_for("games.index"), code=303)
    response.set_cookie(COOKIE, language, max_age=COOKIE_DAYS * 86400, httponly=True,
                        samesite="Lax", secure=current_app.config["SESSION_COOKIE_SECURE"])
    return response
