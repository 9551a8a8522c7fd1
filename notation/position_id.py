"""GNU Backgammon's 14-character position ID, applied to each rule set's relative numbering.

For each side in turn (the player **not** on roll first, as gnubg 1.07 writes it), for his
points 1..24 and then the bar: one 1-bit per man, then a 0-bit. The 80 bits are packed
least significant bit first into ten bytes and written in Base64 without padding. Borne-off
men are not encoded: they are the men missing from the 15.

>>> from notation.board import Position
>>> encode(Position.from_points({24: 15}, {24: 15}))
'AACA/z8AAID/Pw'
"""

from __future__ import annotations

import base64
import binascii

from .board import MEN, Position
from .errors import InvalidPositionError

ID_LENGTH = 14


# A point's men in unary as the ID's bits read from the most significant end: the point's
# 0-bit, then one 1-bit per man (the men's 1-bits followed by the 0-bit, read backwards).
_UNARY = tuple("0" + "1" * men for men in range(MEN + 1))


def encode(position: Position) -> str:
    """The position ID of ``position``: the 80 bits written most significant first (the
    mover's bar down to his point 1, then the same for the player not on roll), each point
    turned into its bits by one ``str.translate`` of the counts, read as an integer."""
    counts = position.mover[25:0:-1] + position.opponent[25:0:-1]
    bits = bytes(counts).decode("latin-1").translate(_UNARY)
    raw = int(bits, 2).to_bytes(10, "little")
    return binascii.b2a_base64(raw, newline=False)[:ID_LENGTH].decode("ascii")


def decode(position_id: str) -> Position:
    """The position of a 14-character ID; :class:`InvalidPositionError` if it is malformed."""
    if not isinstance(position_id, str) or len(position_id) != ID_LENGTH:
        raise InvalidPositionError(
            f"a position ID has {ID_LENGTH} characters, not {len(str(position_id))}: {position_id!r}")
    try:
        raw = base64.b64decode(position_id + "==", validate=True)
    except (binascii.Error, ValueError):
        raise InvalidPositionError(f"position ID {position_id!r} is not Base64") from None
    bits = int.from_bytes(raw, "little")
    sides: list[tuple[int, ...]] = []
    for side in ("player not on roll", "player on roll"):
        counts = [0] * 26
        for point in range(1, 26):
            while bits & 1:
                counts[point] += 1
                bits >>= 1
            bits >>= 1
        on_board = sum(counts)
        if on_board > MEN:
            raise InvalidPositionError(
                f"position ID {position_id!r}: the {side} has {on_board} men, more than {MEN}")
        counts[0] = MEN - on_board
        sides.append(tuple(counts))
    if bits:
        raise InvalidPositionError(f"position ID {position_id!r} has bits past the two sides")
    return Position(mover=sides[1], opponent=sides[0])
