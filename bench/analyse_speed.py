"""Benchmark: how fast the engine analyses games, printed beside the references.

1. ``jacquet``: the analysis (0-ply, with the luck of every roll) of the generated sample
   game whose length is nearest 95 turns, in this process; the best of ``--repeat`` runs,
   wall clock and CPU time. The goal: under 1 s.
2. ``backgammon``: one real match (``tests/data/mat``, from Backgammon Studio) analysed by
   ``jacquet analyse --json`` at 0-ply, and by GNU Backgammon (``gnubg -t``, Debian's
   ``/usr/games/gnubg``) at 0-ply, each a fresh process, in the same run, as a ratio. gnubg
   also judges the cube decisions; ``jacquet analyse`` judges plays only (its nets are
   cubeless).

    python bench/analyse_speed.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analysis.threads import limit_blas_threads  # noqa: E402

limit_blas_threads(1)

from analysis.analyse import analyse_game  # noqa: E402
from analysis.ranking import Evaluator  # noqa: E402
from analysis.shipped import load_net  # noqa: E402
from notation.formats import read_file  # noqa: E402

GAMES = ROOT / "samples" / "generated" / "jacquet-10.jqn"
MATCH = ROOT / "tests" / "data" / "mat" / "BoardLord_-_Llabba_7pt_Backgammon_Studio_2023_08_09_18_11_07.mat"
GNUBG = "/usr/games/gnubg"


def jacquet_game(repeat: int) -> None:
    """The 95-turn analysis."""
    games = list(read_file(GAMES))
    game = min(games, key=lambda g: abs(g.end().ply - 95))
    evaluator = Evaluator(load_net("jacquet"), game.rules)
    best_wall = best_cpu = float("inf")
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        analysis = analyse_game(game, evaluator)
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    print(f"jacquet game of {game.end().ply} turns ({len(analysis.turns)} judged, luck included), "
          f"{evaluator.name}: {best_wall:.2f} s wall, {best_cpu:.2f} s CPU (goal: under 1 s)")


def backgammon_match() -> None:
    """``jacquet analyse`` against ``gnubg -t`` on one match."""
    started = time.perf_counter()
    ours = subprocess.run([sys.executable, "-m", "jacquet_cli", "analyse", str(MATCH), "--json"],
                          capture_output=True, text=True, check=False)
    ours_seconds = time.perf_counter() - started
    turns = sum(line.count('"ply"') for line in ours.stdout.splitlines())
    print(f"backgammon match {MATCH.name}: {turns} turns judged")
    print(f"  jacquet analyse --json (0-ply): {ours_seconds:.2f} s (exit {ours.returncode})")
    if not shutil.which(GNUBG):
        print(f"  gnubg: not installed ({GNUBG}); apt-get install gnubg for the reference")
        return
    with tempfile.TemporaryDirectory() as folder:
        commands = Path(folder) / "analyse.gnubg"
        commands.write_text(f'import mat "{MATCH}"\n'
                            "set analysis chequerplay evaluation plies 0\n"
                            "set analysis cubedecision evaluation plies 0\n"
                            "analyse match\nquit\n", encoding="utf-8")
        started = time.perf_counter()
        theirs = subprocess.run([GNUBG, "-t", "-q", "-c", str(commands)], capture_output=True,
                                text=True, check=False, cwd=folder)
        gnubg_seconds = time.perf_counter() - started
    print(f"  gnubg -t, analyse match (0-ply): {gnubg_seconds:.2f} s (exit {theirs.returncode})")
    print(f"  ratio: jacquet analyse takes {ours_seconds / gnubg_seconds:.1f}× gnubg's time")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    jacquet_game(args.repeat)
    backgammon_match()


if __name__ == "__main__":
    main()
