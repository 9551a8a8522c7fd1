"""Games played against the engine in the viewer (``/play/``): kept in the archive between
requests, so that a game in progress survives a reload and a restart, until it expires.

Anyone may play, so every game is bounded: it belongs to a visitor's token (kept in the
visitor's signed session cookie, stored here only as its SHA-256, as is the game's key),
a visitor may have only so many games in progress at once, and a client address too (a
visitor who drops his cookie is still one address; a signed-in member is not counted
there), the whole server only so many games (:class:`TooManyPlayedGames`; a game over, then
a game never played, makes room for a new one, and for a member any visitor's game), and a
game untouched for longer than its expiry is gone (removed when next looked at, and
whenever a game starts). ``version`` moves on with every
change, as for the recorder's games (:mod:`archive.live`): a change made from an older
version is refused. Once the game is over its analysis (JSON) is kept beside it.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, NamedTuple

from sqlite_utils import Database

from .live import _cutoff, _hash, _now
from .store import writing


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


@dataclass(frozen=True)
class PlayedBounds:
    """The bounds a new game against the engine must fit: games in progress per visitor's
    token and per client address (a signed-in member's not counted there), games on the
    server, and how long an untouched game is kept."""

    expiry: timedelta
    per_visitor: int
    per_address: int
    total: int


def create_played(db: Database, record: str, pending: dict[str, Any], token: str, side: str,
                  strength: str, bounds: PlayedBounds, *, address: str | None = None,
                  member: bool = False) -> str:
    """Store a new game against the engine for the visitor holding ``token``, playing from
    ``address`` (``member``: signed in); its key. The expired games are removed first;
    :class:`TooManyPlayedGames` if the visitor already has ``per_visitor`` games in
    progress (a game analysed is over), or, not a member, his address ``per_address``.
    With the server full, room is made by the game over untouched longest, else the game
    never played untouched longest (its player made no move), else, for a member only, the
    visitor's game untouched longest: visitors cannot shut a member out; else
    :class:`TooManyPlayedGames`. All in one write transaction."""
    key = secrets.token_urlsafe(16)
    remove_expired_played(db, bounds.expiry)
    where = _hash(address or "-")

    def create() -> None:
        mine = db.execute("SELECT count(*) FROM played_games WHERE visitor_hash = ? AND "
                          "analysis IS NULL", [_hash(token)]).fetchone()[0]
        if mine >= bounds.per_visitor:
            raise TooManyPlayedGames(
                f"you have {mine} games against the engine in progress, the most a visitor may "
                f"have (PLAY_GAMES_PER_VISITOR): finish one first, or let one expire")
        if not member:
            here = db.execute("SELECT count(*) FROM played_games WHERE address_hash = ? AND "
                              "member = 0 AND analysis IS NULL", [where]).fetchone()[0]
            if here >= bounds.per_address:
                raise TooManyPlayedGames(
                    f"{here} games against the engine are in progress from your address, the "
                    "most one address may have without signing in (PLAY_GAMES_PER_ADDRESS): "
                    "finish one first, or let one expire")
        for room in _ROOM_MADE_BY[:3 if member else 2]:
            if db.execute("SELECT count(*) FROM played_games").fetchone()[0] < bounds.total:
                break
            db.execute(f"DELETE FROM played_games WHERE key_hash = (SELECT key_hash FROM "
                       f"played_games WHERE {room} ORDER BY updated LIMIT 1)")
        everyone = db.execute("SELECT count(*) FROM played_games").fetchone()[0]
        if everyone >= bounds.total:
            raise TooManyPlayedGames(
                f"{everyone} games against the engine are in progress on this server, the most "
                f"it keeps (PLAY_GAMES): try again later, or sign in")
        db.table("played_games").insert({
            "key_hash": _hash(key), "visitor_hash": _hash(token), "record": record,
            "pending": json.dumps(pending), "version": 1, "side": side, "strength": strength,
            "analysis": None, "created": _now(), "updated": _now(), "address_hash": where,
            "member": int(member), "actions": 0})

    writing(db, create)
    return key


_ROOM_MADE_BY = ("analysis IS NOT NULL", "actions = 0 AND member = 0", "member = 0")
"""Which game makes room on a full server, in turn (the one untouched longest of them): a
game over; a visitor's game never played; for a member, any visitor's game."""


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


def save_played(db: Database, key: str, record: str, pending: dict[str, Any], version: int,
                played: bool = False) -> bool:
    """Store a change made from ``version`` (``played``: by the player's action, not only
    the engine's); ``False`` (nothing stored) if the game has changed since, or is gone."""
    with db.conn:
        cursor = db.execute(
            "UPDATE played_games SET record = ?, pending = ?, version = version + 1, updated = ?, "
            "actions = actions + ? WHERE key_hash = ? AND version = ?",
            [record, json.dumps(pending), _now(), int(played), _hash(key), version])
    return cursor.rowcount == 1


def keep_analysis(db: Database, key: str, analysis: dict[str, Any]) -> None:
    """Keep the finished game's analysis beside it."""
    with db.conn:
        db.execute("UPDATE played_games SET analysis = ? WHERE key_hash = ?",
                   [json.dumps(analysis), _hash(key)])
