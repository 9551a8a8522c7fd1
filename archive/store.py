"""Opening an archive: one SQLite file, foreign keys on, WAL so that readers (the viewer)
see consistent data while an import writes, the schema brought up to date; and what to say
when SQLite fails (a full disk, a read-only file, a damaged file)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from sqlite_utils import Database

from .schema import upgrade

DEFAULT_PATH = "jacquet.db"


class ArchiveError(Exception):
    """An archive that cannot be opened, read or written: the message says why."""


# SQLite's error names (the extended ones start with these), and what they mean here
HINTS = (
    ("SQLITE_IOERR", "the disk may be full, over a size limit or failing"),
    ("SQLITE_READONLY", "the file or its folder is read-only"),
    ("SQLITE_CANTOPEN", "the folder is missing or cannot be written"),
    ("SQLITE_CORRUPT", "the file is damaged"),
    ("SQLITE_NOTADB", "it is not an SQLite file"),
    ("SQLITE_BUSY", "another process is writing to it"),
)


def archive_error(action: str, path: str | os.PathLike[str], error: sqlite3.Error) -> ArchiveError:
    """A one-line :class:`ArchiveError` for an SQLite failure while doing ``action`` to the
    archive at ``path``: "cannot write to the archive club.db: attempt to write a readonly
    database (the file or its folder is read-only)". The hint in brackets needs the error's
    SQLite name (Python 3.11 and later)."""
    name = getattr(error, "sqlite_errorname", "") or ""
    hint = next((text for prefix, text in HINTS if name.startswith(prefix)), None)
    message = " ".join(str(error).split()) or type(error).__name__
    return ArchiveError(f"cannot {action} the archive {os.fspath(path)}: {message}"
                        + (f" ({hint})" if hint else ""))


def default_path() -> str:
    """``$JACQUET_DB``, or ``./jacquet.db``."""
    return os.environ.get("JACQUET_DB") or DEFAULT_PATH


def open_archive(path: str | os.PathLike[str] | None = None, readonly: bool = False) -> Database:
    """The archive at ``path`` (created if missing, unless ``readonly``); an
    :class:`ArchiveError` if it cannot be opened or is not an archive."""
    path = Path(path or default_path())
    if readonly and not path.exists():
        raise ArchiveError(f"no archive at {path}")
    try:
        if readonly:
            connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        else:
            connection = sqlite3.connect(path, check_same_thread=False)
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
        db.execute("PRAGMA busy_timeout=5000")  # first: opening may wait for a writer
        if not readonly:
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
        raise ArchiveError(f"{path} is not a jacquet archive")
    return db
