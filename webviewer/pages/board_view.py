"""The board at a node for a page: the SVG drawn by :mod:`notation.render.svg` and the same
position in words, for screen readers and for anyone who prefers text."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from notation.engine.board import BAR, OFF, Position
from notation.engine.rules import RuleSet
from notation.engine.state import Colour
from notation.messages import Message, render
from notation.render.svg import board, board_parts
from notation.tree.game import Node

if TYPE_CHECKING:
    from webviewer.pages.kept_games import PageNode


def board_svg(node: Node, rules: RuleSet, flipped: bool, title: str, language: str) -> str:
    """The SVG of the position after ``node``'s turn, its dice and its play marked, the
    points numbered for the player who played it (at the start, for the player to act), its
    marks' titles in ``language``."""
    state = node.state
    turn = node.turn
    last = turn.play.steps if turn is not None and turn.play and turn.player is not state.player else ()
    numbered_by = state.player if turn is None else turn.player
    return board(state.position, rules, white_to_move=state.player.value == "W", flipped=flipped,
                 dice=turn.dice if turn is not None else None, last_steps=last,
                 black_numbers=numbered_by is Colour.BLACK, title=title, language=language)


def page_board(node: PageNode, rules: RuleSet, flipped: bool, numbers_on_roll: bool,
               title: str, language: str, overlay: str = "") -> list[str]:
    """The pieces of the SVG (:func:`~notation.render.svg.board_parts`) of a node of a
    kept game (:class:`~webviewer.pages.kept_games.PageNode`): its dice beside who rolled
    them, its cube, the points numbered for the player whose turn is shown
    (:attr:`~webviewer.pages.kept_games.PageNode.numbered_for_white`) or
    (``numbers_on_roll``) for the player on roll; its marks' titles in ``language``;
    ``overlay`` drawn over it (a play's arrows)."""
    black_numbers = not (node.white_to_move if numbers_on_roll else node.numbered_for_white)
    return board_parts(node.position(), rules, white_to_move=node.white_to_move, flipped=flipped,
                       dice=node.roll(), dice_of_white=node.rolled_by_white,
                       last_steps=node.last_steps(), cube=node.cube, cube_owner=node.cube_owner,
                       black_numbers=black_numbers, title=title, language=language, overlay=overlay)


def _side(name: Colour, counts: tuple[int, ...]) -> Message:
    placed = [Message.of("board.on", count=counts[p], point=p) for p in range(24, 0, -1) if counts[p]]
    if counts[BAR]:
        placed.insert(0, Message.of("board.bar", count=counts[BAR]))
    if counts[OFF]:
        placed.append(Message.of("board.off", count=counts[OFF]))
    return Message.of("board.side", side=name.named, men=placed or Message.of("board.none"))


@lru_cache(maxsize=4096)
def describe(position: Position, language: str,
             names: tuple[Colour, Colour] = (Colour.WHITE, Colour.BLACK)) -> str:
    """Both sides' men in words in ``language``, each in his own numbering (as plays are
    written); ``names`` are the players of ``position.mover`` and ``position.opponent``.

    >>> from notation import rule_set
    >>> describe(rule_set("jacquet").start, "en")
    'White: 15 on 24. Black: 15 on 24.'

    Kept for the last 4,096 positions asked (a game page says it on every ply, in about
    twenty messages).
    """
    return " ".join(render(_side(name, counts), language)
                    for name, counts in zip(names, (position.mover, position.opponent), strict=True))
