"""The addresses every page links to (its style sheet and scripts, the header's links),
and that of game 0's page (a game's page is at the same address but for the number),
built once per app and script root instead of on every page."""

from __future__ import annotations

from typing import Any

from flask import Flask, current_app, request, url_for

from .cache import BoundedCache

LINKS: dict[str, tuple[str, dict[str, Any]]] = {"style": ("static", {"filename": "style.css"}),
         "viewer_js": ("static", {"filename": "viewer.js"}),
         "recorder_js": ("static", {"filename": "recorder.js"}),
         "forms_js": ("static", {"filename": "forms.js"}),
         "archive": ("games.index", {}), "validate": ("check.form", {}),
         "record": ("record.start_form", {}), "play": ("play.start_form", {}),
         "login": ("accounts.login_form", {}), "logout": ("accounts.logout", {}),
         "audit": ("admin.audit", {}), "language": ("accounts.choose_language", {}),
         "game_0": ("games.game_page", {"game_id": 0})}
ROOTS = 4
"""Script roots kept per app (one, unless the app is mounted at several addresses)."""
_CACHE = "jacquet.site_urls"


def site_urls() -> dict[str, str]:
    """Each of :data:`LINKS` by name, as ``url_for`` makes it for this request."""
    cache: BoundedCache[str, dict[str, str]] = current_app.extensions[_CACHE]
    return cache.get(request.script_root, lambda: {
        name: url_for(endpoint, **values) for name, (endpoint, values) in LINKS.items()})


def init_app(app: Flask) -> None:
    """Make ``site_urls()`` available to every template of ``app``."""
    app.extensions[_CACHE] = BoundedCache(ROOTS)
    app.jinja_env.globals["site_urls"] = site_urls
