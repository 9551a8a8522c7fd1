"""Benchmark: the race net against the contact net on the rolled-out targets of the race
positions held out of its fit (every tenth of the work file), side by side in one run; with
``--net``, a contact net fitted to rolled-out targets (``jacquet train-contact``, v3)
against the shipped one on the contact positions held out of its fit, both with the
shipped race net beside them.

For each held-out race position (the side that has just moved first): the judge's outputs
with the contact net alone and with the race net beside it (both masked by what the
position still allows, as the engine judges), against the mean of its play-outs
(:mod:`analysis.race_training`): the cross-entropy per position (summed over the outputs),
the mean absolute error of the equity, and of P(win); and the change of the cross-entropy
from the first row to each other (and with two race nets, from the second to the third)
with its standard error (paired by position). In murray each position's prime flags,
kept beside it in the work file, go to the judge.

    python bench/race_targets.py --variant backgammon [--work analysis/nets/backgammon-race.work.npz]
    python bench/race_targets.py --variant versailles --work versailles-race.work.npz \
        --race analysis/nets/versailles-race.npz --race versailles-race.npz   # two race nets
    python bench/race_targets.py --variant backgammon --net backgammon-v3.npz [--work backgammon-v3.work.npz]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analysis.board_judge import BoardJudge  # noqa: E402
from analysis.network import Network  # noqa: E402
from analysis.race import RaceNet, load_race  # noqa: E402
from analysis.race_training import HOLD_OUT, rolled_rows  # noqa: E402
from analysis.shipped import load_net  # noqa: E402
from notation import rule_set  # noqa: E402

EPSILON = 1e-7


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="backgammon")
    parser.add_argument("--work", type=Path, default=None, help="The work file (positions, targets).")
    parser.add_argument("--race", type=Path, action="append", default=None,
                        help="The race net (default: the shipped one); again for another, "
                             "each judged on the same positions, a row each.")
    parser.add_argument("--net", type=Path, default=None,
                        help="A contact net fitted to rolled-out targets, against the shipped one.")
    args = parser.parse_args()
    race_paths = args.race or [ROOT / "analysis" / "nets" / f"{args.variant}-race.npz"]
    work = args.work or (args.net or race_paths[0]).with_suffix(".work.npz")
    with np.load(work) as data:
        boards, targets = np.array(data["positions"]), np.array(data["targets"], np.float64)
        # murray: each side's prime flag (held before the position), the judge's to mask and score
        primes = np.array(data["primes"]) if "primes" in data else None
        if args.net is not None:  # the recorded games' positions come after the self-play ones
            recipe = Network.load(args.net).meta["recipe"]
            real = np.array(data["real"])[:recipe["real"]] if "real" in data else boards[:0]
            boards = np.concatenate((boards[:recipe["positions"]], real))
            # the targets are in the order the positions were rolled out (a grown recipe's
            # recorded positions after self-play ones rolled out before them)
            rolled = np.array(data["rolled"]) if "rolled" in data else boards[:len(targets)]
            rows, missing = rolled_rows(boards, rolled)
            if missing:
                sys.exit(f"{len(missing)} of the net's positions have no target in {work}")
            targets = targets[rows]
    boards = boards[:len(targets)]
    held = np.arange(len(boards)) % HOLD_OUT == 0
    boards, targets = boards[held], targets[held]
    if primes is not None:
        primes = primes[:len(held)][held]
    rules = rule_set(args.variant)
    if args.net is None:
        races = [RaceNet.load(path) for path in race_paths]
        shipped = load_net(args.variant, race=False)
        engines = [(shipped, None), *((shipped, race) for race in races)]
        kind, games = "race", races[0].meta.get("games", "?")
    else:
        fitted = Network.load(args.net)
        race = load_race(args.variant)
        engines = [(load_net(args.variant, race=False), race), (fitted, race)]
        kind, games = "contact", fitted.meta.get("rollouts", "?")
    rows = []
    per_position: list[np.ndarray] = []
    for number, (contact, with_race) in enumerate(engines):
        contact.race = with_race
        judged = BoardJudge(contact, rules).judge(boards, primes)
        y = np.clip(judged.y.astype(np.float64), EPSILON, 1 - EPSILON)
        each = -(targets * np.log(y) + (1 - targets) * np.log(1 - y)).sum(axis=1)
        entropy = float(each.mean())
        per_position.append(each)
        outcomes = contact.outcomes
        equity_error = float(np.abs(outcomes.equity(y) - outcomes.equity(targets)).mean())
        win_error = float(np.abs(y[:, 0] - targets[:, 0]).mean())
        named = f"{contact.name} ({race_paths[number - 1].name})" \
            if args.net is None and len(race_paths) > 1 and number else contact.name
        rows.append((named, entropy, equity_error, win_error))
    print(f"{args.variant}: {len(boards)} held-out {kind} positions, each the mean of "
          f"{games} play-outs (targets from {work.name})")
    width = max(42, *(len(row[0]) for row in rows))
    print(f"{'engine':{width}} {'cross-entropy':>14} {'|equity error|':>15} {'|P(win) error|':>15}")
    for name, entropy, equity_error, win_error in rows:
        print(f"{name:{width}} {entropy:14.4f} {equity_error:15.4f} {win_error:15.4f}")
    pairs = [(row, 0) for row in range(1, len(rows))] + [(row, 1) for row in range(2, len(rows))]
    for later, earlier in pairs:
        change = per_position[later] - per_position[earlier]
        print(f"cross-entropy, row {later + 1} less row {earlier + 1}: {change.mean():+.4f} ± "
              f"{change.std(ddof=1) / np.sqrt(len(change)):.4f} (standard error, paired by position)")

if __name__ == "__main__":
    main()
