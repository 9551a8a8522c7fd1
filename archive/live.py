"""Games being recorded (the viewer's scorer): kept in the archive between requests, so
that a game in progress survives a page reload and a server restart.

Each game is known by an unguessable key, given to the scorer and stored only as its
SHA-256, so that whoever can read the archive (it may be published with Datasette) cannot
take over a game. Its record is the game so far in text notation, ``pending`` the turn in
progress as JSON, and ``version`` moves on with every change: a change made from a
version that is no longer current is refused, so two requests at once never overwrite
each other.

A game belongs to the account that started it (``owner_id``): the viewer lets only that
scorer (and admins) change it, anyone watch it; its scorer may let the watchers see the
engine's evaluation (``evaluation``, off by default). A game untouched for longer than its
expiry is gone (removed when next looked at, and whenever a game starts), and a scorer
may have only so many games in progress at once (:class:`TooManyLiveGames`).
"""

from __future__ import annotations

import hashlib
import json
import secrets
from datetime import datetime, timedelta, timezone
from typing import Any, NamedTuple

from sqlite_utils import Database


class LiveRecord(NamedTuple):
    record: str
    pending: dict[str, Any]
    version: int
    owner_id: int | None
    """The account that started the game (``None`` for one started before accounts)."""
    evaluation: bool = False
    """Whether its scorer lets watchers see the engine's evaluation (off by default)."""


class TooManyLiveGames(ValueError):
    """A scorer who already has as many games in progress as allowed."""


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _cutoff(expiry: timedelta) -> str:
    """The last change before which a game has expired."""
    return (datetime.now(timezone.utc) - expiry).isoformat(timespec="seconds")


def remove_expired(db: Database, expiry: timedelta) -> int:
    """Remove the games untouched for longer than ``expiry``; how many."""
    with db.conn:
        return db.execute("DELETE FROM live_games WHERE updated < ?", [_cutoff(expiry)]).rowcount


def create_live(db: Database, record: str, pending: dict[str, Any], owner_id: int, *,
                expiry: timedelta, cap: int) -> str:
    """Store a new game in progress, started by ``owner_id``; its key. The expired games
    are removed first; :class:`TooManyLiveGames` if the owner already has ``cap``."""
    key = secrets.token_urlsafe(16)
    remove_expired(db, expiry)
    with db.conn:
        kept = db.execute("SELECT count(*) FROM live_games WHERE owner_id = ?", [owner_id]).fetchone()[0]
        if kept >= cap:
            raise TooManyLiveGames(
                f"you have {kept} games in progress, the most a scorer may have "
                f"(LIVE_GAMES_PER_SCORER): save or finish one first, or let one expire "
                f"(a game untouched for {expiry.days} days is removed)")
        db.table("live_games").insert({"key_hash": _hash(key), "record": record,
                                 "pending": json.dumps(pending), "version": 1,
                                 "created": _now(), "updated": _now(), "owner_id": owner_id})
    return key


def load_live(db: Database, key: str, expiry: timedelta) -> LiveRecord | None:
    """The record, the pending turn, the version and the owner of a game in progress, or
    ``None`` if there is none under ``key`` or it has expired (it is removed then)."""
    row = db.execute("SELECT record, pending, version, owner_id, updated, evaluation FROM live_games "
                     "WHERE key_hash = ?", [_hash(key)]).fetchone()
    if row is None:
        return None
    if row[4] is not None and row[4] < _cutoff(expiry):
        with db.conn:
            db.execute("DELETE FROM live_games WHERE key_hash = ? AND updated = ?", [_hash(key), row[4]])
        return None
    return LiveRecord(row[0], json.loads(row[1]), row[2], row[3], bool(row[5]))


def show_evaluation(db: Database, key: str, shown: bool) -> bool:
    """Let watchers see the engine's evaluation of the game under ``key`` (or no longer);
    ``False`` if there is no such game. The game's version does not move: its scorer's
    pages stay current."""
    with db.conn:
        cursor = db.execute("UPDATE live_games SET evaluation = ? WHERE key_hash = ?",
                            [int(shown), _hash(key)])
    return cursor.rowcount == 1


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
