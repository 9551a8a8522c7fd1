"""Benchmark: the archive's list page on a large archive, before and after issue 21 (in one
run, on the same file): "before" runs the statements the page used to run (a full
``count(*)`` for every page, the sort by turns with its index unused), "after" the
archive's :func:`archive.search` (the kept ``game_count``, the sort columns indexed).

The archive is synthetic (``--games`` rows of games between 2,000 players, no turns: the
list page reads the games table only), made in seconds with one SQL statement, and kept
under ``bench/results/`` (``*.db``, not committed) for the next run.

    python bench/server_scale.py [--games 1000000] [--repeat 20]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import archive
from archive.search import COLUMNS, FROM, Query, search

RESULTS = Path(__file__).parent / "results"


def build(path: Path, games: int) -> None:
    """An archive of ``games`` synthetic games (made once, then reused)."""
    db = archive.open_archive(path)
    try:
        if db.execute("SELECT n FROM game_count").fetchone()[0] >= games:
            return
        with db.conn:
            db.execute("INSERT INTO players (name, key) WITH RECURSIVE n(i) AS "
                       "(SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) "
                       "SELECT 'Player ' || i, 'player ' || i FROM n")
            db.execute(
                "INSERT INTO games (hash, variant, white_id, black_id, date, result, winner, "
                "points, turns, valid, record) WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
                "SELECT i + 1 FROM n WHERE i < ?) SELECT 'h' || i, "
                "CASE i % 3 WHEN 0 THEN 'jacquet' WHEN 1 THEN 'murray' ELSE 'backgammon' END, "
                "1 + i % 2000, 1 + (i * 7) % 2000, printf('20%02d.%02d.%02d', i % 25, 1 + i % 12, "
                "1 + i % 28), 'W+1', 'W', 1 + i % 3, 40 + (i * 13) % 300, 1, '' FROM n", [games])
    finally:
        db.close()


def timed(run, repeat: int) -> tuple[float, float]:
    """p50 and p95 of ``run()``, in ms."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append(1e3 * (time.perf_counter() - started))
    cuts = statistics.quantiles(times, n=20, method="inclusive")
    return statistics.median(times), cuts[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=20)
    options = parser.parse_args()
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"scale-{options.games}.db"
    started = time.perf_counter()
    build(path, options.games)
    print(f"archive of {options.games:,} games at {path} ({time.perf_counter() - started:.1f} s)")
    db = archive.open_archive(path, readonly=True)
    pages = {"newest first": ("id", True), "longest first": ("turns", True)}
    for name, (sort, descending) in pages.items():
        order = {"id": "g.id", "turns": "+g.turns"}[sort]  # +: no index, as before

        def before(order: str = order, descending: bool = descending) -> None:
            db.execute(f"SELECT count(*) {FROM}").fetchone()
            db.execute(f"SELECT {COLUMNS} {FROM} ORDER BY {order} "
                       f"{'DESC' if descending else 'ASC'}, g.id LIMIT 50").fetchall()

        def after(sort: str = sort, descending: bool = descending) -> None:
            search(db, Query(sort=sort, descending=descending))

        old, new = timed(before, options.repeat), timed(after, options.repeat)
        print(f"list page, {name}: before p50 {old[0]:.1f} ms, p95 {old[1]:.1f} ms; "
              f"after p50 {new[0]:.1f} ms, p95 {new[1]:.1f} ms")
    db.close()


if __name__ == "__main__":
    main()
