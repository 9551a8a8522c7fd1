"""Practice from one's mistakes: a player's worst analysed plays as positions to play again,
and when each comes back (spaced repetition by Leitner boxes).

- :func:`practice_positions`: a player's plays marked ``?`` or ``??`` by the latest analysis
  of each of his games (hidden games left out), the largest loss first, each with the
  position it was played from (``turns.position_before``, in the numbering of the player
  on roll), its roll, the play made and the stored ranking: nothing here asks the engine.
- :func:`schedule`: a card's next box and when it is due again, from its box and whether
  the answer was right, at a given time (so a test gives its clock).
- ``practice_cards`` (made by the schema's ``practice_cards`` migration): a signed-in
  user's box and due time per position (``game_id``, ``ply``), at most
  :data:`CARDS_PER_USER` per user (the least recently answered go first). A visitor's cards
  are kept in his browser's signed cookie, not here (``docs/viewer.md``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlite_utils import Database

from .stats import player_ids

PRACTICE_MARKS = ("?", "??")
"""The marks of the plays practised: the bad and the very bad."""
POSITIONS = 50
"""The most positions a player's practice holds (his worst plays)."""
INTERVALS = (timedelta(minutes=10), timedelta(days=1), timedelta(days=3), timedelta(days=7),
             timedelta(days=16), timedelta(days=35))
"""Leitner boxes: how long a card waits in each box before it is due again. A right
answer moves it one box up (up to the last), a wrong one back to the first."""
CARDS_PER_USER = 1000
"""The most cards kept for one signed-in user (the least recently answered dropped)."""


@dataclass(frozen=True)
class PracticePosition:
    """One of a player's marked plays, as stored: the game and ply, the rule set, who was
    on roll (``W``/``B``), the position before the turn (gnubg's ID, seen by the player on
    roll), the dice, the play made, its loss and mark, the level that decided them, and the
    stored candidates (best first: ``play``, ``equity``, ``rank``...)."""

    game_id: int
    ply: int
    variant: str
    player: str
    position: str
    dice: str
    played: str
    loss: float
    mark: str
    level: str
    candidates: list[dict[str, Any]]
    date: str | None

    @property
    def key(self) -> str:
        """The card's name in a cookie and an address: ``game.ply``."""
        return f"{self.game_id}.{self.ply}"


def practice_positions(db: Database, name: str, limit: int = POSITIONS,
                       only: tuple[int, int] | None = None) -> list[PracticePosition]:
    """The player ``name``'s plays marked ``?`` or ``??`` by the latest analysis of each
    of his games (hidden games and forced plays left out), the largest loss first (then by
    game and ply), at most ``limit``; with ``only`` (game id, ply), that one if it is one
    of them."""
    ids = player_ids(db, name)
    if not ids:
        return []
    marks = ",".join("?" * len(ids))
    one, chosen = ("AND g.id = ? AND t.ply = ? ", list(only)) if only else ("", [])
    rows = db.execute(
        "SELECT g.id, t.ply, g.variant, t.player, u.position_before, t.dice, t.played, t.loss, "
        "t.mark, t.level, t.candidates, g.date "
        "FROM analysis_players ap JOIN analyses a ON a.id = ap.analysis_id "
        "JOIN games g ON g.id = a.game_id "
        "JOIN analysis_turns t ON t.analysis_id = a.id AND t.player = ap.player "
        "JOIN turns u ON u.game_id = g.id AND u.ply = t.ply "
        f"WHERE ap.player_id IN ({marks}) AND g.hidden = 0 AND t.forced = 0 "
        f"AND t.mark IN ({','.join('?' * len(PRACTICE_MARKS))}) {one}"
        "AND a.id = (SELECT id FROM analyses WHERE game_id = g.id "
        "ORDER BY analysed_at DESC, depth DESC, id DESC LIMIT 1) "
        "ORDER BY t.loss DESC, g.id, t.ply LIMIT ?",
        [*ids, *PRACTICE_MARKS, *chosen, limit]).fetchall()
    return [PracticePosition(game_id, ply, variant, player, position, dice, played, loss, mark, level,
                             json.loads(candidates), date)
            for game_id, ply, variant, player, position, dice, played, loss, mark, level, candidates, date
            in rows]


@dataclass(frozen=True)
class Card:
    """Where a position stands in its owner's repetition: its Leitner ``box`` (0 the
    first) and when it is ``due`` again (a UTC time)."""

    box: int
    due: datetime


def schedule(card: Card | None, right: bool, now: datetime) -> Card:
    """The card after an answer at ``now``: one box up if ``right`` (the last box keeps
    it), else back to the first; due after its new box's interval (:data:`INTERVALS`)."""
    box = min((card.box + 1) if card else 1, len(INTERVALS) - 1) if right else 0
    return Card(box, now + INTERVALS[box])


def user_cards(db: Database, user_id: int) -> dict[str, Card]:
    """A signed-in user's cards by key (``game.ply``)."""
    rows = db.execute("SELECT game_id, ply, box, due FROM practice_cards WHERE user_id = ?",
                      [user_id]).fetchall()
    return {f"{game}.{ply}": Card(box, datetime.fromisoformat(due)) for game, ply, box, due in rows}


def keep_card(db: Database, user_id: int, game_id: int, ply: int, card: Card, now: datetime) -> None:
    """Keep a signed-in user's card (one row per user and position), then drop his least
    recently answered beyond :data:`CARDS_PER_USER`."""
    with db.conn:
        db.execute("INSERT INTO practice_cards (user_id, game_id, ply, box, due, answered) "
                   "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, game_id, ply) DO UPDATE SET "
                   "box = excluded.box, due = excluded.due, answered = excluded.answered",
                   [user_id, game_id, ply, card.box, card.due.isoformat(timespec="seconds"),
                    now.isoformat(timespec="seconds")])
        db.execute("DELETE FROM practice_cards WHERE user_id = ? AND rowid NOT IN (SELECT rowid FROM "
                   "practice_cards WHERE user_id = ? ORDER BY answered DESC LIMIT ?)",
                   [user_id, user_id, CARDS_PER_USER])


def create_table(db: Database) -> None:
    """``practice_cards`` (for the schema's migration): per signed-in user and position
    (game and ply), its Leitner box, when it is due and when it was last answered; gone
    with the account or the game."""
    db.execute("""CREATE TABLE practice_cards (
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE, ply INTEGER NOT NULL,
        box INTEGER NOT NULL, due TEXT NOT NULL, answered TEXT NOT NULL,
        PRIMARY KEY (user_id, game_id, ply))""")
    db.execute("CREATE INDEX idx_practice_cards_answered ON practice_cards (user_id, answered)")
