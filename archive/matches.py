"""A match's games in order: each with the score before and after it and the summary of its
latest analysis (the page of a match, :mod:`webviewer.blueprints.explore`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .analyses import latest_analysis_id, skill
from .levels import level_label
from .search import COLUMNS, FROM

if TYPE_CHECKING:
    from sqlite_utils import Database


def matches_named(db: Database, name: str, length: int | None = None) -> list[dict[str, Any]]:
    """The matches called ``name`` (case ignored, as ``jacquet search --match`` finds
    them), of ``length`` points if given: ``id``, ``name``, ``length`` each, by id."""
    sql = "SELECT id, name, length FROM matches WHERE name = ? COLLATE NOCASE"
    params: list[object] = [name]
    if length is not None:
        sql += " AND length = ?"
        params.append(length)
    cursor = db.execute(sql + " ORDER BY id", params)
    return [dict(zip(("id", "name", "length"), row, strict=True)) for row in cursor.fetchall()]


def _summary(db: Database, game_id: int, variant: str, language: str | None) -> dict[str, Any] | None:
    """The players' figures of a game's latest analysis (by colour, ``W`` and ``B``: its
    ``error_rate``, ``skill`` label in ``language``, ``decisions`` and ``marks``, how many
    of each), its ``level``; ``None`` if the game has no analysis."""
    found = latest_analysis_id(db, game_id)
    if found is None:
        return None
    engine, depth, confirm = db.execute("SELECT engine, depth, confirm FROM analyses WHERE id = ?",
                                        [found]).fetchone()
    cursor = db.execute("SELECT player, decisions, doubtful, bad, very_bad, error_rate "
                        "FROM analysis_players WHERE analysis_id = ?", [found])
    players = {colour: {"decisions": decisions, "marks": {"?!": doubtful, "?": bad, "??": very_bad},
                        "error_rate": error_rate, "skill": skill(variant, error_rate, language)}
               for colour, decisions, doubtful, bad, very_bad, error_rate in cursor.fetchall()}
    return {"level": level_label(engine, depth, confirm, language), "players": players}


def match_games(db: Database, match_id: int, with_hidden: bool = False,
                language: str | None = None) -> list[dict[str, Any]]:
    """The games of a match by their number in it (games an admin hid left out unless
    ``with_hidden``), each its search row (:data:`archive.search.COLUMNS`) with the score
    ``after`` it (White's, Black's: the score before it, ``score_white`` and
    ``score_black``, and the winner's points) and its ``analysis`` (:func:`_summary`, its
    labels in ``language``; ``None`` if it has none)."""
    hidden = "" if with_hidden else " AND NOT g.hidden"
    cursor = db.execute(f"SELECT {COLUMNS} {FROM} WHERE g.match_id = ?{hidden} "
                        "ORDER BY g.game_number, g.id", [match_id])
    names = [d[0] for d in cursor.description]
    games = [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
    for game in games:
        white, black = game["score_white"], game["score_black"]
        points, winner = game["points"] or 0, game["winner"]
        game["after"] = None if white is None or black is None else (
            white + points * (winner == "W"), black + points * (winner == "B"))
        game["analysis"] = _summary(db, game["id"], game["variant"], language)
    return games
