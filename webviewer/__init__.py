"""The web viewer: a Flask app over the archive, server-rendered pages that work without
JavaScript, and a JSON API. Browsing reads the archive read-only; the validate and record
pages write to it, only for a signed-in scorer (:mod:`webviewer.plumbing.auth`), every
such request protected against cross-site forgery (CSRF).

``create_app(test_config)`` is the factory; ``jacquet serve`` runs it under waitress. The
package: the Flask views in :mod:`webviewer.blueprints`, the page models in
:mod:`webviewer.pages`, what they run on in :mod:`webviewer.plumbing`; :mod:`webviewer.demo`
builds the demo archive (for ``jacquet serve``, not the app).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import format_decimal, lazy_gettext
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError, CSRFProtect
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge, SecurityError
from werkzeug.middleware.proxy_fix import ProxyFix

from webviewer.blueprints import accounts, admin, api, check, editor, explore, games, play, practice, record
from webviewer.pages import words
from webviewer.plumbing import args, auth, db, language, site, workers
from webviewer.plumbing.headers import SECURITY_HEADERS
from webviewer.plumbing.secret import secret_key
from webviewer.plumbing.sessions import SessionInterface

csrf = CSRFProtect()
LOOPBACK_HOSTS = ("localhost", "127.0.0.1")
"""The names the Host header may carry on a server of this machine only (werkzeug cannot
trust an IPv6 address: reach such a server by name)."""


WERKZEUG_SAYS = {
    400: lazy_gettext("The request could not be understood."),
    403: lazy_gettext("This page is not for you."),
    404: lazy_gettext("There is no page at this address."),
    405: lazy_gettext("This address does not answer that kind of request."),
    500: lazy_gettext("The server failed to answer: the fault is in its log."),
}
"""What an error page says, in the page's language, where werkzeug would write its own
English (an address with no page, a method the address does not take)."""


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """The app. Config, each layer over the one before: the defaults (``ARCHIVE``, the
    archive path: ``$JACQUET_DB`` or ``jacquet.db``; ``MAX_UPLOAD_BYTES``, 2 MB;
    ``MAX_GAMES`` per pasted record, 500; ``SECRET_KEY``: see :mod:`webviewer.plumbing.secret`;
    the accounts' and the server's settings, documented in ``docs/server.md``), then the
    instance folder's ``config.py`` if there is one, then ``test_config`` (what
    ``jacquet serve`` passes: the archive, the trusted host names)."""
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(ARCHIVE=os.environ.get("JACQUET_DB", "jacquet.db"), PAGE_SIZE=50,
                            MAX_UPLOAD_BYTES=2_000_000, MAX_GAMES=500,
                            WTF_CSRF_TIME_LIMIT=8 * 3600, TRUSTED_HOSTS=list(LOOPBACK_HOSTS),
                            SESSION_COOKIE_SAMESITE="Lax", SESSION_COOKIE_SECURE=False,
                            LIVE_GAME_EXPIRY_DAYS=7, LIVE_GAMES_PER_SCORER=20,
                            LOGIN_FAILURES=5, LOGIN_ADDRESS_FAILURES=20, LOGIN_LOCKOUT_SECONDS=900, PROXIES=0)
    app.config.from_pyfile("config.py", silent=True)
    app.config.from_mapping(test_config or {})
    app.config.setdefault("SECRET_KEY", None)
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = secret_key(app.config["ARCHIVE"])
    app.config["MAX_CONTENT_LENGTH"] = app.config["MAX_UPLOAD_BYTES"] + 64_000  # the form around it
    app.config["MAX_FORM_MEMORY_SIZE"] = app.config["MAX_CONTENT_LENGTH"]  # a pasted record is a text field
    app.session_interface = SessionInterface()
    db.init_app(app)
    args.init_app(app)
    workers.init_app(app)
    site.init_app(app)
    if app.config["PROXIES"]:  # the client's address and scheme as the reverse proxies say,
        hops = app.config["PROXIES"]  # outermost: every layer within (workers') sees them
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)  # type: ignore[method-assign]

    @app.before_request
    def trusted_host_only() -> None:
        """A Host header outside ``TRUSTED_HOSTS`` stops the request before anything else
        (the CSRF check, the views) looks at it."""
        if isinstance(request.routing_exception, SecurityError):
            raise request.routing_exception

    @app.errorhandler(SecurityError)
    def untrusted_host(error: SecurityError) -> ResponseReturnValue:
        # plain text: no address of this site can be made for a host it does not serve
        return Response("400 Bad Request: this server does not serve that host name "
                        "(TRUSTED_HOSTS).\n", 400, mimetype="text/plain")

    csrf.init_app(app)
    auth.init_app(app)
    language.init_app(app)
    words.init_app(app)

    app.register_blueprint(games.blueprint)
    app.register_blueprint(explore.blueprint)
    app.register_blueprint(editor.blueprint)
    app.register_blueprint(record.blueprint)
    app.register_blueprint(check.blueprint)
    app.register_blueprint(api.blueprint)
    app.register_blueprint(accounts.blueprint)
    app.register_blueprint(admin.blueprint)
    app.register_blueprint(play.blueprint)
    app.register_blueprint(practice.blueprint)
    csrf.exempt(accounts.choose_language)  # a visitor's choice is only his cookie: the view
    # checks the token of a signed-in user, whose choice it keeps in his account

    @app.errorhandler(CSRFError)
    def csrf_refused(error: CSRFError) -> ResponseReturnValue:
        return render_template("error.html", code=400, message=_(
            "This form has expired or did not come from this site (CSRF check failed): reload the "
            "page and try again.")), 400

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> ResponseReturnValue:
        code = error.code or 500
        message = error.description
        if message == type(error).description and code in WERKZEUG_SAYS:  # werkzeug's own English
            message = str(WERKZEUG_SAYS[code])
        if request.path == "/api" or request.path.startswith("/api/"):
            return jsonify({"error": message}), code
        if code == 413 and error.description == RequestEntityTooLarge.description:  # werkzeug's own
            message = _("The upload is too large: the limit is %(bytes)s bytes (MAX_UPLOAD_BYTES).",
                        bytes=format_decimal(app.config["MAX_UPLOAD_BYTES"]))
        return render_template("error.html", code=code, message=message), code

    @app.after_request
    def security_headers(response: Response) -> Response:
        headers = response.headers
        present = {key.lower() for key, _ in headers}  # one pass: a missing key costs werkzeug an exception
        for key, value in SECURITY_HEADERS:
            if key.lower() not in present:
                headers.add(key, value)
        return response

    return app
