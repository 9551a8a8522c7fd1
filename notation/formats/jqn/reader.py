"""Reading the text notation: split a stream into games, read each game's headers, and
walk its movetext, driving a visitor.

Streaming: :func:`split_games` reads line by line and yields one :class:`RawGame` at a
time with its byte offsets, so a file of any size is read in constant memory, and
:func:`index_games` can list the games of a large file without parsing them. A line over
:data:`~notation.limits.MAX_LINE_BYTES` or a game over
:data:`~notation.limits.MAX_GAME_BYTES` is an error of its game (``LIMIT``), and is not
kept, so memory stays bounded whatever the input.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import IO, Any, TypeVar

from notation.engine.dice import Dice
from notation.engine.state import PASSED, RESIGN, ROLL, Colour, TurnKind
from notation.errors import InvalidError, RecordError, quoted
from notation.formats.jqn.lexer import comment_text, locator, matches, nag_number, play_text, token_at
from notation.formats.reading import line_too_long, not_utf8
from notation.limits import LIMIT, MAX_DEPTH, MAX_GAME_BYTES, MAX_LINE_BYTES
from notation.messages import Message
from notation.tree.tags import TAG_NAME
from notation.tree.walk import SKIP, Origin, Skip, Visitor

T = TypeVar("T")
"""What a visitor gives back for a game."""

HEADER = re.compile(r'^\s*\[\s*(' + TAG_NAME.pattern + r')\s+"((?:\\.|[^"\\])*)"\s*\]\s*$')
_HEADER_ESCAPE = re.compile(r"\\(.)")
_ESCAPED_BREAKS = {"n": "\n", "r": "\r"}
_COMMENT_REST = re.compile(r"(?:\\.|[^\\}])*\}")
_ROLL_WITHOUT_COLON = re.compile(r">?[1-6]-?[1-6]|>[1-6]")
"""An unknown token written as dice but for the ':' that ends a roll (``64``, ``6-4``,
``>5``)."""
KEYWORDS: dict[str, TurnKind] = {"double": "double", "doubles": "double", "take": "take", "takes": "take",
            "drop": "drop", "drops": "drop", "resign": "resign", "resigns": "resign"}


def tag_value(quoted: str) -> str:
    """A tag's value from the text between its quotes: ``\\n`` and ``\\r`` are line
    breaks, any other character after a backslash stands for itself."""
    if "\\" not in quoted:
        return quoted
    return _HEADER_ESCAPE.sub(lambda m: _ESCAPED_BREAKS.get(m.group(1), m.group(1)), quoted)


Source = str | os.PathLike[str] | IO[bytes] | IO[str]


@dataclass
class RawGame:
    """One game's text, unparsed: header lines with their line numbers, the movetext and
    the line it starts on, its byte offsets in the file and its 1-based index. ``problems``
    holds the first problem found while splitting (bad UTF-8, a limit crossed), if any."""

    index: int
    offset: int
    end: int = 0
    file: str = "-"
    headers: list[tuple[int, str]] = field(default_factory=list)
    movetext: str = ""
    movetext_line: int = 0
    problems: list[RecordError] = field(default_factory=list)
    size: int = 0

    def problem(self, error: RecordError) -> None:
        """Keep ``error`` if it is the game's first problem (the reader reports one per game)."""
        if not self.problems:
            self.problems.append(error)

    @property
    def full(self) -> bool:
        """Whether the game's text has reached :data:`MAX_GAME_BYTES` (no more is kept)."""
        return self.size > MAX_GAME_BYTES


class HeadersOnly(Visitor[dict[str, str]]):
    """Collects the headers and skips the movetext: the fast path for listings."""

    def begin_game(self, origin: Origin | None = None) -> None:
        self.headers: dict[str, str] = {}

    def visit_header(self, name: str, value: str, line: int = 0) -> None:
        self.headers[name] = value

    def end_headers(self) -> Skip:
        return SKIP

    def result(self) -> dict[str, str]:
        return self.headers


def _open(source: Source) -> tuple[IO[bytes], str, bool]:
    if isinstance(source, (str, os.PathLike)):
        return open(source, "rb"), os.fspath(source), True
    if isinstance(source, io.TextIOBase):
        return io.BytesIO(source.read().encode("utf-8")), getattr(source, "name", "-"), True
    return source, getattr(source, "name", "-"), False  # type: ignore[return-value]


def split_games(source: Source, file: str | None = None) -> Iterator[RawGame]:
    """The games of a stream, one at a time. A new game starts at a header line
    (``[Tag "value"]``) that follows movetext. A line inside a ``{...}`` comment is part of
    it, except a whole tag line: that ends a comment left open (a written comment never
    holds one, see :func:`~notation.formats.jqn.lexer.escape_comment`), so that the reader goes on
    with the next game."""
    handle, name, close = _open(source)
    name = file or name
    try:
        yield from _split(handle, name)
    finally:
        if close:
            handle.close()


def _split(handle: IO[bytes], name: str) -> Iterator[RawGame]:
    offset = 0
    game = RawGame(1, 0, file=name)
    body: list[str] = []
    in_comment = False
    has_movetext = False
    for line_number, (raw, size) in enumerate(_lines(handle), 1):
        if raw is None:  # a line over the limit: reported, not kept
            game.problem(line_too_long(name, line_number, game.index))
            text = "\n"
        else:
            text = _decode(raw, game, name, line_number)
        stripped = text.strip()
        if in_comment and HEADER.match(text):  # a comment left open ends at a tag line
            in_comment = False
        if not in_comment and stripped.startswith("["):
            if has_movetext:
                game.movetext, game.end = "".join(body), offset
                yield game
                game = RawGame(game.index + 1, offset, file=name)
                body, has_movetext = [], False
            if _keep(game, size, line_number):
                game.headers.append((line_number, text.rstrip("\r\n")))
        elif has_movetext or stripped or raw is None:
            if not has_movetext:
                game.movetext_line = line_number
                if not game.headers:
                    game.offset = offset
                has_movetext = True
            if _keep(game, size, line_number):
                body.append(text)
            if in_comment or "{" in text:
                in_comment = _still_in_comment(text, in_comment)
        offset += size
    if has_movetext or game.headers:
        game.movetext, game.end = "".join(body), offset
        yield game


def _lines(handle: IO[bytes]) -> Iterator[tuple[bytes | None, int]]:
    """The lines of ``handle`` with their sizes in bytes. A line of more than
    :data:`MAX_LINE_BYTES` bytes before its line break is read through a block at a time
    and comes as ``None``: it is never held whole."""
    while True:
        raw = handle.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        if len(raw) <= MAX_LINE_BYTES or raw.endswith(b"\n"):
            yield raw, len(raw)
            continue
        size = len(raw)
        while not raw.endswith(b"\n"):
            raw = handle.readline(MAX_LINE_BYTES)
            if not raw:
                break
            size += len(raw)
        yield None, size


def _decode(raw: bytes, game: RawGame, name: str, line_number: int) -> str:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        text = raw.decode("utf-8", errors="replace")
        game.problem(RecordError(Message.of("reader.utf-8", reason=not_utf8(error)), "SYNTAX",
                                 file=name, line=line_number, column=error.start + 1,
                                 game=game.index))
    if line_number == 1 and text.startswith("\ufeff"):
        text = text[1:]
    return text


def _keep(game: RawGame, size: int, line_number: int) -> bool:
    """Count a line of ``size`` bytes into its game; whether it is kept (the game is within
    :data:`MAX_GAME_BYTES`)."""
    game.size += size
    if game.full:
        game.problem(RecordError(Message.of("reader.jqn.game-too-long", most=MAX_GAME_BYTES), LIMIT,
                                 file=game.file, line=line_number, column=1, game=game.index))
        return False
    return True


def _still_in_comment(line: str, in_comment: bool) -> bool:
    position = 0
    while True:
        if in_comment:
            match = _COMMENT_REST.match(line, position)
            if not match:
                return True
            position, in_comment = match.end(), False
        else:
            position = line.find("{", position)
            if position < 0:
                return False
            position, in_comment = position + 1, True


def walk(raw: RawGame, visitor: Visitor[object]) -> None:
    """Drive ``visitor`` through one game: headers, then the movetext token by token."""
    visitor.begin_game(raw)
    for problem in raw.problems:
        visitor.visit_error(problem)
    for line, text in raw.headers:
        match = HEADER.match(text)
        if match:
            visitor.visit_header(match.group(1), tag_value(match.group(2)), line)
        else:
            visitor.visit_error(RecordError(
                Message.of("reader.jqn.header", text=quoted(text.strip())),
                "SYNTAX", file=raw.file, line=line, column=1, game=raw.index))
    if visitor.end_headers() is not SKIP:
        _walk_movetext(raw, visitor)
    visitor.end_game()


def _walk_movetext(raw: RawGame, visitor: Visitor[object]) -> None:
    locate = locator(raw.movetext, raw.movetext_line)
    depth = 0
    # The turn read last, as [kind, dice, play, line, column]: a move written straight
    # after its play (no space between, so a token of its own) joins the play; the next
    # other token visits it, unless that token cannot be read (the error is that token's).
    pending: list[Any] | None = None

    def fail(message: Message, offset: int, rule_id: str = "SYNTAX") -> None:
        line, column = locate(offset)
        visitor.visit_error(RecordError(message, rule_id, file=raw.file, line=line,
                                        column=column, game=raw.index))

    def flush() -> bool:
        nonlocal pending
        turn, pending = pending, None
        if turn is None:
            return True
        kind, dice, play, line, column = turn
        if not play:
            visitor.visit_error(RecordError(
                Message.of("reader.jqn.no-play", dice=str(dice)), "SYNTAX",
                file=raw.file, line=line, column=column, game=raw.index))
            return False
        return visitor.visit_turn(kind, dice, play, line, column) is not SKIP

    for match in matches(raw.movetext):
        kind = match.lastgroup or "unknown"  # every alternative of TURN is a named group
        if kind == "turn":  # the most common token first
            if pending is not None and not flush():
                return
            offset = match.start("dice")
            try:
                turn_kind, dice = _roll(match.group("dice"))
            except InvalidError as error:
                fail(error.msg, offset)
                return
            pending = [turn_kind, dice, play_text(match), *locate(offset)]
            continue
        if kind == "move" or kind == "empty":
            if pending is None:
                fail(Message.of("reader.jqn.no-roll", text=quoted(match.group(kind))), match.start(kind))
                return
            pending[2] += " " + match.group(kind)
            continue
        if kind == "unknown" or kind == "open_comment":
            break
        if not flush():
            return
        if kind == "number":
            continue
        text, offset = match.group(kind), match.start(kind)
        if kind == "comment":
            visitor.visit_comment(comment_text(text))
        elif kind == "nag":
            try:
                visitor.visit_nag(nag_number(text), *locate(offset))
            except InvalidError as error:
                fail(error.msg, offset)
                return
        elif kind == "keyword":
            line, column = locate(offset)
            if visitor.visit_turn(KEYWORDS[text.lower()], None, None, line, column) is SKIP:
                return
        elif kind == "resigns":  # "Black resigns": a side resigns, whoever is to act
            line, column = locate(offset)
            by = Colour.WHITE if text[0] in "wW" else Colour.BLACK
            if visitor.visit_turn(RESIGN, None, None, line, column, by) is SKIP:
                return
        elif kind == "open":
            depth += 1
            if depth > MAX_DEPTH:
                fail(Message.of("reader.jqn.nesting", most=MAX_DEPTH), offset, LIMIT)
                return
            visitor.begin_variation()
        elif kind == "close":
            if depth == 0:
                fail(Message.of("reader.jqn.close"), offset)
                return
            depth -= 1
            visitor.end_variation()
        elif kind == "result":
            if depth:
                fail(Message.of("reader.jqn.result-in-variation", result=text), offset)
                return
            visitor.visit_result(text.upper(), *locate(offset))
            after = token_at(raw.movetext, match.end())
            if after is not None:
                fail(Message.of("reader.jqn.after-result", text=quoted(after.text)), after.offset)
            return
    else:
        if not flush():
            return
        if depth:
            fail(Message.of("reader.jqn.unclosed", count=depth), len(raw.movetext.rstrip()))
        return
    if kind == "open_comment":
        fail(Message.of("reader.jqn.comment"), match.start(kind))
    elif _ROLL_WITHOUT_COLON.fullmatch(match.group(kind)):  # "1. 64 24/18"
        fail(Message.of("reader.jqn.roll-colon", token=quoted(match.group(kind)), roll=match.group(kind)),
             match.start(kind))
    else:
        fail(Message.of("reader.jqn.unknown-token", token=quoted(match.group(kind))), match.start(kind))


@cache  # bounded: only the few hundred roll texts that read are kept
def _roll(text: str) -> tuple[TurnKind, Dice]:
    """The kind of turn (``roll``, or ``passed`` for ``>5:``) and the dice of a roll token
    such as ``53:``, ``5-3 :`` or ``>5:``; :class:`InvalidError` if its dice cannot be read."""
    return PASSED if text.startswith(">") else ROLL, Dice.parse(text.strip(">: ").replace(" ", ""))


def read_games(source: Source, visitor: Callable[[], Visitor[T]], file: str | None = None) -> Iterator[T]:
    """Read every game of ``source`` (a path or a binary/text stream) with a fresh
    ``visitor()`` each, yielding each visitor's ``result()``."""
    for raw in split_games(source, file):
        current = visitor()
        walk(raw, current)
        yield current.result()


def read_headers(source: Source) -> Iterator[dict[str, str]]:
    """The headers of every game, without reading the movetext."""
    return read_games(source, HeadersOnly)


def index_games(source: Source) -> list[tuple[int, int]]:
    """The (start, end) byte offsets of every game, without parsing any."""
    return [(raw.offset, raw.end) for raw in split_games(source)]
