"""Leniencies for the dialects of other programs' records (``.mat``, SGF), kept in one
place: each turns a play that a real exporter writes in its own way into the legal play
it stands for, and says so in a warning. The text notation has none of them."""

from __future__ import annotations

from collections.abc import Callable

from notation.engine.dice import Dice
from notation.engine.state import ROLL
from notation.engine.written import parse_play
from notation.errors import IllegalPlayError, NotationError, RecordError
from notation.messages import Message
from notation.tree.game import GameNode, Node


def merge_chains(play: str) -> str | None:
    """``9/3 3/0`` as ``9/0``: GNU Backgammon writes a combined move step by step, in an
    order of its own that may be illegal even when the move is not. ``None`` if the play
    has no chain to merge."""
    moves = [list(move.points) for move in parse_play(play).moves]
    merged = False
    for index, move in enumerate(moves):
        for later in moves[index + 1:]:
            if later and move and later[0] == move[-1] and move[-1] != 0:
                move.extend(later[1:])
                later.clear()
                merged = True
    if not merged:
        return None
    return " ".join(f"{m[0]}/{m[-1]}" for m in moves if m)


def play_as_exported(node: Node, dice: Dice, play: str, warnings: list[NotationError],
                     warning: Callable[[Message], RecordError]) -> GameNode:
    """Play a roll from an exported record: as written, or, if that breaks a rule only
    through the order of a man's steps, as the combined move (with a warning). The combined
    move must play as many dice as the steps written (``3/2 2/0 2/1`` is three steps for
    6-1, not ``3/off 2/1``)."""
    try:
        return node.add_turn(ROLL, dice, play)
    except IllegalPlayError as problem:
        merged = merge_chains(play)
        if merged is None:
            raise
        try:
            _, turn = node.state.after(ROLL, dice, merged)
        except IllegalPlayError:
            raise problem from None
        steps = sum(len(move.points) - 1 for move in parse_play(play).moves)
        if turn.play is None or len(turn.play.steps) != steps:
            raise problem from None
        child = node.add_turn(ROLL, dice, merged)
        played = child.turn.play if child.turn is not None else None
        warnings.append(warning(Message.of("reader.combined-move", dice=str(dice), play=play,
                                           rule=problem.rule_id, read=str(played))))
        return child
