"""The position: where every man stands, seen from the player on roll.

Points are numbered relatively, each player along his own route: 24 is his starting point
(the talon), 1 his last point, 0 means borne off and 25 the bar. A :class:`Position` holds
two 26-slot count tuples, one per side, each in that side's own numbering; how the two
numberings meet on the board is the rule set's business (``RuleSet.opposite``).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate

from notation.errors import InvalidPositionError
from notation.messages import Message

OFF = 0
POINTS = 24
"""The points of a side's route, 24 down to 1."""
BAR = POINTS + 1
TALON = 24
MEN = 15
SIDE = BAR + 1
"""The counts of one side: off (0), the points 1-24 and the bar (25)."""
WIDTH = 2 * SIDE
"""Both sides' counts end to end, the mover's first: a board as the engine's arrays hold it."""
HOME = range(1, 7)
"""A side's home points, in its own numbering (where men are borne off from)."""
FIRST_QUARTER = range(POINTS - 5, BAR)
"""A side's points 19-24, the first quarter of its route (where its men start)."""


POINT_NAMES = ("off", *map(str, range(1, BAR)), "bar")
"""Each point's name by its number (see :func:`point_name`)."""


def point_name(point: int) -> str:
    """``"off"`` for 0, ``"bar"`` for 25, otherwise the number."""
    return POINT_NAMES[point] if 0 <= point <= BAR else str(point)


def side_pips(counts: tuple[int, ...]) -> int:
    """The pips one side's men (counts by point, 0 to the bar) still have to travel: each
    point k from the bar down to 1 counts the men on points k and above."""
    return sum(accumulate(counts[BAR:OFF:-1]))


@dataclass(frozen=True, slots=True)
class Position:
    """Both sides' men, from the point of view of the player on roll.

    ``mover[p]`` is how many of the mover's men stand on his point ``p`` (0 = borne off,
    25 = bar); ``opponent[q]`` the same for the other player in *his* numbering.
    Positions are values: hashable, comparable, never changed in place.
    """

    mover: tuple[int, ...]
    opponent: tuple[int, ...]

    def __post_init__(self) -> None:
        for side, counts in (("mover", self.mover), ("opponent", self.opponent)):
            if len(counts) != SIDE or any(not isinstance(c, int) or c < 0 for c in counts):
                raise InvalidPositionError(Message.of("position.counts", side=_side(side)))
            if sum(counts) != MEN:
                raise InvalidPositionError(Message.of("position.men", side=_side(side),
                                                      men=sum(counts), most=MEN))

    @classmethod
    def _trusted(cls, mover: tuple[int, ...], opponent: tuple[int, ...]) -> Position:
        """A position from counts the engine made itself (already checked): no validation,
        and its slots filled directly (the engine makes two or three positions a turn).

        Kept as a speed trick: validating here instead (``cls(mover, opponent)``) costs
        3,600 -> 48,200 instructions a position (callgrind), 67% of reading and validating
        20 generated games of every rule set (1.60G -> 2.67G besides the import; 23,989
        positions) and 81% of validating 119 files of the .mat corpus."""
        position = _new_object(cls)
        _set_mover(position, mover)
        _set_opponent(position, opponent)
        return position

    @classmethod
    def from_points(cls, mover: dict[int, int], opponent: dict[int, int]) -> Position:
        """Build a position from ``{point: men}`` maps; men not placed are borne off.

        >>> Position.from_points({24: 15}, {24: 15}).mover[24]
        15
        """
        return cls(_counts(mover, "mover"), _counts(opponent, "opponent"))

    def swapped(self) -> Position:
        """The same board seen by the other player (the turn passes)."""
        return Position._trusted(self.opponent, self.mover)

    def pip_counts(self) -> tuple[int, int]:
        """Pips each side still has to travel: (mover, opponent)."""
        return side_pips(self.mover), side_pips(self.opponent)

    def borne_off(self) -> tuple[int, int]:
        """Men borne off: (mover, opponent)."""
        return self.mover[OFF], self.opponent[OFF]

    def points(self, side: str = "mover") -> dict[int, int]:
        """``{point: men}`` for the occupied points 1-25 of one side (``"mover"``/``"opponent"``)."""
        counts = self.mover if side == "mover" else self.opponent
        return {p: counts[p] for p in range(1, BAR + 1) if counts[p]}

    def position_id(self) -> str:
        """GNU Backgammon's 14-character position ID (the player not on roll first)."""
        return _position_ids.encode(self)

    @classmethod
    def from_id(cls, position_id: str) -> Position:
        """Decode a 14-character position ID; see :mod:`notation.engine.position_id`."""
        return _position_ids.decode(position_id)

    def __str__(self) -> str:
        return self.position_id()


_new_object = object.__new__
_set_mover = Position.__dict__["mover"].__set__  # the slots' descriptors
_set_opponent = Position.__dict__["opponent"].__set__


def _side(side: str) -> Message:
    """``mover`` or ``opponent`` as a message says it."""
    return Message.of(f"side.{side}")


def _counts(points: dict[int, int], side: str) -> tuple[int, ...]:
    counts = [0] * SIDE
    for point, men in points.items():
        if not 1 <= point <= BAR:
            raise InvalidPositionError(Message.of("position.point", side=_side(side), point=point))
        counts[point] += men
    on_board = sum(counts)
    if on_board > MEN:
        raise InvalidPositionError(Message.of("position.too-many", side=_side(side), men=on_board,
                                              most=MEN))
    counts[OFF] = MEN - on_board
    return tuple(counts)


# Last, as it imports this module's Position: the module, not its functions, so that either
# module may be imported first (a function is looked up when a position asks for its ID).
from notation.engine import position_id as _position_ids  # noqa: E402
