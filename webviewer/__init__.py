"""The web viewer: a Flask app over the archive (read-only), server-rendered pages that
work without JavaScript, and a JSON API.

``create_app(test_config)`` is the factory; ``jacquet serve`` runs it under waitress.
"""

from __future__ import annotations

import os

from flask import Flask

from .db import close_db


def create_app(test_config: dict | None = None) -> Flask:
    """The app. Config: ``ARCHIVE`` (the archive path, default ``$JACQUET_DB`` or
    ``jacquet.db``), then the instance folder's ``config.py``, then ``test_config``."""
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(ARCHIVE=os.environ.get("JACQUET_DB", "jacquet.db"), PAGE_SIZE=50)
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    app.teardown_appcontext(close_db)

    from . import api, explore, games

    app.register_blueprint(games.blueprint)
    app.register_blueprint(explore.blueprint)
    app.register_blueprint(api.blueprint)

    @app.after_request
    def security_headers(response):
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
            "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        return response

    return app
