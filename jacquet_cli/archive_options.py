"""Options shared by the archive commands: where the archive is, and the search filters."""

from __future__ import annotations

import click

from archive import ArchiveError, Query, open_archive
from archive.search import SORTS
from notation.rules import NAMES

from .reading import Unreadable

db_option = click.option("--db", "db_path", type=click.Path(dir_okay=False), envvar="JACQUET_DB",
                         default="jacquet.db", show_default=True,
                         help="The archive file (or $JACQUET_DB).")


def open_db(path: str, readonly: bool = False):
    """The archive, or a clean error (exit 2)."""
    try:
        return open_archive(path, readonly=readonly)
    except ArchiveError as error:
        raise Unreadable(str(error)) from None


FILTERS = [
    click.option("--player", help="Either colour (name, any case)."),
    click.option("--white", help="White's name."),
    click.option("--black", help="Black's name."),
    click.option("--event", help="Event name."),
    click.option("--match", "match_name", help="Match name."),
    click.option("--from", "date_from", metavar="DATE", help="Played on or after (YYYY.MM.DD)."),
    click.option("--to", "date_to", metavar="DATE", help="Played on or before."),
    click.option("--variant", type=click.Choice(NAMES, case_sensitive=False)),
    click.option("--result", type=click.Choice(["W", "B", "*"]), help="Who won (* unfinished)."),
    click.option("--points-min", type=int), click.option("--points-max", type=int),
    click.option("--turns-min", type=int), click.option("--turns-max", type=int),
    click.option("--text", help="Words in the comments (searched as typed: 24/13 works)."),
    click.option("--valid/--invalid", default=None, help="Only valid (or only invalid) games."),
    click.option("--sort", type=click.Choice(sorted(SORTS)), default="id", show_default=True),
    click.option("--desc", "descending", is_flag=True, help="Sort descending."),
]


def filter_options(command):
    for option in reversed(FILTERS):
        command = option(command)
    return command


def query_from(options: dict, limit: int = 50, offset: int = 0) -> Query:
    return Query(player=options["player"], white=options["white"], black=options["black"],
                 event=options["event"], match=options["match_name"],
                 date_from=options["date_from"], date_to=options["date_to"],
                 variant=options["variant"], result=options["result"],
                 points_min=options["points_min"], points_max=options["points_max"],
                 turns_min=options["turns_min"], turns_max=options["turns_max"],
                 text=options["text"], valid=options["valid"], sort=options["sort"],
                 descending=options["descending"], limit=limit, offset=offset)


def pop_filters(kwargs: dict) -> dict:
    names = ("player", "white", "black", "event", "match_name", "date_from", "date_to", "variant",
             "result", "points_min", "points_max", "turns_min", "turns_max", "text", "valid",
             "sort", "descending")
    return {name: kwargs.pop(name) for name in names}


__all__ = ["db_option", "filter_options", "open_db", "query_from", "pop_filters"]
