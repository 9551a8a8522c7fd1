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

import io
import re
from dataclasses import dataclass, field

from notation.errors import RecordError, quoted
from notation.formats.reading import Budget, line_too_long
from notation.limits import MAX_LINE_BYTES, NUMBER
from notation.messages import Message

TAG = re.compile(r'^;\s*\[\s*([^"\]\s](?:[^"\]]*[^"\]\s])?)\s+"(.*)"\s*\]\s*$')
MATCH_LENGTH = re.compile(rf"^\s*({NUMBER})\s+point\s+match\s*$", re.IGNORECASE)
GAME = re.compile(rf"^\s*Game\s+({NUMBER})\s*$", re.IGNORECASE)
FIRST_SCORE = re.compile(rf":\s*({NUMBER})\s")
LAST_SCORE = re.compile(rf":\s*({NUMBER})\s*$")
NUMBERED = re.compile(r"^\s*(\d+)\)")
# White space before an action is skipped inside its match (every action starts with
# something else), and the spaces before each word of a play are never given back: a
# long run of spaces between the columns costs one pass. A play goes on until a word that
# starts another action; a move (``13/7``, the most common word) cannot, so it is taken
# without that test.
ACTION = re.compile(
    r"\s*+(?:"
    r"(?P<roll>(?P<dice>[1-6][1-6]):(?P<play>(?:[ \t]++(?:\d{1,2}/\S*+"
    r"|(?!Doubles|Takes|Drops|Wins|Losses|Beavers|\d\d:|\d+\))(?:Cannot\s+Move|\?\?\?\?|[^\s]+)))*))"
    rf"|(?P<double>Doubles\s*=>\s*(?P<cube>{NUMBER}))"
    rf"|(?P<beaver>Beavers\s*=>\s*(?P<beaver_cube>{NUMBER}))"
    r"|(?P<take>Takes)"
    r"|(?P<drop>Drops)"
    rf"|(?P<wins>Wins\s+(?P<points>{NUMBER})\s+points?(?P<match>\s+and\s+the\s+match)?)"
    rf"|(?P<losses>Losses\s+(?P<lost>{NUMBER})\s+points?)"
    r"|(?P<number>\d+\))"
    r"|(?P<other>\S+))",
    re.IGNORECASE,
)
# The group of ACTION that holds the number of each kind of action that has one.
VALUE_GROUPS = {"double": "cube", "beaver": "beaver_cube", "wins": "points", "losses": "lost"}


@dataclass(slots=True)
class Action:
    """One thing a column says: ``kind`` is ``roll`` (``dice``, ``play`` text, ``"-"`` when
    no move, ``None`` for ``????``), ``double`` (``value`` the new cube), ``take``,
    ``drop``, ``wins`` (``value`` points, ``match``) or ``losses``. ``player`` is 0 for the
    left column, 1 for the right. A roll's play as the line writes it (``written``, its
    spacing kept) starts at column ``play_column``: where an error of the play points."""

    kind: str
    player: int
    line: int
    column: int
    dice: str | None = None
    play: str | None = None
    value: int = 0
    match: bool = False
    written: str = ""
    play_column: int = 0

    def words(self) -> list[tuple[str, int]]:
        """The words of a roll's play as written, each with its column."""
        return [(word.group(), self.play_column + word.start())
                for word in re.finditer(r"\S+", self.written)]


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
    """Split a ``.mat`` text into its tags, match length and games of actions. A line that
    cannot be read is a :class:`RecordError` problem of its game (or of the file; the first
    of each is kept). A line over :data:`~notation.limits.MAX_LINE_BYTES` bytes, or more
    than :data:`~notation.limits.MAX_POSITIONS` records (games, actions, and the copies of
    the match's tags every game carries), raises a ``LIMIT`` error."""
    match = MatFile()
    game: MatGame | None = None
    split = 0
    budget = Budget()
    for number, raw in enumerate(io.StringIO(text, newline=None), 1):
        if len(raw) > MAX_LINE_BYTES // 4 and len(raw.rstrip("\n").encode("utf-8")) > MAX_LINE_BYTES:
            raise line_too_long(file, number, len(match.games))
        line = raw.rstrip()
        if not line:
            continue
        # a numbered line (most of a file) is never a tag, comment, length or game line
        numbered = NUMBERED.match(line)
        if numbered is None:
            tag = TAG.match(line)
            if tag:
                name = tag.group(1).strip()
                if name not in match.tags and not budget.spend(1 + len(match.games)):
                    raise budget.error("one file", file=file, line=number, column=1)
                match.tags[name] = tag.group(2)
                continue
            if line.lstrip().startswith(";"):
                continue
            length = MATCH_LENGTH.match(line)
            if length and game is None:
                match.length = int(length.group(1))
                continue
            header = GAME.match(line)
            if header:
                if not budget.spend(1 + len(match.tags)):
                    raise budget.error("one file", file=file, line=number, column=1)
                game = MatGame(int(header.group(1)), number)
                match.games.append(game)
                split = 0
                continue
        if game is None:
            if not match.problems:
                match.problems.append(RecordError(
                    Message.of("reader.mat.before-game", text=quoted(line.strip())), "SYNTAX", file=file,
                    line=number, column=1))
            continue
        score = _score(line) if not split and numbered is None else None
        if score:
            game.names, game.score, split = score
            game.score_line = number
            continue
        before = len(game.actions)
        _read_actions(game, line, numbered.end() if numbered else 0, number, split, file,
                      len(match.games))
        if not budget.spend(len(game.actions) - before):
            raise budget.error("one file", file=file, line=number, column=1, game=len(match.games))
    return match


def _score(line: str) -> tuple[tuple[str, str], tuple[int, int], int] | None:
    """A score line, `` name1 : score1   name2 : score2``: the names, the scores, and where
    the right column starts. Found with two scans that cannot backtrack far (a single
    regular expression for the whole line takes cubic time on a line of spaces)."""
    first = FIRST_SCORE.search(line)
    last = LAST_SCORE.search(line, first.end() - 1) if first else None
    if first is None or last is None:
        return None
    between = line[first.end() - 1:last.start()]
    second = between.strip()
    split = (first.end() - 1 + len(between) - len(between.lstrip())) if second else last.start(1) - 2
    return ((line[:first.start()].strip(), second), (int(first.group(1)), int(last.group(1))),
            split)


def _read_actions(game: MatGame, line: str, position: int, number: int, split: int, file: str,
                  index: int) -> None:
    """Add the actions of ``line`` from ``position`` (after its move number) to ``game``;
    the first word that cannot be read is a problem of the game, and ends the line."""
    actions = game.actions
    for found in ACTION.finditer(line, position):
        kind = found.lastgroup or "other"  # the outer group: its inner groups close before it
        if kind == "number":  # a move number repeated in the right column (Galaxy)
            continue
        start = found.start(kind)
        if kind == "other":
            if not game.problems:
                game.problems.append(RecordError(Message.of("reader.mat.unreadable",
                                                            text=quoted(found.group(kind))),
                                                 "SYNTAX", file=file, line=number,
                                                 column=start + 1, game=index))
            return
        player = 1 if split and start >= split - 1 else 0
        if kind == "roll":
            actions.append(Action(kind, player, number, start + 1, found["dice"],
                                  _play(found.group("play")), written=found.group("play"),
                                  play_column=found.start("play") + 1))
        elif kind in VALUE_GROUPS:
            actions.append(Action(kind, player, number, start + 1,
                                  value=int(found.group(VALUE_GROUPS[kind])),
                                  match=kind == "wins" and bool(found.group("match"))))
        else:
            actions.append(Action(kind, player, number, start + 1))


_WITHOUT_MOVES = {"": "-", "cannot move": "-", "????": None}
"""The plays written without a move, in lower case, as the reader takes them: nothing and
``Cannot Move`` are no move (``"-"``), ``????`` a roll its player resigned after (``None``)."""


def _play(written: str) -> str | None:
    """A roll's play as the reader takes it: its words one space apart, ``"-"`` for no move
    (nothing, or ``Cannot Move``), ``None`` for ``????``."""
    play = " ".join(written.split())
    return _WITHOUT_MOVES.get(play.lower(), play)
