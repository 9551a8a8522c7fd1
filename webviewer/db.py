"""The archive for the request: opened once per request, closed after it. Browsing
opens it read-only; recording and saving games open it for writing."""

from __future__ import annotations

from flask import abort, current_app, g

from archive import ArchiveError, open_archive


def get_db(write: bool = False):
    """The request's archive connection (read-only unless ``write``)."""
    name = "write_db" if write else "db"
    if name not in g:
        try:
            setattr(g, name, open_archive(current_app.config["ARCHIVE"], readonly=not write))
        except ArchiveError as error:
            current_app.logger.error("%s", error)
            abort(503, description="the archive cannot be opened"
                  + ("" if not write else " for writing"))
    return getattr(g, name)


def close_db(error: BaseException | None = None) -> None:
    for name in ("db", "write_db"):
        db = g.pop(name, None)
        if db is not None:
            db.close()
