"""What a viewer says of a node: what was just played, then what comes next, or at the end
of a game who won, how many points and how (the game page's caption, `jacquet show`)."""

from __future__ import annotations

from notation.engine.state import DOUBLE, DROP, PASSED, RESIGN, ROLL, TAKE, GameState, Turn

HOW = {"bear-off": "by bearing off", "drop": "on the dropped cube", "resign": "by resignation"}
"""How a game ended (:attr:`GameState.ended_by`), in words."""


def played(turn: Turn | None) -> str:
    """What the turn did, as a sentence (the start of the game: none).

    >>> from notation.engine.state import Colour
    >>> played(Turn("double", Colour.WHITE))
    'White doubled.'
    """
    if turn is None:
        return ""
    who = turn.player.title
    kind = turn.kind
    if kind in (ROLL, PASSED):
        play = turn.play.notation if turn.play is not None else "-"
        rolled = "played the passed" if kind == PASSED else "rolled"
        if play == "-":
            return f"{who} {rolled} {turn.dice} and could not play."
        return f"{who} {rolled} {turn.dice} and played {play}."
    if kind == DOUBLE:
        return f"{who} doubled."
    if kind == TAKE:
        return f"{who} took the cube."
    if kind == DROP:
        return f"{who} dropped the cube."
    if kind == RESIGN:
        return f"{who} resigned."
    return f"{who}: {kind}."


def next_up(state: GameState) -> str:
    """What comes next: who acts and how, or who won the game, by how many points, how.

    >>> from notation import rule_set
    >>> from notation.engine.state import Colour
    >>> start = GameState.start(rule_set("backgammon"))
    >>> next_up(start)
    'White to play.'
    >>> next_up(start._replace(winner=Colour.BLACK, points=2, ended_by="drop"))
    'Black wins 2 points on the dropped cube.'
    """
    if state.winner is not None:
        points = "1 point" if state.points == 1 else f"{state.points} points"
        how = HOW.get(state.ended_by or "", "")
        return f"{state.winner.title} wins {points}{' ' + how if how else ''}."
    who = state.player.title
    if state.offered:
        return f"{who} to take or drop the cube."
    if state.passed is not None:
        return f"{who} to play the passed {state.passed}."
    return f"{who} to play."
