"""The audit log, and the changes an admin makes to stored games: who stored, hid, showed
again or deleted which game, and when. A hidden game stays in the archive but leaves every
list, search, explorer count and page a visitor sees; a deleted game is gone with its
turns, annotations and explorer counts (importing it again stores it anew). A line's
detail is a message (``audit.*``), kept as data beside its English text, so that each
reader gets it in his language; the lines logged before keep their English text alone."""

from __future__ import annotations

import getpass
import os
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

from sqlite_utils import Database

from notation.messages import Message, render

from .schema import PLAYS_FROM_TURNS, add_position_plays

STORED, HIDDEN, SHOWN, DELETED = "stored", "hidden", "shown", "deleted"
ACTIONS = (STORED, HIDDEN, SHOWN, DELETED)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def log(db: Database, user: str | None, action: str, game_id: int | None = None,
        detail: Message | None = None) -> None:
    """Add a line to the log (in the caller's transaction, if one is open): ``detail``
    kept as its English text (``detail``) and as data (``detail_msg``)."""
    db.execute("INSERT INTO audit (at, user, action, game_id, detail, detail_msg) VALUES (?, ?, ?, ?, ?, ?)",
               [_now(), user, action, game_id, None if detail is None else render(detail, "en"),
                None if detail is None else detail.stored()])


def os_user() -> str:
    """The name of the user running this process (``uid N`` if the system has none)."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return f"uid {os.getuid()}"


def logging_stored(db: Database, user: str | None, detail: Message) -> Callable[[list[int]], None]:
    """For :func:`~archive.importer.import_games`'s ``on_stored``: a line per game stored
    (``user`` stored it, with ``detail``), in the transaction that stores it."""
    def log_each(ids: list[int]) -> None:
        for game_id in ids:
            log(db, user, STORED, game_id, detail)

    return log_each


def logging_import(db: Database, user: str) -> Callable[[str, list[int]], None]:
    """For :func:`~archive.importer.import_files`'s ``on_stored``: a line per batch of games
    an import stored from a file, naming the file and the games by their numbers
    (``12-251, 260``), and the game itself when it is one, in the transaction that stores
    them (an import killed midway leaves no game without its line)."""
    def log_batch(source: str, ids: list[int]) -> None:
        log(db, user, STORED, ids[0] if len(ids) == 1 else None,
            Message.of("audit.import", source=source, games=Message.of("count.games", count=len(ids)),
                       numbers=_runs(sorted(ids))))

    return log_batch


def _runs(ids: list[int]) -> str:
    """Ascending numbers as runs: ``1-3, 7``."""
    runs: list[list[int]] = []
    for number in ids:
        if runs and number == runs[-1][1] + 1:
            runs[-1][1] = number
        else:
            runs.append([number, number])
    return ", ".join(str(low) if low == high else f"{low}-{high}" for low, high in runs)


def entries(db: Database, limit: int = 200, before: int | None = None) -> list[dict[str, Any]]:
    """The latest ``limit`` lines of the log (older than line ``before``), newest first."""
    where, params = ("WHERE id < ?", [before]) if before is not None else ("", [])
    cursor = db.execute(f"SELECT id, at, user, action, game_id, detail, detail_msg FROM audit {where} "
                        "ORDER BY id DESC LIMIT ?", [*params, limit])
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def is_hidden(db: Database, game_id: int) -> bool | None:
    """Whether game ``game_id`` is hidden from visitors (``None`` if there is no such game)."""
    row = db.execute("SELECT hidden FROM games WHERE id = ?", [game_id]).fetchone()
    return None if row is None else bool(row[0])


def _remove_position_plays(db: Database, game_id: int) -> None:
    """Take one game's plays back out of the explorer's counts."""
    db.execute("WITH p (position, variant, dice, play, n, w) AS ("
               + PLAYS_FROM_TURNS.format(only="AND t.game_id = ?") + ") "
               "UPDATE position_plays SET count = count - p.n, wins = wins - p.w FROM p "
               "WHERE position_plays.position = p.position AND position_plays.variant = p.variant "
               "AND position_plays.dice = p.dice AND position_plays.play = p.play", [game_id])
    db.execute("DELETE FROM position_plays WHERE count <= 0")


def set_hidden(db: Database, game_id: int, hidden: bool, user: str | None) -> bool:
    """Hide game ``game_id`` from visitors (or show it again), logged; ``False`` if there
    is no such game or it is already so."""
    with db.conn:
        cursor = db.execute("UPDATE games SET hidden = ? WHERE id = ? AND hidden != ?",
                            [int(hidden), game_id, int(hidden)])
        if cursor.rowcount != 1:
            return False
        if hidden:
            _remove_position_plays(db, game_id)
        else:
            add_position_plays(db, game_id)
        log(db, user, HIDDEN if hidden else SHOWN, game_id)
    return True


def delete_game(db: Database, game_id: int, user: str | None) -> bool:
    """Delete game ``game_id`` with its turns, annotations, explorer counts and analyses,
    logged with its players and result; ``False`` if there is no such game."""
    with db.conn:
        row = db.execute("SELECT w.name, b.name, g.result, g.hidden FROM games g "
                         "LEFT JOIN players w ON w.id = g.white_id "
                         "LEFT JOIN players b ON b.id = g.black_id WHERE g.id = ?", [game_id]).fetchone()
        if row is None:
            return False
        white, black, result, hidden = row
        if not hidden:
            _remove_position_plays(db, game_id)
        db.execute("DELETE FROM annotations WHERE game_id = ?", [game_id])
        db.execute("DELETE FROM turns WHERE game_id = ?", [game_id])
        db.execute("DELETE FROM analyses WHERE game_id = ?", [game_id])  # their rows cascade
        db.execute("DELETE FROM games WHERE id = ?", [game_id])
        log(db, user, DELETED, game_id, Message.of("audit.deleted", white=white or "?", black=black or "?",
                                                   result=result))
    return True
