"""Statistics over the archive: results per player, the dice each player rolled with a
chi-square test of fairness, and the most frequent opening plays per roll. Results and
openings count only the games stored valid: a game kept invalid has a result the rules did
not score (an error sample's wrong ``B+2``) and may open with an illegal play. A player's
page reads his results and newest games from the indexes by colour and player
(:func:`player_results`, :func:`player_games`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from .search import COLUMNS, FROM


def results_per_player(db: Database, variant: str | None = None) -> list[dict[str, Any]]:
    """For each player: games, wins, losses, points won and lost (finished games; the
    games stored valid)."""
    sql = """
        SELECT p.name AS player, count(*) AS games,
               sum(CASE WHEN g.winner = side THEN 1 ELSE 0 END) AS wins,
               sum(CASE WHEN g.winner IS NOT NULL AND g.winner != side THEN 1 ELSE 0 END) AS losses,
               sum(CASE WHEN g.winner = side THEN g.points ELSE 0 END) AS points_won,
               sum(CASE WHEN g.winner IS NOT NULL AND g.winner != side THEN g.points ELSE 0 END)
                   AS points_lost
        FROM (SELECT id, white_id AS player_id, 'W' AS side FROM games
              UNION ALL SELECT id, black_id, 'B' FROM games) s
        JOIN games g ON g.id = s.id JOIN players p ON p.id = s.player_id
        WHERE g.valid {where}
        GROUP BY p.name ORDER BY wins DESC, p.name"""
    where, params = ("AND g.variant = ?", [variant]) if variant else ("", [])
    cursor = db.execute(sql.format(where=where), params)
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


@dataclass
class DiceFairness:
    player: str
    faces: list[int]  # how often each face 1-6 came up
    chi_square: float
    p_value: float

    @property
    def dice(self) -> int:
        return sum(self.faces)


def chi_square_p(statistic: float, degrees: int) -> float:
    """P(X >= statistic) for a chi-square variable: the regularised upper incomplete gamma
    function Q(degrees/2, statistic/2), by its series or continued fraction."""
    if statistic <= 0:
        return 1.0
    a, x = degrees / 2, statistic / 2
    if x < a + 1:  # series for P, then Q = 1 - P
        term = total = 1 / a
        n = a
        for _ in range(500):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1 - total * math.exp(-x + a * math.log(x) - math.lgamma(a)))
    b = x + 1 - a  # continued fraction (Lentz) for Q
    c, d = 1 / 1e-300, 1 / b
    h = d
    for i in range(1, 500):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(-x + a * math.log(x) - math.lgamma(a)) * h)


def dice_fairness(db: Database, variant: str | None = None) -> list[DiceFairness]:
    """Each player's die faces over his rolls, and the chi-square test against fair dice
    (5 degrees of freedom; a small p-value means the faces are unlikely from fair dice)."""
    sql = ("SELECT p.name, t.dice FROM turns t JOIN games g ON g.id = t.game_id "
           "JOIN players p ON p.id = CASE t.player WHEN 'W' THEN g.white_id ELSE g.black_id END "
           "WHERE t.kind = 'roll'" + (" AND g.variant = ?" if variant else ""))
    faces: dict[str, list[int]] = {}
    for name, dice in db.execute(sql, [variant] if variant else []):
        counts = faces.setdefault(name, [0] * 6)
        for char in dice or "":
            counts[int(char) - 1] += 1
    result = []
    for name, counts in sorted(faces.items()):
        total = sum(counts)
        expected = total / 6
        statistic = sum((c - expected) ** 2 / expected for c in counts) if total else 0.0
        result.append(DiceFairness(name, counts, statistic, chi_square_p(statistic, 5)))
    return result


def opening_plays(db: Database, variant: str | None = None, top: int = 3) -> dict[str, list[tuple[str, int]]]:
    """The most frequent first plays of games (stored valid), per roll."""
    sql = ("SELECT t.dice, t.play, count(*) AS n FROM turns t JOIN games g ON g.id = t.game_id "
           "WHERE t.ply = 1 AND t.kind = 'roll' AND g.valid" + (" AND g.variant = ?" if variant else "") +
           " GROUP BY t.dice, t.play ORDER BY t.dice DESC, n DESC, t.play")
    openings: dict[str, list[tuple[str, int]]] = {}
    for dice, play, count in db.execute(sql, [variant] if variant else []):
        plays = openings.setdefault(dice, [])
        if len(plays) < top:
            plays.append((play, count))
    return openings


def player_ids(db: Database, name: str) -> list[int]:
    """The ids of the players ``name`` names (compared by its case fold)."""
    return [row[0] for row in db.execute("SELECT id FROM players WHERE key = ?", [name.casefold()])]


def player_sides(ids: list[int], columns: str) -> tuple[str, list[object]]:
    """SQL for a player's games (``ids``: his players' ids) as White and as Black, the
    hidden ones left out: ``columns`` and ``side`` (``W`` or ``B``), read from the index by
    colour and player (which holds what the player page reads); and its values."""
    marks = ",".join("?" * len(ids))
    sql = (f"SELECT {columns}, 'W' AS side FROM games WHERE white_id IN ({marks}) AND hidden = 0 "
           f"UNION ALL SELECT {columns}, 'B' FROM games WHERE black_id IN ({marks}) AND hidden = 0")
    return sql, [*ids, *ids]


def player_results(db: Database, name: str) -> list[dict[str, Any]]:
    """One player's record per rule set (the name compared by its case fold): games,
    wins, losses, unfinished games, points won and lost (the games stored valid; hidden
    games left out). Read from the index by colour and player, not from the games' rows."""
    sides, params = player_sides(player_ids(db, name), "variant, valid, winner, points")
    sql = f"""
        SELECT variant,
               count(*) AS games,
               sum(CASE WHEN winner = side THEN 1 ELSE 0 END) AS wins,
               sum(CASE WHEN winner IS NOT NULL AND winner != side THEN 1 ELSE 0 END) AS losses,
               sum(CASE WHEN winner IS NULL THEN 1 ELSE 0 END) AS unfinished,
               sum(CASE WHEN winner = side THEN points ELSE 0 END) AS points_won,
               sum(CASE WHEN winner IS NOT NULL AND winner != side THEN points ELSE 0 END)
                   AS points_lost
        FROM ({sides}) WHERE valid
        GROUP BY variant ORDER BY games DESC, variant"""
    cursor = db.execute(sql, params)
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def player_games(db: Database, name: str, limit: int) -> tuple[list[dict[str, Any]], int]:
    """One player's newest ``limit`` games (by date, then newest stored; undated games
    last), as :func:`archive.search` gives rows, and how many games he has (hidden games
    left out). Each colour's newest games come from the index by colour, player and date
    (a few rows read, however many games he has), and the count from that index too."""
    ids = player_ids(db, name)
    if not ids:
        return [], 0
    with db.atomic():  # one read transaction: the count and the games agree
        sides, params = player_sides(ids, "id")
        total = db.execute(f"SELECT count(DISTINCT id) FROM ({sides})", params).fetchone()[0]
        newest: list[tuple[str | None, int]] = []
        for column in ("white_id", "black_id"):
            for player_id in ids:
                newest += db.execute(f"SELECT date, id FROM games WHERE {column} = ? AND hidden = 0 "
                                     "ORDER BY date DESC, id DESC LIMIT ?", [player_id, limit]).fetchall()
        chosen = sorted(set(newest), key=lambda row: (row[0] is not None, row[0] or "", row[1]),
                        reverse=True)[:limit]
        if not chosen:
            return [], total
        cursor = db.execute(f"SELECT {COLUMNS} {FROM} WHERE g.id IN ({','.join('?' * len(chosen))})",
                            [game_id for _, game_id in chosen])
        names = [d[0] for d in cursor.description]
        rows = {row[0]: dict(zip(names, row, strict=True)) for row in cursor.fetchall()}
    return [rows[game_id] for _, game_id in chosen], total
