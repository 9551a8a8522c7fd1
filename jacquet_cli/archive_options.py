"""Options shared by the archive commands: where the archive is, the search filters, and
how a failing archive is reported."""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import click

from archive.search import MAX_SQL_INT, SORTS, date_bound
from notation.engine.rules import NAMES

if TYPE_CHECKING:
    from archive import ImportSummary, Query

db_option = click.option("--db", "db_path", type=click.Path(dir_okay=False), envvar="JACQUET_DB",
                         default="jacquet.db", show_default=True,
                         help="The archive file (or $JACQUET_DB).")


class ArchiveFailure(click.ClickException):
    """An archive that cannot be opened, read or written (missing, not an archive, damaged,
    read-only, on a full disk): one line on stderr, exit 2."""

    exit_code = 2


P = ParamSpec("P")
R = TypeVar("R")
C = TypeVar("C", bound=Callable[..., Any])


def reports_archive_errors(action: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorate a command taking ``db_path``: an :class:`ArchiveError`, or an SQLite error
    while it does ``action`` ("read", "write to"), ends it with one clear line naming the
    archive instead of a traceback."""

    def decorate(command: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(command)
        def run(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return command(*args, **kwargs)
            except sqlite3.Error as error:
                from archive.store import archive_error

                raise ArchiveFailure(str(archive_error(action, str(kwargs["db_path"]), error))) from None
            except Exception as error:
                # the archive's own error, where the command opened one (imported here: a
                # command that reads files alone need not load the archive package)
                from archive import ArchiveError

                if isinstance(error, ArchiveError):
                    raise ArchiveFailure(str(error)) from None
                raise
        return run

    return decorate


SQL_INT = click.IntRange(-MAX_SQL_INT - 1, MAX_SQL_INT)
"""A whole number SQLite can compare (a larger one is a usage error, not a traceback)."""


def _date(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A date filter, checked (a usage error, exit 2, if it is not a date)."""
    if value is None:
        return None
    try:
        return date_bound(value)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


FILTERS = [
    click.option("--player", help="Either colour: names in which each word given begins a word "
                 "(any case); in double quotes, that name only."),
    click.option("--white", help="White's name (as --player)."),
    click.option("--black", help="Black's name (as --player)."),
    click.option("--event", help="Event name (as --player)."),
    click.option("--match", "match_name", help="Match name."),
    click.option("--from", "date_from", metavar="DATE", callback=_date,
                 help="Played on or after (YYYY, YYYY.MM or YYYY.MM.DD)."),
    click.option("--to", "date_to", metavar="DATE", callback=_date,
                 help="Played on or before (a year or month: up to its end)."),
    click.option("--variant", type=click.Choice(NAMES, case_sensitive=False)),
    click.option("--result", type=click.Choice(["W", "B", "*"]), help="Who won (* unfinished)."),
    click.option("--points-min", type=SQL_INT), click.option("--points-max", type=SQL_INT),
    click.option("--turns-min", type=SQL_INT), click.option("--turns-max", type=SQL_INT),
    click.option("--text", help="Words in the comments (searched as typed: 24/13 works)."),
    click.option("--valid/--invalid", default=None, help="Only valid (or only invalid) games."),
    click.option("--max-error-rate", "error_rate_max", type=click.FloatRange(0), metavar="N",
                 help="Analysed games where the --player (either side without one) has an error "
                 "rate of at most N (thousandths of a point per decision)."),
    click.option("--min-error-rate", "error_rate_min", type=click.FloatRange(0), metavar="N",
                 help="As --max-error-rate, at least N."),
    click.option("--very-bad-by", metavar="NAME",
                 help="Analysed games holding a ?? (a very bad play) by this player (as --player)."),
    click.option("--sort", type=click.Choice(sorted(SORTS)), default="id", show_default=True),
    click.option("--desc", "descending", is_flag=True, help="Sort descending."),
]


def filter_options(command: C) -> C:
    for option in reversed(FILTERS):
        command = option(command)
    return command


def query_from(options: dict[str, Any], limit: int = 50, offset: int = 0) -> Query:
    from archive import Query

    return Query(player=options["player"], white=options["white"], black=options["black"],
                 event=options["event"], match=options["match_name"],
                 date_from=options["date_from"], date_to=options["date_to"],
                 variant=options["variant"], result=options["result"],
                 points_min=options["points_min"], points_max=options["points_max"],
                 turns_min=options["turns_min"], turns_max=options["turns_max"],
                 text=options["text"], valid=options["valid"],
                 error_rate_max=options["error_rate_max"], error_rate_min=options["error_rate_min"],
                 very_bad_by=options["very_bad_by"], sort=options["sort"],
                 descending=options["descending"], limit=limit, offset=offset)


def pop_filters(kwargs: dict[str, Any]) -> dict[str, Any]:
    names = ("player", "white", "black", "event", "match_name", "date_from", "date_to", "variant",
             "result", "points_min", "points_max", "turns_min", "turns_max", "text", "valid",
             "error_rate_max", "error_rate_min", "very_bad_by", "sort", "descending")
    return {name: kwargs.pop(name) for name in names}


__all__ = ["ArchiveFailure", "db_option", "filter_options", "pop_filters", "query_from",
           "reports_archive_errors"]


def import_summary(summary: ImportSummary) -> str:
    """What an import did, in the current language (``str(summary)`` is the English)."""
    return summary.said()
