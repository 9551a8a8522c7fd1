"""Opening an archive: one SQLite file, foreign keys on, WAL so that readers (the viewer)
see consistent data while an import writes, the schema brought up to date; and what to say
when SQLite fails (a full disk, a read-only file, a damaged file)."""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from sqlite_utils import Database

from notation.messages import Message, MessageError

from .schema import upgrade

DEFAULT_PATH = "jacquet.db"
BUSY_TIMEOUT_MS = 10_000
"""How long one statement waits for another process's write to end before SQLite answers
``SQLITE_BUSY``."""
BUSY_SECONDS = 60.0
"""How long :func:`writing` tries again a transaction that found the archive busy."""
QUICK_CHECK_BYTES = 200 * 1024 * 1024
"""``jacquet serve`` and ``jacquet import`` run SQLite's ``quick_check`` on an archive up
to this size before using it (:func:`check_archive`); ``jacquet check`` runs the full
``integrity_check`` on any."""
T = TypeVar("T")


class ArchiveError(MessageError):
    """An archive that cannot be opened, read or written: ``msg`` says why (an
    ``archive.*`` message, :mod:`notation.messages.admin`)."""


HINTS = (
    ("SQLITE_IOERR", "archive.hint.ioerr"),
    ("SQLITE_READONLY", "archive.hint.readonly"),
    ("SQLITE_CANTOPEN", "archive.hint.cantopen"),
    ("SQLITE_CORRUPT", "archive.hint.corrupt"),
    ("SQLITE_NOTADB", "archive.hint.notadb"),
    ("SQLITE_BUSY", "archive.hint.busy"),
)
"""SQLite's error names (the extended ones start with these), and the message of what
each means here."""
ACTIONS = {"open": "archive.failed.open", "read": "archive.failed.read", "write to": "archive.failed.write",
           "use": "archive.failed.use"}
"""What was being done to the archive when SQLite failed, and the message that says so."""


def archive_error(action: str, path: str | os.PathLike[str], error: sqlite3.Error) -> ArchiveError:
    """A one-line :class:`ArchiveError` for an SQLite failure while doing ``action`` to the
    archive at ``path``: "cannot write to the archive club.db: attempt to write a readonly
    database (the file or its folder is read-only)". The hint in brackets needs the error's
    SQLite name (Python 3.11 and later)."""
    name = getattr(error, "sqlite_errorname", "") or ""
    hint = next((message_id for prefix, message_id in HINTS if name.startswith(prefix)), None)
    said: str | Message = " ".join(str(error).split()) or type(error).__name__  # (SQLite's words)
    if hint:
        said = Message.of("archive.sqlite.hinted", error=said, hint=Message.of(hint))
    return ArchiveError(ACTIONS[action], path=os.fspath(path), error=said)


def default_path() -> str:
    """``$JACQUET_DB``, or ``./jacquet.db``."""
    return os.environ.get("JACQUET_DB") or DEFAULT_PATH


def open_archive(path: str | os.PathLike[str] | None = None, readonly: bool = False) -> Database:
    """The archive at ``path`` (created if missing, unless ``readonly``); an
    :class:`ArchiveError` if it cannot be opened or is not an archive."""
    path = Path(path or default_path())
    if readonly and not path.exists():
        raise ArchiveError("archive.missing", path=str(path))
    try:
        if readonly:
            connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        else:  # a write transaction takes the write lock when it begins (BEGIN IMMEDIATE)
            connection = sqlite3.connect(path, check_same_thread=False, isolation_level="IMMEDIATE")
    except sqlite3.Error as error:
        raise archive_error("open", path, error) from None
    try:
        return _prepared(Database(connection), path, readonly)
    except BaseException:
        connection.close()
        raise


def _prepared(db: Database, path: Path, readonly: bool) -> Database:
    """``db`` set up: waiting for writers, WAL, the schema up to date, foreign keys on."""
    try:
        db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")  # first: opening may wait for a writer
        if not readonly:
            _refuse_foreign(db, path)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")  # a commit is on disk, even if the power fails
            # 16 MiB of pages instead of SQLite's 2 MB: an import adds to several indexes at
            # random places (positions, explorer counts, full text) and rereads fewer pages.
            db.execute("PRAGMA cache_size=-16384")
            upgrade(db)
        db.execute("PRAGMA foreign_keys=ON")
        is_archive = "games" in db.table_names()
    except sqlite3.Error as error:
        raise archive_error("open", path, error) from None
    if not is_archive:
        raise ArchiveError("archive.not-archive", path=str(path))
    return db


def _refuse_foreign(db: Database, path: Path) -> None:
    """An :class:`ArchiveError` if ``db`` holds tables but is no archive: an import must
    not add its tables to another program's database."""
    tables = set(db.table_names())
    if tables and "games" not in tables:
        raise ArchiveError("archive.foreign", path=str(path), count=len(tables))


def is_busy(error: sqlite3.Error) -> bool:
    """Whether ``error`` says another connection holds the archive (``SQLITE_BUSY``, a
    stale snapshot, a locked table): worth trying again, unlike a full disk."""
    name = getattr(error, "sqlite_errorname", "") or ""
    return name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "database is locked" in str(error)


def writing(db: Database, work: Callable[[], T], seconds: float | None = None) -> T:
    """``work()`` in one write transaction, begun with ``BEGIN IMMEDIATE`` (it holds the
    write lock from the start, so no read inside it can go stale) and committed; rolled
    back if ``work`` raises. While the archive is busy, the whole transaction is tried
    again for up to ``seconds`` (:data:`BUSY_SECONDS`): ``work`` must be safe to run again (nothing it does
    outlives a rollback). Inside a transaction of the caller's, ``work()`` runs once in a
    savepoint of it instead."""
    if db.conn.in_transaction:
        with db.atomic():
            return work()
    deadline = time.monotonic() + (BUSY_SECONDS if seconds is None else seconds)
    while True:
        try:
            db.conn.execute("BEGIN IMMEDIATE")
            try:
                result = work()
                db.conn.commit()
            except BaseException:
                if db.conn.in_transaction:
                    db.conn.rollback()
                raise
            return result
        except sqlite3.OperationalError as error:
            if not is_busy(error) or time.monotonic() >= deadline:
                raise
            time.sleep(0.05)


def check_archive(path: str | os.PathLike[str], full: bool = False) -> list[str]:
    """What SQLite's ``integrity_check`` (``full``) or ``quick_check`` finds wrong with the
    archive at ``path`` (an empty list when it is sound); the quick check is skipped for a
    file over :data:`QUICK_CHECK_BYTES`, and its answer is empty. An :class:`ArchiveError`
    if it cannot be opened at all."""
    if not full and os.path.getsize(path) > QUICK_CHECK_BYTES:
        return []
    db = open_archive(path, readonly=True)
    try:
        rows = db.execute(f"PRAGMA {'integrity_check' if full else 'quick_check'}").fetchall()
    except sqlite3.Error as error:
        return [" ".join(str(error).split())]
    finally:
        db.close()
    return [] if [row[0] for row in rows] == ["ok"] else [row[0] for row in rows]


def ensure_sound(path: str | os.PathLike[str]) -> None:
    """An :class:`ArchiveError` if the archive at ``path`` fails SQLite's ``quick_check``
    (run on a file up to :data:`QUICK_CHECK_BYTES`; a missing or empty file passes, as
    there is nothing to damage); what ``serve`` and ``import`` do before using it."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return
    problems = check_archive(path)
    if problems:
        raise ArchiveError("archive.damaged", path=os.fspath(path), problem=problems[0])
