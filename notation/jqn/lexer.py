"""Tokens of the movetext of the text notation (``.jqn``), with where they stand.

The lexer is one compiled regular expression over a game's movetext. Every character
belongs to a token or to the white space before one (skipped by the same match, so that a
token costs one match); what matches nothing known is an ``unknown`` token, which the
reader reports as an error (never dropped silently).
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from typing import Iterator, NamedTuple

from ..errors import InvalidError
from ..limits import MAX_NAG, NUMBER

_POINT = r"(?:bar|off|[bo]|\d{1,2})\*?"
TOKEN = re.compile(
    r"""
    \s*+(?:
    (?P<comment>\{(?:\\.|[^\\}])*\})
  | (?P<open_comment>\{)
  | (?P<number>\d+\.(?:\.\.)?)
  | (?P<roll>>?\d(?:[-\ ]?\d)?\ ?:)
  | (?P<move>""" + _POINT + r"(?:/" + _POINT + r""")+(?:\(\d+\))?)
  | (?P<result>[WB]\+""" + NUMBER + r"""|\*)
  | (?P<nag>\$\d+|!!|\?\?|!\?|\?!|!|\?)
  | (?P<empty>-(?=[\s(){}]|$))
  | (?P<keyword>(?:double|take|drop|resign)s?\b)
  | (?P<resigns>(?:white|black)\ resigns\b)
  | (?P<open>\()
  | (?P<close>\))
  | (?P<unknown>[^\s(){}]+|[)}])
    )""",
    re.VERBOSE | re.IGNORECASE,
)

NAG_SYMBOLS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
GLYPHS = {number: symbol for symbol, number in NAG_SYMBOLS.items()}
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
_LINE_START_BRACKET = re.compile(r"^([^\S\n]*)\[", re.MULTILINE)


class Token(NamedTuple):
    """A token: its kind (a group name of :data:`TOKEN`), its text, and its offset in
    the movetext."""

    kind: str
    text: str
    offset: int


def matches(movetext: str) -> Iterator[re.Match]:
    """The match of every token of ``movetext``, in order: its kind is ``lastgroup``, its
    text and offset those of that group (white space is not a token). Trailing white space
    is left out of the search, so that no run of it is scanned more than once."""
    return TOKEN.finditer(movetext, 0, len(movetext.rstrip()))


def tokens(movetext: str) -> Iterator[Token]:
    """Every token of ``movetext``, in order."""
    for match in matches(movetext):
        kind = match.lastgroup
        yield Token(kind, match.group(kind), match.start(kind))


def comment_text(token_text: str) -> str:
    """The text of a ``{...}`` comment token: braces removed, ``\\x`` escapes undone."""
    return _ESCAPE.sub(r"\1", token_text[1:-1])


def escape_comment(text: str) -> str:
    """A comment's text as written between braces: ``\\``, ``{`` and ``}`` escaped, and a
    ``[`` that begins a line (after any spaces) written ``\\[``, so that no line of a
    comment reads as a tag line (the reader ends an unclosed comment at one)."""
    escaped = text.replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}")
    return _LINE_START_BRACKET.sub(r"\1\\[", escaped) if "[" in escaped else escaped


def nag_number(text: str) -> int:
    """``$12`` → 12, ``!`` → 1, ``?!`` → 6; :class:`InvalidError` past ``$255``.

    >>> nag_number("$12"), nag_number("?!")
    (12, 6)
    """
    if not text.startswith("$"):
        return NAG_SYMBOLS[text]
    digits = text[1:]
    if len(digits) > len(str(MAX_NAG)) or int(digits) > MAX_NAG:
        raise InvalidError(f"{text} is not a NAG: they go from $0 to ${MAX_NAG}")
    return int(digits)


class Locator:
    """Turns offsets in a game's text into (line, column), both counted from 1. The line
    starts are kept in an array (8 bytes a line, where a list of ints takes 36)."""

    def __init__(self, text: str, first_line: int = 1) -> None:
        self.first_line = first_line
        self.starts = array("q", [0])
        self.starts.extend(m.end() for m in re.finditer("\n", text))

    def __call__(self, offset: int) -> tuple[int, int]:
        index = bisect_right(self.starts, offset) - 1
        return self.first_line + index, offset - self.starts[index] + 1
