"""The engine's analyses, stored beside the games (tables made by the schema's
``analyses`` migration; columns in ``docs/archive.md``):

- ``analyses``: one row per game analysed by an engine at a depth: the engine's name
  (``jacquet-td jacquet v2``), the depth (0 or 1), the digest of the net's weights (a
  retrained net under the same name is told apart), the level of the judge that confirmed
  its marks (``confirm``: ``2-ply``, ``''`` for none), when, and why the analysis
  stopped (the message of the record's first error, in no language: ``Message.stored``) if
  it did;
- ``analysis_turns``: per judged turn: ply, player, dice, the play made and the best
  play, the equity before the roll and after the play, the best play's equity, the loss,
  the mark, whether it was forced, the luck, the play's rank among how many, the best few
  candidates as JSON, and ``level``, the engine and level that decided its figures and
  mark (``jacquet-td jacquet v2, 2-ply``);
- ``analysis_players``: per game and player: unforced decisions (``confirmed``: those the
  confirming judge decided), the marks of each kind,
  the error rate (thousandths of a point per decision), luck, result, luck-adjusted result,
  and the largest loss of his plays (``worst``, indexed by player: his worst plays are
  looked for in his worst games only).

What is stored is the analysis as ``jacquet analyse --json`` gives it (one game's object,
:func:`analysis.report.analysis_json`), with the message of its error (whose parameters
the object gives only as programs read them), so the archive needs nothing of the engine. Each
game's analysis is written in one transaction (a stop loses at most the game being
analysed, and a game is stored once per engine, digest, depth and confirmation: a re-run
skips it).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from datetime import datetime, timezone
from typing import Any

from sqlite_utils import Database

from notation.engine.rules import rule_set
from notation.messages import Message

from .levels import level_label
from .stats import player_sides

COLOURS = {"White": "W", "Black": "B"}


def create_tables(db: Database) -> None:
    """The three tables and their indexes (for the schema's migration)."""
    db.execute("""CREATE TABLE analyses (
        id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL REFERENCES games(id),
        engine TEXT NOT NULL, depth INTEGER NOT NULL, digest TEXT NOT NULL,
        analysed_at TEXT NOT NULL, stopped TEXT,
        UNIQUE (game_id, engine, digest, depth))""")
    db.execute("""CREATE TABLE analysis_turns (
        analysis_id INTEGER NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
        ply INTEGER NOT NULL, player TEXT NOT NULL, dice TEXT NOT NULL, played TEXT NOT NULL,
        best TEXT NOT NULL, equity_before REAL, equity_after REAL NOT NULL,
        best_equity REAL NOT NULL, loss REAL NOT NULL, mark TEXT, forced INTEGER NOT NULL,
        luck REAL, rank INTEGER NOT NULL, legal INTEGER NOT NULL, candidates TEXT NOT NULL,
        PRIMARY KEY (analysis_id, ply)) WITHOUT ROWID""")
    db.execute("""CREATE TABLE analysis_players (
        analysis_id INTEGER NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
        player TEXT NOT NULL, player_id INTEGER REFERENCES players(id),
        decisions INTEGER NOT NULL, doubtful INTEGER NOT NULL, bad INTEGER NOT NULL,
        very_bad INTEGER NOT NULL, error_rate REAL NOT NULL, luck REAL NOT NULL,
        result INTEGER, luck_adjusted REAL,
        PRIMARY KEY (analysis_id, player)) WITHOUT ROWID""")
    db.execute("CREATE INDEX idx_analyses_game ON analyses (game_id)")
    db.execute("CREATE INDEX idx_analysis_players_player ON analysis_players (player_id, error_rate)")
    db.execute("CREATE INDEX idx_analysis_turns_mark ON analysis_turns (mark) WHERE mark IS NOT NULL")


def add_levels(db: Database) -> None:
    """Who decided each figure (for the schema's ``analysis_levels`` migration): the
    confirmation in the key of ``analyses`` (the table rebuilt, its ids kept, so that the
    turns and players stay its), ``analysis_turns.level`` and
    ``analysis_players.confirmed``; the rows stored before are the engine's at their depth,
    none confirmed. Runs with the foreign keys off (as every migration of
    :func:`archive.schema.upgrade`)."""
    db.execute("""CREATE TABLE analyses_new (
        id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL REFERENCES games(id),
        engine TEXT NOT NULL, depth INTEGER NOT NULL, digest TEXT NOT NULL,
        confirm TEXT NOT NULL DEFAULT '', analysed_at TEXT NOT NULL, stopped TEXT,
        UNIQUE (game_id, engine, digest, depth, confirm))""")
    db.execute("INSERT INTO analyses_new (id, game_id, engine, depth, digest, analysed_at, stopped) "
               "SELECT id, game_id, engine, depth, digest, analysed_at, stopped FROM analyses")
    db.execute("DROP TABLE analyses")
    db.execute("ALTER TABLE analyses_new RENAME TO analyses")
    db.execute("CREATE INDEX idx_analyses_game ON analyses (game_id)")
    db.execute("ALTER TABLE analysis_turns ADD COLUMN level TEXT")
    db.execute("UPDATE analysis_turns SET level = (SELECT a.engine || ', ' || a.depth || '-ply' "
               "FROM analyses a WHERE a.id = analysis_turns.analysis_id)")
    db.execute("ALTER TABLE analysis_players ADD COLUMN confirmed INTEGER NOT NULL DEFAULT 0")


CHUNK = 500
"""Game ids per statement (SQLite caps the values a statement takes)."""


def game_variants(db: Database, ids: list[int]) -> dict[int, str]:
    """The rule set of each game of ``ids`` still stored."""
    variants: dict[int, str] = {}
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start:start + CHUNK]
        marks = ",".join("?" * len(chunk))
        variants.update(db.execute(f"SELECT id, variant FROM games WHERE id IN ({marks})", chunk).fetchall())
    return variants


def stored_from(db: Database, sources: Iterable[str]) -> list[int]:
    """The ids of the games stored from the files ``sources`` (named as they were given to
    the import), in the order stored."""
    names = list(sources)
    ids: list[int] = []
    for start in range(0, len(names), CHUNK):
        chunk = names[start:start + CHUNK]
        ids += [row[0] for row in db.execute(
            f"SELECT id FROM games WHERE source_file IN ({','.join('?' * len(chunk))})", chunk)]
    return sorted(ids)


def analysed_ids(db: Database, game_ids: Iterable[int], engines: dict[str, tuple[str, str, str]],
                 depth: int) -> set[int]:
    """Which of ``game_ids`` are analysed already by the engine of their rule set
    (``engines``: rule set → (engine name, digest, confirming level or ``''``)) at
    ``depth``."""
    done: set[int] = set()
    for variant, (engine, digest, confirm) in engines.items():
        rows = db.execute(
            "SELECT a.game_id FROM analyses a JOIN games g ON g.id = a.game_id "
            "WHERE g.variant = ? AND a.engine = ? AND a.digest = ? AND a.depth = ? AND a.confirm = ?",
            [variant, engine, digest, depth, confirm]).fetchall()
        done.update(row[0] for row in rows)
    return done & set(game_ids)


def store_analysis(db: Database, game_id: int, analysis: dict[str, Any], digest: str,
                   depth: int, *, stopped: Message | None) -> int:
    """Store one game's analysis (its ``jacquet analyse --json`` object, and ``stopped``,
    the message of the record's error where it stopped, if it did) in one
    transaction, replacing one by the same engine, digest, depth and confirmation; its
    ``analyses`` id. Every turn keeps the engine and level that decided it (``level``;
    an object without it, made before confirmation, is the engine's at ``depth``)."""
    game = db.execute("SELECT white_id, black_id FROM games WHERE id = ?", [game_id]).fetchone()
    if game is None:
        raise ValueError(f"no game {game_id} in the archive")
    player_ids = {"W": game[0], "B": game[1]}
    engine = analysis["engine"].rsplit(",", 1)[0]  # the name without its depth
    confirm = analysis.get("confirm") or ""
    connection: sqlite3.Connection = db.conn
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    with connection:
        connection.execute("DELETE FROM analyses WHERE game_id = ? AND engine = ? AND digest = ? "
                           "AND depth = ? AND confirm = ?", [game_id, engine, digest, depth, confirm])
        cursor = connection.execute(
            "INSERT INTO analyses (game_id, engine, depth, digest, confirm, analysed_at, stopped) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [game_id, engine, depth, digest, confirm, now, stopped.stored() if stopped else None])
        analysis_id = int(cursor.lastrowid or 0)
        connection.executemany(
            "INSERT INTO analysis_turns (analysis_id, ply, player, dice, played, best, equity_before, "
            "equity_after, best_equity, loss, mark, forced, luck, rank, legal, candidates, level) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(analysis_id, t["ply"], COLOURS[t["player"]], t["dice"], t["played"], t["best"],
              t["before"], t["equity"], t["best_equity"], t["loss"], t["mark"], int(t["forced"]),
              t["luck"], t["rank"], t["legal"], json.dumps(t["candidates"], separators=(",", ":")),
              t.get("level") or analysis["engine"])
             for t in analysis["turns"]])
        worst: dict[str, float] = {}
        for turn in analysis["turns"]:
            colour = COLOURS[turn["player"]]
            worst[colour] = max(worst.get(colour, 0.0), turn["loss"])
        connection.executemany(
            "INSERT INTO analysis_players (analysis_id, player, player_id, decisions, doubtful, "
            "bad, very_bad, error_rate, luck, result, luck_adjusted, worst, confirmed) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(analysis_id, COLOURS[title], player_ids[COLOURS[title]], p["decisions"],
              p["marks"]["?!"], p["marks"]["?"], p["marks"]["??"], p["error_rate"], p["luck"],
              p["result"], p["luck_adjusted"], worst.get(COLOURS[title]), p.get("confirmed", 0))
             for title, p in analysis["players"].items()])
    return analysis_id


_LATEST = "WHERE game_id = ? ORDER BY analysed_at DESC, depth DESC, id DESC LIMIT 1"
"""Which of a game's analyses is its latest: the newest, the deepest first among them."""


def latest_analysis_id(db: Database, game_id: int) -> int | None:
    """The id of the latest analysis of a game (as :func:`latest_analysis` picks it),
    ``None`` if it has none: one indexed read, for a page that keeps what it made of it."""
    row = db.execute(f"SELECT id FROM analyses {_LATEST}", [game_id]).fetchone()
    return None if row is None else int(row[0])


def _stopped(stored: str | None) -> Message | str | None:
    """The message an ``analyses.stopped`` holds, or its text as stored (a row stored before
    the archive kept messages, in the language of the run that stored it, or a message of a
    later version)."""
    if stored is None:
        return None
    try:
        return Message.from_stored(stored)
    except (ValueError, KeyError):
        return stored


def latest_analysis(db: Database, game_id: int) -> dict[str, Any] | None:
    """The newest analysis of a game (the deepest first among the newest): its row, its
    turns by ply and its players by colour (``W``, ``B``); ``None`` if it has none. Its
    ``stopped`` is the message of the error where it stopped (``None`` if it did not), to
    say in the reader's language; for a row stored before the archive kept messages, the
    text it was stored with."""
    row = db.execute(f"SELECT id, engine, depth, digest, analysed_at, stopped, confirm FROM analyses "
                     f"{_LATEST}", [game_id]).fetchone()
    if row is None:
        return None
    keys = ("id", "engine", "depth", "digest", "analysed_at", "stopped", "confirm")
    found: dict[str, Any] = dict(zip(keys, row, strict=True))
    found["stopped"] = _stopped(found["stopped"])
    cursor = db.execute("SELECT * FROM analysis_turns WHERE analysis_id = ? ORDER BY ply", [row[0]])
    columns = [c[0] for c in cursor.description]
    turns = [dict(zip(columns, values, strict=True)) for values in cursor.fetchall()]
    for turn in turns:
        turn["candidates"] = json.loads(turn["candidates"])
        turn["forced"] = bool(turn["forced"])
    found["turns"] = {turn["ply"]: turn for turn in turns}
    cursor = db.execute("SELECT * FROM analysis_players WHERE analysis_id = ?", [row[0]])
    columns = [c[0] for c in cursor.description]
    found["players"] = {values[1]: dict(zip(columns, values, strict=True)) for values in cursor.fetchall()}
    return found


def skill(variant: str, error_rate: float, language: str | None = None) -> str:
    """The label of ``error_rate`` on the scale of rule set ``variant`` (``RuleSet.skill``),
    in ``language`` (default: the current one)."""
    return rule_set(variant).skill_label(error_rate, language)


def player_figures(db: Database, variant: str | None = None) -> list[dict[str, Any]]:
    """Per player and engine (name, depth and confirmation; the games of rule set
    ``variant`` only if given): ``player``, ``engine``, ``depth``, ``confirm``, ``level``
    (:func:`level_label`), analysed ``games``, unforced ``decisions`` and how many of them
    the confirming judge decided (``confirmed``), the ``error_rate`` over them all (equity
    lost per decision, thousandths of a point, to 0.1) and its ``skill`` label, the total
    ``luck`` (points, to 0.001), the marks (``doubtful``, ``bad``, ``very_bad``)."""
    where, params = ("WHERE g.variant = ?", [variant]) if variant else ("", [])
    cursor = db.execute(f"""
        SELECT p.name AS player, a.engine, a.depth, a.confirm, g.variant, count(*) AS games,
               sum(ap.decisions) AS decisions, sum(ap.confirmed) AS confirmed,
               round(sum(ap.error_rate * ap.decisions) / max(sum(ap.decisions), 1), 1) AS error_rate,
               round(sum(ap.luck), 3) AS luck, sum(ap.doubtful) AS doubtful, sum(ap.bad) AS bad,
               sum(ap.very_bad) AS very_bad
        FROM analysis_players ap JOIN analyses a ON a.id = ap.analysis_id
        JOIN players p ON p.id = ap.player_id JOIN games g ON g.id = a.game_id {where}
        GROUP BY p.name, a.engine, a.depth, a.confirm, g.variant
        ORDER BY p.name, a.engine, a.depth, a.confirm""", params)
    columns = [c[0] for c in cursor.description]
    rows = [dict(zip(columns, values, strict=True)) for values in cursor.fetchall()]
    for row in rows:
        row["level"] = level_label(row["engine"], row["depth"], row["confirm"])
        row["skill"] = skill(row.pop("variant"), row["error_rate"])
    return rows


WORST_PLAYS = 10
"""The worst plays a player's page lists per engine."""


def player_analyses(db: Database, player_ids: list[int], points: int,
                    language: str | None = None) -> list[dict[str, Any]]:
    """A player's analysed games (hidden games left out), per engine (name, digest, depth,
    confirmation; the engine with the most games first): ``engine``, ``depth``,
    ``confirm``, ``level`` (:func:`level_label`), ``variant`` (the rule set its net
    judges), ``games``; his ``decisions`` over them,
    ``confirmed`` (those the confirming judge decided), his ``error_rate`` over them all
    and its ``skill`` label on the rule set's scale (in ``language``, default: the current
    one); ``points``,
    his error rate in each of his newest ``points`` analysed games with a date, oldest first
    (``game_id``, ``date``, ``error_rate``, ``decisions``), and ``dated``, how many have a
    date; ``worst``, his :data:`WORST_PLAYS` plays that lost the most (``game_id``,
    ``date``, ``ply``, ``dice``, ``played``, ``best``, ``loss``, ``mark``).

    His games come from the index by colour and player (with their dates), each one's
    analyses from the index by game, engine and depth: no game's row is read. His worst
    plays are looked for in his games of largest ``worst`` loss only (the index by player
    and worst loss: each of the worst plays is in one of that many games)."""
    if not player_ids:
        return []
    sides, params = player_sides(player_ids, "id, date, variant")
    rows = db.execute(f"SELECT a.engine, a.digest, a.depth, a.confirm, s.variant, ap.confirmed, s.id, "
                      f"s.date, ap.error_rate, ap.decisions "
                      f"FROM ({sides}) s JOIN analyses a ON a.game_id = s.id JOIN analysis_players ap "
                      "ON ap.analysis_id = a.id AND ap.player = s.side", params).fetchall()
    engines: dict[tuple[str, str, int, str], list[tuple[Any, ...]]] = {}
    variants: dict[tuple[str, str, int, str], str] = {}
    confirmed: dict[tuple[str, str, int, str], int] = {}
    for engine, digest, depth, confirm, variant, judged, *game in rows:
        key = (engine, digest, depth, confirm)
        engines.setdefault(key, []).append(tuple(game))
        variants[key] = variant
        confirmed[key] = confirmed.get(key, 0) + judged
    marks = ",".join("?" * len(player_ids))
    keys = ("game_id", "date", "error_rate", "decisions")
    worst_keys = ("game_id", "date", "ply", "dice", "played", "best", "loss", "mark", "level")
    found = []
    for (engine, digest, depth, confirm), games in sorted(
            engines.items(), key=lambda item: (-len(item[1]), -item[0][2], item[0])):
        dated = sorted({game for game in games if game[1] is not None}, key=lambda game: (game[1], game[0]))
        worst = db.execute(
            "SELECT w.game_id, w.date, t.ply, t.dice, t.played, t.best, t.loss, t.mark, t.level FROM "
            "(SELECT a.id AS analysis_id, ap.player, g.id AS game_id, g.date FROM analysis_players ap "
            "JOIN analyses a ON a.id = ap.analysis_id JOIN games g ON g.id = a.game_id "
            f"WHERE ap.player_id IN ({marks}) AND g.hidden = 0 AND a.engine = ? AND a.digest = ? "
            "AND a.depth = ? AND a.confirm = ? AND ap.worst > 0 ORDER BY ap.worst DESC LIMIT ?) w "
            "JOIN analysis_turns t ON t.analysis_id = w.analysis_id AND t.player = w.player "
            "WHERE t.loss > 0 ORDER BY t.loss DESC, w.game_id, t.ply LIMIT ?",
            [*player_ids, engine, digest, depth, confirm, WORST_PLAYS, WORST_PLAYS]).fetchall()
        decisions = sum(game[3] for game in games)
        rate = round(sum(game[2] * game[3] for game in games) / max(decisions, 1), 1)
        key = (engine, digest, depth, confirm)
        found.append({"engine": engine, "depth": depth, "confirm": confirm, "variant": variants[key],
                      "level": level_label(engine, depth, confirm, language), "decisions": decisions,
                      "confirmed": confirmed[key], "error_rate": rate,
                      "skill": skill(variants[key], rate, language),
                      "games": len({game[0] for game in games}),
                      "dated": len(dated),
                      "points": [dict(zip(keys, game, strict=True)) for game in dated[-points:]],
                      "worst": [dict(zip(worst_keys, row, strict=True)) for row in worst]})
    return found
