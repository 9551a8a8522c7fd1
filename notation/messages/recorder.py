"""The English catalog of the recorder's messages (:mod:`notation.recording`): a game
entered turn by turn, by ``jacquet record`` or the viewer's scorer."""

from __future__ import annotations

MESSAGES: dict[str, str | tuple[str, str]] = {
    "recorder.one-game": "a live game's record holds one game",
    "recorder.tag-too-long": "{tag} is longer than {most} characters",
    "recorder.match-number": "{tag} {value} is not a number from 1 to {most}",
    "recorder.date": "Date {value} is not a date such as 2024.03.15 (?? for what is not known)",
    "recorder.score-ends-match": "a score of {score} ends a match to {length}: no game follows it",
    "recorder.no-dice": "roll or enter the dice first",
    "recorder.take-or-drop": "{player} must take or drop first",
    "recorder.forced-dice": "this turn plays the dice {forced}, not {dice}",
    "recorder.dice-stand": ("the dice rolled for this turn were {stood}: rolled dice stand, {dice} "
                            "cannot replace them"),
    "recorder.two-dice": "a roll is two dice, not {dice}",
    "recorder.rolled": "the dice {dice} were rolled for this turn: rolled dice stand",
    "recorder.no-step": "no step from {start} to {end} with a {die}",
    "recorder.cube-action": "no cube action {kind}",
    "recorder.nothing-to-take-back": "no turn to take back",
    "recorder.dice-stand-after": ("no turn to take back: the dice rolled since had nothing to play, "
                                  "and stand"),
    "recorder.no-turn-after": "no turn after turn {ply} to take back: the game has {plies}",
    "recorder.over": "the game is over: {winner} won {points}",
    "recorder.no-one": "no one",
    "recorder.finish-dice": "finish the {dice} first, or take it back",
}
