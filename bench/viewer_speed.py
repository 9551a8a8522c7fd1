"""Benchmark: the viewer's server time per request and its throughput under load (issue 6).

An archive of the demo samples plus ``--games`` random games (annotated: comments, NAGs,
variations; with players, events and dates), then, side by side for each route:

1. server time through Flask's test client (no network): p50 and p95 over ``--requests``
   requests;
2. requests per second under a bounded load on loopback: the real app under waitress (8
   threads) in a child process, ``--concurrency`` keep-alive clients for ``--seconds``
   seconds per route.

The garbage collector is set for serving (:mod:`jacquet_cli.collector`) in each server
process as ``jacquet serve`` sets it, and in this process before the test-client passes.

The baseline is a trivial Flask app (``return "ok"``) measured the same way, first and
last (its mean rate is the baseline).

How the routes are requested. Each game is read back from its record (every play parsed
and checked) the first time the server is asked for it, and kept (bounded) for its later
pages, so the order of requests matters, and every stream below is what a real client does:

* **game page, stepping**: visitors, each opening a game no earlier visitor opened and
  stepping through it as ``viewer.js`` does: the start, then every turn in the move list's
  order (each main-line turn by its ply, followed by the turns of the variations that
  replace it, by their paths); every other visitor with the board flipped. The first page
  of each game pays for reading its record.
* **game page, first view**: every request a game not asked for before, at a random ply:
  each one pays for reading its record.
* **game JSON, first request**: the JSON of a game not asked for before (what an API client
  fetching games does).
* **game JSON, read before**: the JSON of ``CACHED_GAMES // 2`` games requested once
  beforehand, so already made and kept (an API client asking again): what answering from
  the cache costs.
* **search** and **games list**: random players and pages (reported, no target).

No stream repeats a game it needs unread; the test-client passes (all in this process,
which keeps what it read) use games apart from one another.

Targets (the issue's speed paragraph is about the game page and the game JSON): p95 under
10 ms, and at least 1/3 of the trivial app's req/s, for each game route; the first request
for a game is bounded by reading its record back (``notation/``), so for those the rate is
reported against the target but not expected to meet it.

    python bench/viewer_speed.py [--games 2000] [--requests 500] [--concurrency 4] [--seconds 8]
                                 [--archive PATH]  # reuse (or build and keep) the archive
"""

from __future__ import annotations

import argparse
import functools
import itertools
import multiprocessing
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # ``bench.*`` when run as a script

from archive import game_from_record, import_games, open_archive
from bench.archive_speed import pool
from bench.load import SERVER_THREADS, Probe, run_load, serving_in_process, trivial_app
from jacquet_cli.collector import settle_for_serving
from webviewer import create_app
from webviewer.demo import build_demo
from webviewer.pages.kept_games import CACHED_GAMES
from webviewer.pages.tree import move_items

P95_TARGET_MS = 10.0
RATE_TARGET = 1 / 3
STEPPING_VISITORS = 300
"""Games whose stepping paths are prepared (more than any run gets through)."""


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



@dataclass
class Route:
    """A route to measure: the app, the paths for the test-client pass, a fresh stream of
    paths for the load (the server then being a new process that has read nothing), the
    paths requested before either is measured, and which targets apply (``"both"``: p95
    and rate; ``"p95"``: p95, the rate reported; ``""``: none)."""

    name: str
    factory: Callable[[], object]
    paths: list[str]
    stream: Callable[[], Iterable[str]]
    warm: list[str]
    targets: str = ""


def turn_addresses(db, game_id: int) -> list[str]:
    """The query strings of every node of a game in the move list's order (the start,
    then each main-line turn followed by the variations that replace it)."""
    record, variant = db.execute("SELECT record, variant FROM games WHERE id = ?", [game_id]).fetchone()
    items = move_items(game_from_record(record, variant))
    return ["ply=0", *(item.address for item in items if item.kind == "move")]


def stepping(visits: list[tuple[int, list[str]]]) -> Iterator[str]:
    """Each visitor's pages in turn: every node of a game, every other visitor flipped."""
    for number, (game_id, addresses) in enumerate(visits):
        flip = "&flip=1" if number % 2 else ""
        for where in addresses:
            yield f"/game/{game_id}?{where}{flip}"


def routes(path: Path, count: int, seed: int = 1) -> list[Route]:
    """The routes over the archive at ``path``, ``count`` requests each through the
    test client; the games of each cold stream apart from those of the others."""
    rng = random.Random(seed)
    db = open_archive(path, readonly=True)
    try:
        games = list(db.execute("SELECT id, turns FROM games"))
        players = [row[0] for row in db.execute("SELECT name FROM players")]
        rng.shuffle(games)
        spare, games = games[-1], games[:-1]
        stepped, games = games[:STEPPING_VISITORS], games[STEPPING_VISITORS:]
        visits = [(game_id, turn_addresses(db, game_id)) for game_id, _ in stepped]
    finally:
        db.close()
    viewed, games = games[:count], games[count:]
    fetched, games = games[:count], games[count:]
    kept = games[:CACHED_GAMES // 2]
    everything = viewed + fetched + games

    def first_views(chosen: list[tuple[int, int]]) -> list[str]:
        return [f"/game/{i}?ply={rng.randint(0, turns)}" for i, turns in chosen]

    pages = max(1, len(everything) // 50)
    viewer = functools.partial(create_app, {"ARCHIVE": str(path)})
    warm = [f"/game/{spare[0]}"]  # templates compiled, rule sets built
    kept_json = [f"/api/games/{i}" for i, _ in kept]
    searches = [f"/?player={rng.choice(players).replace(' ', '+')}" for _ in range(count)]
    lists = [f"/api/games?page={rng.randint(1, pages)}" for _ in range(count)]
    return [
        Route("trivial Flask app", trivial_app, ["/"] * count, lambda: itertools.repeat("/"), ["/"]),
        Route("game page, stepping", viewer, list(itertools.islice(stepping(visits), count)),
              lambda: stepping(visits), warm, "both"),
        Route("game page, first view", viewer, first_views(viewed),
              lambda: first_views(random.Random(seed + 1).sample(everything, len(everything))), warm, "p95"),
        Route("game JSON, first request", viewer, [f"/api/games/{i}" for i, _ in fetched],
              lambda: (f"/api/games/{i}"
                       for i, _ in random.Random(seed + 2).sample(everything, len(everything))),
              warm, "p95"),
        Route("game JSON, read before", viewer, [rng.choice(kept_json) for _ in range(count)],
              lambda: (rng.choice(kept_json) for _ in itertools.count()), warm + kept_json, "both"),
        Route("search /?player=", viewer, searches, lambda: itertools.cycle(searches), warm),
        Route("/api/games", viewer, lists, lambda: itertools.cycle(lists), warm),
        Route("trivial Flask app, again", trivial_app, ["/"] * count, lambda: itertools.repeat("/"), ["/"]),
    ]


def server_times(factory: Callable[[], object], paths: list[str], warm: list[str]) -> list[float]:
    """Each request's time through the test client, in ms (every status must be 200),
    after the ``warm`` requests."""
    client = factory().test_client()
    for path in warm:
        client.get(path).close()
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


@dataclass
class Row:
    """One route's figures."""

    route: Route
    p50: float
    p95: float
    rate: float
    summary: str


def measure(route: Route, args: argparse.Namespace) -> Row:
    """The route through the test client, then under load."""
    times = server_times(route.factory, route.paths, route.warm)
    with serving_in_process(route.factory) as address:
        warmed = run_load(address, [Probe(p) for p in route.warm], args.concurrency, 60)
        load = run_load(address, (Probe(p) for p in route.stream()), args.concurrency, args.seconds)
    if warmed.failures or load.failures:
        raise SystemExit(f"{route.name}: {(warmed.failures + load.failures)[:3]}")
    cuts = statistics.quantiles(times, n=100, method="inclusive")
    return Row(route, statistics.median(times), cuts[94], load.rate, load.summary())


def verdict(row: Row, baseline: float) -> str:
    """What the row meets of its targets."""
    if not row.route.targets:
        return "no target (reported)"
    misses = []
    if row.p95 >= P95_TARGET_MS:
        misses.append(f"p95 {row.p95:.1f} ms")
    rate_missed = row.rate < RATE_TARGET * baseline
    if rate_missed and row.route.targets == "both":
        misses.append(f"rate {row.rate / baseline:.2f} x trivial")
    text = "MISSES: " + ", ".join(misses) if misses else "meets the targets"
    if row.route.targets == "p95":
        text += (f"; rate {row.rate / baseline:.2f} x trivial "
                 f"({'below' if rate_missed else 'above'} 1/3: every request reads a record back)")
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="random games added to the demo archive")
    parser.add_argument("--requests", type=int, default=500,
                        help="requests per route through the test client")
    parser.add_argument("--concurrency", type=int, default=4, help="concurrent clients under load")
    parser.add_argument("--seconds", type=float, default=8.0, help="duration of each route's load")
    parser.add_argument("--archive", type=Path, help="the archive to use (built there if missing)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = args.archive or Path(folder) / "viewer.db"
        if not path.exists():
            # In another process: generating the games checks their plays, which would
            # leave the plays of the games measured in this process's cache of plays read.
            spawn = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(max_workers=1, mp_context=spawn) as builder:
                builder.submit(build_archive, path, args.games).result()
        measured = routes(path, args.requests)
        settle_for_serving()  # this process's start-up frozen, full collections rarer
        rows = [measure(route, args) for route in measured]
    baseline = (rows[0].rate + rows[-1].rate) / 2  # measured first and last: the machine drifts
    print(f"\nserver time: {args.requests} requests per route through the Flask test client; load: "
          f"{args.concurrency} keep-alive clients on loopback for {args.seconds:g} s per route, "
          f"waitress ({SERVER_THREADS} threads) in a child process\n")
    print(f"{'route':26} {'p50 ms':>8} {'p95 ms':>8} {'req/s':>8} {'x trivial':>10}")
    for row in rows:
        print(f"{row.route.name:26} {row.p50:8.2f} {row.p95:8.2f} {row.rate:8.0f} "
              f"{row.rate / baseline:10.2f}")
    print(f"\ntargets: game routes p95 < {P95_TARGET_MS:.0f} ms; req/s >= {RATE_TARGET:.2f} x trivial")
    for row in rows[1:-1]:
        print(f"  {row.route.name:26} {verdict(row, baseline)}")
    print("\nload runs (client-side latency):")
    for row in rows:
        print(f"  {row.route.name:26} {row.summary}")


if __name__ == "__main__":
    main()
