"""A ``fevga`` game prefix in which R-UNBLOCK binds: every black man gathered on one point
of his 11-7 behind six points White holds. Random play never gets there, so the moves
come from a simple policy with fixed dice: Black brings all his men to the gathering
point (and never past it), White builds and keeps the six points in front of it."""

from __future__ import annotations

import random

from notation import legal_plays, rule_set
from notation.engine.board import OFF, Position
from notation.engine.dice import Dice
from notation.engine.play import Play
from notation.engine.rules.fevga import shut_in, wall
from notation.engine.state import ROLL, Colour
from notation.tree.game import Game, GameNode

GATHERING = 10
"""Black's gathering point, in his numbering (White's 22)."""
SEED = 28
"""The dice's seed, chosen so that Black is shut in after 56 turns."""


def white_value(result: Position) -> float:
    """White's liking for a play: each point of the wall held, then a second man there,
    then the pips already travelled."""
    board = result.mover
    points = wall(rule_set("fevga"), GATHERING)
    return (100 * sum(1 for p in points if board[p]) + 3 * sum(1 for p in points if board[p] >= 2)
            + 0.01 * sum(board[p] * (25 - p) for p in range(1, 25)))


def black_value(result: Position) -> float:
    """Black's liking for a play: men on the gathering point, never a man past it, and
    the fewest pips still to go to it."""
    board = result.mover
    past = sum(board[1:GATHERING]) + board[OFF]
    to_go = sum(board[p] * (p - GATHERING) for p in range(GATHERING + 1, 25))
    return 50 * board[GATHERING] - 1000 * past - to_go


def shut_in_game(headers: dict[str, str]) -> tuple[Game, GameNode]:
    """The game from the lead W4 B2 to the first White turn whose start is shut in."""
    rules = rule_set("fevga")
    dice_source = random.Random(SEED)
    game = Game(rules, headers=headers, lead_rolls=((4, 2),))
    node: GameNode = game
    while not (node.state.player is Colour.WHITE and node.ply and shut_in(rules, node.state.position)):
        assert not node.state.over and node.ply < 300
        dice = Dice(dice_source.randint(1, 6), dice_source.randint(1, 6))
        plays = legal_plays(node.state.position, dice, rules)
        value = white_value if node.state.player is Colour.WHITE else black_value
        best: Play | None = max(plays, key=lambda p: value(p.result), default=None)
        node = node.add_turn(ROLL, dice, str(best) if best is not None else "-")
    return game, node
