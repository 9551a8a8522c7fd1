"""Writing games to a file for the commands (``convert``, ``export``): the same checks,
messages and exit codes for both."""

from __future__ import annotations

import click

from notation.formats import WRITABLE, write_file
from notation.formats.registry import BY_NAME
from notation.messages import say
from notation.tree.game import Game

from .reading import Unreadable, file_format


def target_format(path: str, fmt: str | None) -> str:
    """The format to write ``path`` in (``fmt``, else its extension's); :class:`Unreadable`
    (exit 2) when it is unknown or cannot be written."""
    fmt = file_format(path, fmt)
    if fmt not in WRITABLE:
        raise Unreadable(say("format.unwritable", name=fmt, known=", ".join(WRITABLE)))
    return fmt


def write_games(games: list[Game], path: str, fmt: str) -> None:
    """Write ``games`` to ``path`` in ``fmt`` and say so (for ``.mat``, with what it leaves
    out). Nothing is written, exit 1, when a game cannot be written in ``fmt`` (as for a
    game in error); :class:`Unreadable` (exit 2) when the file cannot be written."""
    try:
        write_file(games, path, fmt)
    except OSError as error:
        raise Unreadable(say("cli.write.cannot", path=path, reason=error.strerror or str(error))) from None
    except ValueError as error:  # a game the format cannot hold
        click.echo(say("cli.write.nothing", reason=str(error)), err=True)
        raise SystemExit(1) from None
    click.echo(say("cli.write.written", count=len(games), path=path), err=True)
    if (left_out := BY_NAME[fmt].left_out) is not None and (lost := left_out(games)):
        click.echo(say("cli.write.left-out", what=lost), err=True)
