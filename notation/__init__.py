"""Rules engine and formats for Jacquet and its relatives.

>>> from notation import Position, legal_plays, rule_set
>>> start = rule_set("jacquet").start
>>> [str(play) for play in legal_plays(start, "66")]
['24/18']
"""

from notation.engine.board import BAR, MEN, OFF, Position
from notation.engine.dice import Dice
from notation.engine.movegen import legal_plays
from notation.engine.play import Play, Step
from notation.engine.rules import RuleSet, rule_set
from notation.errors import (
    AmbiguousPlayError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidError,
    InvalidPlayError,
    InvalidPositionError,
    NotationError,
)

__all__ = [
    "BAR", "MEN", "OFF", "AmbiguousPlayError", "Dice", "IllegalPlayError", "InvalidDiceError",
    "InvalidError", "InvalidPlayError", "InvalidPositionError", "NotationError", "Play",
    "Position", "RuleSet", "Step", "legal_plays", "rule_set",
]
