"""Games being recorded (the viewer's scorer): kept in the archive between requests, so
that a game in progress survives a page reload and a server restart. Each is known by an
unguessable key; its record is the game so far in text notation and ``pending`` the turn
in progress as JSON."""

from __future__ import annotations

import json
import secrets
from datetime import datetime, timezone

from sqlite_utils import Database


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def create_live(db: Database, record: str, pending: dict) -> str:
    """Store a new game in progress; its key."""
    key = secrets.token_urlsafe(12)
    with db.conn:
        db["live_games"].insert({"key": key, "record": record, "pending": json.dumps(pending),
                                 "created": _now(), "updated": _now()})
    return key


def load_live(db: Database, key: str) -> tuple[str, dict] | None:
    """The record and the pending turn of a game in progress, or ``None``."""
    row = db.execute("SELECT record, pending FROM live_games WHERE key = ?", [key]).fetchone()
    return None if row is None else (row[0], json.loads(row[1]))


def save_live(db: Database, key: str, record: str, pending: dict) -> None:
    with db.conn:
        db.execute("UPDATE live_games SET record = ?, pending = ?, updated = ? WHERE key = ?",
                   [record, json.dumps(pending), _now(), key])


def delete_live(db: Database, key: str) -> None:
    with db.conn:
        db.execute("DELETE FROM live_games WHERE key = ?", [key])
