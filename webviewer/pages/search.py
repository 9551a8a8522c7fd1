"""A search of the archive as the games list and the API's list of games take it from the
query string."""

from __future__ import annotations

import re
from typing import Any

from flask import abort, request
from flask_babel import gettext as _

from archive import Query
from archive.search import MAX_SQL_INT, SORTS, BadFilter, check_words, date_bound
from webviewer.plumbing.args import choice_arg, int_arg
from webviewer.plumbing.auth import signed_in
from webviewer.plumbing.language import said

TEXT_FILTERS = ("player", "white", "black", "event", "match", "variant", "text", "very_bad_by")
SEARCH_ARGS = (*TEXT_FILTERS, "from", "to", "result", "points_min", "points_max", "turns_min",
               "turns_max", "valid", "error_rate_max", "error_rate_min", "sort", "desc")
"""The query-string arguments of a search (the only ones its links carry on)."""


def _date(name: str) -> str | None:
    """A date filter from the query string, as the archive writes dates; 400 if no date."""
    value = request.args.get(name, "").strip()
    if not value:
        return None
    try:
        return date_bound(value)
    except BadFilter as error:
        abort(400, description=_("%(label)s: %(value)s", label=name, value=said(error.msg)))


ERROR_RATE = re.compile(r"[0-9]{1,9}(?:\.[0-9]{1,3})?")


def _error_rate(name: str) -> float | None:
    """An error-rate bound from the query string (thousandths of a point per decision, as
    ``12`` or ``12.5``); 400 for anything else."""
    value = request.args.get(name, "").strip()
    if not value:
        return None
    if not ERROR_RATE.fullmatch(value):
        abort(400, description=_("%(name)s is an error rate: a number such as 12 or 12.5", name=name))
    return float(value)


def query_from_args(page_size: int, newest_first: bool = False) -> Query:
    """A search from the query string; every value is only ever a bound parameter. An
    admin's search finds hidden games too. ``newest_first``: with no ``sort`` given, the
    games by number, descending."""
    args = request.args
    sort = args.get("sort", "id")
    if sort not in SORTS:
        abort(400, description=_("cannot sort by %(sort)r", sort=sort))
    result = args.get("result") or None
    if result not in (None, "W", "B", "*"):
        abort(400, description=_("result is W, B or *"))
    page = max(1, int_arg("page") or 1)
    if page > MAX_SQL_INT // page_size:
        abort(400, description=_("page is too large"))
    for name in TEXT_FILTERS:
        try:
            check_words(name, args.get(name, ""))
        except BadFilter as error:
            abort(400, description=said(error.msg))
    valid = choice_arg("valid", {"": None, "yes": True, "no": False})
    descending = choice_arg("desc", {"": newest_first and "sort" not in args, "0": False, "1": True})
    texts: dict[str, Any] = {name: (args.get(name) or None) for name in TEXT_FILTERS}
    return Query(**texts,
                 date_from=_date("from"), date_to=_date("to"),
                 result=result, points_min=int_arg("points_min"), points_max=int_arg("points_max"),
                 turns_min=int_arg("turns_min"), turns_max=int_arg("turns_max"), valid=valid,
                 error_rate_max=_error_rate("error_rate_max"),
                 error_rate_min=_error_rate("error_rate_min"),
                 with_hidden=signed_in().is_admin, sort=sort, descending=descending,
                 limit=page_size, offset=(page - 1) * page_size)
