"""Benchmark: the player page on a large archive, before and after its indexes (in one
run, on the same file). "Before" runs the statements the page used to run (the archive's
search by player, sorted by date, with its full count, and the results per rule set read
from every game's row) with the indexes by player alone; "after" the page's own
(:func:`archive.stats.player_games`, :func:`~archive.stats.player_results`,
:func:`archive.analyses.player_analyses`) with the indexes by colour and player that hold
what the page reads; then the whole page through the viewer.

The archive is synthetic: ``--games`` games between ``--players`` players (so that each
has thousands of games, as a club's regulars do), records of 1.6 kB, and one game in
``--analysed`` analysed (40 judged turns each). It is made in a minute with SQL and kept
under ``bench/results/`` (``*.db``, not committed) for the next run.

    python bench/player_scale.py [--games 200000] [--players 40] [--repeat 20]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from server_scale import timed
from sqlite_utils import Database

import archive
from archive import Query, search
from archive.analyses import player_analyses
from archive.schema import player_indexes
from archive.stats import player_games, player_ids, player_results
from webviewer import create_app
from webviewer.pages.player import POINTS

RESULTS = Path(__file__).parent / "results"
PLAYER = "Player 1"
OLD_RESULTS = """
    SELECT g.variant, count(*) AS games,
           sum(CASE WHEN g.winner = s.side THEN 1 ELSE 0 END) AS wins,
           sum(CASE WHEN g.winner IS NOT NULL AND g.winner != s.side THEN 1 ELSE 0 END) AS losses,
           sum(CASE WHEN g.winner IS NULL THEN 1 ELSE 0 END) AS unfinished,
           sum(CASE WHEN g.winner = s.side THEN g.points ELSE 0 END) AS points_won,
           sum(CASE WHEN g.winner IS NOT NULL AND g.winner != s.side THEN g.points ELSE 0 END)
    FROM (SELECT id, 'W' AS side FROM games WHERE white_id IN (SELECT id FROM players WHERE key = ?)
          UNION ALL
          SELECT id, 'B' FROM games WHERE black_id IN (SELECT id FROM players WHERE key = ?)) s
    JOIN games g ON g.id = s.id WHERE g.valid AND g.hidden = 0
    GROUP BY g.variant ORDER BY games DESC, g.variant"""
"""The player page's results before (every game of the player read from its row)."""


def build(path: Path, games: int, players: int, analysed: int) -> None:
    """The synthetic archive (made once, then reused)."""
    db = archive.open_archive(path)
    try:
        if db.execute("SELECT n FROM game_count").fetchone()[0] >= games:
            return
        with db.conn:
            db.execute("INSERT INTO players (name, key) WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
                       "SELECT i + 1 FROM n WHERE i < ?) SELECT 'Player ' || i, 'player ' || i FROM n",
                       [players])
            db.execute(
                "INSERT INTO games (hash, variant, white_id, black_id, date, result, winner, points, "
                "turns, valid, record) WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n "
                "WHERE i < ?1) SELECT 'h' || i, CASE i % 3 WHEN 0 THEN 'jacquet' WHEN 1 THEN 'murray' "
                "ELSE 'backgammon' END, 1 + i % ?2, 1 + (i * 7 + 3) % ?2, printf('20%02d.%02d.%02d', "
                "i % 25, 1 + i % 12, 1 + i % 28), 'W+1', 'W', 1 + i % 3, 40 + (i * 13) % 300, 1, "
                "hex(randomblob(800)) FROM n", [games, players])
            db.execute("INSERT INTO analyses (id, game_id, engine, depth, digest, analysed_at) "
                       "SELECT id / ?, id, 'jacquet-td jacquet v2', 0, 'd', '2026-01-01' FROM games "
                       "WHERE id % ? = 0", [analysed, analysed])
            db.execute(
                "INSERT INTO analysis_turns WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 "
                "FROM n WHERE i < 40) SELECT a.id, n.i, CASE n.i % 2 WHEN 1 THEN 'W' ELSE 'B' END, "
                "'65', '24/13', '24/18 13/8', 0, 0, 0, ((a.id * 31 + n.i * 17) % 500) / 1000.0, NULL, "
                "0, 0, 1, 10, '[]' FROM analyses a, n")
            db.execute(
                "INSERT INTO analysis_players SELECT a.id, s.side, CASE s.side WHEN 'W' THEN g.white_id "
                "ELSE g.black_id END, 20, 1, 1, 1, (a.id * 13) % 300, 0.5, 1, 0.5, (SELECT max(loss) FROM "
                "analysis_turns t WHERE t.analysis_id = a.id AND t.player = s.side) FROM analyses a "
                "JOIN games g ON g.id = a.game_id, (SELECT 'W' AS side UNION ALL SELECT 'B') s")
    finally:
        db.close()


def indexes_by_player_alone(db: Database) -> None:
    """The indexes the archive had before: each colour's games by player alone."""
    for side in ("white", "black"):
        db.execute(f"DROP INDEX IF EXISTS idx_games_{side}_player")
        db.execute(f"CREATE INDEX IF NOT EXISTS idx_games_{side}_id ON games ({side}_id)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--analysed", type=int, default=20, help="one game in N analysed")
    parser.add_argument("--repeat", type=int, default=20)
    options = parser.parse_args()
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"players-{options.games}-{options.players}.db"
    started = time.perf_counter()
    build(path, options.games, options.players, options.analysed)
    print(f"archive of {options.games:,} games between {options.players} players at {path} "
          f"({time.perf_counter() - started:.1f} s)")
    db = archive.open_archive(path)
    indexes_by_player_alone(db)
    key = PLAYER.casefold()

    def before() -> None:
        search(db, Query(player=f'"{PLAYER}"', sort="date", descending=True, limit=20))
        db.execute(OLD_RESULTS, [key, key]).fetchall()

    old = timed(before, options.repeat)
    player_indexes(db)
    db.execute("ANALYZE")

    def after() -> None:
        player_games(db, PLAYER, 20)
        player_results(db, PLAYER)

    def analyses() -> None:
        player_analyses(db, player_ids(db, PLAYER), POINTS)

    new, more = timed(after, options.repeat), timed(analyses, options.repeat)
    games = player_games(db, PLAYER, 1)[1]
    analysed = sum(engine["games"] for engine in player_analyses(db, player_ids(db, PLAYER), 1))
    print(f"{PLAYER}: {games:,} games, {analysed:,} analysed")
    print(f"player page's games and results: before p50 {old[0]:.1f} ms, p95 {old[1]:.1f} ms; "
          f"after p50 {new[0]:.1f} ms, p95 {new[1]:.1f} ms")
    print(f"his analyses (new: chart and worst plays): p50 {more[0]:.1f} ms, p95 {more[1]:.1f} ms")
    db.close()
    client = create_app({"ARCHIVE": str(path), "TESTING": True}).test_client()
    page = timed(lambda: client.get(f"/player/{PLAYER}"), options.repeat)
    print(f"whole page /player/{PLAYER}: p50 {page[0]:.1f} ms, p95 {page[1]:.1f} ms")


if __name__ == "__main__":
    main()
