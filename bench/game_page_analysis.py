"""Benchmark: the game page with its analysis (issue 24), p50 and p95 server time through
Flask's test client, beside the same page without analysis and the trivial Flask app
(``return "ok"``), in one run.

An archive of the generated jacquet games (``samples/generated/jacquet-10.jqn``), each
analysed at 0-ply by the shipped net (``jacquet analyse --db``'s code), and a copy of it
with the analyses removed. Each page is requested at every ply of every game (the board
flipped on every other game), once each game's view is made (its first page, reported
apart: what a game's first visitor pays), as a visitor stepping through it without
the script does; the first page of each game is timed as well.

    python bench/game_page_analysis.py [--games 10] [--rounds 2]
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # ``bench.*`` when run as a script

from archive import Query, import_files, open_archive
from bench.load import trivial_app
from jacquet_cli.analyse_archive import analyse_archive
from jacquet_cli.collector import settle_for_serving
from notation.formats import read_file, write_file
from webviewer import create_app

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "generated" / "jacquet-10.jqn"


def build(folder: Path, games: int) -> tuple[Path, Path, list[tuple[int, int]]]:
    """The analysed archive, its copy without analyses, and each game's (id, plies)."""
    record = folder / "games.jqn"
    write_file(list(read_file(SAMPLES))[:games], record)
    analysed = folder / "analysed.db"
    with open_archive(analysed) as db:
        import_files(db, [str(record)])
        start = time.perf_counter()
        done, _ = analyse_archive(db, Query(), 0, None, None, 5)
        print(f"{done} games analysed at 0-ply in {time.perf_counter() - start:.1f} s", file=sys.stderr)
        plies = db.execute("SELECT id, turns FROM games ORDER BY id").fetchall()
    bare = folder / "bare.db"
    shutil.copy(analysed, bare)
    connection = sqlite3.connect(bare)
    with connection:
        connection.execute("DELETE FROM analyses")
    connection.close()
    return analysed, bare, [(game_id, turns) for game_id, turns in plies]


def paths(games: list[tuple[int, int]], rounds: int) -> tuple[list[str], list[str]]:
    """Each game's first page, then every ply of every game ``rounds`` times."""
    first = [f"/game/{game_id}?ply=0" for game_id, _ in games]
    pages = [f"/game/{game_id}?ply={ply}" + ("&flip=1" if number % 2 else "")
             for _ in range(rounds) for number, (game_id, turns) in enumerate(games)
             for ply in range(turns + 1)]
    return first, pages


def times(app, paths: list[str]) -> list[float]:
    """Each request's time through the test client, in ms (every status must be 200)."""
    client = app.test_client()
    measured = []
    for path in paths:
        start = time.perf_counter()
        response = client.get(path)
        measured.append((time.perf_counter() - start) * 1e3)
        status = response.status_code
        response.close()
        if status != 200:
            raise SystemExit(f"{path}: status {status}")
    return measured


def figures(measured: list[float]) -> str:
    cuts = statistics.quantiles(measured, n=100, method="inclusive")
    return f"{statistics.median(measured):8.2f} {cuts[94]:8.2f} {len(measured):8}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="jacquet-bench-") as folder:
        analysed, bare, games = build(Path(folder), args.games)
        first, pages = paths(games, args.rounds)
        settle_for_serving()
        rows = [("trivial Flask app", times(trivial_app(), ["/"] * len(pages)))]
        for name, archive in (("game page, analysed", analysed), ("game page, no analysis", bare)):
            app = create_app({"ARCHIVE": str(archive), "TESTING": True})
            opened = times(app, first)
            rows.append((f"{name}: first page", opened))
            rows.append((f"{name}: kept", times(app, pages)))
        rows.append(("trivial Flask app, again", times(trivial_app(), ["/"] * len(pages))))
    print(f"{'route':36} {'p50 ms':>8} {'p95 ms':>8} {'pages':>8}")
    for name, measured in rows:
        print(f"{name:36} {figures(measured)}")


if __name__ == "__main__":
    main()
