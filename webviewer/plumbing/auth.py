"""Who is signed in (Flask-Login over the archive's accounts, :mod:`archive.accounts`) and
what they may do: :func:`role_required` on a view lets through only a user with that role
(or a higher one). A visitor not signed in is sent to the sign-in page when they ask for a
page (GET), and answered 401 when they send a form (nothing of it is done); a user without
the role is answered 403.

The session cookie carries the user's ``session_key``, not their id, and the id of this
session, checked on every request against the archive's open sessions: a new password or
a removed account ends every session at once, signing out ends this one.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast
from urllib.parse import urlsplit

from flask import Flask, abort, make_response, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext, lazy_gettext
from flask_login import LoginManager, current_user
from werkzeug.wrappers import Response

from archive.accounts import User, user_of_session
from webviewer.plumbing.db import get_db

login_manager = LoginManager()
SEPARATOR = ":"
"""Between the user's ``session_key`` and the session's id in the cookie (neither holds it)."""
View = TypeVar("View", bound=Callable[..., ResponseReturnValue])
ROLE_NAMES = {"scorer": lazy_gettext("scorer"), "admin": lazy_gettext("admin")}
"""Each role (:data:`archive.accounts.ROLES`) as the pages name it."""


class SignedIn:
    """A signed-in user, as Flask-Login keeps them."""

    is_authenticated = True
    is_active = True
    is_anonymous = False

    def __init__(self, user: User, session_id: str) -> None:
        self.user = user
        self.session_id = session_id
        self.name = user.name
        self.role = user.role
        self.id = user.id
        self.language = user.language

    def get_id(self) -> str:
        return f"{self.user.session_key}{SEPARATOR}{self.session_id}"

    @property
    def is_admin(self) -> bool:
        return self.user.is_admin

    @property
    def role_name(self) -> str:
        """The role in the page's language."""
        return str(ROLE_NAMES[self.role])

    def may(self, role: str) -> bool:
        return self.user.may(role)


class Visitor:
    """A visitor not signed in: browses, searches and validates."""

    is_authenticated = False
    is_active = False
    is_anonymous = True
    name = None
    role = None
    id = None
    is_admin = False
    language = None

    def may(self, role: str) -> bool:
        return False

    def get_id(self) -> None:
        return None


def signed_in() -> SignedIn | Visitor:
    """The user of this request (a :class:`Visitor` if nobody is signed in)."""
    return cast("SignedIn | Visitor", current_user._get_current_object())


def local_path(target: str | None) -> str | None:
    """``target`` if it is a path on this site (``/record/``), else ``None``: never another
    site's address (``//evil.example``, ``https://...``, ``/\\evil.example``)."""
    if not target or not target.startswith("/") or target.startswith(("//", "/\\")):
        return None
    if any(ord(c) < 33 or c == "\\" for c in target):
        return None
    parts = urlsplit(target)
    return target if not parts.scheme and not parts.netloc else None


def _back_to() -> str | None:
    """Where to come back to after signing in: this page, or for a form the page it was
    sent from (if on this site)."""
    if request.method == "GET":
        return request.full_path.rstrip("?")
    return referring_page()


def referring_page() -> str | None:
    """The page of this site a form was sent from (its path and query, from the
    ``Referer`` header), or ``None`` (no header, or another site's page)."""
    referrer = urlsplit(request.referrer or "")
    if referrer.netloc != request.host:
        return None
    return local_path(referrer.path + (f"?{referrer.query}" if referrer.query else ""))


def _unauthorized() -> Response:
    """A visitor not signed in: to the sign-in page for a page, 401 for a form."""
    back = _back_to()
    login = url_for("accounts.login", next=back) if back else url_for("accounts.login")
    if request.method == "GET":
        return redirect(login, code=303)
    return make_response(render_template("accounts/needed.html", login=login), 401)


def role_required(role: str) -> Callable[[View], View]:
    """A view only a user with ``role`` (or above) may use: see the module."""
    def decorate(view: View) -> View:
        @wraps(view)
        def guarded(*args: Any, **kwargs: Any) -> ResponseReturnValue:
            user = signed_in()
            if not user.is_authenticated:
                return _unauthorized()
            if not user.may(role):
                abort(403, description=gettext("This needs the %(role)s role; you are signed in "
                                               "as %(name)s (%(own)s).", role=ROLE_NAMES[role],
                                               name=user.name, own=ROLE_NAMES[str(user.role)]))
            return view(*args, **kwargs)
        return cast(View, guarded)
    return decorate


def init_app(app: Flask) -> None:
    """Sessions for ``app``'s users."""
    login_manager.init_app(app)
    login_manager.anonymous_user = Visitor
    login_manager.unauthorized_handler(_unauthorized)

    login_manager.user_loader(_load)


def _load(cookie_id: str) -> SignedIn | None:
    """The user whose session cookie carries ``cookie_id`` (their ``session_key`` and the
    session's id), if that session is still open on the server (``None``: sign in again)."""
    session_key, _, session_id = cookie_id.partition(SEPARATOR)
    user = user_of_session(get_db(), session_key, session_id) if session_id else None
    return None if user is None else SignedIn(user, session_id)
