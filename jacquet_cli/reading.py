"""Reading record files for the commands: every game, or a clean usage error."""

from __future__ import annotations

import click

from notation.errors import RecordError
from notation.formats import format_of, read_file
from notation.game import Game


class Unreadable(click.ClickException):
    """A file that cannot be opened or whose format is unknown: exit 2."""

    exit_code = 2


def load_games(path: str, fmt: str | None = None, variant: str = "jacquet") -> list[Game]:
    """All games of ``path``; :class:`Unreadable` if the file cannot be read at all. A
    malformed JSON document comes back as one game carrying the error."""
    try:
        format_of(path, fmt)
        return list(read_file(path, fmt, variant))
    except ValueError as error:
        if isinstance(error, RecordError):
            game = Game()
            game.errors.append(error)
            return [game]
        raise Unreadable(str(error)) from None
    except OSError as error:
        raise Unreadable(f"cannot read {path}: {error.strerror or error}") from None
