"""The macros of ``templates/games/pieces.html`` (the game page's pieces: move list entries,
the pip chart), called from Python as functions that return autoescaped HTML."""

from __future__ import annotations

import threading
from typing import Any

from flask import current_app

TEMPLATE = "games/pieces.html"
_KEY = "jacquet.game_pieces"


def pieces() -> Any:
    """The template's module for the current app and thread (its macros as attributes),
    made once per app and thread. Not shared between threads: a module's macros share one
    context, and a macro's ``{% autoescape %}`` block (``chart_bands``) sets that context's
    autoescaping while it runs, which the macros that call others (``move_list``) read: a
    move list made meanwhile in another thread had its links escaped into text."""
    kept = current_app.extensions.get(_KEY)
    if kept is None:
        kept = current_app.extensions.setdefault(_KEY, threading.local())
    module = getattr(kept, "module", None)
    if module is None:
        module = kept.module = current_app.jinja_env.get_template(TEMPLATE).make_module()
    return module
