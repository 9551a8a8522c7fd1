"""The English catalog of the readers' messages: a record's form (``SYNTAX``), its tags
(``TAG``), the limits a reader keeps (``LIMIT``) and the formats (``FORMAT``).

Placeholders: ``{token}``, ``{text}`` and the like are quoted as the record wrote them;
``{tag}`` a tag's name, never translated."""

from __future__ import annotations

MESSAGES: dict[str, str | tuple[str, str]] = {
    # every reader (notation.formats.reading)
    "reader.utf-8": "this line is not valid UTF-8 ({reason})",
    "reader.positions.game": ("more than {most} positions (turns and game starts) in one game: "
                              "split the record"),
    "reader.positions.file": ("more than {most} positions (turns and game starts) in one file: "
                              "split the record"),
    "reader.line-too-long": "the line is longer than {most} bytes",
    "reader.file-too-large": "the file is larger than the limit of {most} bytes",
    # JQN (notation.formats.jqn)
    "reader.jqn.game-too-long": "the game is longer than {most} bytes",
    "reader.jqn.header": "cannot read the header line {text}: write [Name \"value\"]",
    "reader.jqn.no-play": "the roll {dice} has no play: write - for an empty play",
    "reader.jqn.no-roll": "{text} has no roll before it: write the dice first, as 53: 24/16",
    "reader.jqn.nesting": "variations nest deeper than {most}",
    "reader.jqn.close": "')' closes no variation",
    "reader.jqn.result-in-variation": ("the result {result} stands inside a variation: close it "
                                       "with ')' first"),
    "reader.jqn.after-result": "{text} after the result: a game ends with its result",
    "reader.jqn.unclosed": ("{count} variation is never closed: add ')'",
                            "{count} variations are never closed: add ')'"),
    "reader.jqn.comment": ("this comment is never closed: end it with '}}' (write \\}} for a brace "
                           "inside)"),
    "reader.jqn.unknown-token": "unknown token {token}",
    "reader.jqn.nag": "{text} is not a NAG: they go from $0 to ${most}",
    "reader.jqn.nag-first.game": ("a NAG marks the turn before it; this one stands before the game's "
                                  "first turn"),
    "reader.jqn.nag-first.variation": ("a NAG marks the turn before it; this one stands before the "
                                       "variation's first turn"),
    "reader.backgammon-hint": ("{reason} (this play is legal in backgammon: add [Variant \"backgammon\"] "
                               "if that is the game)"),
    "reader.rethrow.tag": ("this record uses the rethrow clause (its Rethrow tag): \"if the opponent "
                           "cannot play the two dice without uncovering a point, he takes the lead and "
                           "rethrows the second die\"; the rules engine does not support it, so the "
                           "turns are checked without it"),
    "reader.rethrow.comment": ("this record uses the rethrow clause (a 'rethrow:' comment at ply "
                               "{ply}): \"if the opponent cannot play the two dice without uncovering a "
                               "point, he takes the lead and rethrows the second die\"; the rules engine "
                               "does not support it, so the turns are checked without it"),
    "reader.result.unreadable": "cannot read the result {text}: write W+2, B+1 or *",
    "reader.result.differs": ("the result {result} at the end of the game differs from the Result "
                              "tag {tag}"),
    # the tags (notation.tree.tags) and the result (notation.tree.game)
    "tag.position": "[Position] is no {rules} position: {error}",
    "tag.position.over": "[Position] {text} is a game already over: a side has borne off all his men",
    "tag.option": "cannot read option {text}: write NAME=VALUE",
    "tag.digits": "[{tag}] has a number of more than {most} digits",
    "tag.number": "[{tag}] is a number, not {value}",
    "tag.score": "[{tag}] is two numbers, White's and Black's, as 3-1, not {value}",
    "tag.lead": "[Lead] names White or Black, not {value}",
    "tag.lead-rolls": "more than {most} lead rolls",
    "tag.lead-roll": "cannot read the lead roll {text}: write White's and Black's die, as \"W5 B3\"",
    "tag.lead-roll.not-tie": ("the lead roll W{white} B{black} is not a tie, so it decides who starts: "
                              "only ties are rolled again, and only the last lead roll may differ"),
    "tag.lead-roll.tie": "the last lead roll W{white} B{black} is a tie: a tie is rolled again",
    "tag.lead.contradicts": ("[Lead] says {first} starts, but the lead roll W{white} B{black} gives "
                             "the start to {winner}"),
    "game.turn": "{player} plays, but it is {turn}'s turn",
    "result.resigned": "{loser} resigned, so {winner} wins; the result says {declared}",
    "result.not-over": ("the result says {declared}, but the game is not over: no one has borne off "
                        "all 15 men (write * for an unfinished game)"),
    "result.differs": "the result says {declared}, but the rules score {scored} ({how})",
    "result.dropped": "{player} dropped the cube at {cube}",
    "result.borne-off": "the loser has borne off {count}",
    "score.quarters": "the loser's men left, by quarter",
    "match.score.tag": "the Score tag says {score}, but the games before give {before}",
    "match.score.line": "the score line says {score}, but the games before give {before}",
    # SGF (notation.formats.sgf)
    "reader.sgf.result": "RE[{result}]: {reason}",
    "reader.sgf.score": "RE[{result}] says {winner} wins {points}, but the rules score {scored}",
    "reader.sgf.turn": "{player} moves, but it is {turn}'s turn",
    "reader.sgf.move": "cannot read the move {text}",
    # the formats (notation.formats.registry)
    "format.unknown": "unknown format {name}; known: {known}",
    "format.extension": "cannot tell the format of {path} from its extension; known: {known}",
    "format.unreadable": "cannot read {name}; readable: {known}",
    "format.unwritable": "cannot write {name}; writable: {known}",
    "format.too-large": ("{games} games make a {name} file of {size} bytes and {positions} positions, "
                         "more than a file read whole may hold ({most_bytes} bytes, {most_positions} "
                         "positions): write .jqn, or fewer games per file"),
    # .mat (notation.formats.mat)
    "reader.mat.turn": "{dice}: {play}: {reason}",
}
