"""R-MATCH across the games of a file: a match's score before each game (its ``Score``
tag) must be the sum of the results of the games before it.

:func:`checked_scores` checks it for the formats that carry the score in a tag (text
notation, XML, JSON), game by game as they are read; the ``.mat`` reader checks its score
lines with the same :func:`check_score` and :func:`score_after`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from notation.errors import RecordError
from notation.messages import Message
from notation.tree.game import Game
from notation.tree.tags import MATCH_NUMBERS

Match = tuple[str | None, str | None, str | None, str | None]
"""What tells a game's match (:func:`_match`)."""
Expected = tuple[Match, tuple[int, int], int | None]
"""What the next game of a match must say: its match, its score, the number before its own."""


def _match(game: Game) -> Match | None:
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
    expected: Expected | None = None  # (match, the score after the game before, its number)
    for index, game in enumerate(games, 1):
        match, score, number = _match(game), _score(game), _number(game)
        follows = expected is not None and match == expected[0] and score is not None and (
            number == expected[2] + 1 if number is not None and expected[2] is not None
            else score != (0, 0))
        if follows and score is not None and expected is not None:
            line = game.tag_lines.get("Score", 0)
            check_score(game, "match.score.tag", score, expected[1], file=file, line=line,
                        column=1 if line else 0, index=index)
        expected = _after(game, match, score, number)
        yield game


def check_score(game: Game, said: str, score: tuple[int, int], before: tuple[int, int], *,
                file: str, line: int, column: int, index: int) -> None:
    """R-MATCH, an error of ``game`` (the ``index``-th of ``file``) unless it has one
    already, if the ``score`` it starts at (where ``said``, the id of the message that names
    the place, ``match.score.tag`` or ``match.score.line``, at ``line`` and ``column``) is
    not ``before``, what the games before it give."""
    if score != before and not game.errors:
        game.errors.append(RecordError(
            Message.of(said, score=f"{score[0]}-{score[1]}", before=f"{before[0]}-{before[1]}"),
            "R-MATCH", file=file, line=line, column=column,
            game=index))


def score_after(game: Game, score: tuple[int, int]) -> tuple[int, int] | None:
    """The score after ``game``, which started at ``score``: its winner's points added;
    ``None`` when there is no telling (an error, no result)."""
    if game.errors:
        return None
    result = game.headers.get("Result") or game.result  # game.result walks the main line
    if result[:1] not in ("W", "B"):
        return None
    white, black = score
    points = int(result[2:])
    return (white + points, black) if result[0] == "W" else (white, black + points)


def _number(game: Game) -> int | None:
    text = game.headers.get("Game", "").strip()
    return int(text) if MATCH_NUMBERS["Game"].fullmatch(text) else None


def _after(game: Game, match: Match | None, score: tuple[int, int] | None,
           number: int | None) -> Expected | None:
    """What the next game of the match must say: ``None`` when there is no telling (no
    match, no score, an error, no result) or when this game ended its match."""
    if match is None or score is None:
        return None
    after = score_after(game, score)
    if after is None:
        return None
    length = game.headers.get("MatchLength", "").strip()
    if MATCH_NUMBERS["MatchLength"].fullmatch(length) and 0 < int(length) <= max(after):
        return None  # the match is over: the next game starts another
    return match, after, number
