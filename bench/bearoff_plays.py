"""Benchmark: in pure bear-offs, how often the engine's play at 0-ply is the exact best
play by the bear-off tables, with the exact tables (this change) and with the net alone
(as on main before it).

For each rule set, ``--positions`` random pure bear-offs (each side 1 to 15 men on its home
points, placed at random, the rest off; a random roll; the same positions every run for
a seed), the decisions with more than one legal play counted:

- the tables' best: the plays whose exact equity (``analysis.bearoff.exact_outputs``:
  each side's one-sided table, each playing to minimise its expected rolls) is highest,
  within 1e-6;
- after: the first play of ``Evaluator(net, rules).rank`` at 0-ply, the normal ranking,
  which now judges pure bear-offs by the tables;
- before: the same net's 0-ply choice with the tables left out (``judge(...,
  bear_off=False)``: main's judgement, the only difference being that call);
- the exact equity those choices lose on average, and the largest probability the net
  gives an outcome that can no longer happen (a 2-point win, gammon or marcia once the
  loser has a man off; a backgammon).

    python bench/bearoff_plays.py [--positions 10000] [--variant V ...] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analysis.threads import limit_blas_threads

limit_blas_threads(1)

from analysis.bearoff import exact_outputs  # noqa: E402
from analysis.encoding import Encoder  # noqa: E402
from analysis.outcomes import outcomes_for  # noqa: E402
from analysis.players import judge  # noqa: E402
from analysis.ranking import Evaluator  # noqa: E402
from analysis.shipped import load_net  # noqa: E402
from notation import Position, legal_plays, rule_set  # noqa: E402
from notation.engine.rules import NAMES  # noqa: E402


def random_bear_off(rng: random.Random) -> Position:
    """Both sides with 1 to 15 men on their home points, at random; the rest off."""
    sides = []
    for _ in range(2):
        home = [0] * 6
        for _ in range(rng.randint(1, 15)):
            home[rng.randrange(6)] += 1
        sides.append({p + 1: men for p, men in enumerate(home) if men})
    return Position.from_points(sides[0], sides[1])


def impossible(names: tuple[str, ...], position: Position, y: np.ndarray) -> float:
    """The largest output among those that can no longer happen after ``position``
    (seen by the side that moved)."""
    if names[1:] == ("won", "lost"):
        return 0.0
    wins = len(names) // 2
    worst = 0.0
    if position.opponent[0]:
        worst = max(worst, float(y[1:1 + wins].max()))
    if position.mover[0]:
        worst = max(worst, float(y[1 + wins:].max()))
    if names[2:3] == ("win_backgammon",):
        worst = max(worst, float(y[2]), float(y[4]))
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10000)
    parser.add_argument("--variant", action="append", choices=NAMES)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'rule set':<11} {'engine':<28} {'decisions':>9} {'best, after':>12} "
          f"{'best, before':>13} {'loss after':>11} {'loss before':>12} "
          f"{'impossible after':>17} {'before':>7} {'seconds':>8}")
    for variant in args.variant or NAMES:
        rules = rule_set(variant)
        net = load_net(variant)
        evaluator = Evaluator(net, rules)
        encoder = Encoder.for_rules(rules, net.version)
        outcomes = outcomes_for(rules)
        rng = random.Random(f"{args.seed} {variant}")
        decisions = after_best = before_best = 0
        loss_after = loss_before = worst_after = worst_before = 0.0
        began = time.perf_counter()
        for _ in range(args.positions):
            position = random_bear_off(rng)
            dice = f"{rng.randint(1, 6)}{rng.randint(1, 6)}"
            plays = legal_plays(position, dice, rules)
            if len(plays) < 2:
                continue
            decisions += 1
            results = [play.result for play in plays]
            _, exact = exact_outputs(rules, results)
            equity = outcomes.equity(exact)
            top = float(equity.max())
            best = {i for i, e in enumerate(equity) if e >= top - 1e-6}
            chosen = evaluator.rank(plays, position)[0].play
            after = next(i for i, play in enumerate(plays) if play is chosen)
            judged = judge(net, encoder, outcomes, rules, plays, position, (False, False),
                           bear_off=False)
            before = int(np.argmax(judged.equity))
            after_best += after in best
            before_best += before in best
            loss_after += top - float(equity[after])
            loss_before += top - float(equity[before])
            for i, result in enumerate(results):
                if result.mover[0] == 15:
                    continue
                worst_before = max(worst_before, impossible(outcomes.names, result, judged.y[i]))
                worst_after = max(worst_after, impossible(outcomes.names, result, exact[i]))
        seconds = time.perf_counter() - began
        n = max(decisions, 1)
        print(f"{variant:<11} {evaluator.name:<28} {decisions:>9,} "
              f"{100 * after_best / n:>11.2f}% {100 * before_best / n:>12.2f}% "
              f"{loss_after / n:>11.4f} {loss_before / n:>12.4f} {worst_after:>17.3f} "
              f"{worst_before:>7.3f} {seconds:>8.0f}", flush=True)


if __name__ == "__main__":
    main()
