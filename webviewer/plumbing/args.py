"""Values from the request's query string, checked: anything else is a 400 that says what
was expected. Before any view runs, the query string as a whole is checked too
(:func:`check_query_string`): at most :data:`MAX_QUERY_BYTES`, UTF-8, no control
character."""

from __future__ import annotations

import re
from typing import TypeVar
from urllib.parse import unquote_to_bytes

from flask import Flask, abort, request
from flask_babel import gettext

from archive.search import MAX_SQL_INT
from notation import NotationError
from notation.engine.rules import rule_set
from notation.messages import render

from .language import page_language

WHOLE_NUMBER = re.compile(r"-?[0-9]{1,19}")
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
"""Characters no search, position or roll contains (a tab and line breaks aside)."""
MAX_QUERY_BYTES = 4096
"""The longest query string a page takes (a search with every filter takes a few hundred
bytes); a longer one is a 400."""
T = TypeVar("T")


def check_query_string() -> None:
    """400 for a query string over :data:`MAX_QUERY_BYTES`, not UTF-8 once decoded, or
    holding a control character (``?text=%00``): no page or archive query sees it."""
    raw = request.query_string
    if not raw:
        return
    if len(raw) > MAX_QUERY_BYTES:
        abort(400, description=gettext("the query string is longer than %(limit)s bytes",
                                       limit=MAX_QUERY_BYTES))
    try:
        text = unquote_to_bytes(raw.replace(b"+", b" ")).decode("utf-8")
    except UnicodeDecodeError:
        abort(400, description=gettext("the query string is not UTF-8"))
    if CONTROL.search(text):
        abort(400, description=gettext("the query string holds a control character"))


def int_arg(name: str) -> int | None:
    """A whole number from the query string (absent or empty: ``None``); 400 for anything
    else, or one beyond SQLite's integers."""
    value = request.args.get(name, "").strip()
    if not value:
        return None
    if not WHOLE_NUMBER.fullmatch(value) or abs(int(value)) > MAX_SQL_INT:
        abort(400, description=gettext("%(name)s must be a whole number (at most %(most)s)", name=name,
                                       most=MAX_SQL_INT))
    return int(value)


def choice_arg(name: str, values: dict[str, T]) -> T:
    """The value of a query-string argument that takes one of a few words (absent or
    empty: ``values[""]``); 400 for any other word."""
    given = request.args.get(name, "")
    if given not in values:
        words = ", ".join(repr(word) for word in values if word)
        abort(400, description=gettext("%(name)s is one of %(words)s", name=name, words=words))
    return values[given]


def variant_arg(default: str | None) -> str | None:
    """The rule set the address names (``variant=``; absent or empty: ``default``); a 400
    with the rules' own refusal, in the page's language, for one the viewer does not know."""
    variant = request.args.get("variant") or default
    if variant is not None:
        try:
            rule_set(variant)
        except NotationError as error:
            abort(400, description=render(error.msg, page_language()))
    return variant


def init_app(app: Flask) -> None:
    """Check every request's query string before its view runs."""
    app.before_request(check_query_string)
