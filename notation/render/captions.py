"""What a viewer says of a node: what was just played, then what comes next, or at the end
of a game who won, how many points and how (the game page's caption, `jacquet show`). Each
is a :class:`~notation.messages.Message` (:mod:`notation.messages.views`), rendered in the
reader's language where it is shown."""

from __future__ import annotations

from notation.engine.state import DOUBLE, DROP, PASSED, RESIGN, ROLL, TAKE, GameState, Turn
from notation.messages import Message

SAID = {DOUBLE: "caption.double", TAKE: "caption.take", DROP: "caption.drop", RESIGN: "caption.resign"}
"""The message of each turn that rolls no dice."""


def played(turn: Turn | None) -> Message | None:
    """What the turn did, as a sentence (the start of the game: none).

    >>> from notation.engine.state import Colour
    >>> str(played(Turn("double", Colour.WHITE)))
    'White doubled.'
    """
    if turn is None:
        return None
    who = turn.player.named
    kind = turn.kind
    if kind in (ROLL, PASSED):
        rolled = "caption.passed" if kind == PASSED else "caption.rolled"
        play = turn.play.notation if turn.play is not None else "-"
        if play == "-":
            return Message.of(rolled + ".none", player=who, dice=str(turn.dice))
        return Message.of(rolled, player=who, dice=str(turn.dice), play=play)
    if kind in SAID:
        return Message.of(SAID[kind], player=who)
    return Message.of("caption.other", player=who, kind=kind)


def next_up(state: GameState) -> Message:
    """What comes next: who acts and how, or who won the game, by how many points, how.

    >>> from notation import rule_set
    >>> from notation.engine.state import Colour
    >>> start = GameState.start(rule_set("backgammon"))
    >>> str(next_up(start))
    'White to play.'
    >>> str(next_up(start._replace(winner=Colour.BLACK, points=2, ended_by="drop")))
    'Black wins 2 points on the dropped cube.'
    """
    if state.winner is not None:
        how = f"caption.won.{state.ended_by}"
        return Message.of(how if how in _WON else "caption.won", winner=state.winner.named,
                          count=state.points)
    who = state.player.named
    if state.offered:
        return Message.of("caption.to-respond", player=who)
    if state.passed is not None:
        return Message.of("caption.to-play-passed", player=who, dice=str(state.passed))
    return Message.of("caption.to-play", player=who)


def caption(turn: Turn | None, state: GameState) -> Message:
    """What ``turn`` did and what comes next in ``state``, the state it left (at the
    start of the game: what comes next)."""
    done = played(turn)
    after = next_up(state)
    return after if done is None else Message.of("caption.turn", played=done, next=after)


_WON = ("caption.won.bear-off", "caption.won.drop", "caption.won.resign")
"""The ways a game ends that the caption names (:attr:`GameState.ended_by`)."""
