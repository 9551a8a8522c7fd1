"""The archive for the request. Browsing borrows a read-only connection from a small pool
kept by the app and gives it back after the request (opening one costs more than a whole
simple request); recording and saving games open a connection for writing per request.

An archive that fails under a request (a full or read-only disk, a damaged file, another
process holding it past the busy timeout) answers 503 with a page that says so, never a
bare 500 (:func:`archive_failed`).

A pooled connection sees every game committed since, as a new one would: each read starts
from the archive's latest state. One whose archive file has since been replaced by another
file at the same path is closed instead of reused.
"""

from __future__ import annotations

import os
import sqlite3
import threading

from flask import Flask, Response, abort, current_app, g
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from sqlite_utils import Database
from werkzeug.exceptions import ServiceUnavailable

from archive import ArchiveError, open_archive
from archive.store import archive_error, is_busy

RETRY_SECONDS = 5
"""What a 503 for a busy archive asks the client to wait (``Retry-After``)."""
POOL_SIZE = 8
"""Idle read-only connections kept, as many as ``jacquet serve``'s threads."""
_POOL = "jacquet.read_pool"


def file_status(path: str) -> os.stat_result | None:
    """The archive file's status (``None`` if there is no file at ``path``)."""
    try:
        return os.stat(path)
    except OSError:
        return None


def _file_identity(path: str) -> tuple[int, int] | None:
    """The device and inode of the file at ``path`` (``None`` if there is none)."""
    status = file_status(path)
    return None if status is None else (status.st_dev, status.st_ino)


class ReadPool:
    """At most ``size`` idle read-only connections to the archive at ``path``, each kept
    with the identity of the file it opened."""

    def __init__(self, path: str, size: int = POOL_SIZE) -> None:
        self.path = path
        self.size = size
        self._idle: list[tuple[Database, tuple[int, int] | None]] = []
        self._lock = threading.Lock()

    def take(self) -> tuple[Database, tuple[int, int] | None]:
        """An idle connection to the file now at ``path``, else a new one (an
        :class:`ArchiveError` if it cannot be opened), with the file's identity."""
        identity = _file_identity(self.path)
        db, stale = None, []
        with self._lock:
            while self._idle and db is None:
                candidate, opened = self._idle.pop()
                if opened == identity:
                    db = candidate
                else:
                    stale.append(candidate)
        for old in stale:
            old.close()
        if db is None:
            db = open_archive(self.path, readonly=True)
        return db, identity

    def give_back(self, db: Database, identity: tuple[int, int] | None) -> None:
        """Keep ``db`` for a later request, or close it if the pool is full or a
        transaction is still open on it."""
        if not db.conn.in_transaction:
            with self._lock:
                if len(self._idle) < self.size:
                    self._idle.append((db, identity))
                    return
        db.close()


def init_app(app: Flask) -> None:
    """Give ``app`` its pool of read connections and close every request's archive."""
    app.extensions[_POOL] = ReadPool(app.config["ARCHIVE"])
    app.teardown_appcontext(close_db)
    app.register_error_handler(sqlite3.DatabaseError, archive_failed)
    app.register_error_handler(ArchiveError, archive_unusable)


def archive_unusable(error: ArchiveError) -> ResponseReturnValue:
    """A request (or its worker) that could not open the archive: 503, the reason logged."""
    current_app.logger.error("%s", error)
    return unavailable(gettext("The archive cannot be opened now: the server's log says why."))


def archive_failed(error: sqlite3.DatabaseError) -> ResponseReturnValue:
    """A request whose archive failed: 503 and what happened (busy: try again in a few
    seconds; a full or read-only disk; a damaged file), answered as the app answers any
    error (a page, or JSON under ``/api``); the details go to the log."""
    current_app.logger.error("%s", archive_error("use", current_app.config["ARCHIVE"], error))
    text = str(error).lower()
    if is_busy(error):
        reason = gettext("The archive is busy with another writer: try again in a few seconds.")
    elif "full" in text or "disk" in text or "i/o" in text:
        reason = gettext("The archive cannot be written: the server's disk is full or failing.")
    elif "readonly" in text or "read-only" in text:
        reason = gettext("The archive is read-only on the server: nothing can be saved now.")
    else:
        reason = gettext("The archive cannot be read or written now: the server's log says why.")
    return unavailable(reason)


def unavailable(reason: str) -> Response:
    """A 503 saying ``reason``, as the app answers any error, with ``Retry-After``."""
    response = current_app.make_response(
        current_app.handle_user_exception(ServiceUnavailable(description=reason)))
    response.headers["Retry-After"] = str(RETRY_SECONDS)
    return response


def get_db(write: bool = False) -> Database:
    """The request's archive connection (read-only unless ``write``)."""
    name = "write_db" if write else "db"
    if name not in g:
        try:
            if write:
                g.write_db = open_archive(current_app.config["ARCHIVE"])
            else:
                g.db, g.db_identity = current_app.extensions[_POOL].take()
        except ArchiveError as error:
            current_app.logger.error("%s", error)
            abort(503, description=gettext("the archive cannot be opened for writing") if write
                  else gettext("the archive cannot be opened"))
    db: Database = getattr(g, name)
    return db


def close_db(error: BaseException | None = None) -> None:
    """At the end of a request: the read connection back to the pool, the write one
    closed."""
    db = g.pop("db", None)
    if db is not None:
        current_app.extensions[_POOL].give_back(db, g.pop("db_identity", None))
    db = g.pop("write_db", None)
    if db is not None:
        db.close()
