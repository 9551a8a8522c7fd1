"""A plain-text diagram of a position, for terminals and error messages.

The board is drawn from the side of the player on roll, in his numbering: top row 13-24
(his talon, 24, top right), bottom row 12-1 (his home, points 6-1, bottom right), as the
viewer draws White. Each side has a letter: ``W`` and ``B`` for White and Black, as the
records and the commands ``show``, ``record`` and ``play`` write them (``X`` for the player
on roll and ``O`` for the other where no colour is known). Each point shows its men as
``W3`` / ``B12``; the bar and borne-off men are listed below, and for a rule set with a
doubling cube, the cube (its value and who owns it, or the middle).

>>> from notation import rule_set
>>> print(diagram(rule_set("jacquet").start, rule_set("jacquet")))  # doctest: +NORMALIZE_WHITESPACE
 13  14  15  16  17  18 | 19  20  21  22  23  24
  .   .   .   .   .   . |  .   .   .   .   . X15
<BLANKLINE>
O15   .   .   .   .   . |  .   .   .   .   .   .
 12  11  10   9   8   7 |  6   5   4   3   2   1
X on roll: pips 360, off 0 | O: pips 360, off 0
"""

from __future__ import annotations

from notation.engine.board import BAR, OFF, Position
from notation.engine.rules import RuleSet
from notation.messages import Message, render

TOP = tuple(range(13, 25))
BOTTOM = tuple(range(12, 0, -1))


def _cell(position: Position, rules: RuleSet, point: int, sides: tuple[str, str]) -> str:
    mine = position.mover[point]
    theirs = position.opponent[rules.opposite[point]]
    if mine:
        return f"{sides[0]}{mine}"
    if theirs:
        return f"{sides[1]}{theirs}"
    return "."


def _row(cells: list[str]) -> str:
    return " ".join(f"{c:>3}" for c in cells[:6]) + " | " + " ".join(f"{c:>3}" for c in cells[6:])


def diagram(position: Position, rules: RuleSet, cube: int = 1, cube_owner: str | None = None,
            sides: tuple[str, str] = ("X", "O"), on_roll: bool = True, named: str = "") -> str:
    """The text diagram of ``position`` under ``rules`` (which says where the opponent's
    men stand in the mover's numbering); ``sides`` are the letters of the player on roll
    and of the other (``("B", "W")`` when Black is on roll); ``cube`` and ``cube_owner``
    (one of the ``sides``, or ``None``: the middle) are the doubling cube's, shown if the
    rule set has one. The line of pips names the mover by his letter and ``named`` (``B
    (Black)``), on roll unless not ``on_roll`` (the game is over), in the current language.

    >>> from notation import rule_set
    >>> diagram(rule_set("backgammon").start, rule_set("backgammon"), 2, "W", ("B", "W")).splitlines()[-2:]
    ['B on roll: pips 167, off 0 | W: pips 167, off 0', 'cube: 2, owned by W']
    """
    mover, other = sides
    mover_pips, opponent_pips = position.pip_counts()
    lines = [
        _row([str(p) for p in TOP]),
        _row([_cell(position, rules, p, sides) for p in TOP]),
        "",
        _row([_cell(position, rules, p, sides) for p in BOTTOM]),
        _row([str(p) for p in BOTTOM]),
    ]
    if position.mover[BAR] or position.opponent[BAR]:
        lines.append(render(Message.of("diagram.bar", x=mover, y=other, mover=position.mover[BAR],
                                       opponent=position.opponent[BAR])))
    label = f"{mover} ({named})" if named else mover
    lines.append(render(Message.of("diagram.sides" if on_roll else "diagram.sides.over", x=label, y=other,
                                   mover=mover_pips, mover_off=position.mover[OFF],
                                   opponent=opponent_pips, opponent_off=position.opponent[OFF])))
    if rules.has_cube:
        lines.append(render(Message.of("diagram.cube.owned", cube=cube, owner=cube_owner) if cube_owner
                            else Message.of("diagram.cube.middle", cube=cube)))
    return "\n".join(lines)
