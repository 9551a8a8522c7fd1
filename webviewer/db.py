"""The archive for the request: opened read-only once per request, closed after it."""

from __future__ import annotations

from flask import abort, current_app, g

from archive import ArchiveError, open_archive


def get_db():
    if "db" not in g:
        try:
            g.db = open_archive(current_app.config["ARCHIVE"], readonly=True)
        except ArchiveError:
            abort(503, description="the archive cannot be opened")
    return g.db


def close_db(error: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()
