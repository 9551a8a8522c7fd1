"""The language of the viewer's pages (Flask-Babel, the ``messages`` catalog in
``webviewer/translations``): the signed-in user's choice kept in his account, else the
visitor's choice kept in the :data:`COOKIE`, else the best match of the browser's
``Accept-Language`` among :data:`notation.messages.LANGUAGES` (the
same languages as the engine's messages), else English. The switcher on every page
(:func:`switcher`) posts the choice to ``/language``
(``choose_language`` in :mod:`webviewer.blueprints.accounts`). Every answer says
``Vary: Accept-Language, Cookie``, so that a cache in front of the server never hands one
visitor's language to the next."""

from __future__ import annotations

from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal
from functools import cache, lru_cache
from typing import Any

from babel.numbers import format_percent, get_decimal_symbol
from flask import Flask, g, has_request_context, request
from flask_babel import Babel, get_translations
from markupsafe import Markup, escape
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from notation.messages import LANGUAGES, Message, render

from .auth import signed_in

NAMES = {"en": "English", "fr": "Français", "ru": "Русский"}
"""Each language by its own name, as the switcher shows it."""
COOKIE = "language"
"""The cookie that keeps a visitor's choice."""
COOKIE_DAYS = 365
VARY = "Accept-Language, Cookie"
"""What every answer's language depends on (see the module)."""


def chosen_language() -> str:
    """This request's language: see the module."""
    account = getattr(signed_in(), "language", None)
    if account in LANGUAGES:
        return str(account)
    cookie = request.cookies.get(COOKIE)
    if cookie in LANGUAGES:
        return str(cookie)
    return best_language(request.headers.get("Accept-Language", ""))


ACCEPT_LANGUAGE_READ = 256
"""How much of an ``Accept-Language`` header is read (a browser's is a few dozen
characters): a longer one is cut, so that neither parsing it nor keeping its answer costs
more than a browser's would."""


def best_language(header: str) -> str:
    """The best of :data:`LANGUAGES` for an ``Accept-Language`` header (its first
    :data:`ACCEPT_LANGUAGE_READ` characters), else English."""
    return _best_language(header[:ACCEPT_LANGUAGE_READ])


@lru_cache(maxsize=256)
def _best_language(header: str) -> str:
    """:func:`best_language`, its answers kept for the headers last seen (most visitors
    send one of a few), since werkzeug parses the header again on every request."""
    return parse_accept_header(header, LanguageAccept).best_match(LANGUAGES) or LANGUAGES[0]


def page_language() -> str:
    """The language this page is in, for ``<html lang>``: :func:`chosen_language`, the
    choice Flask-Babel's locale is made of, looked up once per request (Flask-Babel's
    lookup goes through the request's globals and parses the locale each time)."""
    if not has_request_context():  # (no request: English, as Flask-Babel says)
        return LANGUAGES[0]
    kept = g._get_current_object()
    found = getattr(kept, "_jacquet_language", None)
    if found is None:
        found = kept._jacquet_language = chosen_language()
    return str(found)


def said(message: Message) -> str:
    """``message`` (of the ``jacquet`` catalog: an engine's, the archive's or a net's
    error) in this page's language."""
    return render(message, page_language())


def fixed(value: float, places: int) -> str:
    """``value`` with ``places`` decimals, rounded as the scripts' ``toFixed(places)``
    rounds: to the binary value's nearest, a tie away from zero (``0.125`` to two places:
    ``0.13``; Python's ``%.2f`` and Babel give ``0.12``, half to even). The one rule for
    the numbers the server writes and those viewer.js draws (``static/viewer.js``)."""
    return str(Decimal(value).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def decimals(value: float, places: int, signed: bool = False) -> str:
    """``value`` with ``places`` decimals (and its sign, with ``signed``) as this page's
    language writes it: ``+0.075``, ``+0,075`` in French and Russian; rounded by
    :func:`fixed`, so that a number viewer.js draws reads as the server's."""
    text = fixed(value, places)
    if signed and not text.startswith("-"):
        text = "+" + text
    return text.replace(".", _number_words(page_language())["decimal"])


def percent(value: float, places: int = 0) -> str:
    """``value`` (a share, 0.123) as a percentage with ``places`` decimals in this page's
    language: ``12%`` in English, ``12 %`` in French and Russian (the language's own
    percent format); rounded by :func:`fixed`, as viewer.js rounds it."""
    words = _number_words(page_language())
    return words["percent"].replace("{value}", fixed(value * 100, places).replace(".", words["decimal"]))


def number_words() -> dict[str, str]:
    """How this page's language writes a number, for a script that formats its own:
    the decimal sign and the percent format (``{value}`` where the number goes)."""
    return _number_words(page_language())


@cache
def _number_words(language: str) -> dict[str, str]:
    return {"decimal": get_decimal_symbol(language),
            "percent": format_percent(0, locale=language).replace("0", "{value}", 1)}


def switcher() -> list[tuple[str, str, bool]]:
    """The switcher's choices: each language's code, its own name and whether it is this
    page's."""
    current = page_language()
    return [(code, NAMES[code], code == current) for code in LANGUAGES]


def translations() -> Any:
    """This request's catalog, looked up once per request (Flask-Babel looks it up again
    for every text: a page of the archive has hundreds)."""
    found = getattr(g, "_jacquet_translations", None)
    if found is None:
        found = g._jacquet_translations = get_translations()
    return found


def _filled(text: str, values: dict[str, Any]) -> Markup:
    """``text`` with its ``%(name)s`` filled in from ``values`` (escaped), as Jinja's
    "newstyle" gettext does for the autoescaped pages; but without formatting a text that
    has nothing to fill (Markup's ``%`` costs several lookups, and a page has hundreds)."""
    if values:
        return Markup(text % {name: value if isinstance(value, (int, float)) else escape(value)
                              for name, value in values.items()})
    return Markup(text % {} if "%" in text else text)


def page_words(found: Any) -> dict[str, Callable[..., Markup]]:
    """The templates' ``_``, ``gettext`` (``{% trans %}``'s too) and ``ngettext`` over the
    catalog ``found``: a text in its language, its placeholders filled in (``%(num)d``: the
    count)."""

    def gettext(text: str, **values: Any) -> Markup:
        return _filled(found.ugettext(text), values)

    def ngettext(one: str, many: str, count: int, **values: Any) -> Markup:
        return _filled(found.ungettext(one, many, count), {"num": count, **values})

    return {"_": gettext, "gettext": gettext, "ngettext": ngettext}


def _request_words() -> dict[str, Callable[..., Markup]]:
    """Each template rendered for a request gets them over the request's catalog, looked up
    once."""
    return page_words(translations())


def init_app(app: Flask) -> None:
    """Pages of ``app`` in the chosen language, their texts through :func:`page_words`."""
    Babel(app, locale_selector=chosen_language, default_domain="messages",
          default_translation_directories="translations")
    app.context_processor(_request_words)
    # the macros a template imports, and those called from Python, see only the globals
    app.jinja_env.globals.update(
        _=lambda text, **values: _filled(translations().ugettext(text), values),
        gettext=lambda text, **values: _filled(translations().ugettext(text), values),
        ngettext=lambda one, many, count, **values: _filled(
            translations().ungettext(one, many, count), {"num": count, **values}))
    app.jinja_env.globals.update(page_language=page_language, languages=switcher, number_words=number_words)
    app.jinja_env.filters.update(percent=percent, decimals=decimals)
    app.after_request(_varies_by_language)


def _varies_by_language(response: Any) -> Any:
    """The answer marked as depending on the language's sources (see the module); set
    directly when nothing set it before (the usual case: parsing an absent header into a
    set and back costs more than the rest of this module on a cached page)."""
    if "Vary" in response.headers:
        response.vary.update(VARY.split(", "))
    else:
        response.headers["Vary"] = VARY
    return response
