"""Reading ``.mat`` match files into checked games (rule set ``backgammon``).

Every action is played through the rules like a turn of the text notation; the first
contradiction of a game (a play that does not fit its dice, an illegal play, a cube action
out of turn, a ``Wins`` line that disagrees with the score) is a
:class:`~notation.errors.RecordError` at its line and column, and reading goes on with the
next game. Between games the score lines are checked against the results (R-MATCH).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable

from notation.engine.dice import Dice
from notation.engine.movegen import legal_plays
from notation.engine.rules import rule_set
from notation.engine.state import DOUBLE, DROP, RESIGN, TAKE, Colour
from notation.errors import NotationError, RecordError
from notation.formats.dialects import play_as_exported
from notation.formats.mat.parser import Action, MatFile, MatGame, parse_mat
from notation.formats.reading import culprit, located, read_whole
from notation.messages import Message, render
from notation.tree.game import Game, Node
from notation.tree.matches import check_score, score_after
from notation.tree.numbering import turn_label

COLOURS = (Colour.WHITE, Colour.BLACK)
BACKGAMMON = rule_set("backgammon")  # a rule set is immutable: every game shares this one
ROLLS = {f"{high}{low}": Dice(high, low) for high in range(1, 7) for low in range(1, 7)}
"""The dice of each roll a ``.mat`` file can write (two digits 1-6, either order)."""
TAG_NAMES = {"Match ID": "Match", "Player 1": "White", "Player 2": "Black",
             "Player 1 Elo": "WhiteElo", "Player 2 Elo": "BlackElo", "EventDate": "Date",
             "EventTime": "Time", "Crawford": "CrawfordRule", "Variation": None}


def read_mat(source: str | os.PathLike[str], file: str | None = None) -> list[Game]:
    """The games of a ``.mat`` file, checked; each carries its ``errors``. A file over
    :data:`~notation.limits.MAX_FILE_BYTES`, or crossing another limit, raises
    :class:`RecordError` (``LIMIT``)."""
    name = file or os.fspath(source)
    text = read_whole(source).decode("utf-8", errors="replace").lstrip("\ufeff")
    return games_of(parse_mat(text, name), name)


def games_of(match: MatFile, file: str) -> list[Game]:
    """Build the games of a parsed match, with the match-level checks."""
    headers = _match_headers(match)
    crawford_rule = match.tags.get("Crawford", "On").strip().lower() != "off"
    length = match.length or 0
    running: tuple[int, int] | None = (0, 0)  # None: not known (the game before had an error)
    crawford_played = False
    games: list[Game] = []
    for index, mat_game in enumerate(match.games):
        crawford = bool(crawford_rule and length and not crawford_played
                        and max(mat_game.score) == length - 1 and min(mat_game.score) < length - 1)
        crawford_played = crawford_played or crawford
        game = _game(mat_game, headers, length, crawford, file, index + 1)
        score = (mat_game.score[0], mat_game.score[1])
        if running is not None and mat_game.score_line:
            check_score(game, "match.score.line", score, running, file=file,
                        line=mat_game.score_line, column=1, index=index + 1)
        running = score_after(game, score)
        games.append(game)
    if match.problems and not games:  # nothing but lines that cannot be read
        games.append(Game(BACKGAMMON, headers=headers))
    for problem in match.problems:
        games[0].errors.append(problem)
    return games


def header_name(name: str) -> str | None:
    """The tag a ``.mat`` header's ``name`` becomes: its name in :data:`TAG_NAMES`, else the
    name as a tag name of the other formats (letters, digits and ``_``, a letter first):
    ``Player 1 Rating`` is ``Player1Rating``; ``None`` if nothing is left, or for
    ``Variation`` (the ``Variant`` tag says the rule set)."""
    if name in TAG_NAMES:
        return TAG_NAMES[name]
    kept = re.sub(r"[^A-Za-z0-9_]", "", name).lstrip("0123456789_")
    return kept or None


def _match_headers(match: MatFile) -> dict[str, str]:
    headers = {"Variant": "backgammon"}
    for name, value in match.tags.items():
        key = header_name(name)
        if key:
            headers[key] = value
    if match.length is not None:
        headers["MatchLength"] = str(match.length)
    return headers


def _game(mat_game: MatGame, match_headers: dict[str, str], length: int, crawford: bool,
          file: str, index: int) -> Game:
    """One game; in a match, a win is worth at most what the winner needs (``Wins`` lines
    of some exporters give that capped value)."""
    headers = dict(match_headers)
    for tag, name in zip(("White", "Black"), mat_game.names, strict=False):
        # the score line's name, unless the match's tag gives it whole (a long name is cut
        # short on the score line, to keep its columns)
        if name and not headers.get(tag, "").startswith(name):
            headers[tag] = name
        headers.setdefault(tag, name)
    headers["Game"] = str(mat_game.number)
    headers["Score"] = f"{mat_game.score[0]}-{mat_game.score[1]}"
    if crawford:
        headers["Crawford"] = "yes"
    first_roll = next((a for a in mat_game.actions if a.kind in ("roll", "double")), None)
    first = COLOURS[first_roll.player] if first_roll else Colour.WHITE
    headers["Lead"] = first.title
    game = Game(BACKGAMMON, first, headers, crawford=crawford)
    game.errors.extend(mat_game.problems)
    game.headers["Result"] = "*"
    if mat_game.problems:
        return game
    node: Node = game
    actions = mat_game.actions

    def warning(message: Message, rule_id: str = "R-SCORE") -> RecordError:
        # at the line and column of `action`, the loop's: called only while it is played
        return RecordError(message, rule_id, file=file, line=action.line,
                           column=action.column, game=index, severity="warning")

    def step_warning(message: Message) -> RecordError:
        return warning(message, "R-STEP")

    for number, action in enumerate(actions):
        try:
            if action.kind == "wins":
                caps = _caps(length, mat_game.score[action.player])
                node = _wins(node, action, COLOURS[action.player], caps, game.warnings, warning)
            elif action.kind in ("losses",):
                continue
            else:
                following = actions[number + 1] if number + 1 < len(actions) else None
                node = _turn(node, action, following, game.warnings, step_warning)
        except NotationError as problem:
            game.errors.append(_located(problem, action, file, index, node))
            return game
    game.headers["Result"] = game.result if node.state.over else "*"  # node: the game's end
    return game


def _turn(node: Node, action: Action, following: Action | None,
          warnings: list[NotationError], warning: Callable[[Message], RecordError]) -> Node:
    player = COLOURS[action.player]
    state = node.state
    if state.over:
        raise RecordError(Message.of("reader.mat.after-end", player=player.named), "R-END")
    if player is not state.player:
        raise RecordError(Message.of("reader.mat.turn-of", player=player.named, turn=state.player.named),
                          "R-TURN")
    if action.kind == "roll" and action.dice is not None:
        dice = ROLLS[action.dice]
        if action.play is None or (action.play == "-" and _resigns_after(node, dice, following)):
            # "21: ????" (or, from GNU Backgammon, "21:" then the opponent wins):
            # rolled, then resigned.
            child = node.add_turn(RESIGN)
            child.comments.append(f"rolled {action.dice}, then resigned")
            return child
        return play_as_exported(node, dice, action.play, warnings, warning)
    if action.kind == "double":
        child = node.add_turn(DOUBLE)
        if action.value != state.cube * 2:
            raise RecordError(Message.of("reader.mat.cube", cube=state.cube, doubled=state.cube * 2,
                                         value=action.value), "R-CUBE")
        return child
    if action.kind == "beaver":
        raise RecordError(Message.of("reader.mat.beaver"), "R-CUBE")
    return node.add_turn(TAKE if action.kind == "take" else DROP)


def _caps(length: int, score: int) -> tuple[int, ...]:
    """The values a ``Wins`` line may give instead of the full points when the game ends a
    match: what the winner needed, or (a Backgammon Galaxy quirk) the match length."""
    return (length - score, length) if length else ()


def _resigns_after(node: Node, dice: Dice, following: Action | None) -> bool:
    """An empty play that the rules refuse, followed at once by the opponent's win: GNU
    Backgammon's way of writing a roll after which the roller resigned."""
    if following is None or following.kind != "wins" or following.player == COLOURS.index(node.state.player):
        return False
    return bool(legal_plays(node.state.position, dice, node.state.rules)[0].steps)


def _wins(node: Node, action: Action, winner: Colour, caps: tuple[int, ...],
          warnings: list[NotationError], warning: Callable[..., RecordError]) -> Node:
    """Check a ``Wins`` line against the end of the game, or read it as a resignation.
    A win recorded for fewer points than the rules give (seen in real files, whose
    running scores then follow the record) is kept with a warning."""
    state = node.state
    if state.over and state.ended_by != "resign" and state.winner is not None:
        if state.winner is not winner:
            raise RecordError(Message.of("reader.mat.winner", said=winner.named, winner=state.winner.named),
                              "R-SCORE")
        capped = action.value < state.points and action.value in caps and caps[0] <= state.points
        if action.value > state.points:
            raise RecordError(Message.of("reader.mat.wins", value=action.value, points=state.points,
                                         cube=state.cube), "R-SCORE")
        if action.value < state.points and not capped:
            warnings.append(warning(Message.of("reader.mat.wins-kept", value=action.value,
                                               points=state.points, cube=state.cube)))
            node.state = state._replace(points=action.value)
            node.root().headers["Adjudicated"] = "yes"  # so that the other formats keep it too
        return node
    # Not over by the rules: the loser resigned (before or after rolling).
    child = node if node.turn is not None and node.turn.kind == RESIGN else node.add_turn(
        RESIGN, by=winner.other)
    highest = 3 * state.cube
    allowed = (state.cube, 2 * state.cube, highest)
    if action.value not in allowed and action.value in caps and action.value < highest:
        child.state = child.state.resigned_for(next(v for v in allowed if v >= action.value))
    elif action.value > highest:
        # A dialect quirk seen in real files ("Wins 4016 point"): keep the resignation,
        # score the most a resignation can be worth, and say so.
        warnings.append(warning(Message.of("reader.mat.wins-resign", value=action.value, cube=state.cube,
                                           highest=highest)))
        child.state = child.state.resigned_for(highest)
    else:
        child.state = child.state.resigned_for(action.value)
    return child


def _located(problem: NotationError, action: Action, file: str, index: int, node: Node) -> RecordError:
    label = turn_label(node, action.kind, COLOURS[action.player], action.dice)
    play = action.play

    def explain(reason: Message) -> Message:
        """The reason after the roll and play the record wrote, unless it starts with them."""
        if play and not render(reason, "en").startswith(play):
            return Message.of("reader.mat.turn", dice=str(action.dice), play=play, reason=reason)
        return reason

    column, words = action.column, action.words() if play else []
    word = culprit(problem, [word for word, _ in words]) if words else None
    if word is not None:  # the word of the play the problem is about, not the roll
        column = words[word][1]
    return located(problem, file=file, line=action.line, column=column, game=index,
                   turn=label, explain=explain if action.kind == "roll" else None)
