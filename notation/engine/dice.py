"""Dice: a roll of two dice, or a single die passed to the opponent (Versailles)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from notation.errors import InvalidDiceError
from notation.messages import Message

_DICE_TEXT = re.compile(r"^\s*([0-9])\s*(?:-\s*)?(?:([0-9])\s*)?$")


@dataclass(frozen=True, slots=True)
class Dice:
    """The dice to play, higher first. ``Dice(5, 3)`` is the roll "5-3"; ``Dice(4)`` is a
    single die (a die passed to the opponent under R-PASS).

    >>> Dice.parse("3-5")
    Dice(5, 3)
    >>> str(Dice(6, 6)), Dice(6, 6).is_doublet
    ('66', True)
    """

    high: int
    low: int | None = None

    def __post_init__(self) -> None:
        for value in (self.high, self.low):
            if value is not None and not (isinstance(value, int) and 1 <= value <= 6):
                raise InvalidDiceError(Message.of("dice.face", value=repr(value)))
        if self.low is not None and self.low > self.high:
            high, low = self.low, self.high
            object.__setattr__(self, "high", high)
            object.__setattr__(self, "low", low)

    @classmethod
    def parse(cls, text: str) -> Dice:
        """Read ``"53"``, ``"5-3"``, ``"5 3"`` or ``"3-5"`` (any order); one digit is one die."""
        return _parse(text)

    @classmethod
    def _read(cls, text: str) -> Dice:
        match = _DICE_TEXT.match(text)
        if not match:
            raise InvalidDiceError(Message.of("dice.unreadable", text=repr(text)))
        first = int(match.group(1))
        second = int(match.group(2)) if match.group(2) else None
        return cls(first, second)

    @property
    def is_doublet(self) -> bool:
        return self.low == self.high

    @property
    def values(self) -> tuple[int, ...]:
        """The faces shown, higher first."""
        return (self.high,) if self.low is None else (self.high, self.low)

    def __str__(self) -> str:
        return str(self.high) if self.low is None else f"{self.high}{self.low}"

    def __repr__(self) -> str:
        return f"Dice({', '.join(str(v) for v in self.values)})"


@lru_cache(maxsize=256)
def _parse(text: str) -> Dice:
    return Dice._read(text)
