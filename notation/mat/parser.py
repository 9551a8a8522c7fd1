"""Parsing Jellyfish / GNU Backgammon match files (``.mat``) into plain records.

A ``.mat`` file is one match: ``; [Tag "value"]`` comment lines, ``N point match``, then
games. Each game opens with `` Game N`` and a score line `` name1 : score1   name2 :
score2``; then numbered lines hold two columns, player 1 (left) and player 2 (right), each
a roll and its moves (``51: 24/23 13/8``), a cube action (``Doubles => 2``, ``Takes``,
``Drops``) or the end (``Wins 1 point``, ``Losses 1 point``). The column of an action is
told by where it starts: the right column begins where the score line's second name does.

Dialects read (see the project's data README): ``25/`` or ``bar/`` for the bar, ``/0`` or
``/off``, ``*`` hit marks or none, ``(2)`` repeats or moves written out, ``Cannot Move``
or nothing after the roll, ``21: ????`` (rolled, then resigned), ``Losses N point``,
singular or plural ``point(s)``, ``and the match``, empty player names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import RecordError

TAG = re.compile(r'^;\s*\[\s*([^"\]]+?)\s+"(.*)"\s*\]\s*$')
MATCH_LENGTH = re.compile(r"^\s*(\d+)\s+point\s+match\s*$", re.IGNORECASE)
GAME = re.compile(r"^\s*Game\s+(\d+)\s*$", re.IGNORECASE)
SCORE = re.compile(r"^\s*(?P<first>.*?)\s*:\s*(?P<a>\d+)\s+(?P<second>\S.*?|)\s*:\s*(?P<b>\d+)\s*$")
NUMBERED = re.compile(r"^\s*(\d+)\)")
ACTION = re.compile(
    r"(?P<roll>(?P<dice>[1-6][1-6]):(?P<play>(?:[ \t]+(?!Doubles|Takes|Drops|Wins|Losses|Beavers|\d\d:|\d+\))"
    r"(?:Cannot\s+Move|\?\?\?\?|[^\s]+))*))"
    r"|(?P<double>Doubles\s*=>\s*(?P<cube>\d+))"
    r"|(?P<beaver>Beavers\s*=>\s*(?P<beaver_cube>\d+))"
    r"|(?P<take>Takes)"
    r"|(?P<drop>Drops)"
    r"|(?P<wins>Wins\s+(?P<points>\d+)\s+points?(?P<match>\s+and\s+the\s+match)?)"
    r"|(?P<losses>Losses\s+(?P<lost>\d+)\s+points?)"
    r"|(?P<number>\d+\))"
    r"|(?P<other>\S+)",
    re.IGNORECASE,
)


@dataclass
class Action:
    """One thing a column says: ``kind`` is ``roll`` (``dice``, ``play`` text, ``"-"`` when
    no move, ``None`` for ``????``), ``double`` (``value`` the new cube), ``take``,
    ``drop``, ``wins`` (``value`` points, ``match``) or ``losses``. ``player`` is 0 for the
    left column, 1 for the right."""

    kind: str
    player: int
    line: int
    column: int
    dice: str | None = None
    play: str | None = None
    value: int = 0
    match: bool = False


@dataclass
class MatGame:
    number: int
    line: int
    names: tuple[str, str] = ("", "")
    score: tuple[int, int] = (0, 0)
    score_line: int = 0
    actions: list[Action] = field(default_factory=list)
    problems: list[RecordError] = field(default_factory=list)


@dataclass
class MatFile:
    tags: dict[str, str] = field(default_factory=dict)
    length: int | None = None
    games: list[MatGame] = field(default_factory=list)
    problems: list[RecordError] = field(default_factory=list)


def parse_mat(text: str, file: str = "-") -> MatFile:
    """Split a ``.mat`` text into its tags, match length and games of actions. Lines that
    cannot be read become :class:`RecordError` problems of their game (or of the file)."""
    match = MatFile()
    game: MatGame | None = None
    split = 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if not line.strip():
            continue
        tag = TAG.match(line)
        if tag:
            match.tags[tag.group(1).strip()] = tag.group(2)
            continue
        if line.lstrip().startswith(";"):
            continue
        length = MATCH_LENGTH.match(line)
        if length and game is None:
            match.length = int(length.group(1))
            continue
        header = GAME.match(line)
        if header:
            game = MatGame(int(header.group(1)), number)
            match.games.append(game)
            split = 0
            continue
        if game is None:
            match.problems.append(RecordError(f"cannot read {line.strip()!r} before the first game",
                                              "SYNTAX", file=file, line=number, column=1))
            continue
        score = SCORE.match(line) if not split and not NUMBERED.match(line) else None
        if score:
            game.names = (score.group("first"), score.group("second"))
            game.score = (int(score.group("a")), int(score.group("b")))
            game.score_line = number
            split = score.start("second") if score.group("second") else score.start("b") - 2
            continue
        _read_actions(game, line, number, split, file)
    return match


def _read_actions(game: MatGame, line: str, number: int, split: int, file: str) -> None:
    numbered = NUMBERED.match(line)
    position = numbered.end() if numbered else 0
    for found in ACTION.finditer(line, position):
        column = found.start() + 1
        player = 1 if split and found.start() >= split - 1 else 0
        kind = found.lastgroup  # the outer group: its inner groups close before it
        if kind == "number":  # a move number repeated in the right column (Galaxy)
            continue
        if kind == "other":
            game.problems.append(RecordError(f"cannot read {found.group().strip()!r}", "SYNTAX",
                                             file=file, line=number, column=column,
                                             game=game.number))
            return
        action = Action(kind, player, number, column)
        if kind == "roll":
            action.dice = found.group("dice")
            play = " ".join(found.group("play").split())
            if play == "????":
                action.play = None
            elif not play or play.lower() == "cannot move":
                action.play = "-"
            else:
                action.play = play
        elif kind == "double":
            action.value = int(found.group("cube"))
        elif kind == "beaver":
            action.value = int(found.group("beaver_cube"))
        elif kind == "wins":
            action.value = int(found.group("points"))
            action.match = bool(found.group("match"))
        elif kind == "losses":
            action.value = int(found.group("lost"))
        game.actions.append(action)
