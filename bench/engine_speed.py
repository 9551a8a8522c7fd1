"""Benchmark: self-play training speed of the analysis engine, per rule set, one core.

Each rule set trains a fresh net (80 hidden units, α = 0.1, λ = 0.7, as ``jacquet train``)
for ``--games`` games in this process with BLAS held to one thread, and prints games per
second, turns per game and the time per turn, and (``movegen*``) an estimate of the share
the move generator takes: its time on as many turns of random play, over the training time.
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
    print(f"{'rule set':<11} {'games/s':>8} {'turns/game':>11} {'ms/turn':>8} {'movegen*':>8}")
    for variant in args.variant or NAMES:
        rules = rule_set(variant)
        net = Network.create(variant, args.hidden, seed=1)
        encoder = Encoder.for_rules(rules)
        rng = random.Random(1)
        turns = 0
        start = time.perf_counter()
        for _ in range(args.games):
            turns += self_play_game(net, rules, encoder, rng, 0.1, 0.7)[2]
        elapsed = time.perf_counter() - start
        # the move generator alone on the same number of turns of random play
        replay = random.Random(2)
        position = rules.start
        gen_start = time.perf_counter()
        for _ in range(turns):
            plays = legal_plays(position, Dice(replay.randint(1, 6), replay.randint(1, 6)), rules)
            play = replay.choice(plays)
            position = rules.start if play.result.mover[0] == 15 else play.next_position
        moves = time.perf_counter() - gen_start
        print(f"{variant:<11} {args.games / elapsed:>8.2f} {turns / args.games:>11.0f} "
              f"{1000 * elapsed / turns:>8.3f} {100 * moves / elapsed:>7.0f}%", flush=True)


if __name__ == "__main__":
    main()
