"""Writing ``.mat`` match files in GNU Backgammon's own dialect (what its ``export match
mat`` writes), so that GNU Backgammon imports them.

Every single-die step is written as its own move, bar as 25 and off as 0, hits marked
with ``*``; player 1 (White) in the left column, player 2 (Black) in the right. The
header holds the match's tags under the names the reader takes them from (``Player 1
Elo``, ``Crawford``, ``CubeLimit``, ...), so that reading it back gives the same tags;
:func:`left_out` names what it cannot hold.
"""

from __future__ import annotations

from functools import reduce

from notation.engine.state import DOUBLE, DROP, RESIGN, ROLL, TAKE, Colour
from notation.errors import FormatError
from notation.formats.mat.reader import TAG_NAMES, header_name
from notation.messages import Message
from notation.tree.game import Game, GameNode

LEFT_WIDTH = 28
SCORE_WIDTH = 31
MAT_NAMES = {tag: name for name, tag in TAG_NAMES.items() if tag}
"""The ``.mat`` name of each tag the reader renames (``WhiteElo`` is ``Player 1 Elo``);
any other tag keeps its own."""
GAME_TAGS = frozenset({"Variant", "MatchLength", "Game", "Score", "Crawford", "Lead",
                       "LeadRoll", "Result", "Adjudicated"})
"""The tags a ``.mat`` says otherwise than by a header line of their own: the rule set (always
backgammon: ``Variation "Backgammon"``), the ``N point match`` line, each game's ``Game N``
and score lines, the first roll's column and dice (in backgammon the lead roll is the first
roll), the ``Wins`` line (with the points the match awarded); the Crawford game follows
from the ``Crawford`` rule and the scores."""
HEADER_ORDER = ("Site", "Match ID", "Event", "Round", "Player 1", "Player 2", "Player 1 Elo",
                "Player 2 Elo", "EventDate", "EventTime", "Variation", "Unrated", "Crawford",
                "CubeLimit", "ClockType", "Annotator")
"""The order of a header's tags: the real exports' (Backgammon Galaxy's and Backgammon
Studio's), then any other tag in the order of the first game's tags."""


class NotBackgammon(FormatError):
    """Only the games of one match can be written as one ``.mat``."""


def _turn_text(node: GameNode) -> str:
    turn = node.turn
    assert turn is not None, "the game's root is no turn"
    if turn.kind == ROLL and turn.play is not None:
        steps = " ".join(f"{s.from_point}/{s.to_point}{'*' if s.hit else ''}" for s in turn.play.steps)
        return f"{turn.dice}: {steps}".rstrip() if steps else f"{turn.dice}:"
    if turn.kind == DOUBLE:
        return f" Doubles => {node.state.cube * 2}"
    if turn.kind == TAKE:
        return " Takes"
    if turn.kind == DROP:
        return " Drops"
    raise AssertionError(turn.kind)  # pragma: no cover - resignations end the lines


def _lines(game: Game) -> list[str]:
    lines: list[str] = []
    left: str | None = None
    right: str | None = None

    def flush() -> None:
        nonlocal left, right
        if left is not None or right is not None:
            column = (left or "").ljust(LEFT_WIDTH)
            if right and len(left or "") >= LEFT_WIDTH and not right.startswith(" "):
                column += " "
            lines.append(f"{len(lines) + 1:3d}) {column}{right or ''}".rstrip())
        left = right = None

    for node in game.mainline():
        turn = node.turn
        assert turn is not None, "the game's root is no turn"
        if turn.kind == RESIGN:
            continue
        text = _turn_text(node)
        if turn.player is Colour.WHITE:
            flush()
            left = text
        else:
            if right is not None:
                flush()
            right = text
    state = game.end().state
    wins = None
    if state.winner is not None:
        points = state.points
        wins = (f"Wins {points} point{'s' if points != 1 else ''}"
                f"{' and the match' if _ends_match(game, points) else ''}")
        if state.winner is Colour.BLACK and left is not None and right is None:
            right, wins = " " + wins, None  # gnubg puts it beside the last left action
    flush()
    if wins is not None:
        indent = 6 if state.winner is Colour.WHITE else 34
        lines.append(f"{'':{indent}}{wins}")
    return lines


def _ends_match(game: Game, points: int) -> bool:
    try:
        length = int(game.headers.get("MatchLength", "0"))
        white, black = (int(v) for v in game.headers.get("Score", "0-0").split("-"))
    except ValueError:
        return False
    score = white if game.end().state.winner is Colour.WHITE else black
    return bool(length) and score + points >= length


def mat_name(tag: str) -> str | None:
    """The name ``tag`` has in a ``.mat`` header: one the reader makes ``tag`` again, or
    ``None`` if there is none (``EventDate`` is read as ``Date``)."""
    name = MAT_NAMES.get(tag, tag)
    return name if header_name(name) == tag else None


def _header_tags(games: list[Game]) -> dict[str, str]:
    """The tags of a ``.mat`` header, by their ``.mat`` names in :data:`HEADER_ORDER`: the
    first game's tags that have a ``.mat`` name, bar :data:`GAME_TAGS`; ``Variation`` and
    the players always."""
    tags = {"Variation": "Backgammon", "Player 1": "", "Player 2": ""}
    for tag, value in games[0].headers.items():
        name = mat_name(tag)
        if name and tag not in GAME_TAGS:
            tags[name] = value
    order = sorted(tags, key=lambda name: HEADER_ORDER.index(name) if name in HEADER_ORDER
                   else len(HEADER_ORDER))
    return {name: tags[name] for name in order}


def _tags_left_out(games: list[Game]) -> list[Message]:
    """The tags a ``.mat`` of ``games`` leaves out, each kind said in a clause: those with no
    ``.mat`` name, and those a later game has with another value than the first game (or
    has where the first has not, or not where it has): the header holds the first game's tags."""
    first = games[0].headers
    tags = dict.fromkeys(tag for game in games for tag in game.headers if tag not in GAME_TAGS)
    nameless = [tag for tag in tags if mat_name(tag) is None]
    varying = [tag for tag in tags if tag not in nameless
               and any(game.headers.get(tag) != first.get(tag) for game in games)]
    said = []
    if nameless:
        said.append(Message.of("format.mat.left-out.nameless", count=len(nameless), tags=nameless))
    if varying:
        said.append(Message.of("format.mat.left-out.varying", tags=varying))
    return said


def left_out(games: list[Game]) -> Message | None:
    """What a ``.mat`` of ``games`` cannot hold (comments, NAGs, variations, tags), said in
    a sentence; ``None`` if nothing is lost."""
    said = [part for part in (_moves_left_out(games), *(_tags_left_out(games) if games else [])) if part]
    return reduce(lambda first, then: Message.of("list.then", first=first, then=then), said) if said else None


def _moves_left_out(games: list[Game]) -> Message | None:
    """How many comments, NAGs and variations a ``.mat`` of ``games`` leaves out."""
    comments = nags = variations = 0
    for game in games:
        comments += len(game.comments)
        variations += max(0, len(game.variations) - 1)
        for node in game.descendants():
            starting, after, marks = node.annotations()
            comments += len(starting) + len(after)
            nags += len(marks)
            variations += max(0, len(node.variations) - 1)
    kept_out = [Message.of(counted, count=count) for counted, count in (
        ("count.comments", comments), ("count.nags", nags), ("count.variations", variations)) if count]
    return Message.of("format.mat.left-out.moves", counts=kept_out) if kept_out else None


def write_mat(games: list[Game]) -> str:
    """A match of backgammon games as ``.mat`` text (the registry's ``mat``
    :class:`~notation.formats.registry.Format` says that it holds backgammon only, and
    refuses other games); :class:`NotBackgammon` for games of several matches.
    Running scores come from the games' ``Score`` tags or, missing, from their results."""
    if not games:
        return ""
    matches = {(g.headers.get("Match"), g.headers.get("MatchLength"), g.headers.get("White"),
                g.headers.get("Black")) for g in games}
    if len(matches) > 1:
        raise NotBackgammon(Message.of("format.mat.one-match", count=len(matches)))
    first = games[0].headers
    out = [f'; [{name} "{_one_line(value)}"]' for name, value in _header_tags(games).items()]
    out += ["", f" {first.get('MatchLength', '0')} point match", ""]
    running = [0, 0]
    for number, game in enumerate(games, 1):
        score = _score(game, running)
        white = _score_half(game.headers.get("White", ""), score[0])
        black = f"{_one_line(game.headers.get('Black', ''))} : {score[1]}"
        out += [f" Game {number}", f" {white:<{SCORE_WIDTH}}{black}"]
        out += _lines(game)
        out.append("")
        state = game.end().state
        running = list(score)
        if state.winner is not None:
            running[state.winner.index] += state.points
    return "\n".join(out) + "\n"


def _score_half(name: str, score: int) -> str:
    """White's half of a score line, ``name : score``, cut to leave Black's name where his
    column of moves starts (readers find the columns there); the Player 1 tag keeps the
    whole name."""
    points = f" : {score}"
    return _one_line(name)[:SCORE_WIDTH - 1 - len(points)].rstrip() + points


def _one_line(value: str) -> str:
    """A tag's value on one line (``.mat`` has no way to write a line break in one)."""
    return " ".join(value.splitlines()) if "\n" in value or "\r" in value else value


def _score(game: Game, running: list[int]) -> tuple[int, int]:
    text = game.headers.get("Score")
    if text:
        try:
            white, black = (int(v) for v in text.split("-"))
            return white, black
        except ValueError:
            pass
    return running[0], running[1]
