"""Benchmark: what the threat features of encoding v4 cost, backgammon, one core, side by
side in one run with versions 1 and 2.

Two figures per layout, each per second of this process's CPU time (the figure for a core
of its own when the machine is shared):

- the encoding kernel (``analysis.fast.encode``) on the results of every legal play of
  positions from random games, microseconds per board, and the plain reference
  (``Encoder.encode_boards``, numpy and, for v4's threat features, Python per board) on
  the same boards;
- self-play training games by the fast core from a fresh net of seed 1 (α 0.1, λ 0.7),
  ``--games`` games after one outside the timing (it compiles the kernels or loads them
  from numba's cache), with the turns per game: the rate ``jacquet train`` starts at (a
  fresh net plays longer games than a trained one).

    python bench/encoding_v4_speed.py [--games 100] [--boards 4000]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analysis.threads import limit_blas_threads

limit_blas_threads(1)

import numpy as np  # noqa: E402

from analysis.encoding import Encoder  # noqa: E402
from analysis.fast import board_of  # noqa: E402
from analysis.fast.encode import encode, layout, table  # noqa: E402
from analysis.fast.jit import COMPILED  # noqa: E402
from analysis.fast.selfplay import FastGames  # noqa: E402
from analysis.match import MAX_TURNS  # noqa: E402
from analysis.network import Network  # noqa: E402
from notation import legal_plays, rule_set  # noqa: E402
from tests.selfplay import play_random_game  # noqa: E402

LAYOUTS = ((1, 80), (2, 80), (4, 80), (4, 128))
"""(encoding version, hidden units) of the nets trained."""


def _boards(count: int) -> np.ndarray:
    """The results of every legal play of positions from random backgammon games."""
    rules = rule_set("backgammon")
    rows: list[np.ndarray] = []
    seed = 0
    while len(rows) < count:
        game = play_random_game(rules, random.Random(seed), max_turns=300)
        position = rules.start
        for dice, play in game.turns:
            rows += [board_of(p.result) for p in legal_plays(position, dice, rules)]
            position = play.next_position
        seed += 1
    return np.array(rows[:count], dtype=np.int8)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--boards", type=int, default=4000)
    args = parser.parse_args()
    if not COMPILED:
        print("numba is absent: the fast core runs as plain Python, nothing to time")
        return
    rules = rule_set("backgammon")
    boards = _boards(args.boards)
    primes = np.zeros((len(boards), 2), dtype=np.bool_)
    opposite = np.array(rules.opposite, dtype=np.int64)
    print(f"backgammon, {len(boards)} boards; training: {args.games} games from a fresh net, seed 1")
    print(f"{'layout':<16} {'inputs':>6} {'kernel µs/board':>15} {'reference µs/board':>18} "
          f"{'games/s':>8} {'turns/game':>10}")
    for version, hidden in LAYOUTS:
        encoder = Encoder.for_rules(rules, version)
        numbers = layout(encoder, rules.closes_at)
        encode(boards[:2], primes[:2], numbers, table(), opposite, encoder.size)  # compiled
        start = time.process_time()
        encode(boards, primes, numbers, table(), opposite, encoder.size)
        kernel = (time.process_time() - start) / len(boards) * 1e6
        start = time.process_time()
        encoder.encode_boards(boards, primes)
        reference = (time.process_time() - start) / len(boards) * 1e6
        net = Network.create("backgammon", hidden, seed=1, version=version)
        games = FastGames.for_net(net, rules, encoder, net.outcomes)
        assert games is not None
        rng = random.Random(1)
        games.play(rng, 0.1, 0.7, MAX_TURNS)
        turns = 0
        start = time.process_time()
        for _ in range(args.games):
            turns += games.play(rng, 0.1, 0.7, MAX_TURNS)[2]
        seconds = time.process_time() - start
        print(f"v{version}, {hidden} hidden{'':<3} {encoder.size:>6} {kernel:>15.2f} {reference:>18.1f} "
              f"{args.games / seconds:>8.1f} {turns / args.games:>10.1f}", flush=True)


if __name__ == "__main__":
    main()
