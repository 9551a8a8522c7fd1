"""Values from the request's query string, checked: anything else is a 400 that says what
was expected."""

from __future__ import annotations

import re
from typing import TypeVar

from flask import abort, request

from archive.search import MAX_SQL_INT

WHOLE_NUMBER = re.compile(r"-?[0-9]{1,19}")
T = TypeVar("T")


def int_arg(name: str) -> int | None:
    """A whole number from the query string (absent or empty: ``None``); 400 for anything
    else, or one beyond SQLite's integers."""
    value = request.args.get(name, "").strip()
    if not value:
        return None
    if not WHOLE_NUMBER.fullmatch(value) or abs(int(value)) > MAX_SQL_INT:
        abort(400, description=f"{name} must be a whole number (at most {MAX_SQL_INT})")
    return int(value)


def choice_arg(name: str, values: dict[str, T]) -> T:
    """The value of a query-string argument that takes one of a few words (absent or
    empty: ``values[""]``); 400 for any other word."""
    given = request.args.get(name, "")
    if given not in values:
        words = ", ".join(repr(word) for word in values if word)
        abort(400, description=f"{name} is one of {words}")
    return values[given]
