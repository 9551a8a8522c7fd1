"""Benchmark: what judging outcomes by the position costs, per rule set, one core.

For the candidates of the turns of random games, the CPU time of the engine's judgement
before this step (encode every candidate, run the net: the reference) and of what the mask
adds (each candidate's ceilings from the rule set, the race count, the mask itself), side
by side in the same run, per candidate.

    python bench/outcome_mask_cost.py [--turns 300] [--variant jacquet ...]
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
from analysis.shipped import load_net  # noqa: E402
from notation import Dice, legal_plays, rule_set  # noqa: E402
from notation.engine.rules import NAMES  # noqa: E402


def turns(variant: str, count: int, seed: int = 1) -> list:
    """(position, plays) of ``count`` turns of random games."""
    rules = rule_set(variant)
    rng = random.Random(seed)
    found, position = [], rules.start
    while len(found) < count:
        plays = legal_plays(position, Dice(rng.randint(1, 6), rng.randint(1, 6)), rules)
        found.append((position, plays))
        play = rng.choice(plays)
        position = rules.start if play.result.mover[0] == 15 else play.next_position
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--variant", action="append", choices=NAMES)
    args = parser.parse_args()
    print(f"{'rule set':<11} {'candidates':>10} {'encode+net µs':>14} {'mask µs':>8} {'mask/ref':>8}")
    for variant in args.variant or NAMES:
        rules = rule_set(variant)
        net = load_net(variant)
        encoder, outcomes = Encoder.for_rules(rules, net.version), net.outcomes
        sample = turns(variant, args.turns)
        candidates = sum(len(plays) for _, plays in sample)
        reference = masking = 0.0
        for position, plays in sample:
            start = time.process_time()
            x, flags = encoder.encode_plays(plays, position)
            _, y = net.forward(x)
            middle = time.process_time()
            outcomes.mask(y, outcomes.ceilings([play.result for play in plays], flags))
            masking += time.process_time() - middle
            reference += middle - start
        print(f"{variant:<11} {candidates:>10} {1e6 * reference / candidates:>14.1f} "
              f"{1e6 * masking / candidates:>8.1f} {masking / reference:>8.2f}")


if __name__ == "__main__":
    main()
