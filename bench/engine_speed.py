"""Benchmark: self-play training speed of the analysis engine, per rule set, one core.

Each rule set trains a fresh net (80 hidden units, α = 0.1, λ = 0.7, as ``jacquet train``)
for ``--games`` games in this process with BLAS held to one thread, and prints games per
second (wall clock, and per second of this process's CPU time: the figure for a core of
its own when the machine is shared), turns per game, the candidates per turn (counted in
random play on as many turns), the CPU time per training turn, and (``movegen*``) an
estimate of the move generator's share: its CPU time on those random-play turns over the
training's.
A fresh net plays longer games than a trained one (murray most: it hits a lot), so the
figures are a lower bound for a long run.

    python bench/engine_speed.py [--games 20] [--variant jacquet ...] [--hidden 80]
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
from analysis.network import Network  # noqa: E402
from analysis.training import self_play_game  # noqa: E402
from notation import Dice, legal_plays, rule_set  # noqa: E402
from notation.engine.rules import NAMES  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--hidden", type=int, default=80)
    parser.add_argument("--variant", action="append", choices=NAMES)
    args = parser.parse_args()
    print(f"{'rule set':<11} {'games/s':>8} {'CPU g/s':>8} {'turns/game':>11} {'cands/turn':>11} "
          f"{'CPU ms/turn':>12} {'movegen*':>8}")
    for variant in args.variant or NAMES:
        rules = rule_set(variant)
        net = Network.create(variant, args.hidden, seed=1)
        encoder = Encoder.for_rules(rules, net.version)
        rng = random.Random(1)
        turns = 0
        start, cpu_start = time.perf_counter(), time.process_time()
        for _ in range(args.games):
            turns += self_play_game(net, rules, encoder, rng, 0.1, 0.7)[2]
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
        # the move generator alone on the same number of turns of random play
        replay = random.Random(2)
        position = rules.start
        gen_start = time.process_time()
        candidates = 0
        for _ in range(turns):
            plays = legal_plays(position, Dice(replay.randint(1, 6), replay.randint(1, 6)), rules)
            candidates += len(plays)
            play = replay.choice(plays)
            position = rules.start if play.result.mover[0] == 15 else play.next_position
        moves = time.process_time() - gen_start
        print(f"{variant:<11} {args.games / elapsed:>8.2f} {args.games / cpu:>8.2f} "
              f"{turns / args.games:>11.0f} {candidates / turns:>11.1f} {1000 * cpu / turns:>12.3f} "
              f"{100 * moves / cpu:>7.0f}%", flush=True)


if __name__ == "__main__":
    main()
