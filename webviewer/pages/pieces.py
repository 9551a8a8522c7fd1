"""The macros of ``templates/games/pieces.html`` (the game page's pieces: move list entries,
the pip chart), called from Python as functions that return autoescaped HTML."""

from __future__ import annotations

from typing import Any

from flask import current_app

TEMPLATE = "games/pieces.html"
_KEY = "jacquet.game_pieces"


def pieces() -> Any:
    """The template's module for the current app (its macros as attributes), made once per
    app: Jinja's module of a template holds its macros bound to the app's environment."""
    extensions = current_app.extensions
    module = extensions.get(_KEY)
    if module is None:
        module = extensions[_KEY] = current_app.jinja_env.get_template(TEMPLATE).module
    return module
