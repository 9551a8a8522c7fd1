"""Races already decided by the count of turns: the single win, too, is an outcome that can
no longer happen, once the other side is sure to be off first whatever the dice.

Where every man of both sides is in its own home board (points 6-1) or off, neither side
can touch the other's men again (no point of one side's home lies on the other's way, in
any rule set), so each bears off on its own. Then, with the side ``first`` to roll next:

- ``first`` needs at most :func:`most_turns` of its turns: the worst roll each turn, the
  play that finishes soonest (computed exactly with the rule set's own legal plays, for a
  side with at most :data:`FEW_MEN` men left, so the table stays small);
- ``second`` needs at least ``ceil(men / most steps a roll gives)`` turns (a step bears
  off at most one man: 4 steps a doublet, 6 for 6-6 where doublets are squared).

``second`` cannot win when ``first``'s most turns are at most ``second``'s fewest (``first``
rolls before ``second`` each round); ``first`` cannot win when its own fewest turns come
after ``second``'s most. Anything else is left to the net (or exact bear-off tables).
"""

from __future__ import annotations

from notation import MEN, OFF, Dice, Position, RuleSet, legal_plays
from notation.engine.board import BAR, HOME

FEW_MEN = 3
"""The most men a side may have left for :func:`most_turns` to be computed."""

_ROLLS = tuple(Dice(a, b) for a in range(1, 7) for b in range(a, 7))
_ALL_OFF = (MEN,) + (0,) * BAR


def all_home(board: tuple[int, ...]) -> bool:
    """Every man of the side in its home board (6-1) or off."""
    return board[OFF] + sum(board[HOME.start:HOME.stop]) == MEN


def fewest_turns(rules: RuleSet, board: tuple[int, ...]) -> int:
    """A lower bound of the turns the side needs to bear off its men: each step of a roll
    bears off one man at most."""
    left = MEN - board[OFF]
    most_steps = max(rules.doublet_steps(die) for die in range(1, 7))
    return -(-left // most_steps)


def most_turns(rules: RuleSet, board: tuple[int, ...]) -> int:
    """The turns a side all home with at most :data:`FEW_MEN` men left needs at worst: the
    worst roll each turn, answered by the play that finishes soonest (:data:`NEVER` when
    some roll may leave it where it stands, as an unplayable roll would)."""
    table = _TABLES.setdefault(rules.describe(), {})
    return _most_turns(rules, board, table)


NEVER = 10 ** 6
"""No bound: a roll may leave the side where it stands."""
_TABLES: dict[str, dict[tuple[int, ...], int]] = {}
"""Each rule set's (its name with its options) :func:`most_turns` of the boards seen."""


def _most_turns(rules: RuleSet, board: tuple[int, ...], table: dict[tuple[int, ...], int]) -> int:
    if board[OFF] == MEN:
        return 0
    if board in table:
        return table[board]
    table[board] = NEVER  # (while it is worked out: a play that comes back here is no progress)
    # (the other side's men cannot matter with both all home: they stand off here)
    position = Position._trusted(board, _ALL_OFF)
    worst = 0
    for dice in _ROLLS:
        results = {play.result.mover for play in legal_plays(position, dice, rules)} - {board}
        best = min((_most_turns(rules, result, table) for result in results), default=NEVER)
        worst = max(worst, best)
    table[board] = min(NEVER, 1 + worst)
    return table[board]


def cannot_win(rules: RuleSet, first: tuple[int, ...], second: tuple[int, ...]) -> tuple[bool, bool]:
    """Whether ``first`` (to roll next) and whether ``second`` can no longer win, both
    sides' boards in their own numbering (see the module docstring)."""
    if not (all_home(first) and all_home(second)):
        return False, False
    first_lost = second_lost = False
    if MEN - first[OFF] <= FEW_MEN:
        second_lost = most_turns(rules, first) <= fewest_turns(rules, second)
    if MEN - second[OFF] <= FEW_MEN:
        first_lost = fewest_turns(rules, first) > most_turns(rules, second)
    return first_lost, second_lost
