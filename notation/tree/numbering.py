"""Turn numbers as records write them, PGN's: White's move opens ``N.``, Black's is
``N...``; a move is a roll (or dice passed, a double, a resignation) with the cube's answer
inside it; if Black starts, his first move is ``1...`` and White's first ``2.``. The text
notation's writer numbers its moves so, and messages name a turn so (``2. 61``, not the
ply), so that a scorer finds it in the record.

>>> from notation import rule_set
>>> from notation.tree.game import Game
>>> game = Game(rule_set("jacquet"))
>>> node = game.add_turn("roll", Dice(6, 4), "24/14")
>>> turn_label(node, "roll", Colour.BLACK, Dice(5, 3))
'1... 53'
>>> turn_label(node.parent, "roll", Colour.WHITE, Dice(6, 4))
'1. 64'
"""

from __future__ import annotations

from notation.engine.dice import Dice
from notation.engine.state import DOUBLE, PASSED, RESIGN, ROLL, Colour
from notation.tree.game import Node

MOVE_STARTS = (ROLL, PASSED, DOUBLE, RESIGN)
"""Kinds of turn that begin a player's move; ``take`` and ``drop`` answer inside the
other player's move."""


def move_number(owner: Colour, white_rolls: int, black_first: bool) -> str:
    """The number before a move of ``owner``'s after ``white_rolls`` rolls of White's:
    ``N.`` for White's, ``N...`` for Black's."""
    offset = 1 if black_first else 0
    return f"{white_rolls + offset + 1}." if owner is Colour.WHITE else f"{white_rolls + offset}..."


def turn_label(before: Node, kind: str, player: Colour, dice: Dice | object | None) -> str:
    """The turn of ``kind`` that ``player`` makes after the node ``before`` with ``dice``
    (as read), as a record numbers it: ``2. 61``, ``2... >3``, ``3. double``, ``3. take``,
    ``4. White resigns`` (a resignation by the player not to act)."""
    what = f"{'>' if kind == PASSED else ''}{dice}" if dice is not None else kind
    if kind == RESIGN and player is not before.state.player:
        what = f"{player.title} resigns"
    return f"{turn_number(before, kind, player)} {what}"


def turn_number(before: Node, kind: str = ROLL, player: Colour | None = None) -> str:
    """The number of the move that a turn of ``kind`` by ``player`` (by default the player
    to act) after ``before`` belongs to: ``2.`` or ``2...``."""
    player = player or before.state.player
    line: list[Node] = []
    node: Node | None = before
    while node is not None and node.turn is not None:
        line.append(node)
        node = node.parent
    white_rolls, owner = 0, None
    for earlier in reversed(line):
        turn = earlier.turn
        assert turn is not None
        if turn.kind in MOVE_STARTS and turn.player is not owner:
            owner = turn.player
        if turn.player is Colour.WHITE and turn.kind == ROLL:
            white_rolls += 1
    if owner is None or (kind in MOVE_STARTS and player is not owner):
        owner = player
    return move_number(owner, white_rolls, before.root().first is Colour.BLACK)


def node_label(node: Node) -> str:
    """The turn of ``node`` as a record numbers it (``2. 61``); ``start`` for the game's
    start."""
    turn = node.turn
    if turn is None or node.parent is None:
        return "start"
    return turn_label(node.parent, turn.kind, turn.player, turn.dice)
