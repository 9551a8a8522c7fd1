"""The English catalog of the engine's messages outside the move rules: dice, written
plays, positions and position IDs that cannot be read, and the game's own rules (the end,
the cube, passed dice, the lead, resignations)."""

from __future__ import annotations

MESSAGES: dict[str, str | tuple[str, str]] = {
    # the players and the ways a game ends
    "colour.white": "White",
    "colour.black": "Black",
    "side.mover": "mover",
    "side.opponent": "opponent",
    "side.on-roll": "player on roll",
    "side.not-on-roll": "player not on roll",
    "ended.bear-off": "bear-off",
    "ended.drop": "drop",
    "ended.resign": "resign",
    # the outcomes worth more than one point (RuleSet.outcomes: the Outcome's name, its
    # spaces as hyphens), as the engine's probabilities are headed
    "outcome.double-game": "double game",
    "outcome.gammon": "gammon",
    "outcome.backgammon": "backgammon",
    "outcome.mars": "mars",
    "outcome.marcia": "marcia",
    "outcome.marcia-per-punto": "marcia per punto",
    "range.to": "{low} to {high}",
    # dice
    "dice.face": "a die shows 1 to 6, not {value}",
    "dice.unreadable": "cannot read dice {text}: write two digits 1-6, as 53 or 5-3",
    "dice.needed": "a roll needs its dice",
    # written plays
    "play.too-long": "a play is at most {most} characters; this one has {length}: {text}",
    "play.in-play": "{error} (in the play {play})",
    "play.repeat": "cannot repeat a move {count} times",
    "play.not-a-move": "cannot read {token} as a move: write each move FROM/TO, as 24/18",
    "play.point": "cannot read point {part} in {token}: a point is 1-24, bar or off",
    "play.no-point": "there is no point {point} (points are 1-24, bar 25, off 0)",
    "play.bar-start": "the bar (point 25) can only be where a move starts: {token}",
    "play.no-bar": "the bar (point 25) does not exist in this rule set: {token}",
    "play.from-off": "a move cannot start from off (point 0): {token}",
    "play.backward": "{token} does not move forward (points count down)",
    "play.hit-off": "nothing can be hit off the board: {token}",
    "play.hit-start": "a hit mark belongs on the point landed on: {token}",
    # positions and position IDs
    "position.counts": "{side}: 26 non-negative counts expected",
    "position.men": "{side} has {men} men, not {most}",
    "position.point": "{side}: no point {point} (1-24, or 25 for the bar)",
    "position.too-many": "{side} has {men} men on the board, at most {most}",
    "position.none-off": "{side} has no man off the board to place: all {most} are on it; remove one first",
    "position-id.length": "a position ID has {length} characters, not {found}: {id}",
    "position-id.base64": "position ID {id} is not Base64",
    "position-id.men": "position ID {id}: the {side} has {men} men, more than {most}",
    "position-id.bits": "position ID {id} has bits past the two sides",
    # the game's rules (notation.engine.state)
    "game.over": "the game is over: {winner} won {points} ({ended}); nothing more can be played",
    "game.turn-kind": "unknown kind of turn {kind}: roll, passed, double, take, drop or resign",
    "pass.die-was": "die {dice} was",
    "pass.dice-were": "dice {high}-{low} were",
    "pass.play-first": "the {dice} passed to {player}: he plays them first (written >{passed}:)",
    "pass.none": "no dice were passed to {player}: the opponent played all he rolled",
    "pass.other": "the {dice} passed to {player}, not {written}",
    "lead.dice": "this roll must be the lead dice {lead}, not {dice}",
    "cube.take-or-drop": "{player} must take or drop the cube first",
    "cube.none": "{rules} has no doubling cube",
    "cube.crawford": "no one may double in the Crawford game",
    "cube.offered": "a double is already offered: take or drop",
    "cube.owned": "{player} cannot double: {owner} owns the cube at {cube}",
    "cube.before-roll": "a double comes before the roll",
    "cube.before-opening": "no one may double before the opening roll is played",
    "cube.not-offered": "{player} cannot {kind}: no double is offered",
    "cube.limit": "a take would raise the cube past {most}, the highest value a record may give it",
    "resign.points": "a resignation in {rules} scores {allowed}, not {points}",
}
