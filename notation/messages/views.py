"""The English catalog of what a viewer says of a game beside its board (``jacquet show``,
the viewer's game pages): the caption of a turn (what was just played, what comes next),
the marks of the board (the courier, the runner, the head, the cube) and the position in
words, for screen readers.

Placeholders: ``{player}``, ``{winner}`` and ``{side}`` a colour (``colour.white``...),
``{dice}`` dice as written (``66``), ``{play}`` a play as notation, ``{point}`` a point in
the side's own numbering, ``{rule}`` a rule id."""

from __future__ import annotations

MESSAGES: dict[str, str | tuple[str, str]] = {
    # a turn's caption (notation.render.captions)
    "caption.turn": "{played} {next}",
    "caption.rolled": "{player} rolled {dice} and played {play}.",
    "caption.rolled.none": "{player} rolled {dice} and could not play.",
    "caption.passed": "{player} played the passed {dice} and played {play}.",
    "caption.passed.none": "{player} played the passed {dice} and could not play.",
    "caption.double": "{player} doubled.",
    "caption.take": "{player} took the cube.",
    "caption.drop": "{player} dropped the cube.",
    "caption.resign": "{player} resigned.",
    "caption.other": "{player}: {kind}.",
    "caption.won": ("{winner} wins {count} point.", "{winner} wins {count} points."),
    "caption.won.bear-off": ("{winner} wins {count} point by bearing off.",
                             "{winner} wins {count} points by bearing off."),
    "caption.won.drop": ("{winner} wins {count} point on the dropped cube.",
                         "{winner} wins {count} points on the dropped cube."),
    "caption.won.resign": ("{winner} wins {count} point by resignation.",
                           "{winner} wins {count} points by resignation."),
    "caption.to-respond": "{player} to take or drop the cube.",
    "caption.to-play-passed": "{player} to play the passed {dice}.",
    "caption.to-play": "{player} to play.",
    # the board's marks (notation.render.svg)
    "mark.courier": "{side}'s courier, on his {point} ({rule}).",
    "mark.runner": "{side}'s runner, on his {point} ({rule}).",
    "mark.head": ("{side}'s head, his {point}: {count} man; {legend} ({rule}).",
                  "{side}'s head, his {point}: {count} men; {legend} ({rule})."),
    "legend.head": "one man may leave it a turn, two in a player's first turn with {doublets}",
    # the key of the board's marks (notation.render.svg.board_key)
    "key.last-play": "the last play",
    "key.arrows": "the play looked at, its steps as arrows",
    "key.best": "the engine's best play of the roll to play, as dashed arrows",
    "key.courier": "the courier, who runs alone ({rule})",
    "key.runner": "the runner, who runs alone ({rule})",
    "key.head": "the head, while a rule limits the men leaving it ({rule})",
    "mark.cube.middle": "Cube at {value}, in the middle",
    "mark.cube.bottom": "Cube at {value}, owned by the player at the bottom",
    "mark.cube.top": "Cube at {value}, owned by the player at the top",
    # the position in words (webviewer.pages.board_view)
    "board.side": "{side}: {men}.",
    "board.on": "{count} on {point}",
    "board.bar": "{count} on the bar",
    "board.off": "{count} borne off",
    "board.none": "no men",
    # a board's title (its SVG's <title>) and the pip chart's band of a ply (webviewer)
    "board.title.error": "Game {game}: the board after ply {ply}",
    "board.title.position": "Position {position}, {player} on roll",
    "board.title.recorder": "The board, numbered for {player}",
    "chart.pips": "White {white}, Black {black}",
    # the text diagram's lines under the board (notation.render.diagram; X on roll, O not)
    "diagram.bar": "bar: {x}{mover} {y}{opponent}",
    "diagram.sides": "{x} on roll: pips {mover}, off {mover_off} | {y}: pips {opponent}, off {opponent_off}",
    "diagram.sides.over": "{x}: pips {mover}, off {mover_off} | {y}: pips {opponent}, off {opponent_off}",
    "diagram.cube.owned": "cube: {cube}, owned by {owner}",
    "diagram.cube.middle": "cube: {cube}, in the middle",
    # the level an analysis's figures were computed at (archive.analyses.level_label)
    "level.confirmed": "{level}, marks confirmed at {confirm}",
    # a confirming level of a rollout (analysis.confirm.rollout_level, checked_level), as
    # archive.levels reads it back; {how}: cli.rollout.truncated or .to-the-end
    "level.rollout": "rollout of {games} games at 0-ply, {how}, seed {seed}",
    "level.checked-under": "{first}, marks under {high} checked by a {rollout}",
    # the same, as archives analysed before the check had a bound keep it
    "level.checked": "{first}, marks checked by a {rollout}",
}
