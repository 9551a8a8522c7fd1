"""The board at a node for a page: the SVG drawn by :mod:`notation.render.svg` and the same
position in words, for screen readers and for anyone who prefers text."""

from __future__ import annotations

from typing import TYPE_CHECKING

from notation.engine.board import BAR, OFF, Position
from notation.engine.rules import RuleSet
from notation.render.svg import board, board_parts
from notation.tree.game import Node

if TYPE_CHECKING:
    from webviewer.pages.kept_games import PageNode


def board_svg(node: Node, rules: RuleSet, flipped: bool, title: str) -> str:
    """The SVG of the position after ``node``'s turn, its dice and its play marked."""
    state = node.state
    turn = node.turn
    last = turn.play.steps if turn is not None and turn.play and turn.player is not state.player else ()
    return board(state.position, rules, white_to_move=state.player.value == "W", flipped=flipped,
                 dice=turn.dice if turn is not None else None, last_steps=last, title=title)


def page_board(node: PageNode, rules: RuleSet, flipped: bool, numbers_on_roll: bool,
               title: str) -> list[str]:
    """The pieces of the SVG (:func:`~notation.render.svg.board_parts`) of a node of a
    kept game (:class:`~webviewer.pages.kept_games.PageNode`): its dice beside who rolled
    them, its cube, the points numbered for the player at the bottom or (``numbers_on_roll``)
    for the player on roll."""
    black_numbers = not node.white_to_move if numbers_on_roll else flipped
    return board_parts(node.position(), rules, white_to_move=node.white_to_move, flipped=flipped,
                       dice=node.roll(), dice_of_white=node.rolled_by_white,
                       last_steps=node.last_steps(), cube=node.cube, cube_owner=node.cube_owner,
                       black_numbers=black_numbers, title=title)


def _side(name: str, counts: tuple[int, ...]) -> str:
    placed = [f"{counts[p]} on {p}" for p in range(24, 0, -1) if counts[p]]
    if counts[BAR]:
        placed.insert(0, f"{counts[BAR]} on the bar")
    if counts[OFF]:
        placed.append(f"{counts[OFF]} borne off")
    return f"{name}: " + (", ".join(placed) or "no men") + "."


def describe(position: Position, names: tuple[str, str] = ("White", "Black")) -> str:
    """Both sides' men in words, each in his own numbering (as plays are written);
    ``names`` are those of ``position.mover`` and ``position.opponent``.

    >>> from notation import rule_set
    >>> describe(rule_set("jacquet").start)
    'White: 15 on 24. Black: 15 on 24.'
    """
    return f"{_side(names[0], position.mover)} {_side(names[1], position.opponent)}"
