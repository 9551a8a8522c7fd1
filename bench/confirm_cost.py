"""Benchmark: what confirming the marks costs (``jacquet analyse --confirm``), per game, at
every setting, side by side in one run against the analysis without confirmation.

Games: the generated jacquet sample game nearest 95 turns (random-ish plays: many marks),
and the real 7-point backgammon match of ``tests/data/mat`` (Backgammon Studio, its first
``--games`` games). ``--net FILE`` (again for more): the contact net in FILE measured too,
the shipped race net beside it, in the same run, on the game of its own rule set. For
each setting: CPU seconds per game (this process, luck included as
``jacquet analyse`` measures it), the decisions, the turns judged again, the marks at
0-ply and after confirmation, how many 0-ply marks were kept, dropped, and how many marks
the deeper level added. A setting the engine cannot make yet (``2ply`` before the 2-ply
evaluator) is said so. The first game is analysed once before any setting is timed, so
that none of them pays the kernels' loading.

    python bench/confirm_cost.py [--settings none,1ply,2ply,rollout] [--games 2]
                                 [--only jacquet|backgammon] [--net FILE ...]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analysis.threads import limit_blas_threads  # noqa: E402

limit_blas_threads(1)

from analysis.analyse import GameAnalysis, analyse_game  # noqa: E402
from analysis.confirm import CONFIRMATIONS, deeper_judge  # noqa: E402
from analysis.network import Network  # noqa: E402
from analysis.ranking import Evaluator  # noqa: E402
from analysis.shipped import playing_net  # noqa: E402
from notation.formats import read_file  # noqa: E402
from notation.tree.game import Game  # noqa: E402

GAMES = ROOT / "samples" / "generated" / "jacquet-10.jqn"
MATCH = ROOT / "tests" / "data" / "mat" / "BoardLord_-_Llabba_7pt_Backgammon_Studio_2023_08_09_18_11_07.mat"


def measure(name: str, games: list[Game], settings: list[str], path: str | None = None) -> None:
    """One line per setting for ``games``, judged by the shipped engine or, with ``path``,
    by the contact net in that file and the shipped race net."""
    rules = games[0].rules
    net = playing_net(rules.name, path)
    evaluator = Evaluator(net, rules)
    plain: list[GameAnalysis] = []
    turns = sum(len(list(g.mainline())) - 1 for g in games)
    analyse_game(games[0], evaluator)  # the kernels loaded and the tables read before any timing
    print(f"\n{name}: {len(games)} game(s), {turns} turns; {evaluator.name} ({net.digest})")
    print(f"{'confirm':<8} {'CPU s/game':>10} {'decisions':>9} {'re-judged':>9} {'marks 0-ply':>11} "
          f"{'marks':>6} {'kept':>5} {'dropped':>7} {'added':>6}  level")
    for setting in settings:
        try:
            judge = deeper_judge(setting, net, rules)
        except ValueError as error:
            print(f"{setting:<8} not available: {error}")
            continue
        started = time.process_time()
        analyses = [analyse_game(game, evaluator, confirm=judge) for game in games]
        seconds = (time.process_time() - started) / len(games)
        if setting == "none":
            plain = analyses
        turns_now = [t for a in analyses for t in a.turns]
        before = [t for a in plain for t in a.turns] if plain else turns_now
        decisions = sum(not t.forced for t in turns_now)
        judged = sum(t.confirmed for t in turns_now)
        kept = sum(b.mark is not None and t.mark is not None for b, t in zip(before, turns_now, strict=True))
        dropped = sum(b.mark is not None and t.mark is None for b, t in zip(before, turns_now, strict=True))
        added = sum(b.mark is None and t.mark is not None for b, t in zip(before, turns_now, strict=True))
        level = judge.level if judge else "0-ply"
        marks_before = sum(b.mark is not None for b in before)
        marks_now = sum(t.mark is not None for t in turns_now)
        print(f"{setting:<8} {seconds:>10.2f} {decisions:>9} {judged:>9} {marks_before:>11} {marks_now:>6} "
              f"{kept:>5} {dropped:>7} {added:>6}  {level}", flush=True)


def _jacquet_game(args: argparse.Namespace) -> list[Game]:
    return [min(read_file(GAMES), key=lambda g: abs(g.end().ply - 95))]


def _backgammon_match(args: argparse.Namespace) -> list[Game]:
    return list(read_file(MATCH))[:args.games]


MEASURES: dict[str, tuple[str, Callable[[argparse.Namespace], list[Game]]]] = {
    "jacquet": ("jacquet, generated sample game", _jacquet_game),
    "backgammon": ("backgammon, real 7-point match", _backgammon_match),
}
"""The games measured, by rule set: what each measure is called, and its games."""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--settings", default=",".join(CONFIRMATIONS),
                        help="the --confirm settings to measure, none first (comma-separated)")
    parser.add_argument("--games", type=int, default=2, help="games of the backgammon match")
    parser.add_argument("--only", choices=tuple(MEASURES), help="one of the measures")
    parser.add_argument("--net", action="append", default=[], metavar="FILE",
                        help="a contact net measured beside the shipped one, on its rule set's "
                             "games (again for more)")
    args = parser.parse_args(argv)
    settings = args.settings.split(",")
    if "none" in settings:
        settings = ["none"] + [s for s in settings if s != "none"]
    chosen = [args.only] if args.only else list(MEASURES)
    nets = {path: Network.load(path).variant for path in args.net}
    for path, variant in nets.items():
        if variant not in chosen:
            parser.error(f"--net {path}: a {variant} net, and no {variant} game is measured "
                         f"(the games: {', '.join(chosen)})")
    for variant in chosen:
        label, games = MEASURES[variant]
        loaded = games(args)
        for path in [None, *(p for p, v in nets.items() if v == variant)]:
            measure(label, loaded, settings, path)


if __name__ == "__main__":
    main()
