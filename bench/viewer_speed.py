"""Benchmark: the viewer's server time per request and its throughput under load (issue 6).

An archive (in a temporary folder) of the demo samples plus ``--games`` random games
(annotated, with players, events and dates), then, side by side for each route:

1. server time through Flask's test client (no network): p50 and p95 over ``--requests``
   requests with varied game ids, players and pages;
2. requests per second under a bounded load on loopback: the real app under waitress (8
   threads, as ``jacquet serve``) in a child process, ``--concurrency`` keep-alive clients
   going through the same paths over and over for ``--seconds`` seconds per route.

The baseline is a trivial Flask app (``return "ok"``) measured the same way. Targets: game
page and game JSON p95 under 10 ms, and every route at least 1/3 of the baseline's req/s.

    python bench/viewer_speed.py [--games 2000] [--requests 500] [--concurrency 4] [--seconds 8]
"""

from __future__ import annotations

import argparse
import functools
import itertools
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # ``bench.*`` when run as a script

from archive import import_games, open_archive
from bench.archive_speed import pool
from bench.load import SERVER_THREADS, Probe, run_load, serving_in_process, trivial_app
from webviewer import create_app
from webviewer.demo import build_demo

P95_TARGET_MS = 10.0
RATE_TARGET = 1 / 3
Route = tuple[str, Callable[[], object], list[str]]  # name, app factory, paths


def build_archive(path: Path, games: int) -> None:
    """The demo samples, then ``games`` random games in one import."""
    build_demo(path)
    db = open_archive(path)
    try:
        start = time.perf_counter()
        made = pool(games, seed=5)
        made_in = time.perf_counter() - start
        summary = import_games(db, made, keep_invalid=True)
        print(f"archive: demo samples + {games} random games generated in {made_in:.0f} s "
              f"({summary.imported} imported)")
    finally:
        db.close()


def routes(path: Path, count: int, seed: int = 1) -> list[Route]:
    """Each route with ``count`` paths: random games (with their middle ply), players and
    pages of the archive at ``path``."""
    db = open_archive(path, readonly=True)
    try:
        games = list(db.execute("SELECT id, turns FROM games"))
        players = [row[0] for row in db.execute("SELECT name FROM players")]
    finally:
        db.close()
    rng = random.Random(seed)
    picked = [rng.choice(games) for _ in range(count)]
    pages = max(1, len(games) // 50)
    viewer = functools.partial(create_app, {"ARCHIVE": str(path)})
    return [
        ("trivial Flask app", trivial_app, ["/"] * count),
        ("game page, middle ply", viewer, [f"/game/{i}?ply={turns // 2}" for i, turns in picked]),
        ("game page, last ply", viewer, [f"/game/{i}" for i, _ in picked]),
        ("game JSON", viewer, [f"/api/games/{i}" for i, _ in picked]),
        ("search /?player=", viewer, [f"/?player={rng.choice(players).replace(' ', '+')}"
                                      for _ in range(count)]),
        ("/api/games", viewer, [f"/api/games?page={rng.randint(1, pages)}" for _ in range(count)]),
    ]


def server_times(factory: Callable[[], object], paths: list[str]) -> list[float]:
    """Each request's time through the test client, in ms (every status must be 200)."""
    client = factory().test_client()
    client.get(paths[0]).close()  # warm: templates compiled, rule sets built
    times = []
    for path in paths:
        start = time.perf_counter()
        response = client.get(path)
        times.append((time.perf_counter() - start) * 1e3)
        status = response.status_code
        response.close()
        if status != 200:
            raise SystemExit(f"{path}: status {status}")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="random games added to the demo archive")
    parser.add_argument("--requests", type=int, default=500,
                        help="requests per route through the test client (and distinct paths under load)")
    parser.add_argument("--concurrency", type=int, default=4, help="concurrent clients under load")
    parser.add_argument("--seconds", type=float, default=8.0, help="duration of each route's load")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "viewer.db"
        build_archive(path, args.games)
        rows = []
        for name, factory, paths in routes(path, args.requests):
            times = server_times(factory, paths)
            with serving_in_process(factory) as address:
                probes = itertools.cycle([Probe(p) for p in paths])
                run_load(address, itertools.islice(probes, 4 * args.concurrency), args.concurrency, 10)  # warm
                load = run_load(address, probes, args.concurrency, args.seconds)
            if load.failures:
                raise SystemExit(f"{name}: {load.failures[:3]}")
            cuts = statistics.quantiles(times, n=100, method="inclusive")
            rows.append((name, statistics.median(times), cuts[94], load.rate, load.summary()))
    baseline = rows[0][3]
    print(f"\nserver time: {args.requests} requests per route through the Flask test client; load: "
          f"{args.concurrency} keep-alive clients on loopback for {args.seconds:g} s per route, "
          f"waitress ({SERVER_THREADS} threads) in a child process\n")
    print(f"{'route':24} {'p50 ms':>8} {'p95 ms':>8} {'req/s':>8} {'x trivial':>10}")
    for name, p50, p95, rate, _ in rows:
        print(f"{name:24} {p50:8.2f} {p95:8.2f} {rate:8.0f} {rate / baseline:10.2f}")
    print(f"\ntargets: game page and game JSON p95 < {P95_TARGET_MS:.0f} ms; req/s >= "
          f"{RATE_TARGET:.2f} x trivial")
    for name, _, p95, rate, _ in rows[1:]:
        misses = []
        if name.startswith("game") and p95 >= P95_TARGET_MS:
            misses.append(f"p95 {p95:.1f} ms")
        if rate < RATE_TARGET * baseline:
            misses.append(f"rate {rate / baseline:.2f} x trivial")
        print(f"  {name:24} {'MISSES: ' + ', '.join(misses) if misses else 'meets the targets'}")
    print("\nload runs (client-side latency):")
    for name, *_, summary in rows:
        print(f"  {name:24} {summary}")


if __name__ == "__main__":
    main()
