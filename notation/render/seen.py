"""The position a node shows, as the next player sees it.

During a game the player to act sees the position (:attr:`GameState.player`). A game
won by bearing off ends with the winner still "to act" in the state; every output gives
that last position as the loser, the next player, sees it, as ``jacquet legal --json``
gives a play's resulting position and gnubg its final position.
"""

from __future__ import annotations

from notation.engine.board import Position
from notation.engine.state import Colour, GameState


def seen_next(state: GameState) -> tuple[Position, Colour]:
    """The position of ``state`` and who sees it: the player to act, or at the end of a
    game the loser.

    >>> from notation import rule_set
    >>> from notation.engine.state import GameState
    >>> start = GameState.start(rule_set("jacquet"))
    >>> seen_next(start)[1].title
    'White'
    >>> won = start._replace(winner=Colour.WHITE, points=2, ended_by="bear-off")
    >>> seen_next(won)[1].title, seen_next(won)[0] == start.position.swapped()
    ('Black', True)
    """
    if state.winner is not None and state.player is state.winner:
        return state.position.swapped(), state.player.other
    return state.position, state.player
