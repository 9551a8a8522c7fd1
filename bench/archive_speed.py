"""Benchmark: the archive's import throughput and search latency.

1. Import: storing games (rows built from checked games, then inserted by the archive's
   own code: duplicates looked up by content hash, names looked up, explorer counts
   upserted, a transaction per batch of 200 games) against a bare ``executemany`` of the
   same rows in one transaction, in the same run: every row the import stores (player and
   event names, games, turns, annotations, and the explorer's counts as they stand at the
   end, worked out beforehand). Target: within 3x of the bare insert.
2. Search: an archive of ``--games`` games (default 1,000,000; never committed) made from
   a pool of real random games whose rows are replicated with other players, events and
   dates, then exact-position search (p50, p95), player search and full-text search.
   Target: position search p95 under 20 ms. Prints the archive's size on disk.

    python bench/archive_speed.py [--import-games 2000] [--games 1000000] [--folder DIR]

``--games 0`` runs the import part only.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from archive import Query, import_games, open_archive, search
from archive.explorer import games_through, plays_from
from archive.importer import COUNTED_KINDS
from archive.rows import game_rows
from notation import rule_set
from notation.engine.rules import NAMES
from notation.tree.generate import random_game


def pool(count: int, seed: int = 7) -> list:
    rng = random.Random(seed)
    games = []
    for index in range(count):
        variant = NAMES[index % len(NAMES)]
        headers = {"White": f"Player {rng.randint(1, 400)}", "Black": f"Player {rng.randint(1, 400)}",
                   "Event": f"Event {rng.randint(1, 50)}",
                   "Date": f"{rng.randint(1890, 2026)}.{rng.randint(1, 12):02d}.{rng.randint(1, 28):02d}"}
        games.append(random_game(rule_set(variant), rng, annotate=True, headers=headers))
    return games


def bare_rows(all_rows) -> tuple[list[str], list[str], list[tuple]]:
    """The rows besides games, turns and annotations that an import stores, worked out
    before the timed insert: the player and event names, and the explorer's counts
    (``position_plays``) as they stand once every game is in."""
    players = sorted({name for r in all_rows for name in (r.white, r.black) if name})
    events = sorted({r.event for r in all_rows if r.event})
    counts: Counter = Counter()
    wins: Counter = Counter()
    for r in all_rows:
        for _, player, kind, dice, play, before, *_ in r.turns:
            if kind in COUNTED_KINDS:
                key = (before, r.game["variant"], dice, play)
                counts[key] += 1
                wins[key] += player == r.game["winner"]
    return players, events, [(*key, n, wins[key]) for key, n in counts.items()]


def bare_insert(connection, all_rows, extra) -> None:
    """The same rows with a bare executemany each, in one transaction: names, games,
    turns, annotations and the explorer's counts."""
    players, events, plays = extra
    with connection:
        connection.executemany("INSERT INTO players (name) VALUES (?)", [(n,) for n in players])
        connection.executemany("INSERT INTO events (name) VALUES (?)", [(n,) for n in events])
        games = [dict(r.game, white_id=None, black_id=None, event_id=None, match_id=None) for r in all_rows]
        columns = list(games[0])
        connection.executemany(
            f"INSERT INTO games ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
            [[g[c] for c in columns] for g in games])
        first_id = connection.execute("SELECT min(id) FROM games").fetchone()[0]
        turns, notes = [], []
        for offset, rows in enumerate(all_rows):
            turns += [(first_id + offset, *t) for t in rows.turns]
            notes += [(first_id + offset, *n) for n in rows.annotations]
        connection.executemany(f"INSERT INTO turns VALUES ({', '.join('?' * 10)})", turns)
        connection.executemany("INSERT INTO annotations (game_id, ply, kind, text) VALUES (?, ?, ?, ?)",
                               notes)
        connection.executemany("INSERT INTO position_plays (position, variant, dice, play, count, wins) "
                               "VALUES (?, ?, ?, ?, ?, ?)", plays)


@dataclass
class Timing:
    cpu: float
    wall: float


def timed(work: Callable[[], object]) -> Timing:
    """``work()``'s CPU time in this process (what other processes on a shared machine
    change least) and wall-clock time (which also counts waiting for the disk), from a
    collected heap whose objects are kept out of the garbage collector's sight while it
    runs: the benchmark holds two pools of game trees that no importing process holds, and
    every full collection would visit them again."""
    gc.collect()
    gc.freeze()
    cpu, wall = time.process_time(), time.perf_counter()
    try:
        work()
        return Timing(time.process_time() - cpu, time.perf_counter() - wall)
    finally:
        gc.unfreeze()


def import_benchmark(count: int, folder: Path) -> None:
    games = pool(count)
    turns = sum(g.end().ply for g in games)
    # The bare side's rows from a second pool of the same games: a play's notation, worked
    # out once and kept, would otherwise come ready-made to the import.
    all_rows = [game_rows(g) for g in pool(count)]
    for stale in folder.glob("ours.db*"):  # an earlier run's: importing again would skip all
        stale.unlink()
    for stale in folder.glob("bare.db*"):
        stale.unlink()
    db = open_archive(folder / "ours.db")
    ours = timed(lambda: import_games(db, games))
    bare_db = open_archive(folder / "bare.db")
    extra = bare_rows(all_rows)
    bare = timed(lambda: bare_insert(bare_db.conn, all_rows, extra))
    print(f"import of {count} games, {turns} turns (rates by wall clock; CPU time of this process)")
    for name, timing in (("archive import_games        ", ours), ("bare executemany, same rows ", bare)):
        print(f"  {name} {count / timing.wall:7.0f} games/s {turns / timing.wall:8.0f} turns/s"
              f"   wall {timing.wall:6.2f} s  CPU {timing.cpu:6.2f} s")
    print(f"  ratio (ours / bare): wall {ours.wall / bare.wall:.2f}x  CPU {ours.cpu / bare.cpu:.2f}x"
          "   target: <= 3x")


def big_archive(path: str, total: int, seed_games: int) -> None:
    """An archive of ``total`` games: the rows of ``seed_games`` real games replicated
    with other players, events and dates (inserted in bulk: this builds data to search)."""
    games = pool(seed_games, seed=11)
    rows = [game_rows(g) for g in games]
    db = open_archive(path)
    connection = db.conn
    rng = random.Random(3)
    connection.executemany("INSERT INTO players (name) VALUES (?)",
                           [(f"Player {i}",) for i in range(1, 5001)])
    connection.executemany("INSERT INTO events (name) VALUES (?)", [(f"Event {i}",) for i in range(1, 501)])
    connection.commit()
    # Bulk load: no journal, indexes dropped during the load and built again after it
    # (one sort each instead of a random B-tree insert per row).
    connection.execute("PRAGMA journal_mode=OFF")
    connection.execute("PRAGMA synchronous=OFF")
    connection.execute("PRAGMA cache_size=-1000000")
    indexes = connection.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL "
        "AND tbl_name IN ('games', 'turns', 'annotations')").fetchall()
    for name, _ in indexes:
        connection.execute(f"DROP INDEX [{name}]")
    columns = [c for c in rows[0].game if c != "hash"]
    done = 0
    batch = 20000
    while done < total:
        with connection:
            games_rows, turn_rows, note_rows = [], [], []
            base = done + 1
            for offset in range(min(batch, total - done)):
                source = rows[(done + offset) % len(rows)]
                game_id = base + offset
                values = dict(source.game, hash=f"{game_id:016x}", white_id=rng.randint(1, 5000),
                              black_id=rng.randint(1, 5000), event_id=rng.randint(1, 500),
                              date=(f"{rng.randint(1890, 2026)}.{rng.randint(1, 12):02d}."
                                    f"{rng.randint(1, 28):02d}"))
                games_rows.append([game_id, values["hash"], *[values.get(c) for c in columns]])
                turn_rows += [(game_id, *t) for t in source.turns]
                note_rows += [(game_id, *n) for n in source.annotations]
            connection.executemany(
                f"INSERT INTO games (id, hash, {', '.join(columns)}) "
                f"VALUES ({', '.join('?' * (len(columns) + 2))})",
                games_rows)
            connection.executemany(f"INSERT INTO turns VALUES ({', '.join('?' * 10)})", turn_rows)
            connection.executemany("INSERT INTO annotations (game_id, ply, kind, text) VALUES (?, ?, ?, ?)",
                                   note_rows)
        done += len(games_rows)
        print(f"\r  built {done}/{total} games", end="", flush=True)
    print()
    for name, sql in indexes:
        start = time.perf_counter()
        connection.execute(sql)
        print(f"  index {name} built in {time.perf_counter() - start:.0f} s")
    fill_position_plays(connection, rows, total)
    connection.commit()
    connection.execute("PRAGMA journal_mode=WAL")


def fill_position_plays(connection, rows: list, total: int) -> None:
    """The explorer's counts of the replicated archive: each source game's plays counted
    as often as it was copied (what the importer would have added up, without reading
    back a hundred million turns)."""
    counts: dict[tuple, list[int]] = {}
    for index, source in enumerate(rows):
        copies = total // len(rows) + (1 if index < total % len(rows) else 0)
        winner = source.game["winner"]
        for _, player, kind, dice, play, before, *_ in source.turns:
            if kind in ("roll", "passed"):
                entry = counts.setdefault((before, source.game["variant"], dice, play), [0, 0])
                entry[0] += copies
                entry[1] += copies if winner == player else 0
    connection.executemany("INSERT INTO position_plays (position, variant, dice, play, count, wins) "
                           "VALUES (?, ?, ?, ?, ?, ?)", [(*key, n, w) for key, (n, w) in counts.items()])


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def search_benchmark(total: int, folder: Path) -> None:
    path = str(folder / "big.db")
    if not os.path.exists(path):
        start = time.perf_counter()
        big_archive(path, total, seed_games=300)
        print(f"  built in {time.perf_counter() - start:.0f} s")
    size = sum(os.path.getsize(p) for p in (path, path + "-wal") if os.path.exists(p))
    start = time.perf_counter()
    open_archive(path).close()  # an archive left by an earlier run: its schema brought up to date
    print(f"  schema up to date in {time.perf_counter() - start:.0f} s")
    db = open_archive(path, readonly=True)
    positions = [row[0] for row in db.execute(
        "SELECT position_before FROM turns WHERE game_id <= 300 ORDER BY random() LIMIT 200")]
    through, timings = [], []
    for position in positions:
        start = time.perf_counter()
        games_through(db, position)
        through.append((time.perf_counter() - start) * 1e3)
        start = time.perf_counter()
        plays_from(db, position)
        timings.append((time.perf_counter() - start) * 1e3)
    players = []
    for index in range(50):
        start = time.perf_counter()
        search(db, Query(player=f"Player {index + 1}", limit=20))
        players.append((time.perf_counter() - start) * 1e3)
    texts = []
    for word in ["courier", "race", "talon", "block", "tempo"] * 4:
        start = time.perf_counter()
        search(db, Query(text=word, limit=20))
        texts.append((time.perf_counter() - start) * 1e3)
    print(f"archive of {total} games: {size / 1e9:.2f} GB on disk")
    print(f"  games through a position (first 100)  p50 {percentile(through, 0.5):7.2f} ms  "
          f"p95 {percentile(through, 0.95):7.2f} ms   target: p95 < 20 ms")
    print(f"  plays from a position (explorer)      p50 {percentile(timings, 0.5):7.2f} ms  "
          f"p95 {percentile(timings, 0.95):7.2f} ms   target: p95 < 20 ms")
    print(f"  player search          p50 {percentile(players, 0.5):7.2f} ms  "
          f"p95 {percentile(players, 0.95):7.2f} ms")
    print(f"  full-text search       p50 {percentile(texts, 0.5):7.2f} ms  "
          f"p95 {percentile(texts, 0.95):7.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--import-games", type=int, default=2000)
    parser.add_argument("--games", type=int, default=1_000_000, help="0: skip the search part")
    parser.add_argument("--folder", help="where to build the archives (default: a temporary folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(args.folder or temporary)
        folder.mkdir(parents=True, exist_ok=True)
        import_benchmark(args.import_games, folder)
        if args.games:
            search_benchmark(args.games, folder)


if __name__ == "__main__":
    main()
