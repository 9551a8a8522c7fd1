"""Reading a play as people write it: ``24/18 13/8``, ``24/13`` (rest point left out),
``bar/22*``, ``6/off`` or ``6/0``, ``25/22``, ``8/7(2)``, and ``-`` for an empty play.

Reading is lenient about spelling and strict about meaning: the result is a
:class:`WrittenPlay`, the moves of single men with the points written for them. Whether
it is legal is :mod:`notation.engine.checker`'s question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from notation.engine.board import BAR, OFF, point_name
from notation.errors import InvalidPlayError, quoted
from notation.limits import MAX_PLAY_CHARS
from notation.messages import Message

_POINT = re.compile(r"^(bar|off|b|o|\d{1,2})(\*?)$", re.IGNORECASE)
_REPEAT = re.compile(r"^(.*?)\((\d+)\)$")
EMPTY_PLAY = frozenset({"-", "--", "", "pass"})


@dataclass(frozen=True, slots=True)
class WrittenMove:
    """One man's move as written: the points it names, in order, and which were marked
    as hits (``*``)."""

    points: tuple[int, ...]
    hits: tuple[bool, ...]

    def __str__(self) -> str:
        return "/".join(point_name(p) + ("*" if h else "")
                        for p, h in zip(self.points, self.hits, strict=True))


Hop = tuple[int, int, bool]


@dataclass(frozen=True, slots=True)
class WrittenPlay:
    """A play as written: its moves (repeats expanded) and the text it came from.

    ``hops`` lists every hop between two written points, move by move, as (from, to,
    marked as a hit); ``marked`` says whether any point is marked as a hit."""

    moves: tuple[WrittenMove, ...]
    text: str
    hops: tuple[Hop, ...] = field(repr=False, compare=False)
    marked: bool = field(repr=False, compare=False)

    def __str__(self) -> str:
        return self.text


@lru_cache(maxsize=8192)
def parse_play(text: str, has_bar: bool = True) -> WrittenPlay:
    """Read a play; :class:`InvalidPlayError` if it cannot be read, names the bar (25) in a
    rule set that has none (``has_bar=False``), or is longer than
    :data:`~notation.limits.MAX_PLAY_CHARS`. The plays read are cached (an error is not,
    so the cache holds short texts only): a play read again costs one look-up.

    >>> [str(m) for m in parse_play("8/7(2) 25/22* 6/0").moves]
    ['8/7', '8/7', 'bar/22*', '6/off']
    >>> parse_play("hello")
    Traceback (most recent call last):
    ...
    notation.errors.InvalidPlayError: cannot read 'hello' as a move: write each move FROM/TO, as 24/18
    """
    if len(text) > MAX_PLAY_CHARS:
        raise InvalidPlayError(Message.of("play.too-long", most=MAX_PLAY_CHARS, length=len(text),
                                          text=quoted(text)))
    stripped = text.strip()
    if stripped.lower() in EMPTY_PLAY:
        return WrittenPlay((), stripped or "-", (), False)
    moves: tuple[WrittenMove, ...] = ()
    hops: tuple[Hop, ...] = ()
    tokens = stripped.split()
    try:
        for token in tokens:
            token_moves, token_hops = _token_moves(token, has_bar)
            moves += token_moves
            hops += token_hops
    except InvalidPlayError as error:
        if len(tokens) == 1:  # the move is the play: its message says all
            raise
        raise InvalidPlayError(Message.of("play.in-play", error=error.msg, play=repr(stripped))) from None
    # A play read whole has a "*" only after a point a move lands on (_parse_move).
    return WrittenPlay(moves, stripped, hops, "*" in stripped)


@lru_cache(maxsize=4096)
def _token_moves(token: str, has_bar: bool) -> tuple[tuple[WrittenMove, ...], tuple[Hop, ...]]:
    """The moves one token stands for (``8/7(2)`` is two), and their hops."""
    moves = _repeated_moves(token, has_bar)
    hops = tuple((move.points[index - 1], move.points[index], move.hits[index])
                 for move in moves for index in range(1, len(move.points)))
    return moves, hops


def _repeated_moves(token: str, has_bar: bool) -> tuple[WrittenMove, ...]:
    """The moves of a token, its repeat count expanded."""
    count = 1
    repeat = _REPEAT.match(token)
    if repeat:
        token, digits = repeat.group(1), repeat.group(2)
        count = int(digits) if len(digits) <= 2 else 0  # a longer number is out of range
        if not 1 <= count <= 6:
            raise InvalidPlayError(Message.of("play.repeat", count=digits))
    move = _parse_move(token, has_bar)
    if count == 1:
        return (move,)
    # "9/5*(2)": a blot is hit once, so the mark belongs to one of the copies.
    unmarked = WrittenMove(move.points, (False,) * len(move.points))
    return (move,) + (unmarked,) * (count - 1)


def _parse_move(token: str, has_bar: bool) -> WrittenMove:
    parts = token.split("/")
    if len(parts) < 2 or not all(parts):
        raise InvalidPlayError(Message.of("play.not-a-move", token=repr(token)))
    points: list[int] = []
    hits: list[bool] = []
    for index, part in enumerate(parts):
        match = _POINT.match(part)
        if not match:
            raise InvalidPlayError(Message.of("play.point", part=repr(part), token=repr(token)))
        name, star = match.group(1).lower(), match.group(2)
        if name in ("bar", "b"):
            point = BAR
        elif name in ("off", "o"):
            point = OFF
        else:
            point = int(name)
        if point > BAR:
            raise InvalidPlayError(Message.of("play.no-point", point=point))
        if point == BAR and (index > 0 or not has_bar):
            where = "play.bar-start" if has_bar else "play.no-bar"
            raise InvalidPlayError(Message.of(where, token=repr(token)))
        if point == OFF and index == 0:
            raise InvalidPlayError(Message.of("play.from-off", token=repr(token)))
        if points and point >= points[-1]:
            raise InvalidPlayError(Message.of("play.backward", token=repr(token)))
        if star and point == OFF:
            raise InvalidPlayError(Message.of("play.hit-off", token=repr(token)))
        points.append(point)
        hits.append(bool(star))
    if hits[0]:
        raise InvalidPlayError(Message.of("play.hit-start", token=repr(token)))
    return WrittenMove(tuple(points), tuple(hits))
