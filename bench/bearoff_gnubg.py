"""Benchmark: the backgammon bear-off table against GNU Backgammon's own one-sided
bear-off database, on every position it holds.

gnubg's database (``gnubg_os0.bd``, shipped in the optional ``gnubg-nn`` package: ``pip
install -e '.[gnubg]'``) holds, for each of the 54,263 positions of 1 to 15 men on the six
home points, the distribution of the number of rolls to bear off every man for the play
that minimises its expectation. ``gnubg_nn.bearoff_probabilities`` gives it (P(1 roll),
P(2 rolls), ...); this project's table of the same rule (``highest``: jacquet, hale,
backgammon) is read or built as the engine does. Printed side by side: how many positions
agree within a tolerance, the largest difference of a probability and of the expected
rolls, and a few positions. gnubg's one-sided database exposes no first-man (gammon)
distribution through ``gnubg-nn``, so only the rolls to bear off every man are compared.

    python bench/bearoff_gnubg.py [--tolerance 1e-4]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analysis.bearoff import BearOffRule
from analysis.bearoff.moves import ROLLS, successors
from analysis.bearoff.onesided import OneSided, stderr_progress
from analysis.bearoff.store import table
from notation import rule_set

TIE = 1e-3
"""Two plays whose expected rolls are this close are a near tie: rounded values (gnubg
keeps uint16 fixed point: up to 48 rolls of 1/131070 each, weighted by the rolls, make
an expectation about 10⁻³ off) can order them either way."""


def near_ties(ours: OneSided, differing: np.ndarray) -> int:
    """How many of the positions ``differing`` (indices) have, for some roll, two plays
    within :data:`TIE` expected rolls of each other, or a best play leading to another
    differing position."""
    mean = ours.expected_rolls()
    suspect = set(differing.tolist())
    explained = 0
    plays = [successors(ours.rule, ours.positions, a, b) for a, b in ROLLS]
    for i in differing.tolist():
        for origin, result in plays:
            after = result[origin == i]
            values = np.sort(mean[after])
            best = int(after[np.argmin(mean[after])])
            if (len(values) > 1 and values[1] - values[0] < TIE) or best in suspect:
                explained += 1
                break
    return explained


def share_with_near_tie(ours: OneSided) -> float:
    """The share of all positions with, for some roll, two plays within :data:`TIE`
    expected rolls of each other (a near tie of their own)."""
    mean = ours.expected_rolls()
    n = len(ours.positions)
    tied = np.zeros(n, dtype=bool)
    for a, b in ROLLS:
        origin, result = successors(ours.rule, ours.positions, a, b)
        order = np.lexsort((mean[result], origin))
        origin, values = origin[order], mean[result][order]
        starts = np.searchsorted(origin, np.arange(n))
        second = np.minimum(starts + 1, len(origin) - 1)
        two = (starts + 1 < len(origin)) & (origin[second] == np.arange(n))
        tied |= two & (values[second] - values[starts] < TIE)
    return float(tied[1:].mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tolerance", type=float, default=1e-4,
                        help="the largest difference of a probability counted as agreeing")
    args = parser.parse_args()
    try:
        import gnubg_nn
    except ImportError:
        sys.exit("gnubg-nn is not installed: pip install -e '.[gnubg]'")
    ours = table(BearOffRule.of(rule_set("backgammon")), stderr_progress)
    began = time.perf_counter()
    rows, theirs = [], []
    for number in range(1, 54264):
        home = gnubg_nn.bearoff_id_2_pos(number)
        dist = np.zeros(ours.off.shape[1])
        probabilities = gnubg_nn.bearoff_probabilities(number)
        dist[1:1 + len(probabilities)] = probabilities  # gnubg's first entry is 1 roll
        rows.append(ours.positions.index(list(home)))
        theirs.append(dist)
    gnubg = np.array(theirs)
    mine = ours.of("off", np.array(rows))
    read = time.perf_counter() - began
    diff = np.abs(mine - gnubg).max(axis=1)
    t = np.arange(gnubg.shape[1])
    mean_diff = np.abs(mine @ t - gnubg @ t)
    agree = int((diff <= args.tolerance).sum())
    print(f"positions compared: {len(rows):,} (every position of gnubg's one-sided database; "
          f"read in {read:.1f} s)")
    print(f"{'measure':<52} {'this project':>14} {'gnubg':>14}")
    print(f"{'positions':<52} {len(set(rows)):>14,} {len(rows):>14,}")
    print(f"{'sum of every probability (mean over positions)':<52} "
          f"{mine.sum(axis=1).mean():>14.6f} {gnubg.sum(axis=1).mean():>14.6f}")
    print(f"{'mean of the expected rolls':<52} {(mine @ t).mean():>14.6f} {(gnubg @ t).mean():>14.6f}")
    print(f"positions whose every probability agrees within {args.tolerance:g}: "
          f"{agree:,} of {len(rows):,} ({100 * agree / len(rows):.3f}%)")
    print(f"largest difference of a probability: {diff.max():.2e}; of the expected rolls: "
          f"{mean_diff.max():.2e}")
    explained = near_ties(ours, np.array(rows)[diff > args.tolerance])
    print(f"of the {len(rows) - agree:,} that differ, {explained:,} have two plays of one roll "
          f"within {TIE:g} expected rolls of each other, or play to a position that differs "
          f"(of all positions, {100 * share_with_near_tie(ours):.1f}% have such a near tie of "
          "their own)")
    print(f"\n{'position (men on 1..6)':<24} {'expected rolls, ours':>22} {'gnubg':>10} {'max diff':>10}")
    worst = np.argsort(-diff)[:3].tolist()
    for k in [0, 6, 100, 5000, 54262, *worst]:
        home = gnubg_nn.bearoff_id_2_pos(k + 1)
        print(f"{home!s:<24} {mine[k] @ t:>22.5f} {gnubg[k] @ t:>10.5f} {diff[k]:>10.1e}")


if __name__ == "__main__":
    main()
