"""R-MATCH across the games of a file: a match's score before each game (its ``Score``
tag) must be the sum of the results of the games before it.

The ``.mat`` reader checks its own score lines; this checks the same for the formats that
carry the score in a tag (text notation, XML, JSON), game by game as they are read.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from notation.errors import RecordError
from notation.tree.game import Game
from notation.tree.tags import MATCH_NUMBERS


def _match(game: Game) -> tuple | None:
    """What tells a game's match: its name and length and its players (``None`` when the
    game names no match)."""
    headers = game.headers
    if not headers.get("Match") and not headers.get("MatchLength"):
        return None
    return (headers.get("Match"), headers.get("MatchLength"), headers.get("White"), headers.get("Black"))


def _score(game: Game) -> tuple[int, int] | None:
    text = game.headers.get("Score", "").strip()
    if not MATCH_NUMBERS["Score"].fullmatch(text):
        return None
    white, black = text.split("-")
    return int(white), int(black)


def checked_scores(games: Iterable[Game], file: str) -> Iterator[Game]:
    """``games`` as they come, each following a game of its match (read whole, with a
    result and a score, and not its last) with an R-MATCH error if its ``Score`` is not
    that game's score plus its result. A game numbered (``Game``) other than the one
    before plus one, or at 0-0 when the games are not numbered, starts a match anew."""
    expected: tuple | None = None  # (match, the score after the game before, its number)
    for index, game in enumerate(games, 1):
        match, score, number = _match(game), _score(game), _number(game)
        follows = expected is not None and match == expected[0] and score is not None and (
            number == expected[2] + 1 if number is not None and expected[2] is not None
            else score != (0, 0))
        if follows and score != expected[1] and not game.errors:
            white, black = expected[1]
            line = game.tag_lines.get("Score", 0)
            game.errors.append(RecordError(
                f"the Score tag says {score[0]}-{score[1]}, but the games before give "
                f"{white}-{black}", "R-MATCH", file=file, line=line, column=1 if line else 0,
                game=index))
        expected = _after(game, match, score, number)
        yield game


def _number(game: Game) -> int | None:
    text = game.headers.get("Game", "").strip()
    return int(text) if MATCH_NUMBERS["Game"].fullmatch(text) else None


def _after(game: Game, match: tuple | None, score: tuple[int, int] | None,
           number: int | None) -> tuple | None:
    """What the next game of the match must say: ``None`` when there is no telling (no
    match, no score, an error, no result) or when this game ended its match."""
    if match is None or score is None or game.errors:
        return None
    result = game.headers.get("Result") or game.result  # game.result walks the main line
    if result[:1] not in ("W", "B"):
        return None
    after = list(score)
    after[0 if result[0] == "W" else 1] += int(result[2:])
    length = game.headers.get("MatchLength", "").strip()
    if MATCH_NUMBERS["MatchLength"].fullmatch(length) and 0 < int(length) <= max(after):
        return None  # the match is over: the next game starts another
    return match, tuple(after), number
