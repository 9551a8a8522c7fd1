"""The English catalog of the readers' messages: a record's form (``SYNTAX``), its tags
(``TAG``), the limits a reader keeps (``LIMIT``) and the formats (``FORMAT``).

Placeholders: ``{token}``, ``{text}`` and the like are quoted as the record wrote them;
``{tag}`` a tag's name, never translated."""

from __future__ import annotations

MESSAGES: dict[str, str | tuple[str, str]] = {
    # every reader (notation.formats.reading)
    "reader.utf-8": "this line is not valid UTF-8 ({reason})",
    "reader.utf-8.start": "invalid start byte",
    "reader.utf-8.continuation": "invalid continuation byte",
    "reader.utf-8.end": "unexpected end of data",
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
    "reader.jqn.roll-colon": "unknown token {token}: dice are followed by ':', as {roll}: 24/18",
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
    # JSON (notation.formats.json_format)
    "json.game-type": "a game is a JSON object (a file holds one game or a list of them), not {found}",
    "json.no-turns": "a game has 'turns', the list of its turns ([] before the first)",
    "json.tag-name": "{name} is not a tag name: a letter, then letters, digits or _",
    "json.header-type": "the header {name} is a string, not {found}",
    "json.option": ("the option {name} is {value}: 'options' names each option as a tag and gives it "
                    "a word or a whole number"),
    "json.unknown-key": "unknown key {key}: {what} has {known}",
    "json.unknown-key.close": "unknown key {key} (did you mean {close}?): {what} has {known}",
    "json.a-game": "a game",
    "json.a-turn": "a turn",
    "json.contradicts": "{key} is {stated}, but {source} give {actual}",
    "json.source.headers": "the headers",
    "json.source.rules": "the {rules} rules",
    "json.source.turn": "the turn's dice and play",
    "json.field-type": "{key} is {kind}, not {found}",
    "json.type.object": "an object",
    "json.type.list": "a list",
    "json.type.string": "a string",
    "json.type.number": "a number",
    "json.type.boolean": "true or false",
    "json.type.null": "null",
    "json.colour": "{key} is \"W\" or \"B\", not {value}",
    "json.list-of": "{key} is a list of {what}",
    "json.items.objects": "objects",
    "json.items.strings": "strings",
    "json.items.nags": "numbers from 0 to {most}",
    "json.items.steps": "[from, to] pairs of points",
    "json.turn-type": "a turn is a JSON object, not {found}",
    "json.variation": "a variation is a list of turns",
    "json.steps": "'steps' is {steps}, but the turn's play moves men as {played}",
    "json.utf-8": "not valid UTF-8 ({reason})",
    "json.elements": "more than {most} objects and arrays in one file: split the record",
    "json.invalid": "not valid JSON: {reason}",
    "json.decode.value": "a value was expected",
    "json.decode.key": "a key in double quotes was expected",
    "json.decode.colon": "':' was expected",
    "json.decode.comma": "',' was expected",
    "json.decode.unterminated": "a string is not closed",
    "json.decode.control": "a control character inside a string",
    "json.decode.u-escape": "a \\u escape needs four hexadecimal digits",
    "json.decode.escape": "an escape that does not exist",
    "json.decode.extra": "more text after the document",
    "json.decode.trailing-comma": "a comma before the end of an object or a list",
    "json.too-deep": "the JSON nests too deep to be read",
    "json.surrogate": "{escape} escapes a lone surrogate, which is no character and cannot be stored",
    "json.key-twice": "the key {key} is given twice in one object",
    "json.digits": "a number of {digits} digits: at most {most} are read",
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
    "format.rule-sets": ".{format} holds {variants} only, not {variant}",
    "format.set-up": (".{format} holds games from the rule set's starting position only, "
                      "not from [Position \"{position}\"]"),
    "format.mat.one-match": ("a .mat file holds one match; these games come from {count} (write one match "
                             "per file, or use .jqn, .xml or .json)"),
    "format.mat.left-out.moves": ".mat holds the main line's moves only: {counts} left out",
    "format.mat.left-out.nameless": ("tag with no .mat name left out: {tags}",
                                     "tags with no .mat name left out: {tags}"),
    "format.mat.left-out.varying": ("a .mat header holds the first game's tags: the other games' {tags} "
                                    "left out"),
    "count.comments": ("{count} comment", "{count} comments"),
    "count.nags": ("{count} NAG", "{count} NAGs"),
    "count.variations": ("{count} variation", "{count} variations"),
    "format.too-large": ("{games} games make a {name} file of {size} bytes and {positions} positions, "
                         "more than a file read whole may hold ({most_bytes} bytes, {most_positions} "
                         "positions): write .jqn, or fewer games per file"),
    "reader.sgf.nesting": "game trees nest deeper than {most}",
    "reader.sgf.close": "')' closes no game tree",
    "reader.sgf.outside": "a node outside any game tree '(...)'",
    "reader.sgf.unexpected": "unexpected {char}: SGF holds game trees '(;...)'",
    "reader.sgf.unclosed": "a game tree is never closed: add ')'",
    "reader.sgf.game": "GM[{value}] is not backgammon (GM[6])",
    # XML (notation.formats.xml_format); the schema's own messages are libxml2's
    "reader.xml.control": ("game {game} holds a control character (a comment or a tag) that XML 1.0 "
                           "cannot hold: write it as .jqn or .json"),
    "reader.xml.declaration": "a DOCTYPE or ENTITY declaration is not accepted",
    "reader.xml.elements": "more than {most} elements in one file: split the record",
    "reader.xml.malformed": "not well-formed XML: {reason}",
    "reader.xml.doctype": "a DOCTYPE is not accepted",
    "reader.xml.nesting": "elements nest deeper than {most}",
    # what an exporter writes otherwise (notation.formats.dialects)
    "reader.combined-move": ("{dice}: {play} breaks {rule} in the order written; read as {read} (the "
                             "exporter writes a combined move step by step)"),
    # .mat (notation.formats.mat)
    "reader.mat.before-game": "cannot read {text} before the first game",
    "reader.mat.unreadable": "cannot read {text}",
    "reader.mat.after-end": "{player} acts after the end of the game",
    "reader.mat.turn-of": "{player} acts, but it is {turn}'s turn",
    "reader.mat.cube": "the cube goes from {cube} to {doubled}, not {value}",
    "reader.mat.beaver": "beavers are not played here (no Beaver rule in this match)",
    "reader.mat.winner": "{said} is said to win, but {winner} won",
    "reader.mat.wins": "Wins {value} point(s), but the game scores {points} (cube {cube})",
    "reader.mat.wins-kept": ("the record says Wins {value} point(s) where the rules score {points} "
                             "(cube {cube}); the record's score is kept"),
    "reader.mat.wins-resign": ("the record says Wins {value} point(s), more than a resignation can score "
                               "at cube {cube}; scored {highest}"),
    "reader.mat.turn": "{dice}: {play}: {reason}",
}
