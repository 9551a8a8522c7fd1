"""The limits the readers keep, so that no record, however large or hostile, makes reading
use unbounded memory or time (``docs/notation.md``, "Limits"). Each is far above what real
records need: the largest real ``.mat`` is 21 kB with 126-character lines, the samples'
longest line 522 characters, the longest game a few hundred turns.

Crossing a limit is a :class:`~notation.errors.RecordError` with the rule id ``LIMIT``, at
the file, line and column where it was crossed: for the text notation, an error of the
game (reading goes on with the next one); for the formats read whole (JSON, ``.mat``, SGF,
XML), an error raised for the whole file, but for the lead rolls, an error of their game
in every format like any other tag's.
"""

from __future__ import annotations

import os

from notation.errors import RecordError

LIMIT = "LIMIT"
"""The rule id of an error for a crossed limit."""

MAX_FILE_BYTES = 50 * 1024 * 1024
"""Bytes of a file read whole (JSON, ``.mat``, SGF, XML). The text notation is read one
game at a time and has no file limit."""

MAX_LINE_BYTES = 1024 * 1024
"""Bytes of one line of the line-based formats (the text notation, ``.mat``)."""

MAX_GAME_BYTES = 4 * 1024 * 1024
"""Bytes of one game of the text notation, its tag lines included (a long annotated game
takes tens of kilobytes)."""

MAX_POSITIONS = 200_000
"""Positions held at once: each game's start and each turn (variations included). For the
text notation, in one game; for the formats read whole, in one file. A position costs
about 2 kB, so this bounds what a reading holds to some 400 MB."""

MAX_ELEMENTS = 2_400_000
"""XML elements, or JSON objects and arrays, in one file, counted before the document is
parsed (by ``<`` and by ``{`` and ``[``, those in text included): the parsers build the
whole document first. A turn takes one element in XML and about ten in JSON."""

MAX_DEPTH = 200
"""Nesting of variations (text notation, JSON), of SGF game trees and of XML elements."""

MAX_NAG = 255
"""The highest numeric annotation glyph (``$255``), as in PGN."""

MAX_DIGITS = 18
"""Digits of a number a reader converts (a result's points, a score, a cube, a NAG...)."""

NUMBER = rf"\d{{1,{MAX_DIGITS}}}(?!\d)"
"""A regular expression for such a number: a longer one does not match, so it is reported
as unreadable instead of being converted (Python refuses to convert over 4300 digits)."""

MAX_PLAY_CHARS = 256
"""Characters of a written play (a legal play needs under 100)."""

MAX_LEAD_ROLLS = 20
"""Rolls in a ``LeadRoll`` tag (a Versailles lead is rolled again after a doublet; twenty
doublets in a row have a chance in 10**15). Each doublet lead is a turn every later
position of the game remembers, so their number must be small."""


class Budget:
    """Counts the positions a reader holds against :data:`MAX_POSITIONS`."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = MAX_POSITIONS if limit is None else limit
        self.used = 0

    def spend(self, count: int = 1) -> bool:
        """Count ``count`` more positions; ``False`` once the limit is crossed."""
        self.used += count
        return self.used <= self.limit

    def error(self, where: str, *, file: str, line: int = 0, column: int = 0,
              game: int = 0) -> RecordError:
        """The error for a crossed limit; ``where`` says what holds too many (``one game``,
        ``one file``)."""
        return RecordError(f"more than {self.limit} positions (turns and game starts) in {where}: "
                           "split the record", LIMIT, file=file, line=line, column=column, game=game)


def line_too_long(file: str, line: int, game: int = 0, limit: int = MAX_LINE_BYTES) -> RecordError:
    """The error for a line longer than ``limit`` bytes (its column is where it crossed it)."""
    return RecordError(f"the line is longer than {limit} bytes", LIMIT, file=file, line=line,
                       column=limit + 1, game=game)


def read_whole(path: str | os.PathLike, limit: int | None = None) -> bytes:
    """The bytes of a file read whole; :class:`RecordError` (``LIMIT``) when it is over
    ``limit`` bytes (default :data:`MAX_FILE_BYTES`), :class:`OSError` when it cannot be
    read. Read a block at a time, never more than ``limit + 1`` bytes: a file whose size
    is not known beforehand (a pipe) or that grows while it is read is bounded too."""
    limit = MAX_FILE_BYTES if limit is None else limit
    blocks: list[bytes] = []
    size = 0
    with open(path, "rb") as handle:
        if os.fstat(handle.fileno()).st_size <= limit:
            while size <= limit:
                block = handle.read(min(_BLOCK, limit + 1 - size))
                if not block:
                    break
                blocks.append(block)
                size += len(block)
        else:
            size = os.fstat(handle.fileno()).st_size
    if size > limit:
        raise RecordError(f"the file is larger than the limit of {limit} bytes", LIMIT,
                          file=os.fspath(path), line=1, column=1)
    return b"".join(blocks)


_BLOCK = 1024 * 1024
