"""The language of the viewer's pages (Flask-Babel, the ``messages`` catalog in
``webviewer/translations``): the signed-in user's choice kept in his account, else the
visitor's choice kept in the :data:`COOKIE`, else the best match of the browser's
``Accept-Language`` among :data:`LANGUAGES`, else English. The switcher on every page
(:func:`switcher`) posts the choice to ``/language``
(:mod:`webviewer.blueprints.language`)."""

from __future__ import annotations

from flask import Flask, request
from flask_babel import Babel, get_locale

from .auth import signed_in

LANGUAGES = ("en", "fr", "ru")
"""The languages of the pages, English first (the texts' own: it needs no catalog)."""
NAMES = {"en": "English", "fr": "Français", "ru": "Русский"}
"""Each language by its own name, as the switcher shows it."""
COOKIE = "language"
"""The cookie that keeps a visitor's choice."""
COOKIE_DAYS = 365


def chosen_language() -> str:
    """This request's language: see the module."""
    account = getattr(signed_in(), "language", None)
    if account in LANGUAGES:
        return str(account)
    cookie = request.cookies.get(COOKIE)
    if cookie in LANGUAGES:
        return str(cookie)
    return request.accept_languages.best_match(LANGUAGES) or LANGUAGES[0]


def page_language() -> str:
    """The language this page is in, for ``<html lang>``."""
    locale = get_locale()
    return locale.language if locale is not None else LANGUAGES[0]


def switcher() -> list[tuple[str, str, bool]]:
    """The switcher's choices: each language's code, its own name and whether it is this
    page's."""
    current = page_language()
    return [(code, NAMES[code], code == current) for code in LANGUAGES]


def init_app(app: Flask) -> None:
    """Pages of ``app`` in the chosen language."""
    Babel(app, locale_selector=chosen_language, default_domain="messages",
          default_translation_directories="translations")
    app.jinja_env.globals.update(page_language=page_language, languages=switcher)
