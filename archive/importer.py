"""Importing record files into the archive: streamed, atomic per game, idempotent.

Games are read one at a time from any supported format. Each game is stored inside its own
savepoint, within a transaction that commits every ``batch`` games: a failure in the middle
of a game leaves nothing of it, and a killed import leaves only whole games, so running it
again completes it (games already there are recognised by their content hash).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from sqlite_utils import Database

from notation.errors import NotationError, RecordError
from notation.formats import format_of, read_file
from notation.game import Game

from .rows import GameRows, game_rows
from .schema import add_position_plays

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
    unreadable: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def __str__(self) -> str:
        parts = [f"{self.imported} imported", f"{self.duplicates} duplicate(s) skipped",
                 f"{self.refused} refused"]
        if self.kept_invalid:
            parts.append(f"{self.kept_invalid} kept invalid")
        if self.unreadable:
            parts.append(f"{len(self.unreadable)} file(s) unreadable")
        return ", ".join(parts) + f", {self.turns} turns, in {self.seconds:.1f} s"


class _Names:
    """Ids of players and events by name, and of matches by name and length, looked up
    once per batch."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.cache: dict[tuple, int] = {}

    def id(self, table: str, name: str | None) -> int | None:
        if not name:
            return None
        key = (table, name)
        if key not in self.cache:
            row = self.db.execute(f"SELECT id FROM [{table}] WHERE name = ?", [name]).fetchone()
            self.cache[key] = row[0] if row else self.db[table].insert(
                {"name": name, "key": name.casefold()}).last_pk
        return self.cache[key]

    def match_id(self, name: str, length: int | None) -> int:
        key = ("matches", name, length)
        if key not in self.cache:
            row = self.db.execute("SELECT id FROM matches WHERE name = ? AND length IS ?",
                                  [name, length]).fetchone()
            self.cache[key] = row[0] if row else self.db["matches"].insert(
                {"name": name, "length": length}).last_pk
        return self.cache[key]


def store_game(db: Database, rows: GameRows, names: _Names) -> int:
    """Insert one game's rows (call inside a transaction); returns the game id."""
    game = dict(rows.game)
    game["white_id"] = names.id("players", rows.white)
    game["black_id"] = names.id("players", rows.black)
    game["event_id"] = names.id("events", rows.event)
    game["match_id"] = names.match_id(*rows.match) if rows.match else None
    game_id = db["games"].insert(game).last_pk
    # The turns and annotations, many rows of a few columns, go in by plain executemany:
    # sqlite-utils' insert_all spends more time building its statements than SQLite does.
    _insert_many(db, "turns", game_id, rows.turns)
    add_position_plays(db, game_id)
    _insert_many(db, "annotations", game_id, rows.annotations)
    return game_id


def _insert_many(db: Database, table: str, game_id: int, rows: list[dict]) -> None:
    if rows:
        columns = ["game_id", *rows[0]]
        db.conn.executemany(
            f"INSERT INTO [{table}] ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
            [(game_id, *row.values()) for row in rows])


def exists(db: Database, content_hash: str) -> bool:
    return db.execute("SELECT 1 FROM games WHERE hash = ?", [content_hash]).fetchone() is not None


def import_games(db: Database, games: Iterable[Game], *, source: str | None = None,
                 keep_invalid: bool = False, batch: int = 200,
                 summary: ImportSummary | None = None,
                 on_game: Callable[[Game], None] | None = None) -> ImportSummary:
    """Store ``games`` (an iterable, consumed lazily). Invalid games are refused with their
    errors unless ``keep_invalid``; games already in the archive are skipped."""
    summary = summary or ImportSummary()
    names = _Names(db)
    started = time.perf_counter()
    pending = 0
    iterator = iter(games)
    while True:
        with db.atomic():
            names.cache.clear()  # ids from a rolled-back batch must not be reused
            for game in iterator:
                if on_game is not None:
                    on_game(game)
                offset = game.source[1] if game.source else None
                if game.errors and not keep_invalid:
                    summary.refused += 1
                    summary.errors.extend(game.errors)
                else:
                    rows = game_rows(game, source, offset)
                    if exists(db, rows.game["hash"]):
                        summary.duplicates += 1
                    else:
                        with db.atomic():  # a savepoint: a failing game leaves nothing
                            store_game(db, rows, names)
                        summary.imported += 1
                        summary.kept_invalid += bool(game.errors)
                        summary.turns += len(rows.turns)
                pending += 1
                if pending % batch == 0:
                    break
            else:
                break
    summary.seconds += time.perf_counter() - started
    return summary


def import_files(db: Database, paths: Iterable[str | os.PathLike], *, keep_invalid: bool = False,
                 variant: str = "jacquet", on_game: Callable[[str, Game], None] | None = None,
                 batch: int = 200) -> ImportSummary:
    """Import every game of every file; unreadable files are listed in the summary.
    ``on_game(path, game)`` is called as each game is read (for progress bars)."""
    summary = ImportSummary()
    for path in paths:
        name = os.fspath(path)
        try:
            format_of(name)
        except ValueError as error:
            summary.unreadable.append(f"{name}: {error}")
            continue
        try:
            if not Path(name).is_file():
                raise OSError(f"no such file: {name}")
            import_games(db, read_file(name, variant=variant), source=name,
                         keep_invalid=keep_invalid, summary=summary, batch=batch,
                         on_game=(lambda game, name=name: on_game(name, game)) if on_game else None)
        except RecordError as error:  # a JSON/XML document that cannot be read at all
            summary.refused += 1
            summary.errors.append(error)
        except OSError as error:
            summary.unreadable.append(f"{name}: {error}")
    return summary
