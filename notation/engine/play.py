"""Value types for what a player does in a turn: :class:`Step` (one die, one man) and
:class:`Play` (the whole turn, as the rules engine found it legal).

They know nothing about legality; :func:`notation.engine.movegen.legal_plays` makes them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple, cast

from notation.engine.board import Position, point_name


class Step(NamedTuple):
    """One man moved by one die: ``from_point`` to ``to_point`` (0 = borne off, 25 = bar),
    ``hit`` when it lands on a lone opposing man. An immutable value (a named tuple: the
    engine makes millions of them).

    >>> str(Step(6, 0, 6)), str(Step(25, 22, 3, hit=True))
    ('6/off', 'bar/22*')
    """

    from_point: int
    to_point: int
    die: int
    hit: bool = False

    def __str__(self) -> str:
        return f"{point_name(self.from_point)}/{point_name(self.to_point)}{'*' if self.hit else ''}"


@dataclass(frozen=True, slots=True)
class Play:
    """A legal play: its single-die steps in an order the rules allow, and the position it
    leaves (still seen by the mover). Made by the rules engine, which also knows how to
    write it (``notation``, worked out on first use).

    ``str(play)`` is the canonical notation: higher die first, moves from the rear, rest
    points shown where the rules need them, repeats as ``(2)``, ``-`` for an empty play.
    """

    steps: tuple[Step, ...]
    result: Position
    writer: Callable[[Play], str] | None = field(compare=False, repr=False)
    """Writes the play (a method of the turn's rules); dropped once it has, so that a kept
    play does not keep its turn's rules too."""
    _notation: str | None = field(default=None, init=False, compare=False, repr=False)

    @property
    def notation(self) -> str:
        notation = self._notation
        if notation is None:
            writer = self.writer
            if writer is None:
                # Another thread has written it since: its writer is gone, and the text
                # (set before the writer is dropped) is there.
                return cast(str, self._notation)
            notation = writer(self)
            _written(self, notation)
        return notation

    def __str__(self) -> str:
        return self.notation

    def read_as(self, text: str) -> None:
        """Take ``text`` as this play's canonical notation, if it is not written yet: for a
        reader of a canonical record (one the writer made), whose text for the play is
        the one its writer would make again."""
        if self._notation is None:
            _written(self, text)

    @property
    def dice_used(self) -> tuple[int, ...]:
        return tuple(step.die for step in self.steps)

    @property
    def next_position(self) -> Position:
        """The position after the play, seen by the next player."""
        return self.result.swapped()

    def as_json(self) -> dict[str, str | list[list[int]]]:
        """``{"play", "steps", "position"}`` as the command-line contract gives it: the steps
        are single-die ``[from, to]`` pairs, ``position`` the ID seen by the next player."""
        return {"play": self.notation,
                "steps": [[s.from_point, s.to_point] for s in self.steps],
                "position": self.next_position.position_id()}

    def sort_key(self) -> tuple[tuple[int, int], ...]:
        """Plays sort by their steps, highest starting point first (the steps determine the
        result, so two legal plays never tie)."""
        return tuple(sorted((-s.from_point, -s.to_point) for s in self.steps))


def _written(play: Play, notation: str) -> None:
    """Keep a play's notation, once written, and drop its writer (the text set first). A
    frozen dataclass's own fields are set so, as its generated ``__init__`` sets them."""
    object.__setattr__(play, "_notation", notation)
    object.__setattr__(play, "writer", None)
