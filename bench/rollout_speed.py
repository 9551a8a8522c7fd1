"""Benchmark: how fast the engine rolls out an opening roll's candidates, on one process
and on ``--jobs`` processes, printed side by side in one run.

For each rule set: a position and roll early in the game (:data:`OPENING`: in
``backgammon`` the opening 3-1; in ``jacquet``, whose first turns are forced while the
couriers run, 6-2 in the first position of a choice of the first generated sample game,
after eight turns, and in ``versailles`` the same), its ``--candidates`` best plays by the
shipped net at 0-ply, each rolled out ``--games`` games (1,296 by default: every pair of
first two rolls once) at ``--ply``, played to the end unless ``--truncate``; first with one
process, then with ``--jobs`` workers. Each line gives the wall time, the time per
candidate, the games per second, and the best candidate's equity with its standard error:
the two runs' figures must be the same to the last digit (the script says whether they
are).

    python bench/rollout_speed.py [--games 1296] [--candidates 2] [--jobs 2] [--truncate K]
                                  [--reduce-variance | --play-outs]

With ``--reduce-variance`` each rule set's candidates are rolled out twice on one process
instead, on the same games, plainly and with the luck of every roll taken out: the time and
the standard error of each, side by side.

With ``--play-outs`` (0-ply) they are rolled out three times on one process, on the same
games: by the game state over the reference move generator (the play-out of every rollout
before the fast core's, :func:`analysis.rollout.net_policy`), on the fast core one game
at a time (:meth:`analysis.rollout.Rollout.play_out_boards`), and on the fast core with a
chunk's games side by side (:mod:`analysis.rollout_batch`, the default): wall and CPU time
of each, and whether their figures are the same to the last digit. ``--no-reference``
leaves the first, slowest, out.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analysis.threads import limit_blas_threads  # noqa: E402

limit_blas_threads(1)

from analysis.ranking import Evaluator  # noqa: E402
from analysis.rollout import (  # noqa: E402
    Rollout,
    RolloutResult,
    RolloutSpec,
    candidates_for,
    net_policy,
    run_rollout,
)
from analysis.shipped import load_net  # noqa: E402
from notation import Dice, Position, legal_plays, rule_set  # noqa: E402

OPENING = {"jacquet": ("AAQA/z8gACT8Pw", "62"), "versailles": ("AAQA/z8gACT8Pw", "62"),
           "backgammon": ("4HPwATDgc/ABMA", "31")}
"""The position and roll rolled out in each rule set (eight plays in jacquet and in
versailles, whose board it is too; sixteen in backgammon)."""


def spec_for(variant: str, candidates: int, ply: int, truncate: int | None, seed: int) -> RolloutSpec:
    """The ``candidates`` best plays of the rule set's position and roll, by the net at 0-ply."""
    rules = rule_set(variant)
    net = load_net(variant)
    position_id, dice = OPENING[variant]
    position = Position.from_id(position_id)
    plays = legal_plays(position, Dice.parse(dice), rules)
    best = [c.play for c in Evaluator(net, rules).rank(plays, position)[:candidates]]
    return RolloutSpec(net, variant, {}, position_id, dice, candidates_for(plays, best), ply, truncate, seed)


def timed(spec: RolloutSpec, games: int, jobs: int) -> tuple[float, RolloutResult]:
    started = time.perf_counter()
    result = run_rollout(spec, games, jobs)
    return time.perf_counter() - started, result


def compare_play_outs(args: argparse.Namespace) -> None:
    """The same games, played out on the game state (reference move generator) and on the
    fast core, one process."""
    print("| rule set | position, roll | candidates | games each | play-out | wall s | CPU s "
          "| games/s (CPU) | best play, equity |")
    print("|---|---|---|---|---|---|---|---|---|")
    for variant in args.variant or sorted(OPENING):
        spec = spec_for(variant, args.candidates, 0, args.truncate, args.seed)
        fast = Rollout(spec)
        fast.game(0)  # numba's kernels loaded
        one = Rollout(spec, one_at_a_time=True)
        reference = Rollout(spec, policy=net_policy(fast.evaluator.boards, fast.rules))
        results = []
        fast_name = "fast core, side by side" if fast.side_by_side else "game state (no fast core)"
        runs = [("game state, reference move generator", reference)] if args.reference else []
        if fast.side_by_side:
            runs.append(("fast core, one game at a time", one))
        for name, rollout in (*runs, (fast_name, fast)):
            started, cpu = time.perf_counter(), time.process_time()
            result = run_rollout(spec, args.games, 1, rollout=rollout)
            seconds, used = time.perf_counter() - started, time.process_time() - cpu
            results.append(result)
            best = result.candidates[0]
            played = args.games * len(spec.candidates)
            print(f"| {variant} | {spec.position_id} {spec.dice} | {len(spec.candidates)} | {args.games:,} "
                  f"| {name} | {seconds:.1f} | {used:.1f} | {played / used:.1f} "
                  f"| {best.play} {best.equity:+.4f} ± {best.equity_error:.4f} |", flush=True)
        same = all(result == results[0] for result in results)
        print(f"<!-- {variant}: {results[0].settings.label}; the {len(results)} play-outs give "
              f"{'the same figures' if same else 'DIFFERENT FIGURES'} -->", flush=True)


def compare_reduction(args: argparse.Namespace) -> None:
    """The same games, plain and luck-adjusted, one process."""
    print("| rule set | position, roll | games each | truncated after | variance reduction | wall s "
          "| play: equity ± standard error |")
    print("|---|---|---|---|---|---|---|")
    for variant in args.variant or sorted(OPENING):
        spec = spec_for(variant, args.candidates, args.ply, args.truncate, args.seed)
        for reduce in (False, True):
            seconds, result = timed(replace(spec, reduce=reduce), args.games, 1)
            figures = "; ".join(f"{c.play}: {c.equity:+.4f} ± {c.equity_error:.4f}"
                                for c in result.candidates)
            print(f"| {variant} | {spec.position_id} {spec.dice} | {args.games:,} | {args.truncate or '-'} | "
                  f"{'yes' if reduce else 'no'} | {seconds:.1f} | {figures} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", action="append", choices=sorted(OPENING))
    parser.add_argument("--games", type=int, default=1296)
    parser.add_argument("--candidates", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--ply", type=int, default=0, choices=(0, 1))
    parser.add_argument("--truncate", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reduce-variance", action="store_true")
    parser.add_argument("--play-outs", action="store_true",
                        help="The reference's play-out and the fast core's, on the same games.")
    parser.add_argument("--no-reference", dest="reference", action="store_false",
                        help="With --play-outs: leave the game state's play-out out.")
    args = parser.parse_args()
    if args.play_outs:
        compare_play_outs(args)
        return
    if args.reduce_variance:
        compare_reduction(args)
        return
    print("| rule set | position, roll | candidates | games each | processes | wall s | s per candidate "
          "| games/s | best play, equity |")
    print("|---|---|---|---|---|---|---|---|---|")
    for variant in args.variant or sorted(OPENING):
        spec = spec_for(variant, args.candidates, args.ply, args.truncate, args.seed)
        results = []
        for jobs in (1, args.jobs):
            seconds, result = timed(spec, args.games, jobs)
            results.append(result)
            best = result.candidates[0]
            played = args.games * len(spec.candidates)
            print(f"| {variant} | {spec.position_id} {spec.dice} | {len(spec.candidates)} | "
                  f"{args.games:,} | {jobs} | "
                  f"{seconds:.1f} | {seconds / len(spec.candidates):.1f} | {played / seconds:.1f} | "
                  f"{best.play} {best.equity:+.4f} ± {best.equity_error:.4f} |", flush=True)
        same = results[0] == results[1]
        print(f"<!-- {variant}: {results[0].settings.label}; {args.jobs} processes give "
              f"{'the same figures' if same else 'DIFFERENT FIGURES'} as one -->", flush=True)


if __name__ == "__main__":
    main()
