"""The position index: the games that pass through a position, and, like an opening
explorer, the plays made from it for each roll with how often the player who made them
won."""

from __future__ import annotations

from dataclasses import dataclass

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
                  limit: int = 100) -> list[dict]:
    """Games whose main line reaches ``position_id`` (before a turn), with the ply."""
    where, params = _at(position_id, variant)
    cursor = db.execute("SELECT t.game_id, t.ply, t.player, g.variant, g.result, g.date "
                        f"FROM turns t JOIN games g ON g.id = t.game_id WHERE {where} "
                        "ORDER BY t.game_id, t.ply LIMIT ?", [*params, limit])
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


def plays_from(db: Database, position_id: str, variant: str | None = None) -> list[PlayStats]:
    """The plays made from ``position_id``, per roll, counted, with the wins of the player
    who made them; most played first."""
    where, params = _at(position_id, variant)
    sql = ("SELECT t.dice, t.play, count(*) AS n, "
           "sum(CASE WHEN g.winner = t.player THEN 1 ELSE 0 END) AS wins "
           f"FROM turns t JOIN games g ON g.id = t.game_id WHERE {where} "
           "AND t.kind IN ('roll', 'passed') "
           "GROUP BY t.dice, t.play ORDER BY t.dice DESC, n DESC, t.play")
    return [PlayStats(dice, play, n, wins) for dice, play, n, wins in db.execute(sql, params)]


def _at(position_id: str, variant: str | None) -> tuple[str, list]:
    """The turns played from a position (of one rule set, if given)."""
    if variant:
        return "t.position_before = ? AND g.variant = ?", [position_id, variant]
    return "t.position_before = ?", [position_id]
