"""Importing record files into the archive: streamed, atomic per game, idempotent.

Games are read one at a time from any supported format, their rows built ``batch`` at a
time outside any transaction, and stored in one short transaction per batch. A game is
never stored in part: a game that cannot be stored (a number SQLite cannot hold...) is
refused with its reason and the rest of its batch stored; a failure of the archive (a full
disk) propagates and rolls back its batch's transaction; and a killed import leaves only the
batches committed before, so running it again completes it (games already there are
recognised by their content hash).
"""

from __future__ import annotations

import functools
import os
import sqlite3
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from notation.engine.rules import DEFAULT
from notation.errors import FormatError, NotationError, RecordError
from notation.formats import format_of, read_file
from notation.messages import Message, render
from notation.tree.game import Game, released

from .rows import ANNOTATION_COLUMNS, TURN_COLUMNS, GameRows, game_hash, game_rows, record_text
from .store import writing


@dataclass
class ImportSummary:
    """What an import did: games imported, duplicates skipped, games refused (with their
    errors), invalid games kept, turns stored, unreadable files, and the time taken."""

    imported: int = 0
    duplicates: int = 0
    refused: int = 0
    kept_invalid: int = 0
    turns: int = 0
    errors: list[NotationError] = field(default_factory=list)
    unreadable: list[Message] = field(default_factory=list)
    """Each file that could not be read, and why (``cli.file.unreadable``)."""
    seconds: float = 0.0

    def said(self, language: str | None = None) -> str:
        """What the import did, in ``language`` (default: the current one): the ``cli.import.*``
        messages, joined."""
        parts = [Message.of("cli.import.summary", count=self.imported, duplicates=self.duplicates,
                            refused=self.refused)]
        if self.kept_invalid:
            parts.append(Message.of("cli.import.kept-invalid", count=self.kept_invalid))
        if self.unreadable:
            parts.append(Message.of("cli.import.unreadable", count=len(self.unreadable)))
        parts.append(Message.of("cli.import.turns", turns=self.turns, seconds=f"{self.seconds:.1f}"))
        return ", ".join(render(part, language) for part in parts)

    def __str__(self) -> str:
        return self.said("en")


class _Names:
    """Ids of players and events by name, and of matches by name and length, looked up
    once per batch."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.cache: dict[tuple[str | int | None, ...], int] = {}

    def id(self, table: str, name: str | None) -> int | None:
        if not name:
            return None
        key = (table, name)
        if key not in self.cache:
            row = self.db.execute(f"SELECT id FROM [{table}] WHERE name = ?", [name]).fetchone()
            self.cache[key] = row[0] if row else _new_id(self.db.execute(
                f"INSERT INTO [{table}] (name, key) VALUES (?, ?)", [name, name.casefold()]))
        return self.cache[key]

    def match_id(self, name: str, length: int | None) -> int:
        key = ("matches", name, length)
        if key not in self.cache:
            row = self.db.execute("SELECT id FROM matches WHERE name = ? AND length IS ?",
                                  [name, length]).fetchone()
            self.cache[key] = row[0] if row else _new_id(self.db.execute(
                "INSERT INTO matches (name, length) VALUES (?, ?)", [name, length]))
        return self.cache[key]


# One statement text each, so that sqlite3 prepares them once per connection.
INSERT_TURNS = (f"INSERT INTO turns (game_id, {', '.join(TURN_COLUMNS)}) "
                f"VALUES ({', '.join('?' * (len(TURN_COLUMNS) + 1))})")
INSERT_ANNOTATIONS = (f"INSERT INTO annotations (game_id, {', '.join(ANNOTATION_COLUMNS)}) "
                      f"VALUES ({', '.join('?' * (len(ANNOTATION_COLUMNS) + 1))})")
COUNT_PLAY = ("INSERT INTO position_plays (position, variant, dice, play, count, wins) "
              "VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT (position, variant, dice, play) DO UPDATE SET "
              "count = count + 1, wins = wins + excluded.wins")
COUNTED_KINDS = ("roll", "passed")
"""The turns the explorer counts (``schema.PLAYS_FROM_TURNS`` counts the same)."""


def store_game(db: Database, rows: GameRows, names: _Names) -> int:
    """Insert one game's rows (call inside a transaction); returns the game id. Plain
    statements and one ``executemany`` per table: sqlite-utils' ``insert`` spends more time
    building its statements than SQLite spends inserting."""
    game = dict(rows.game, white_id=names.id("players", rows.white),
                black_id=names.id("players", rows.black), event_id=names.id("events", rows.event),
                match_id=names.match_id(*rows.match) if rows.match else None)
    connection = db.conn
    game_id = _new_id(connection.execute(f"INSERT INTO games ({', '.join(game)}) "
                                         f"VALUES ({', '.join(':' + column for column in game)})", game))
    connection.executemany(INSERT_TURNS, [(game_id, *turn) for turn in rows.turns])
    _count_plays(connection, game["variant"], game["winner"], rows.turns)
    connection.executemany(INSERT_ANNOTATIONS, [(game_id, *note) for note in rows.annotations])
    return game_id


def _new_id(cursor: sqlite3.Cursor) -> int:
    """The id of the row an INSERT just made (typed ``int | None`` by sqlite3: ``None`` only
    before any INSERT)."""
    if cursor.lastrowid is None:
        raise sqlite3.InterfaceError("no row was inserted")
    return cursor.lastrowid


def _count_plays(connection: sqlite3.Connection, variant: str, winner: str | None,
                 turns: list[tuple[Any, ...]]) -> None:
    """Add one game's plays to the explorer's counts (``position_plays``): one upsert per
    counted turn, from the rows in hand instead of reading the turns back."""
    connection.executemany(COUNT_PLAY, [
        (before, variant, dice, play, int(player == winner))
        for _, player, kind, dice, play, before, _, _, _ in turns if kind in COUNTED_KINDS])


def exists(db: Database, content_hash: str) -> bool:
    return db.execute("SELECT 1 FROM games WHERE hash = ?", [content_hash]).fetchone() is not None


MAX_NODES = 20_000
"""Turns a stored game may hold, its variations' included (a long annotated game holds a
few hundred): a larger one is refused at import. The viewer draws and caches a stored game
whole; one of 110,000 one-turn variations made a 12.8 MB page and took 195 MB of its
cache."""

UNSTORABLE = (sqlite3.IntegrityError, sqlite3.InterfaceError, sqlite3.DataError,
              sqlite3.ProgrammingError, OverflowError, UnicodeError, ValueError, TypeError)
"""What storing one game may raise that is the game's fault, not the archive's (a number
too large for SQLite, text UTF-8 cannot encode): that game is refused, the others stored.
A full disk, a read-only file or a busy archive (``sqlite3.OperationalError``) stop the
import instead."""


@dataclass
class _Ready:
    """A game read, its rows built outside any transaction: ``rows`` is ``None`` for a
    game already in the archive."""

    number: int
    digest: str
    rows: GameRows | None
    invalid: bool
    source: str | None
    line: int


def import_games(db: Database, games: Iterable[Game], *, source: str | None = None,
                 keep_invalid: bool = False, batch: int = 200,
                 summary: ImportSummary | None = None,
                 on_game: Callable[[Game], None] | None = None,
                 on_stored: Callable[[list[int]], None] | None = None) -> ImportSummary:
    """Store ``games`` (an iterable, consumed lazily). Invalid games are refused with their
    errors unless ``keep_invalid``; games already in the archive are skipped; a game that
    cannot be stored is refused with the reason, and the others are stored.
    ``on_stored(ids)`` is called inside each batch's transaction with the numbers of the
    games it stored (none: not called), so that what it writes (the audit's line) is
    committed with them or not at all.

    ``batch`` games are read and their rows built first, outside any transaction; then
    they are stored in one short transaction (``BEGIN IMMEDIATE``, tried again while
    another process writes: :func:`~archive.store.writing`), so that two imports, or an
    import and the viewer, share the archive."""
    summary = summary or ImportSummary()
    names = _Names(db)
    started = time.perf_counter()
    ready: list[_Ready] = []
    for number, game in enumerate(games, 1):
        if on_game is not None:
            on_game(game)
        if game.errors and not keep_invalid:
            summary.refused += 1
            summary.errors.extend(game.errors)
            continue
        prepared = _prepare(db, game, number, source, summary)
        if prepared is not None:
            ready.append(prepared)
        if len(ready) >= batch:
            _store_batch(db, ready, names, summary, on_stored)
            ready = []
    if ready:
        _store_batch(db, ready, names, summary, on_stored)
    summary.seconds += time.perf_counter() - started
    return summary


def _prepare(db: Database, game: Game, number: int, source: str | None,
             summary: ImportSummary) -> _Ready | None:
    """The game's rows, built while the game is in hand (the next game read may release
    it); ``None``, and the game refused, if they cannot be built. A game already stored is
    not even built."""
    line = getattr(game.errors[0], "line", 0) if game.errors else 0
    if sum(1 for _ in islice(game.descendants(), MAX_NODES + 1)) > MAX_NODES:
        _refuse(summary, number, source, line, ValueError(
            f"it holds more than {MAX_NODES:,} turns with its variations (MAX_NODES): "
            "store it without some of them"))
        return None
    try:
        record = record_text(game)
        digest = game_hash(game, record)
        if exists(db, digest):
            return _Ready(number, digest, None, bool(game.errors), source, line)
        rows = game_rows(game, source, game.source[1] if game.source else None, record, digest)
    except UNSTORABLE as error:
        _refuse(summary, number, source, line, error)
        return None
    return _Ready(number, digest, rows, bool(game.errors), source, line)


def _refuse(summary: ImportSummary, number: int, source: str | None, line: int,
            error: BaseException) -> None:
    summary.refused += 1
    summary.errors.append(RecordError(f"the game cannot be stored: {error}", "STORE",
                                      file=source or "-", line=line, game=number))


def _store_batch(db: Database, ready: list[_Ready], names: _Names, summary: ImportSummary,
                 on_stored: Callable[[list[int]], None] | None = None) -> None:
    """Store the games of one batch in one transaction; if one of them cannot be stored,
    the batch again with a savepoint per game, that game refused (no savepoint is taken
    otherwise: it makes SQLite copy every page a game changes into its sub-journal, a
    quarter of the time of the inserts)."""
    try:
        outcomes = writing(db, functools.partial(_store_all, db, ready, names, False, on_stored))
    except UNSTORABLE:
        outcomes = writing(db, functools.partial(_store_all, db, ready, names, True, on_stored))
    for item, outcome in zip(ready, outcomes, strict=True):
        if isinstance(outcome, BaseException):
            _refuse(summary, item.number, item.source, item.line, outcome)
        elif outcome:
            assert item.rows is not None
            summary.imported += 1
            summary.kept_invalid += item.invalid
            summary.turns += len(item.rows.turns)
        else:
            summary.duplicates += 1


def _store_all(db: Database, ready: list[_Ready], names: _Names, each_apart: bool,
               on_stored: Callable[[list[int]], None] | None) -> list[bool | BaseException]:
    """Inside the batch's transaction: each game stored (``True``), found already there
    (``False``), or, ``each_apart``, refused with what it raised (rolled back to its own
    savepoint); then ``on_stored`` with the numbers of the games stored."""
    names.cache.clear()  # ids from a rolled-back attempt must not be reused
    outcomes: list[bool | BaseException] = []
    stored: list[int] = []
    for item in ready:
        if item.rows is None or exists(db, item.digest):
            outcomes.append(False)
            continue
        if not each_apart:
            stored.append(store_game(db, item.rows, names))
            outcomes.append(True)
            continue
        db.conn.execute("SAVEPOINT one_game")
        try:
            stored.append(store_game(db, item.rows, names))
        except UNSTORABLE as error:
            db.conn.execute("ROLLBACK TO one_game")
            names.cache.clear()
            outcomes.append(error)
        else:
            outcomes.append(True)
        db.conn.execute("RELEASE one_game")
    if stored and on_stored is not None:
        on_stored(stored)
    return outcomes


def import_files(db: Database, paths: Iterable[str | os.PathLike[str]], *, keep_invalid: bool = False,
                 variant: str = DEFAULT, on_game: Callable[[str, Game], None] | None = None,
                 batch: int = 200,
                 on_stored: Callable[[str, list[int]], None] | None = None) -> ImportSummary:
    """Import every game of every file; unreadable files are listed in the summary.
    ``on_game(path, game)`` is called as each game is read (for progress bars),
    ``on_stored(path, ids)`` inside each batch's transaction (see :func:`import_games`).
    Each game is released (:meth:`~notation.tree.game.Game.release`) once stored."""
    summary = ImportSummary()
    for path in paths:
        name = os.fspath(path)
        try:
            format_of(name)
        except FormatError as error:  # (its message names the file, which the line names first)
            summary.unreadable.append(Message.of("cli.file.unknown-format", path=name,
                                                 known=error.msg.params["known"]))
            continue
        try:
            if not Path(name).is_file():
                summary.unreadable.append(Message.of("cli.file.missing", path=name))
                continue
            import_games(db, released(read_file(name, variant=variant)), source=name,
                         keep_invalid=keep_invalid, summary=summary, batch=batch,
                         on_game=functools.partial(on_game, name) if on_game else None,
                         on_stored=functools.partial(on_stored, name) if on_stored else None)
        except RecordError as error:  # a JSON/XML document that cannot be read at all
            summary.refused += 1
            summary.errors.append(error)
        except OSError as error:  # (the system's words, as it says them)
            summary.unreadable.append(Message.of("cli.file.unreadable", path=name,
                                                 reason=error.strerror or str(error)))
    return summary
