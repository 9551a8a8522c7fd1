"""Benchmark: self-play training speed of the analysis engine, per rule set, one core:
the reference engine (the pure-Python move generator, numpy) and the fast core
(``analysis/fast/``, numba), side by side in one run.

Each rule set trains a fresh net (80 hidden units, α = 0.1, λ = 0.7, as ``jacquet train``)
in this process with BLAS held to one thread: ``--games`` games by the reference engine,
then ``--fast-games`` by the fast core from a fresh net of the same seed (after one game
outside the timing, which compiles the kernels or loads them from numba's cache: its
time is the ``load s`` column). Games per second are per second of this process's CPU
time (the figure for a core of its own when the machine is shared), with turns per game
for each. A rule set the fast core does not train shows ``reference`` there.
A fresh net plays longer games than a trained one (murray most: it hits a lot), so the
figures are a lower bound for a long run.

    python bench/engine_speed.py [--games 20] [--fast-games 400] [--variant jacquet ...]
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

from analysis.encoding import Encoder  # noqa: E402
from analysis.fast.jit import COMPILED  # noqa: E402
from analysis.fast.selfplay import FastGames  # noqa: E402
from analysis.match import MAX_TURNS  # noqa: E402
from analysis.network import Network  # noqa: E402
from analysis.training import self_play_game  # noqa: E402
from notation import rule_set  # noqa: E402
from notation.engine.rules import NAMES  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--fast-games", type=int, default=400)
    parser.add_argument("--hidden", type=int, default=80)
    parser.add_argument("--variant", action="append", choices=NAMES)
    args = parser.parse_args()
    print(f"fast core: {'numba' if COMPILED else 'plain Python (numba absent): not timed'}")
    print(f"{'rule set':<11} {'reference g/s':>13} {'turns/game':>10} {'fast g/s':>9} "
          f"{'turns/game':>10} {'speed-up':>8} {'load s':>7}")
    for variant in args.variant or NAMES:
        rules = rule_set(variant)
        net = Network.create(variant, args.hidden, seed=1)
        encoder = Encoder.for_rules(rules, net.version)
        rng = random.Random(1)
        turns = 0
        cpu_start = time.process_time()
        for _ in range(args.games):
            turns += self_play_game(net, rules, encoder, rng, 0.1, 0.7)[2]
        reference = args.games / (time.process_time() - cpu_start)
        line = f"{variant:<11} {reference:>13.2f} {turns / args.games:>10.0f}"
        net = Network.create(variant, args.hidden, seed=1)
        games = FastGames.for_net(net, rules, encoder, net.outcomes) if COMPILED else None
        if games is None:
            print(f"{line} {'reference':>9}", flush=True)
            continue
        load_start = time.perf_counter()
        games.play(random.Random(0), 0.0, 0.7, MAX_TURNS)  # α 0: compiles, changes nothing
        load = time.perf_counter() - load_start
        rng = random.Random(1)
        turns = 0
        cpu_start = time.process_time()
        for _ in range(args.fast_games):
            turns += games.play(rng, 0.1, 0.7, MAX_TURNS)[2]
        fast = args.fast_games / (time.process_time() - cpu_start)
        print(f"{line} {fast:>9.1f} {turns / args.fast_games:>10.0f} {fast / reference:>7.1f}x "
              f"{load:>7.1f}", flush=True)


if __name__ == "__main__":
    main()
