"""The limits the readers keep, so that no record, however large or hostile, makes reading
use unbounded memory or time (``docs/notation.md``, "Limits"). Each is far above what real
records need: the largest real ``.mat`` is 21 kB with 126-character lines, the samples'
longest line 522 characters, the longest game a few hundred turns.

Crossing a limit is a :class:`~notation.errors.RecordError` with the rule id ``LIMIT``, at
the file, line and column where it was crossed: for the text notation, an error of the
game (reading goes on with the next one); for the formats read whole (JSON, ``.mat``, SGF,
XML), an error raised for the whole file, but for the lead rolls, an error of their game
in every format like any other tag's.

What the readers do with them (count positions, read a file whole within its limit, the
error of a line too long) is :mod:`notation.formats.reading`'s: this module holds the
limits only.
"""

from __future__ import annotations

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

MAX_CUBE = 2**20
"""The highest value of the doubling cube (twenty doublings: a real cube seldom passes
64). A take that would raise it higher is an error of its turn (rule id ``LIMIT``), so
that the points a game scores (three times the cube at most) always fit an archive's
64-bit integers; a record with 66 redoubles is refused, not stored."""

MAX_PLAY_CHARS = 256
"""Characters of a written play (a legal play needs under 100)."""

MAX_LEAD_ROLLS = 20
"""Rolls in a ``LeadRoll`` tag (a Versailles lead is rolled again after a doublet; twenty
doublets in a row have a chance in 10**15). Each doublet lead is a turn every later
position of the game remembers, so their number must be small."""

