"""A stored game for its pages: its row (kept per app) and its view (kept per record,
:mod:`webviewer.pages.kept_games`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import abort, current_app
from flask_babel import gettext

from archive.audit import is_hidden
from archive.search import game_row, record_by_hash
from webviewer.pages.kept_games import GameView, game_view
from webviewer.plumbing.auth import signed_in
from webviewer.plumbing.cache import BoundedCache
from webviewer.plumbing.db import file_status, get_db

ROWS = 1024
"""Games' rows kept per app (see :func:`stored_row`)."""
_ROWS = "jacquet.game_rows"
Row = dict[str, Any]
"""A game's row, by column (see :func:`archive.search.game_row`)."""


def _archive_version() -> tuple[int, int, int] | None:
    """The archive file's device, inode and change time (``None`` if there is no file)."""
    status = file_status(current_app.config["ARCHIVE"])
    return None if status is None else (status.st_dev, status.st_ino, status.st_ctime_ns)


def archive_identity() -> tuple[int, int] | None:
    """The archive file's device and inode (``None`` if there is no file): what tells one
    archive's ids from another's (a process may serve, or test, several), where the change
    time of :func:`_archive_version` would change at every write."""
    version = _archive_version()
    return None if version is None else version[:2]


def stored_row(game_id: int) -> Row:
    """The row of game ``game_id`` (404 if there is none, or if an admin hid it and the
    visitor is no admin).

    The archive never changes a stored game's record (a new game gets a new id), so a
    row read once is kept (bounded, per app) under the id and the archive file's identity
    and change time: another file put at the archive's path, or the file itself written
    (a checkpoint), and the row is read again. An id with no game is never kept. Whether
    the game is hidden, or deleted, is asked each time (an admin may change it at any
    moment)."""
    def read_row() -> Row:
        row = game_row(get_db(), game_id)
        if row is None:
            abort(404, description=gettext("no game %(game)s in the archive", game=game_id))
        return row

    version = _archive_version()
    rows: BoundedCache[tuple[tuple[int, int, int], int], Row] = current_app.extensions.setdefault(
        _ROWS, BoundedCache(ROWS))
    row = read_row() if version is None else rows.get((version, game_id), read_row)
    hidden = is_hidden(get_db(), game_id)
    if hidden is None or (hidden and not signed_in().is_admin):  # deleted, or not for this visitor
        abort(404, description=gettext("no game %(game)s in the archive", game=game_id))
    return row if bool(row["hidden"]) == hidden else {**row, "hidden": int(hidden)}


def record_of(row: Row) -> Callable[[], str]:
    """Reads the record of the game of ``row`` from the archive (404 if it is gone)."""
    def stored_record() -> str:
        text = record_by_hash(get_db(), row["hash"])
        if text is None:
            abort(404, description=f"no game {row['id']}")
        return text

    return stored_record


def stored_game(game_id: int) -> tuple[Row, GameView]:
    """The row of game ``game_id`` (see :func:`stored_row`) and its view."""
    row = stored_row(game_id)
    return row, game_view(row["hash"], row["variant"], bool(row["valid"]), record_of(row))
