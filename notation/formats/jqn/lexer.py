"""Tokens of the movetext of the text notation (``.jqn``), with where they stand.

The lexer is a compiled regular expression over a game's movetext (:data:`TOKEN`). Every
character belongs to a token or to the white space before one (skipped by the same match,
so that a token costs one match); what matches nothing known is an ``unknown`` token, which
the reader reports as an error (never dropped silently). The reader's :data:`TURN` also
takes a whole turn (number, roll and play) in one match.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterator
from typing import NamedTuple

from notation.errors import InvalidError
from notation.limits import MAX_NAG, NUMBER
from notation.messages import Message

_POINT = r"(?:\d{1,2}|bar|off|[bo])\*?"  # digits, the most common, tried first
_MOVE = _POINT + r"(?:/" + _POINT + r")+(?:\(\d+\))?"
_EMPTY = r"-(?=[\s(){}]|$)"
_PLAY_TOKEN = "(?:" + _MOVE + "|" + _EMPTY + ")"
_NUMBER = r"\d+\.(?:\.\.)?"
_ROLL = r">?\d(?:[-\ ]?\d)?\ ?:"
_KINDS = r"""
    (?P<comment>\{(?:\\.|[^\\}])*\})
  | (?P<open_comment>\{)
  | (?P<number>""" + _NUMBER + r""")
  | (?P<roll>""" + _ROLL + r""")
  | (?P<move>""" + _MOVE + r""")
  | (?P<result>[WB]\+""" + NUMBER + r"""|\*)
  | (?P<nag>\$\d+|!!|\?\?|!\?|\?!|!|\?)
  | (?P<empty>""" + _EMPTY + r""")
  | (?P<keyword>(?:double|take|drop|resign)s?\b)
  | (?P<resigns>(?:white|black)\ resigns\b)
  | (?P<open>\()
  | (?P<close>\))
  | (?P<unknown>[^\s(){}]+|[)}])
"""
TOKEN = re.compile(r"\s*+(?:" + _KINDS + ")", re.VERBOSE | re.IGNORECASE)
TURN = re.compile(
    r"\s*+(?:(?P<turn>(?:" + _NUMBER + r"\s*+)?(?P<dice>" + _ROLL + r")(?P<play>(?:\s*+"
    + _PLAY_TOKEN + r"(?:\s++" + _PLAY_TOKEN + r")*)?))|" + _KINDS + ")",
    re.VERBOSE | re.IGNORECASE,
)
""":data:`TOKEN` with one more kind, first: a ``turn``, a roll (``dice``) after its number
if it has one, with the move tokens that follow it (``play``) while white space parts
them, as :func:`tokens` gives them one by one (a move written straight after another is a
token of its own). A turn so costs one match, not one a token."""

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


def matches(movetext: str) -> Iterator[re.Match[str]]:
    """The match of every token of ``movetext`` by :data:`TURN`, in order: its kind is
    ``lastgroup``, its text and offset those of that group (white space is not a token).
    Trailing white space is left out of the search, so that no run of it is scanned more
    than once."""
    return TURN.finditer(movetext, 0, len(movetext.rstrip()))


def token_at(movetext: str, offset: int) -> Token | None:
    """The token of ``movetext`` at ``offset``, after any white space; ``None`` if only
    white space is left."""
    match = TOKEN.match(movetext, offset, len(movetext.rstrip()))
    return None if match is None else _token(match)


def _token(match: re.Match[str]) -> Token:
    kind = match.lastgroup or ""  # every alternative of TOKEN is a named group
    return Token(kind, match.group(kind), match.start(kind))


def play_words(movetext: str, first_line: int, line: int, column: int) -> list[Token]:
    """The words of the play of the turn whose roll stands at ``line`` and ``column`` of
    ``movetext`` (whose first line is ``first_line``), as the reader joins them: the moves
    of its :data:`TURN` match, then those written straight after them; none if no roll
    stands there. (For an error's place: the text is searched again from the roll.)"""
    lines = movetext.split("\n")
    if not 0 <= line - first_line < len(lines):
        return []
    offset = sum(len(text) + 1 for text in lines[:line - first_line]) + column - 1
    words: list[Token] = []
    for match in TURN.finditer(movetext, offset, len(movetext.rstrip())):
        kind = match.lastgroup
        if kind == "turn" and not words and match.start("dice") == offset:
            start = match.start("play")
            words += [Token("move", word.group(), start + word.start())
                      for word in re.finditer(r"\S+", match.group("play"))]
        elif kind in ("move", "empty") and words:
            words.append(_token(match))
        else:
            break
    return words


def play_text(turn: re.Match[str]) -> str:
    """The play of a ``turn`` match of :data:`TURN`: its move tokens, one space between
    them (``""`` if it has none)."""
    return " ".join(turn.group("play").split())


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
        raise InvalidError(Message.of("reader.jqn.nag", text=text, most=MAX_NAG))
    return int(digits)


Locate = Callable[[int], tuple[int, int]]
"""An offset in a text to its (line, column): see :func:`locator`."""


def locator(text: str, first_line: int = 1) -> Locate:
    """A function turning offsets in a game's ``text`` into (line, column), both counted
    from 1 (a closure, not an object with ``__call__``: the reader asks for every turn, and
    calling a function costs less). The line starts are kept in an array (8 bytes a line,
    where a list of ints takes 36)."""
    starts = array("q", [0])
    starts.extend(m.end() for m in re.finditer("\n", text))

    def locate(offset: int) -> tuple[int, int]:
        index = bisect_right(starts, offset) - 1
        return first_line + index, offset - starts[index] + 1

    return locate
