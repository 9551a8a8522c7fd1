"""Benchmark: time ``legal_plays`` per position and rule set.

Positions: GNU Backgammon's oracle positions (tests/data) for ``backgammon``, and positions
from random games of every rule set (seeded, so runs compare). Prints, per rule set, the
median and the worst time per call, and the worst doublet, against the targets of the
rules-engine issue (median under 0.3 ms, worst doublet under 5 ms).

    python bench/legal_plays.py [--positions N] [--repeat R]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from notation import Dice, Position, legal_plays, rule_set
from notation.engine.rules import NAMES
from tests.selfplay import play_random_game

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"


def oracle_queries() -> list[tuple[Position, Dice]]:
    queries = []
    for name in ("opening_all_21_rolls.jsonl", "legal_plays_500_real_positions.jsonl"):
        for line in (DATA / name).read_text().splitlines():
            vector = json.loads(line)
            queries.append((Position.from_id(vector["posid"]), Dice(*vector["dice"])))
    return queries


def game_queries(rules, count: int, seed: int) -> list[tuple[Position, Dice]]:
    """Positions met in random games, each with a fresh random roll (doublets included)."""
    rng = random.Random(seed)
    queries: list[tuple[Position, Dice]] = []
    while len(queries) < count:
        game = play_random_game(rules, rng)
        position = rules.start
        for _, play in game.turns:
            queries.append((position, Dice(rng.randint(1, 6), rng.randint(1, 6))))
            position = play.next_position
    return queries[:count]


def measure(rules, queries, repeat: int) -> tuple[list[float], list[float]]:
    times, doublets = [], []
    for position, dice in queries:
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            legal_plays(position, dice, rules)
            best = min(best, time.perf_counter() - start)
        times.append(best)
        if dice.is_doublet:
            doublets.append(best)
    return times, doublets


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=2000,
                        help="positions per rule set from random games")
    parser.add_argument("--repeat", type=int, default=3, help="timings per position (the best is kept)")
    args = parser.parse_args()
    rows = []
    for name in NAMES:
        rules = rule_set(name)
        sets = [(f"{name} (random games)", game_queries(rules, args.positions, seed=1))]
        if name == "backgammon":
            sets.insert(0, ("backgammon (gnubg oracle)", oracle_queries()))
        for label, queries in sets:
            times, doublets = measure(rules, queries, args.repeat)
            rows.append((label, len(queries), statistics.median(times) * 1e3, max(times) * 1e3,
                         max(doublets, default=0) * 1e3))
    print(f"{'positions':28} {'n':>6} {'median ms':>10} {'worst ms':>9} {'worst doublet ms':>17}")
    for label, n, median, worst, doublet in rows:
        print(f"{label:28} {n:6d} {median:10.3f} {worst:9.3f} {doublet:17.3f}")
    print("targets: median < 0.300 ms, worst doublet < 5.000 ms")


if __name__ == "__main__":
    main()
