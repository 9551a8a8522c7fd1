"""``jacquet convert``: from one format to another."""

from __future__ import annotations

import click

from jacquet_cli.collector import reading_many_games
from notation.formats import WRITABLE
from notation.messages import say

from .reading import load_games
from .writing import target_format, write_games


@click.command()
@click.argument("source", type=click.Path(dir_okay=False))
@click.argument("target", type=click.Path(dir_okay=False))
@click.option("--to", "to_format",
              help=f"Output format: {', '.join(WRITABLE)} (default: from the extension).")
@click.option("--from", "from_format", help="Input format (default: from the extension).")
@reading_many_games()
def convert(source: str, target: str, to_format: str | None, from_format: str | None) -> None:
    """Convert the games of SOURCE into TARGET.

    Every game is checked first; if any has an error, or cannot be written in the
    target's format, nothing is written (exit 1), so a conversion never drops part of a
    game.

    \b
    Example:
        jacquet convert game.jqn game.json
        jacquet convert game.json game.jqn
        jacquet convert match.mat match.jqn
    """
    fmt = target_format(target, to_format)
    games = load_games(source, from_format)
    errors = [error for game in games for error in game.errors]
    for error in errors:
        click.echo(str(error), err=True)
    if errors:
        click.echo(say("cli.convert.errors", count=len(errors), path=source), err=True)
        raise SystemExit(1)
    write_games(games, target, fmt)
