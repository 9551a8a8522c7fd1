"""Games played against the engine in the viewer (``/play/``): kept in the archive between
requests, so that a game in progress survives a reload and a restart, until it expires.

Anyone may play, so every game is bounded: it belongs to a visitor's token (kept in the
visitor's signed session cookie, stored here only as its SHA-256, as is the game's key),
a visitor may have only so many games in progress at once, the whole server only so many
games (:class:`TooManyPlayedGames`; a game over makes room for a new one), and a game
untouched for longer than its expiry is gone (removed when next looked at, and whenever a
game starts). ``version`` moves on with every
change, as for the recorder's games (:mod:`archive.live`): a change made from an older
version is refused. Once the game is over its analysis (JSON) is kept beside it.
"""

from __future__ import annotations

import json
import secrets
from datetime import timedelta
from typing import Any, NamedTuple

from sqlite_utils import Database

from .live import _cutoff, _hash, _now


class PlayedRecord(NamedTuple):
    """A game against the engine as stored."""

    record: str
    pending: dict[str, Any]
    version: int
    side: str
    """The player's side: ``W`` or ``B``."""
    strength: str
    """The engine's: ``random``, ``0`` or ``1`` (ply)."""
    analysis: dict[str, Any] | None
    visitor_hash: str

    def belongs_to(self, token: str | None) -> bool:
        """Whether the visitor holding ``token`` started this game."""
        return token is not None and _hash(token) == self.visitor_hash


class TooManyPlayedGames(ValueError):
    """A visitor, or the server, with as many games against the engine as allowed."""


def remove_expired_played(db: Database, expiry: timedelta) -> int:
    """Remove the games untouched for longer than ``expiry``; how many."""
    with db.conn:
        return db.execute("DELETE FROM played_games WHERE updated < ?", [_cutoff(expiry)]).rowcount


def create_played(db: Database, record: str, pending: dict[str, Any], token: str, side: str,
                  strength: str, *, expiry: timedelta, per_visitor: int, total: int) -> str:
    """Store a new game against the engine for the visitor holding ``token``; its key. The
    expired games are removed first; :class:`TooManyPlayedGames` if the visitor already has
    ``per_visitor`` games in progress (a game analysed is over), or the server ``total``
    games and none of them over (the one over untouched longest makes room)."""
    key = secrets.token_urlsafe(16)
    remove_expired_played(db, expiry)
    with db.conn:
        mine = db.execute("SELECT count(*) FROM played_games WHERE visitor_hash = ? AND "
                          "analysis IS NULL", [_hash(token)]).fetchone()[0]
        if mine >= per_visitor:
            raise TooManyPlayedGames(
                f"you have {mine} games against the engine in progress, the most a visitor may "
                f"have (PLAY_GAMES_PER_VISITOR): finish one first, or let one expire")
        everyone = db.execute("SELECT count(*) FROM played_games").fetchone()[0]
        if everyone >= total:  # room made by the finished game untouched longest, if any
            everyone -= db.execute(
                "DELETE FROM played_games WHERE key_hash IN (SELECT key_hash FROM played_games "
                "WHERE analysis IS NOT NULL ORDER BY updated LIMIT ?)", [everyone - total + 1]).rowcount
        if everyone >= total:
            raise TooManyPlayedGames(
                f"{everyone} games against the engine are in progress on this server, the most "
                f"it keeps (PLAY_GAMES): try again later")
        db.table("played_games").insert({
            "key_hash": _hash(key), "visitor_hash": _hash(token), "record": record,
            "pending": json.dumps(pending), "version": 1, "side": side, "strength": strength,
            "analysis": None, "created": _now(), "updated": _now()})
    return key


def load_played(db: Database, key: str, expiry: timedelta) -> PlayedRecord | None:
    """The game against the engine under ``key``, or ``None`` if there is none or it has
    expired (it is removed then)."""
    row = db.execute("SELECT record, pending, version, side, strength, analysis, visitor_hash, "
                     "updated FROM played_games WHERE key_hash = ?", [_hash(key)]).fetchone()
    if row is None:
        return None
    if row[7] < _cutoff(expiry):
        with db.conn:
            db.execute("DELETE FROM played_games WHERE key_hash = ? AND updated = ?", [_hash(key), row[7]])
        return None
    return PlayedRecord(row[0], json.loads(row[1]), row[2], row[3], row[4],
                        json.loads(row[5]) if row[5] else None, row[6])


def save_played(db: Database, key: str, record: str, pending: dict[str, Any], version: int) -> bool:
    """Store a change made from ``version``; ``False`` (nothing stored) if the game has
    changed since, or is gone."""
    with db.conn:
        cursor = db.execute(
            "UPDATE played_games SET record = ?, pending = ?, version = version + 1, updated = ? "
            "WHERE key_hash = ? AND version = ?",
            [record, json.dumps(pending), _now(), _hash(key), version])
    return cursor.rowcount == 1


def keep_analysis(db: Database, key: str, analysis: dict[str, Any]) -> None:
    """Keep the finished game's analysis beside it."""
    with db.conn:
        db.execute("UPDATE played_games SET analysis = ? WHERE key_hash = ?",
                   [json.dumps(analysis), _hash(key)])
