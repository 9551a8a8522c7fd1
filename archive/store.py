"""Opening an archive: one SQLite file, foreign keys on, WAL so that readers (the viewer)
see consistent data while an import writes, the schema brought up to date."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from sqlite_utils import Database

from .schema import upgrade

DEFAULT_PATH = "jacquet.db"


class ArchiveError(Exception):
    """An archive that cannot be opened or written: the message says why."""


def default_path() -> str:
    """``$JACQUET_DB``, or ``./jacquet.db``."""
    return os.environ.get("JACQUET_DB") or DEFAULT_PATH


def open_archive(path: str | os.PathLike | None = None, readonly: bool = False) -> Database:
    """The archive at ``path`` (created if missing, unless ``readonly``)."""
    path = Path(path or default_path())
    try:
        if readonly:
            if not path.exists():
                raise ArchiveError(f"no archive at {path}")
            connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
            db = Database(connection)
        else:
            db = Database(sqlite3.connect(path, check_same_thread=False))
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            upgrade(db)
        db.execute("PRAGMA foreign_keys=ON")
        db.execute("PRAGMA busy_timeout=5000")
        if readonly and "games" not in db.table_names():
            raise ArchiveError(f"{path} is not a jacquet archive")
        return db
    except sqlite3.DatabaseError as error:
        raise ArchiveError(f"cannot open the archive {path}: {error}") from None
