"""Reading record files for the commands: every game, or a clean usage error."""

from __future__ import annotations

from collections.abc import Iterator

import click

from notation.engine.rules import DEFAULT
from notation.errors import RecordError
from notation.formats import format_of, read_file
from notation.messages import Message, render
from notation.tree.game import Game, released


class Unreadable(click.ClickException):
    """A file that cannot be opened or whose format is unknown: exit 2."""

    exit_code = 2


def load_games(path: str, fmt: str | None = None, variant: str = DEFAULT) -> list[Game]:
    """All games of ``path``; :class:`Unreadable` if the file cannot be read at all. A
    malformed JSON document comes back as one game carrying the error."""
    return list(_games(path, fmt, variant))


def stream_games(path: str, fmt: str | None = None, variant: str = DEFAULT) -> Iterator[Game]:
    """The games of ``path`` one by one, as :func:`load_games` gives them, each released
    (:meth:`~notation.tree.game.Game.release`) once the next is asked for: a text-notation file
    of any size is read in the memory of one game (the other formats are read whole,
    within :mod:`notation.limits`). :class:`Unreadable` is raised where reading stops,
    after the games read until then."""
    return released(_games(path, fmt, variant))


def _games(path: str, fmt: str | None, variant: str) -> Iterator[Game]:
    try:
        format_of(path, fmt)
        yield from read_file(path, fmt, variant)
    except ValueError as error:
        if not isinstance(error, RecordError):
            raise Unreadable(str(error)) from None
        game = Game()
        game.errors.append(error)
        yield game
    except OSError as error:
        raise Unreadable(render(Message.of("cli.cannot-read", path=path,
                                           reason=error.strerror or str(error)))) from None
