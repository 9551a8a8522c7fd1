"""Reading record files for the commands: every game, or a clean usage error."""

from __future__ import annotations

from collections.abc import Iterator

import click

from notation.engine.rules import DEFAULT
from notation.errors import FormatError, RecordError
from notation.formats import format_of, read_file
from notation.messages import say
from notation.tree.game import Game, released


class Unreadable(click.ClickException):
    """A file that cannot be opened or whose format is unknown: exit 2. Its message names
    the file once, first (``cli.file.*``)."""

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


def file_format(path: str, fmt: str | None = None) -> str:
    """The format of the file ``path``: ``fmt``, else its extension's; :class:`Unreadable`
    when ``fmt`` is no format, or, naming the file once (``FILE: cannot tell its format...``),
    when there is none and the extension is unknown."""
    try:
        return format_of(path, fmt)
    except FormatError as error:
        if fmt is None:
            known = error.msg.params["known"]
            raise Unreadable(say("cli.file.unknown-format", path=path, known=known)) from None
        raise Unreadable(str(error)) from None  # (a format named that does not exist: no file to name)


def _games(path: str, fmt: str | None, variant: str) -> Iterator[Game]:
    file_format(path, fmt)
    try:
        yield from read_file(path, fmt, variant)
    except RecordError as error:
        game = Game()
        game.errors.append(error)
        yield game
    except FileNotFoundError:
        raise Unreadable(say("cli.file.missing", path=path)) from None
    except OSError as error:  # (the system's words, as it says them)
        raise Unreadable(say("cli.file.unreadable", path=path, reason=error.strerror or str(error))) from None
