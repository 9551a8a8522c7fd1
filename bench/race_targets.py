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
from the first row to the second with its standard error (paired by position).

    python bench/race_targets.py --variant backgammon [--work analysis/nets/backgammon-race.work.npz]
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
from analysis.race_training import HOLD_OUT  # noqa: E402
from analysis.shipped import load_net  # noqa: E402
from notation import rule_set  # noqa: E402

EPSILON = 1e-7


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="backgammon")
    parser.add_argument("--work", type=Path, default=None, help="The work file (positions, targets).")
    parser.add_argument("--race", type=Path, default=None, help="The race net (default: beside it).")
    parser.add_argument("--net", type=Path, default=None,
                        help="A contact net fitted to rolled-out targets, against the shipped one.")
    args = parser.parse_args()
    race_path = args.race or ROOT / "analysis" / "nets" / f"{args.variant}-race.npz"
    work = args.work or (args.net or race_path).with_suffix(".work.npz")
    with np.load(work) as data:
        boards, targets = np.array(data["positions"]), np.array(data["targets"], np.float64)
        if args.net is not None:  # the recorded games' positions come after the self-play ones
            recipe = Network.load(args.net).meta["recipe"]
            real = np.array(data["real"])[:recipe["real"]] if "real" in data else boards[:0]
            boards = np.concatenate((boards[:recipe["positions"]], real))
    boards = boards[:len(targets)]
    held = np.arange(len(boards)) % HOLD_OUT == 0
    boards, targets = boards[held], targets[held]
    rules = rule_set(args.variant)
    if args.net is None:
        race = RaceNet.load(race_path)
        shipped = load_net(args.variant, race=False)
        engines = [(shipped, None), (shipped, race)]
        kind, games = "race", race.meta.get("games", "?")
    else:
        fitted = Network.load(args.net)
        race = load_race(args.variant)
        engines = [(load_net(args.variant, race=False), race), (fitted, race)]
        kind, games = "contact", fitted.meta.get("rollouts", "?")
    rows = []
    per_position: list[np.ndarray] = []
    for contact, with_race in engines:
        contact.race = with_race
        judged = BoardJudge(contact, rules).judge(boards, None)
        y = np.clip(judged.y.astype(np.float64), EPSILON, 1 - EPSILON)
        each = -(targets * np.log(y) + (1 - targets) * np.log(1 - y)).sum(axis=1)
        entropy = float(each.mean())
        per_position.append(each)
        outcomes = contact.outcomes
        equity_error = float(np.abs(outcomes.equity(y) - outcomes.equity(targets)).mean())
        win_error = float(np.abs(y[:, 0] - targets[:, 0]).mean())
        rows.append((contact.name, entropy, equity_error, win_error))
    print(f"{args.variant}: {len(boards)} held-out {kind} positions, each the mean of "
          f"{games} play-outs (targets from {work.name})")
    print(f"{'engine':42} {'cross-entropy':>14} {'|equity error|':>15} {'|P(win) error|':>15}")
    for name, entropy, equity_error, win_error in rows:
        print(f"{name:42} {entropy:14.4f} {equity_error:15.4f} {win_error:15.4f}")
    change = per_position[1] - per_position[0]
    print(f"cross-entropy, second row less first: {change.mean():+.4f} ± "
          f"{change.std(ddof=1) / np.sqrt(len(change)):.4f} (standard error, paired by position)")

if __name__ == "__main__":
    main()
