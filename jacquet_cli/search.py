"""``jacquet search`` and ``jacquet export``: query the archive, write out what it finds."""

from __future__ import annotations

import json
from typing import Any

import click
from sqlite_utils import Database

from archive import game_ids, games_through, load_game, open_archive, plays_from, search
from archive.search import MAX_SQL_INT, public_row
from jacquet_cli.collector import reading_many_games
from notation import NotationError, Position
from notation.formats import WRITABLE
from notation.messages import render, say

from .archive_options import db_option, filter_options, pop_filters, query_from, reports_archive_errors
from .writing import target_format, write_games


def _position_id(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A position ID, checked (a usage error, exit 2, if it is none)."""
    if value is not None:
        try:
            Position.from_id(value)
        except NotationError as error:
            raise click.BadParameter(str(error)) from None
    return value


@click.command("search")
@db_option
@filter_options
@click.option("--position", metavar="ID", callback=_position_id,
              help="Games through this position ID, and the plays made from it.")
@click.option("--limit", type=click.IntRange(1, MAX_SQL_INT - 1), default=50, show_default=True)
@click.option("--offset", type=click.IntRange(0, MAX_SQL_INT), default=0)
@click.option("--json", "as_json", is_flag=True, help="JSON instead of a table.")
@reports_archive_errors("read")
def search_command(db_path: str, position: str | None, limit: int, offset: int, as_json: bool,
                   **filters: Any) -> None:
    """Search the archive's games; or, with --position, explore a position.

    \b
    Example:
        jacquet search --player Marie --variant jacquet --sort date --desc
        jacquet search --text "24/13" --json
        jacquet search --position AACA/z8AAID/Pw --variant jacquet
    """
    db = open_archive(db_path, readonly=True)
    options = pop_filters(filters)
    if position:
        _explore(db, position, options["variant"], limit, as_json)
        return
    try:
        rows, total = search(db, query_from(options, limit, offset))
    except ValueError as error:
        raise click.BadParameter(str(error)) from None
    if as_json:
        click.echo(json.dumps({"total": total, "offset": offset,
                               "games": [public_row(row, render) for row in rows]}, ensure_ascii=False))
        return
    click.echo(say("cli.search.found", count=total) + (
        say("cli.search.showing", first=offset + 1, last=offset + len(rows)) if rows else ""))
    for row in rows:
        where = say("cli.search.at-ply", ply=row["error_ply"]) if row["error_ply"] else ""
        flag = "" if row["valid"] else "  " + say("cli.search.invalid", rule=row["error_rule"], where=where)
        click.echo(f"{row['id']:>6}  {row['date'] or '':10}  {row['variant']:10}  "
                   f"{row['white'] or '?'} - {row['black'] or '?'}  {row['result']:5}  "
                   + say("cli.search.turns", turns=f"{row['turns']:>3}") + f"  {row['event'] or ''}{flag}")


def _explore(db: Database, position: str, variant: str | None, limit: int, as_json: bool) -> None:
    games = games_through(db, position, variant, limit + 1)
    more, games = len(games) > limit, games[:limit]
    plays = plays_from(db, position, variant)
    if as_json:
        click.echo(json.dumps({"position": position, "games": games,
                               "plays": [{"dice": p.dice, "play": p.play, "count": p.count,
                                          "wins": p.wins, "share_won": round(p.share_won, 4)}
                                         for p in plays]}))
        return
    if more:
        click.echo(say("cli.explore.first", games=len(games), position=position))
    else:
        click.echo(say("cli.explore.games", count=len(games), position=position))
    for game in games:
        click.echo("  " + say("cli.explore.game", game=game["game_id"], ply=game["ply"],
                              variant=game["variant"], date=game["date"] or say("cli.explore.no-date"),
                              result=game["result"]))
    if plays:
        click.echo(say("cli.explore.plays"))
    for play in plays:
        click.echo(f"  {play.dice}: {play.play:24} {play.count:>6}  "
                   + say("cli.explore.won", share=f"{play.share_won:.0%}"))


@click.command("export")
@db_option
@filter_options
@click.option("--output", "-o", required=True, type=click.Path(dir_okay=False),
              help=f"File to write; format from the extension ({', '.join(WRITABLE)}).")
@click.option("--format", "to_format", help="Format, if not the extension's.")
@reports_archive_errors("read")
@reading_many_games()
def export_command(db_path: str, output: str, to_format: str | None, **filters: Any) -> None:
    """Write the games a search selects (all games without filters) to a file.

    \b
    Example:
        jacquet export --player Marie -o marie.jqn
        jacquet export --variant backgammon -o bg.mat
    """
    fmt = target_format(output, to_format)
    db = open_archive(db_path, readonly=True)
    ids = game_ids(db, query_from(pop_filters(filters)))
    games = []
    for game_id in ids:
        try:
            game = load_game(db, game_id)
        except NotationError as error:
            raise click.ClickException(say("cli.export.unreadable", game=game_id,
                                           reason=error.reason)) from None
        if game is not None:  # None: deleted since the search, by another process
            games.append(game)
    write_games(games, output, fmt)
