"""Writing ``.mat`` match files in GNU Backgammon's own dialect (what its ``export match
mat`` writes), so that GNU Backgammon imports them.

Every single-die step is written as its own move, bar as 25 and off as 0, hits marked
with ``*``; player 1 (White) in the left column, player 2 (Black) in the right.
"""

from __future__ import annotations

from ..game import Game
from ..state import DOUBLE, DROP, RESIGN, ROLL, TAKE, Colour

LEFT_WIDTH = 28
SCORE_WIDTH = 31
MATCH_TAGS = (("Site", "Site"), ("Event", "Event"), ("Round", "Round"), ("Date", "EventDate"),
              ("Time", "EventTime"), ("Match", "Match ID"), ("Annotator", "Annotator"))


class NotBackgammon(ValueError):
    """Only the games of one ``backgammon`` match can be written as one ``.mat``."""


def _turn_text(node) -> str:
    turn = node.turn
    if turn.kind == ROLL:
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


def left_out(games: list[Game]) -> str | None:
    """What a ``.mat`` of ``games`` cannot hold (comments, NAGs, variations), said in
    a sentence; ``None`` if nothing is lost."""
    comments = nags = variations = 0
    for game in games:
        comments += len(game.comments)
        variations += max(0, len(game.variations) - 1)
        for node in game.descendants():
            starting, after, marks = node.annotations()
            comments += len(starting) + len(after)
            nags += len(marks)
            variations += max(0, len(node.variations) - 1)
    kept_out = [f"{count} {word}" for count, word in ((comments, "comment(s)"), (nags, "NAG(s)"),
                                                       (variations, "variation(s)")) if count]
    if not kept_out:
        return None
    return f".mat holds the main line's moves only: {', '.join(kept_out)} left out"


def write_mat(games: list[Game]) -> str:
    """A match of backgammon games as ``.mat`` text; :class:`NotBackgammon` otherwise.
    Running scores come from the games' ``Score`` tags or, missing, from their results."""
    if not games:
        return ""
    for game in games:
        if game.rules.name != "backgammon":
            raise NotBackgammon(f".mat holds backgammon only, not {game.rules.name}")
    matches = {(g.headers.get("Match"), g.headers.get("MatchLength"), g.headers.get("White"),
                g.headers.get("Black")) for g in games}
    if len(matches) > 1:
        raise NotBackgammon(f"a .mat file holds one match; these games come from {len(matches)} "
                            "(write one match per file, or use .jqn, .xml or .json)")
    first = games[0].headers
    out = [f'; [{name} "{_one_line(first[key])}"]' for key, name in MATCH_TAGS if first.get(key)]
    out += [f'; [Player 1 "{_one_line(first.get("White", ""))}"]',
            f'; [Player 2 "{_one_line(first.get("Black", ""))}"]']
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
