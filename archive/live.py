"""Games being recorded (the viewer's scorer): kept in the archive between requests, so
that a game in progress survives a page reload and a server restart.

Each game is known by an unguessable key, given to the scorer and stored only as its
SHA-256, so that whoever can read the archive (it may be published with Datasette) cannot
take over a game. Its record is the game so far in text notation, ``pending`` the turn in
progress as JSON, and ``version`` moves on with every change: a change made from a
version that is no longer current is refused, so two requests at once never overwrite
each other.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from datetime import datetime, timezone
from typing import Any, NamedTuple

from sqlite_utils import Database


class LiveRecord(NamedTuple):
    record: str
    pending: dict[str, Any]
    version: int


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def create_live(db: Database, record: str, pending: dict[str, Any]) -> str:
    """Store a new game in progress; its key."""
    key = secrets.token_urlsafe(16)
    with db.conn:
        db.table("live_games").insert({"key_hash": _hash(key), "record": record,
                                 "pending": json.dumps(pending), "version": 1,
                                 "created": _now(), "updated": _now()})
    return key


def load_live(db: Database, key: str) -> LiveRecord | None:
    """The record, the pending turn and the version of a game in progress, or ``None``."""
    row = db.execute("SELECT record, pending, version FROM live_games WHERE key_hash = ?",
                     [_hash(key)]).fetchone()
    return None if row is None else LiveRecord(row[0], json.loads(row[1]), row[2])


def save_live(db: Database, key: str, record: str, pending: dict[str, Any], version: int) -> bool:
    """Store a change made from ``version``; ``False`` (nothing stored) if the game has
    changed since, or is gone."""
    with db.conn:
        cursor = db.execute(
            "UPDATE live_games SET record = ?, pending = ?, version = version + 1, updated = ? "
            "WHERE key_hash = ? AND version = ?",
            [record, json.dumps(pending), _now(), _hash(key), version])
    return cursor.rowcount == 1


def delete_live(db: Database, key: str, version: int) -> bool:
    """End a recording that is still at ``version``; ``False`` if it has changed or is gone."""
    with db.conn:
        cursor = db.execute("DELETE FROM live_games WHERE key_hash = ? AND version = ?",
                            [_hash(key), version])
    return cursor.rowcount == 1
