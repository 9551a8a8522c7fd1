"""Benchmark: the archive's list page on a large archive, before and after keyset paging
and bounded counts (in one run, on the same file): "before" runs the statements the page
used to run (every match counted for every page, a deep page reached by OFFSET), "after"
:func:`archive.search.search_page` as the list runs it (the kept count of games, hidden
ones aside; filtered lists counted up to 10,000; a deep page read from the index after
its predecessor's last game). Newest first, longest first, a player filter and a text
search, each on its first page and a deep one.

The archive is synthetic (``--games`` rows of games between 2,000 players, no turns: the
list page reads the games table only; a comment in one game of 50), made in about a
minute with a few SQL statements, and kept under ``bench/results/`` (``*.db``, not
committed) for the next run.

    python bench/server_scale.py [--games 1000000] [--repeat 20]
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import replace
from pathlib import Path

from sqlite_utils import Database

import archive
from archive.search import COLUMNS, FROM, SORTS, Query, _order, _where, search_page

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
            db.execute(  # a comment in one game of 50, for the text search
                "INSERT INTO annotations (game_id, ply, kind, text) SELECT id, 10, 'comment', "
                "CASE id % 7 WHEN 0 THEN 'a blunder here' ELSE 'a quiet move' END "
                "FROM games WHERE id % 50 = 0")
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


CASES = {  # name: sort, descending, filters
    "newest first": ("id", True, {}),
    "longest first": ("turns", True, {}),
    "a player filter": ("id", True, {"player": "Player 17"}),
    "a text search": ("id", True, {"text": "blunder"}),
}
COUNT_LIMIT = 10_000
"""As the viewer's list counts (``webviewer.blueprints.games.COUNT_LIMIT``)."""


def measure(db: Database, name: str, sort: str, descending: bool, filters: dict[str, str],
            page: int, repeat: int) -> None:
    """One list page, ``page`` deep: the statements the page used to run (every match
    counted, OFFSET, ties by number going up), against :func:`search_page` (the kept or
    bounded count, the page after its predecessor's last game by the index)."""
    query = Query(sort=sort, descending=descending, count_limit=COUNT_LIMIT, **filters)  # type: ignore[arg-type]
    where, params, _ = _where(db, query)
    old_order = f"{SORTS[sort]} {'DESC' if descending else 'ASC'}, g.id"
    offset = (page - 1) * query.limit
    ids = [row[0] for row in db.execute(f"SELECT g.id {FROM}{where} ORDER BY {_order(sort, descending)} "
                                        f"LIMIT 1 OFFSET ?", [*params, offset - 1])] if page > 1 else []
    if page > 1 and not ids:
        print(f"list page, {name}, page {page}: fewer games than that")
        return
    after = replace(query, after=ids[0]) if ids else query

    def before() -> None:
        db.execute(f"SELECT count(*) {FROM}{where}", params).fetchone()
        db.execute(f"SELECT {COLUMNS} {FROM}{where} ORDER BY {old_order} LIMIT 50 OFFSET ?",
                   [*params, offset]).fetchall()

    old, new = timed(before, repeat), timed(lambda: search_page(db, after), repeat)
    print(f"list page, {name}, page {page:,}: before p50 {old[0]:.1f} ms, p95 {old[1]:.1f} ms; "
          f"after p50 {new[0]:.1f} ms, p95 {new[1]:.1f} ms")


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
    for name, (sort, descending, filters) in CASES.items():
        for page in (1, 5_000 if not filters else 50):
            measure(db, name, sort, descending, filters, page, options.repeat)
    db.close()


if __name__ == "__main__":
    main()
