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
from functools import lru_cache

from .board import MEN, Position
from .errors import InvalidPositionError

ID_LENGTH = 14


def encode(position: Position) -> str:
    """The position ID of ``position``."""
    return _encode(position.opponent, position.mover)


@lru_cache(maxsize=65536)
def _encode(first: tuple[int, ...], second: tuple[int, ...]) -> str:
    # Bit i of the ID is character i of this string (least significant bit first).
    bits = "".join(["1" * first[p] + "0" for p in range(1, 26)] +
                   ["1" * second[p] + "0" for p in range(1, 26)])
    value = int(bits[::-1], 2)
    return base64.b64encode(value.to_bytes(10, "little")).decode("ascii").rstrip("=")


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
