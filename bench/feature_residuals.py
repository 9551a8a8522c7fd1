"""Benchmark: what the timing features (analysis/timing.py) know that a net does not.

The net (default: the shipped backgammon net) plays itself at 0-ply on seeded dice; every
position of contact it leaves after a play is kept with its equity for the side that moved
(the net's judgement) and the points that side finally won or lost. The residual, points −
equity, is what the net got wrong; a feature that correlates with it carries knowledge
the net lacks (one that correlates with the equity only, knowledge it has). Printed for
each side's four features: Pearson's correlation with the residual and with the equity,
and the share of the residual's variance a least-squares fit on all eight explains, side
by side with the same fit on eight features of the net's own encoding (v4's pip loss,
back escapes, containment and anchor of each side: features it has, for scale).

    python bench/feature_residuals.py [--net analysis/nets/backgammon.npz] [--games 300] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

import numpy as np
from numpy.typing import NDArray

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from analysis import threats, timing
from analysis.encoding import Encoder
from analysis.match import ROLLS
from analysis.network import Network
from analysis.players import judge
from analysis.threats import Threats
from analysis.timing import Timing
from notation import MEN, OFF, legal_plays, rule_set
from notation.engine.board import BAR, SIDE


def self_play(net: Network, games: int, seed: int) -> tuple[NDArray[np.int8], NDArray[np.float64],
                                                              NDArray[np.float64]]:
    """The boards of contact (mover first) the net's plays leave, their equities and the
    points the mover finally scored (negative: lost)."""
    rules = rule_set(net.variant)
    encoder = Encoder.for_rules(rules, net.version)
    rng = random.Random(seed)
    boards: list[tuple[int, ...]] = []
    equities: list[float] = []
    movers: list[int] = []
    results: list[float] = []
    for _ in range(games):
        position, start = rules.start, len(boards)
        for turn in range(10_000):
            plays = legal_plays(position, ROLLS[rng.randrange(6)][rng.randrange(6)], rules)
            judged = judge(net, encoder, net.outcomes, rules, plays, position, (False, False))
            best = int(np.argmax(judged.equity))
            result = plays[best].result
            if result.mover[OFF] == MEN:
                points = rules.score(result, winner_held_prime=False)
                results += [points if side == turn & 1 else -points for side in movers[start:]]
                break
            board = result.mover + result.opponent
            mine = max((p for p in range(1, BAR + 1) if board[p]), default=0)
            his = max((p for p in range(1, BAR + 1) if board[SIDE + p]), default=0)
            if mine + his > BAR:  # contact: my rearmost has still to pass his (his p is my 25 - p)
                boards.append(board)
                equities.append(float(judged.equity[best]))
                movers.append(turn & 1)
            position = plays[best].next_position
        else:
            del boards[start:], equities[start:], movers[start:]
    return np.array(boards, dtype=np.int8), np.array(equities), np.array(results, dtype=np.float64)


def explained(features: NDArray[np.float64], residual: NDArray[np.float64]) -> float:
    """The share of ``residual``'s variance a least-squares fit on ``features`` explains."""
    design = np.column_stack([features, np.ones(len(residual))])
    fitted = design @ np.linalg.lstsq(design, residual, rcond=None)[0]
    return float(1 - np.var(residual - fitted) / np.var(residual))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--net", default="analysis/nets/backgammon.npz")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    net = Network.load(args.net)
    started = time.perf_counter()
    boards, equity, points = self_play(net, args.games, args.seed)
    residual = points - equity
    rules = rule_set(net.variant)
    candidates = np.hstack(Timing(rules).features(boards)).astype(np.float64)
    known = np.hstack(Threats(rules).features(boards)).astype(np.float64)
    print(f"{net.name} ({args.net}), {args.games} games of self-play at 0-ply, seed {args.seed}: "
          f"{len(boards)} positions of contact, {time.perf_counter() - started:.0f} s; "
          f"load {os.getloadavg()[0]:.1f}")
    print(f"residual (points − equity): mean {residual.mean():+.3f}, sd {residual.std():.3f}")
    print("| feature | side | r with the residual | r with the equity |")
    print("|---|---|---|---|")
    for k, name in enumerate(timing.FEATURES * 2):
        column = candidates[:, k]
        side = "mover" if k < len(timing.FEATURES) else "opponent"
        if column.std() == 0:
            print(f"| {name} | {side} | (constant) | |")
            continue
        print(f"| {name} | {side} | {np.corrcoef(column, residual)[0, 1]:+.3f} "
              f"| {np.corrcoef(column, equity)[0, 1]:+.3f} |")
    print(f"residual variance explained: timing features {explained(candidates, residual):.4f}, "
          f"the net's own {', '.join(threats.FEATURES)} {explained(known, residual):.4f}")


if __name__ == "__main__":
    main()
