"""GNU Backgammon's 14-character position ID, applied to each rule set's relative numbering.

For each side in turn (the player **not** on roll first, as gnubg 1.07 writes it), for his
points 1..24 and then the bar: one 1-bit per man, then a 0-bit. The 80 bits are packed
least significant bit first into ten bytes and written in Base64 without padding. Borne-off
men are not encoded: they are the men missing from the 15.

>>> from notation.engine.board import Position
>>> encode(Position.from_points({24: 15}, {24: 15}))
'AACA/z8AAID/Pw'
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable

from notation.engine.board import BAR, MEN, SIDE, Position
from notation.errors import InvalidPositionError
from notation.messages import Message

ID_LENGTH = 14


# A point's men in unary as the ID's bits read from the most significant end: the point's
# 0-bit, then one 1-bit per man (the men's 1-bits followed by the 0-bit, read backwards).
_UNARY = tuple("0" + "1" * men for men in range(MEN + 1))

_PADDED_BITS = 96
"""An ID's 80 bits padded to 12 bytes, which Base64 writes as 16 characters without padding;
the first 14 are the ID (the 14th holds the last 2 bits and 4 bits of zeros, as when the
10 bytes alone are written)."""


def encode(position: Position) -> str:
    """The position ID of ``position``."""
    return ids_from_bits([side_bits(position.mover) + side_bits(position.opponent)])[0]


def position_ids(positions: Iterable[Position]) -> list[str]:
    """The position IDs of ``positions``, in order: each one's :func:`encode`, worked out
    together. Meant for the positions of a game, which share most sides (a turn changes the
    mover's men, the other side's only by a hit): each distinct side's bits are worked out
    once, and all the IDs converted at once (:func:`ids_from_bits`)."""
    sides = _SideBits()
    return ids_from_bits([sides[position.mover] + sides[position.opponent] for position in positions])


class _SideBits(dict[tuple[int, ...], str]):
    """:func:`side_bits` by a side's counts, each worked out when first asked for."""

    def __missing__(self, counts: tuple[int, ...]) -> str:
        bits = self[counts] = side_bits(counts)
        return bits


def side_bits(counts: tuple[int, ...]) -> str:
    """One side's part of a position ID as ``0``/``1`` characters, most significant first:
    for its bar, then its points 24 down to 1, a 0-bit then one 1-bit per man (the
    unary strings of its counts, joined). The player on roll's part is the more
    significant."""
    return "".join([_UNARY[men] for men in counts[25:0:-1]])


def ids_from_bits(bits: list[str]) -> list[str]:
    """The IDs of positions given by their bits (:func:`side_bits` of the player on roll,
    then of the other), converted together: one integer, one ``to_bytes``, one Base64."""
    if not bits:
        return []
    packed = "".join([position.rjust(_PADDED_BITS, "0") for position in reversed(bits)])
    raw = int(packed, 2).to_bytes(_PADDED_BITS // 8 * len(bits), "little")
    text = binascii.b2a_base64(raw, newline=False).decode("ascii")
    step = _PADDED_BITS // 6
    return [text[start:start + ID_LENGTH] for start in range(0, len(text), step)]


def decode(position_id: str) -> Position:
    """The position of a 14-character ID; :class:`InvalidPositionError` if it is malformed."""
    if not isinstance(position_id, str) or len(position_id) != ID_LENGTH:
        raise InvalidPositionError(Message.of("position-id.length", length=ID_LENGTH,
                                              found=len(str(position_id)), id=repr(position_id)))
    try:
        raw = base64.b64decode(position_id + "==", validate=True)
    except (binascii.Error, ValueError):
        raise InvalidPositionError(Message.of("position-id.base64", id=repr(position_id))) from None
    bits = int.from_bytes(raw, "little")
    sides: list[tuple[int, ...]] = []
    for side in ("not-on-roll", "on-roll"):
        counts = [0] * SIDE
        for point in range(1, BAR + 1):
            while bits & 1:
                counts[point] += 1
                bits >>= 1
            bits >>= 1
        on_board = sum(counts)
        if on_board > MEN:
            raise InvalidPositionError(Message.of(
                "position-id.men", id=repr(position_id), side=Message.of(f"side.{side}"),
                men=on_board, most=MEN))
        counts[0] = MEN - on_board
        sides.append(tuple(counts))
    if bits:
        raise InvalidPositionError(Message.of("position-id.bits", id=repr(position_id)))
    return Position(mover=sides[1], opponent=sides[0])
