"""Checking a record sent to the Validate page: its format (named, from the file's
extension, or sniffed from the text), its games read by :func:`notation.formats.read_file`
from a temporary file (the same hardened readers as ``jacquet validate``), and every
problem placed on its line of the source, with the board as the reader left it.

Both run in a worker process (:mod:`webviewer.plumbing.workers`): :func:`check_record`
gives back a :class:`Report` whose games are summed up (:class:`GameLine`), never game
trees; :func:`save_record` reads, checks and stores a record there.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from itertools import islice
from pathlib import Path
from typing import cast

from archive import ImportSummary, import_games, open_archive, stored_id
from archive.audit import logging_stored
from notation.errors import RecordError
from notation.formats import EXTENSIONS, READABLE, read_file
from notation.messages import Message, render
from notation.tree.game import Game
from webviewer.pages.board_view import board_svg

MAT_HEADER = re.compile(r"^[ \t]*\d+[ \t]+point[ \t]+match\b", re.IGNORECASE | re.MULTILINE)
JSON_START = re.compile(r'\{\s*"|\[\s*[{\]]')
TOKEN = re.compile(r"\S*")
NAME_UNSAFE = re.compile(r"[\x00-\x1f\x7f]")
PASTED = "pasted record"
"""The name of a record pasted rather than uploaded, as the archive keeps it (the source
of its games); the Validate page calls it so in its language."""


MAX_TURNS = 20_000
"""Turns (variations included) one validation or save may hold, all its games together
(config ``MAX_TURNS``): 50,000 turns of murray, the slowest to check, took 31 s on a
loaded machine, past the workers' time (``WORK_SECONDS``), which would stop the work with
no word of what to split. The readers' own bound is larger
(:data:`notation.limits.MAX_POSITIONS` per file)."""


class TooLarge(ValueError):
    """The record holds more games, or more turns, than one request may check: ``limit``
    is the limit it crossed, ``game`` the game that crosses the turns' limit (``None``:
    the games' limit); the Validate page says which, and what to do, in its language."""

    def __init__(self, limit: int, game: int | None = None) -> None:
        super().__init__(limit, game)
        self.limit = limit
        self.game = game


def display_name(filename: str | None) -> str:
    """What to call an uploaded file in messages: its base name without control
    characters, at most 100 characters; never used as a path.

    >>> display_name("C:\\\\games\\\\../x/<b>.jqn")
    '<b>.jqn'
    >>> display_name("")
    'pasted record'
    """
    base = re.split(r"[/\\]", filename or "")[-1]
    return NAME_UNSAFE.sub("", base).strip()[:100] or PASTED


def format_of_upload(filename: str | None, text: str) -> str:
    """The format a file's extension names, else the one its text looks like."""
    suffix = Path(display_name(filename)).suffix.lower()
    return EXTENSIONS.get(suffix) or sniff(text)


def sniff(text: str) -> str:
    """The format ``text`` looks like: XML, SGF, JSON, a ``.mat`` match (its ``N point
    match`` header), else the text notation.

    >>> [sniff(t) for t in ("<?xml version='1.0'?>", "(;FF[4]GM[6]", '[{"headers": {}}]',
    ...                     "; [Site \\"x\\"]\\n\\n 3 point match\\n", '[Event "x"]')]
    ['xml', 'sgf', 'json', 'mat', 'jqn']
    """
    head = text.lstrip("\ufeff \t\r\n")
    if head.startswith(("<?xml", "<games")):
        return "xml"
    if head.startswith("(;"):
        return "sgf"
    if JSON_START.match(head):
        return "json"
    if MAT_HEADER.search(head[:4000]):
        return "mat"
    return "jqn"


@dataclass(frozen=True)
class GameLine:
    """One game of a record as the pages show it: its players, rule set, result, the
    plies read, its errors and warnings counted."""

    white: str
    black: str
    variant: str
    result: str
    plies: int
    errors: int
    warnings: int
    found: bool = True
    """Whether it is a game at all: not something with no tag (but the Variant a reader
    gives every game) and no turn, refused for its syntax alone (text that is no record)."""

    @classmethod
    def of(cls, game: Game) -> GameLine:
        headers = game.headers
        plies = game.end().ply
        found = (any(name != "Variant" for name in headers) or plies > 0
                 or any(error.rule_id != "SYNTAX" for error in game.errors) or not game.errors)
        return cls(headers.get("White", "?"), headers.get("Black", "?"), game.rules.name,
                   headers.get("Result") or game.result, plies, len(game.errors),
                   len(game.warnings), found)


@dataclass
class Problem:
    """One error or warning, numbered in the order of the source (its anchor is
    ``p<number>``), with the board where the reader stopped for an error of a game."""

    number: int
    severity: str
    rule: str
    message: str
    line: int
    column: int
    game: int
    turn: str
    legal_plays: tuple[str, ...] = ()
    board: str | None = None

    def excerpt(self, lines: list[str]) -> tuple[str, str, str] | None:
        """The offending line cut around the token at the column (before, token, after)."""
        if not 1 <= self.line <= len(lines) or self.column < 1:
            return None
        text = lines[self.line - 1]
        start = min(self.column - 1, len(text))
        token = TOKEN.match(text, start).group()  # type: ignore[union-attr]  # (\S* always matches)
        return text[:start], token, text[start + len(token):]


SHOWN_LINES = 2000
"""A record of more lines is shown in part (see :meth:`Report.shown_lines`): the page of a
huge paste stays small."""
HEAD_LINES = 200
CONTEXT_LINES = 3


@dataclass
class Report:
    """What reading a record found: its games and problems, and the source by line."""

    name: str
    fmt: str
    variant: str
    text: str
    games: list[GameLine] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @cached_property
    def lines(self) -> list[str]:
        return self.text.split("\n")

    @property
    def errors(self) -> int:
        return sum(p.severity == "error" for p in self.problems)

    @property
    def warnings(self) -> int:
        return sum(p.severity == "warning" for p in self.problems)

    @property
    def invalid_games(self) -> int:
        return sum(bool(game.errors) for game in self.games)

    @property
    def games_found(self) -> int:
        """The games read that are games at all (:attr:`GameLine.found`)."""
        return sum(game.found for game in self.games)

    @property
    def savable(self) -> bool:
        """Every game read, at least one, and none with an error."""
        return bool(self.games) and not self.errors

    def on_line(self) -> dict[int, list[Problem]]:
        """The problems of each line that has some."""
        placed: dict[int, list[Problem]] = {}
        for problem in self.problems:
            if 1 <= problem.line <= len(self.lines):
                placed.setdefault(problem.line, []).append(problem)
        return placed

    def unplaced(self) -> list[Problem]:
        """The problems the reader could not tie to a line of the source."""
        count = len(self.lines)
        return [p for p in self.problems if not 1 <= p.line <= count]

    def shown_lines(self) -> list[tuple[int, str | None]]:
        """The lines the page shows, numbered from 1: every line of a record of at most
        :data:`SHOWN_LINES` lines; of a longer one, its first :data:`HEAD_LINES` and those
        around each problem, each run left out as ``(lines left out, None)``."""
        count = len(self.lines)
        if count <= SHOWN_LINES:
            return list(enumerate(self.lines, 1))
        kept = set(range(1, HEAD_LINES + 1))
        for line in self.on_line():
            kept.update(range(max(1, line - CONTEXT_LINES), min(count, line + CONTEXT_LINES) + 1))
        shown: list[tuple[int, str | None]] = []
        previous = 0
        for number in sorted(kept):
            if number > previous + 1:
                shown.append((number - previous - 1, None))
            shown.append((number, self.lines[number - 1]))
            previous = number
        if previous < count:
            shown.append((count - previous, None))
        return shown

    def first_problem(self, game: int) -> Problem | None:
        return next((p for p in self.problems if p.game == game), None)


def check_record(text: str, fmt: str, variant: str, name: str, max_games: int,
                 max_turns: int = MAX_TURNS, language: str = "en") -> Report:
    """Read and check ``text`` as a file in ``fmt`` (``variant`` for text records without
    a Variant tag), the problems said in ``language``. Raises :class:`TooLarge` past
    ``max_games`` games or ``max_turns`` turns (variations included), as soon as the game
    that crosses it is read."""
    return _read(text, fmt, variant, name, (max_games, max_turns), language)[0]


@dataclass
class Saved:
    """What saving a record did: its report, and if it was saved (every game valid), the
    import's summary and each game with its id and whether it was there already."""

    report: Report
    summary: ImportSummary | None = None
    games: list[tuple[GameLine, int | None, bool]] = field(default_factory=list)


def save_record(archive: str, text: str, fmt: str, variant: str, name: str, user: str | None,
                max_games: int, max_turns: int = MAX_TURNS) -> Saved:
    """Read and check ``text`` as :func:`check_record` does, and if it is savable store
    its games in the archive at ``archive`` (those already there are reported as
    duplicates), each with its line in the audit log (saved by ``user``), in the same
    transaction."""
    report, games = _read(text, fmt, variant, name, (max_games, max_turns))
    if not report.savable:
        return Saved(report)
    db = open_archive(archive)
    try:
        known = [stored_id(db, game) for game in games]
        summary = import_games(db, games, source=name,
                               on_stored=logging_stored(db, user, Message.of("audit.saved", name=name)))
        seen: set[int | None] = set()
        saved = []
        for line, game, before in zip(report.games, games, known, strict=True):
            game_id = before or stored_id(db, game)
            saved.append((line, game_id, before is not None or game_id in seen))
            seen.add(game_id)
    finally:
        db.close()
    return Saved(report, summary, saved)


def _read(text: str, fmt: str, variant: str, name: str,
          limits: tuple[int, int], language: str = "en") -> tuple[Report, list[Game]]:
    """The record's report (its problems said in ``language``) and its games (at most
    ``limits``: games, turns)."""
    if fmt not in READABLE:
        raise ValueError(f"unknown format {fmt!r}")
    report = Report(name, fmt, variant, text)
    found: list[tuple[int, RecordError, Game | None]] = []
    games: list[Game] = []
    with tempfile.TemporaryDirectory(prefix="jacquet-validate-") as folder:
        path = Path(folder) / f"record.{fmt}"
        path.write_text(text, encoding="utf-8", newline="")
        try:
            games = _within(read_file(path, fmt, variant), *limits)
        except RecordError as unreadable:  # a document that cannot be read at all
            found.append((0, unreadable, None))
    report.games = [GameLine.of(game) for game in games]
    for index, game in enumerate(games, 1):
        found.extend((index, cast(RecordError, problem), game)  # what a reader finds, it places
                     for problem in [*game.errors, *game.warnings])
    found.sort(key=lambda item: (item[1].line, item[1].column))
    boards: dict[int, str] = {}
    for number, (index, problem, reached) in enumerate(found, 1):
        report.problems.append(_problem(number, index, problem, reached, boards,
                                        (str(path), folder), name, language))
    return report, games


def _within(games: Iterable[Game], max_games: int, max_turns: int) -> list[Game]:
    """The games read, as they come; :class:`TooLarge` once there are more than
    ``max_games`` of them or more than ``max_turns`` turns in all."""
    kept: list[Game] = []
    turns = 0
    for game in games:
        if len(kept) == max_games:
            raise TooLarge(max_games)
        turns += sum(1 for _ in islice(game.descendants(), max_turns - turns + 1))
        if turns > max_turns:
            raise TooLarge(max_turns, len(kept) + 1)
        kept.append(game)
    return kept


def _problem(number: int, index: int, error: RecordError, game: Game | None,
             boards: dict[int, str], hidden: tuple[str, str], name: str, language: str) -> Problem:
    """A reader's error as shown, in ``language`` (the page's: a worker process has no
    request to ask): the temporary file's path (``hidden``: the file, its folder)
    replaced by the record's name, and for an error of a game the board at the node the
    reader reached, drawn once per game."""
    message = render(error.msg, language)
    for path in hidden:
        message = message.replace(path, name)
    board = None
    if game is not None and error.severity == "error":
        if index not in boards:
            end = game.end()
            title = render(Message.of("board.title.error", game=index, ply=end.ply), language)
            boards[index] = board_svg(end, game.rules, False, title, language)
        board = boards[index]
    return Problem(number=number, severity=error.severity, rule=error.rule_id, message=message,
                   line=error.line, column=error.column, game=index, turn=error.turn,
                   legal_plays=error.legal_plays, board=board)
