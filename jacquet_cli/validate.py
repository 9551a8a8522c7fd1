"""``jacquet validate``: read and check every game of some files."""

from __future__ import annotations

import json

import click

from jacquet_cli.collector import reading_many_games
from notation.engine.rules import DEFAULT, NAMES
from notation.messages import Message, render
from notation.tree.game import Game

from .reading import Unreadable, stream_games


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--variant", "-v", type=click.Choice(NAMES, case_sensitive=False), default=DEFAULT,
              show_default=True, help="Rule set of records without a Variant tag.")
@click.option("--format", "fmt", help="Input format (default: from the extension).")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object per game, with its errors (each with its message id and parameters).")
@reading_many_games()
def validate(files: tuple[str, ...], variant: str, fmt: str | None, as_json: bool) -> None:
    """Check every game of FILES against the rules.

    Prints one line per problem, FILE:LINE:COL: error: [RULE-ID] message, and exits
    0 when every game is legal, 1 on any error, 2 when a file cannot be read. Warnings
    (a dialect quirk kept as the record says it) are printed too and do not fail.

    \b
    Example:
        jacquet validate samples/*/*.jqn
        jacquet validate --json game.jqn
    """
    errors = unreadable = games_seen = 0
    for path in files:
        try:
            for index, game in enumerate(stream_games(path, fmt, variant), 1):
                games_seen += 1
                errors += len(game.errors)
                if as_json:
                    click.echo(json.dumps(_summary(path, index, game), ensure_ascii=False))
                else:
                    for problem in [*game.errors, *game.warnings]:
                        click.echo(str(problem))
        except Unreadable as problem:
            click.echo(problem.message, err=True)
            unreadable += 1
    click.echo(render(Message.of("cli.validate.summary", games=Message.of("count.games", count=games_seen),
                                 errors=Message.of("count.errors", count=errors))), err=True)
    if unreadable:
        raise SystemExit(2)
    if errors:
        raise SystemExit(1)


def _summary(path: str, index: int, game: Game) -> dict[str, object]:
    end = game.end()
    return {"file": path, "game": index, "variant": game.rules.name, "valid": not game.errors,
            "turns": end.ply, "result": game.headers.get("Result") or game.result,
            "white": game.headers.get("White"), "black": game.headers.get("Black"),
            "errors": [e.as_dict() for e in game.errors],
            "warnings": [w.as_dict() for w in game.warnings]}
