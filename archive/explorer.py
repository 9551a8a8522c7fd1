"""The position index: the games that pass through a position, and, like an opening
explorer, the plays made from it for each roll with how often the player who made them
won."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database


@dataclass
class PlayStats:
    dice: str
    play: str
    count: int
    wins: int

    @property
    def share_won(self) -> float:
        return self.wins / self.count if self.count else 0.0


def games_through(db: Database, position_id: str, variant: str | None = None,
                  limit: int = 100) -> list[dict[str, Any]]:
    """The first ``limit`` games (by id) whose main line reaches ``position_id`` (before a
    turn), each once, with the first ply it is reached before (a cube action and the roll
    after it start from the same position); hidden games left out."""
    where, params = _at(position_id, variant)
    # min() makes SQLite take the other bare columns from the row of the first ply
    cursor = db.execute("SELECT t.game_id, min(t.ply) AS ply, t.player, g.variant, g.result, g.date "
                        f"FROM turns t JOIN games g ON g.id = t.game_id WHERE {where} AND g.hidden = 0 "
                        "GROUP BY t.game_id ORDER BY t.game_id LIMIT ?", [*params, limit])
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def plays_from(db: Database, position_id: str, variant: str | None = None) -> list[PlayStats]:
    """The plays made from ``position_id``, per roll, counted, with the wins of the player
    who made them; most played first. Read from the counts kept at import
    (``position_plays``), so a position of a million games costs a few rows."""
    where, params = ("position = ? AND variant = ?", [position_id, variant]) if variant else \
        ("position = ?", [position_id])
    sql = ("SELECT dice, play, sum(count) AS n, sum(wins) FROM position_plays "
           f"WHERE {where} GROUP BY dice, play ORDER BY dice DESC, n DESC, play")
    return [PlayStats(dice, play, n, wins) for dice, play, n, wins in db.execute(sql, params)]


def _at(position_id: str, variant: str | None) -> tuple[str, list[object]]:
    """The turns played from a position (of one rule set, if given)."""
    if variant:
        return "t.position_before = ? AND g.variant = ?", [position_id, variant]
    return "t.position_before = ?", [position_id]
