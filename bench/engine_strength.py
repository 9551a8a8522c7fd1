"""Benchmark: the strength of the shipped nets, printed side by side in one run.

Duplicate dice (each dice stream played twice, seats swapped), ``--games`` games a match
(default 5,000), win rate with its standard error (over the pairs) and points per game, for
each rule set:

- the shipped net at 0-ply against random play and against the heuristic baseline, and
  against its own earlier nets (``analysis/nets/history/``: the learning curve);
- ``backgammon``: against pubeval (Tesauro's public linear evaluator), with pubeval against
  the baselines beside it; and, where the ``gnubg-nn`` package is installed (GPL: a
  benchmark-only extra, never imported by the package), against gnubg 0-ply (its
  evaluator's best play by cubeless money equity), and the error rate per decision of the
  net and of pubeval as gnubg's 0-ply evaluator judges their plays in the pubeval match
  (cubeless equity lost per unforced decision, in thousandths of a point);
- the net at 1-ply against itself at 0-ply, over ``--one-ply-games`` games (1-ply costs
  some 20 move generations per candidate: 5,000 such games take a day on this machine).

A match is split into chunks of pairs run by ``--jobs`` worker processes (one per core,
BLAS held to one thread); the figures do not depend on the split. The results also go to
``bench/results/engine_strength.json`` (or ``--output``).

    python bench/engine_strength.py [--variant backgammon ...] [--games 5000]
        [--one-ply-games 400] [--jobs 2] [--nets analysis/nets] [--race] [--output FILE]
        [--opponent random|heuristic|history|pubeval|gnubg ...]

``--opponent`` keeps only those matches of the net (and of pubeval, against the baselines
named); ``--one-ply-games 0`` skips 1-ply; ``--race``: each net at 0-ply plays with the shipped
race net beside it (a contact net fitted to contact positions alone is judged as the engine
uses it), not alone.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analysis.threads import limit_blas_threads

limit_blas_threads(1)

from analysis.match import PairResult, duplicate_pairs, match_result  # noqa: E402
from analysis.network import Network  # noqa: E402
from analysis.players import HeuristicPlayer, NetPlayer, Player, RandomPlayer  # noqa: E402
from analysis.pubeval import PubevalPlayer  # noqa: E402
from analysis.race import load_race  # noqa: E402
from analysis.ranking import LookaheadPlayer  # noqa: E402
from notation import Play, Position, rule_set  # noqa: E402
from notation.engine.rules import NAMES  # noqa: E402

BACKGAMMON = rule_set("backgammon")
CHUNK = 50
"""Pairs per task given to a worker."""
OPPONENTS = ("random", "heuristic", "history", "pubeval", "gnubg")


def make_player(spec: str, variant: str) -> Player:
    """A player from its description: ``random``, ``heuristic``, ``pubeval``, ``gnubg``
    (0-ply, backgammon), ``net:PATH`` (0-ply, the net alone), ``netr:PATH`` (0-ply, the
    shipped race net beside it, as the engine judges) or ``net1:PATH`` (1-ply)."""
    rules = rule_set(variant)
    if spec == "random":
        return RandomPlayer(seed=17)
    if spec == "heuristic":
        return HeuristicPlayer(rules)
    if spec == "pubeval":
        return PubevalPlayer()
    if spec == "gnubg":
        return GnubgPlayer()
    kind, _, path = spec.partition(":")
    net = _net(kind, path)
    return LookaheadPlayer(net, rules) if kind == "net1" else NetPlayer(net)


def _net(kind: str, path: str) -> Network:
    """The net of a ``net:``, ``netr:`` (the shipped race net beside it) or ``net1:`` player."""
    net = Network.load(path)
    if kind == "netr":
        net.race = load_race(net.variant)
    return net


def describe(spec: str) -> str:
    """A player's name with its training (``jacquet-td jacquet v2 (60,000 games), 0-ply``)."""
    kind, _, path = spec.partition(":")
    if spec == "gnubg":
        return GnubgPlayer().name
    if not path:
        return spec
    net = _net(kind, path)
    return f"{net.name} ({net.meta['games']:,} games), {'1' if kind == 'net1' else '0'}-ply"


def gnubg_equities(plays: list[Play]) -> list[float]:
    """Each backgammon play's cubeless money equity for the player who makes it, as gnubg's
    0-ply evaluator judges the position it leaves (a play that wins: its exact points)."""
    import gnubg_nn  # GPL: only ever loaded here, in the benchmark

    equities = []
    for play in plays:
        if play.result.mover[0] == 15:  # the game won: its exact points
            equities.append(float(BACKGAMMON.score(play.result)))
            continue
        w, wg, wb, lg, lb = gnubg_nn.probabilities(
            gnubg_nn.board_from_position_id(play.next_position.position_id()), 0)
        equities.append(-(2 * w - 1 + wg + wb - lg - lb))  # the opponent is on roll
    return equities


@dataclass
class GnubgPlayer:
    """gnubg 0-ply (``gnubg-nn``'s evaluator): the play whose position it judges best for
    the player who makes it, by cubeless money equity (the first of equal ones)."""

    name: str = "gnubg 0-ply"

    def choose(self, plays: list[Play], position: Position, primes: tuple[bool, bool]) -> int:
        """The index of gnubg's play."""
        if len(plays) == 1:
            return 0
        equities = gnubg_equities(plays)
        return equities.index(max(equities))


@dataclass
class Judged:
    """A player whose every unforced decision gnubg's 0-ply evaluator judges: the cubeless
    equity its play lost against gnubg's best (backgammon only)."""

    inner: Player
    name: str = ""
    lost: float = 0.0
    decisions: int = 0

    def choose(self, plays: list[Play], position: Position, primes: tuple[bool, bool]) -> int:
        index = self.inner.choose(plays, position, primes)
        if len(plays) > 1:
            equities = gnubg_equities(plays)
            self.lost += max(equities) - equities[index]
            self.decisions += 1
        return index


def run_chunk(task: tuple[str, str, str, int, int, int, bool]) -> tuple[list[PairResult], list[float]]:
    """Pairs ``start`` to ``stop`` of a match; with ``judged``, gnubg's judgement of both
    players' decisions too (equity lost and decisions of each)."""
    variant, first, second, seed, start, stop, judged = task
    rules = rule_set(variant)
    player, opponent = make_player(first, variant), make_player(second, variant)
    if judged:
        player, opponent = Judged(player), Judged(opponent)
    pairs = duplicate_pairs(rules, player, opponent, range(start, stop), seed)
    if not judged:
        return pairs, []
    assert isinstance(player, Judged) and isinstance(opponent, Judged)
    return pairs, [player.lost, player.decisions, opponent.lost, opponent.decisions]


def run_match(pool: ProcessPoolExecutor, variant: str, first: str, second: str, games: int,
              seed: int, judged: bool = False) -> dict[str, Any]:
    """One duplicate match, split over the pool; its row for the table."""
    pairs = games // 2
    tasks = [(variant, first, second, seed, a, min(a + CHUNK, pairs), judged)
             for a in range(0, pairs, CHUNK)]
    started = time.perf_counter()
    results: list[PairResult] = []
    judging = [0.0, 0.0, 0.0, 0.0]
    for chunk, judgement in pool.map(run_chunk, tasks):
        results += chunk
        judging = [a + b for a, b in zip(judging, judgement, strict=False)] if judgement else judging
    result = match_result(results)
    row: dict[str, Any] = {
        "variant": variant, "player": describe(first), "opponent": describe(second),
        "games": result.games, "win_rate": result.win_rate, "standard_error": result.standard_error,
        "points_per_game": result.points_per_game, "abandoned": result.abandoned,
        "seconds": round(time.perf_counter() - started, 1)}
    if judged:
        row["gnubg_error_rate"] = {"player": 1000 * judging[0] / max(judging[1], 1),
                                   "opponent": 1000 * judging[2] / max(judging[3], 1)}
    return row


def print_row(row: dict[str, Any]) -> None:
    """One match as a line of the table."""
    rate, se = 100 * row["win_rate"], 100 * row["standard_error"]
    verdict = "clearly above" if rate - 50 > 3 * se else ("clearly below" if 50 - rate > 3 * se else "level")
    line = (f"{row['variant']:<11} {row['player']:<46} v {row['opponent']:<46} {row['games']:>6} "
            f"{rate:6.1f}% ± {se:4.1f}  {row['points_per_game']:+6.3f}  {verdict}")
    if "gnubg_error_rate" in row:
        judged = row["gnubg_error_rate"]
        line += f"  gnubg error rate {judged['player']:.1f} v {judged['opponent']:.1f}"
    print(line, flush=True)


def gnubg_available() -> bool:
    """Whether the optional gnubg-nn package is installed."""
    try:
        import gnubg_nn  # noqa: F401
    except ImportError:
        return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", choices=NAMES)
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--one-ply-games", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--nets", type=Path, default=Path("analysis/nets"))
    parser.add_argument("--no-history", action="store_true", help="Skip the learning curve.")
    parser.add_argument("--race", action="store_true",
                        help="Each net at 0-ply plays with the shipped race net beside it (as the "
                        "engine judges), not alone.")
    parser.add_argument("--opponent", action="append", choices=OPPONENTS,
                        help="Only these opponents of the net (default: all).")
    parser.add_argument("--output", type=Path, default=Path("bench/results/engine_strength.json"),
                        help="Where the rows go as JSON.")
    args = parser.parse_args()
    chosen = set(args.opponent or OPPONENTS) - ({"history"} if args.no_history else set())
    rows = []
    print(f"{'rule set':<11} {'player':<46}   {'opponent':<46} {'games':>6} {'win rate':>14}  "
          f"{'pts/game':>7}", flush=True)
    with ProcessPoolExecutor(args.jobs) as pool:
        for variant in args.variant or NAMES:
            path = args.nets / f"{variant}.npz"
            if not path.exists():
                print(f"{variant:<11} no net at {path}: skipped", flush=True)
                continue
            kind = "netr" if args.race else "net"
            net = f"{kind}:{path}"
            opponents = [name for name in ("random", "heuristic") if name in chosen]
            if "history" in chosen:
                opponents += [f"{kind}:{p}" for p in sorted((args.nets / "history").glob(f"{variant}-*.npz"))]
            if variant == "backgammon" and "pubeval" in chosen:
                opponents.append("pubeval")
            if variant == "backgammon" and "gnubg" in chosen and gnubg_available():
                opponents.append("gnubg")
            for opponent in opponents:
                judged = opponent == "pubeval" and gnubg_available()
                rows.append(run_match(pool, variant, net, opponent, args.games, args.seed, judged))
                print_row(rows[-1])
            if variant == "backgammon" and "pubeval" in chosen:
                for baseline in [name for name in ("random", "heuristic") if name in chosen]:
                    rows.append(run_match(pool, variant, "pubeval", baseline, args.games, args.seed))
                    print_row(rows[-1])
            if args.one_ply_games:
                rows.append(run_match(pool, variant, f"net1:{path}", net, args.one_ply_games, args.seed))
                print_row(rows[-1])
    if not gnubg_available():
        print("(gnubg-nn is not installed: no gnubg judgement; pip install gnubg-nn to add it)")
    out = args.output
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(rows, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
