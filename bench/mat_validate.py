"""Benchmark: validating the real ``.mat`` corpus, side by side with GNU Backgammon
importing the same files in the same run.

GNU Backgammon (C) only checks that men can move; we check every rule, the dice and the
scores. Prints matches per second and milliseconds per match for both, and their ratio;
the target is to stay within 10x of gnubg's time per match. Times are CPU times (ours:
this process; gnubg's: its child process, less the CPU time of starting it), so that
other work on a shared machine does not count; the wall-clock ratio is printed too.

    apt-get install gnubg    # the reference, when available
    python bench/mat_validate.py [--limit N]
"""

from __future__ import annotations

import argparse
import csv
import resource
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from jacquet_cli.collector import reading_many_games
from notation.formats.mat import read_mat
from notation.tree.game import released

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "data" / "backgammon"
GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if Path("/usr/games/gnubg").exists() else None)


def corpus(limit: int | None) -> list[Path]:
    with open(CORPUS / "MANIFEST.tsv", encoding="utf-8") as handle:
        rows = [row for row in csv.DictReader(handle, delimiter="\t")
                if "crash" not in row["notes"]]  # gnubg 1.07 crashes on an empty player name
    return [CORPUS / row["file"] for row in rows][:limit]


class Timing(NamedTuple):
    cpu: float
    wall: float


@reading_many_games()
def ours(files: list[Path]) -> tuple[Timing, int]:
    """Every file read and checked as ``jacquet validate`` reads (the garbage collector
    set as it sets it, each game released when the next is read)."""
    cpu, wall = time.process_time(), time.perf_counter()
    errors = 0
    for path in files:
        errors += sum(len(game.errors) for game in released(read_mat(path)))
    return Timing(time.process_time() - cpu, time.perf_counter() - wall), errors


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def gnubg(files: list[Path]) -> Timing | None:
    """gnubg importing every file in one process, minus the cost of starting it (the least
    of three runs of an empty script)."""
    if GNUBG is None:
        return None
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as script:
        script.write("".join(f"import mat {path}\n" for path in files))

    def run(commands: str) -> Timing:
        cpu, wall = children_cpu(), time.perf_counter()
        subprocess.run(f"{GNUBG} -t -q -r < {commands}", shell=True, capture_output=True, timeout=600,
                       check=False)  # timed only: gnubg's exit status is not ours to judge
        return Timing(children_cpu() - cpu, time.perf_counter() - wall)

    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as empty:
        pass  # an empty script
    startups = [run(empty.name) for _ in range(3)]
    whole = run(script.name)
    return Timing(max(whole.cpu - min(t.cpu for t in startups), 1e-9),
                  max(whole.wall - min(t.wall for t in startups), 1e-9))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, help="only the first N files")
    args = parser.parse_args()
    if not CORPUS.exists():
        raise SystemExit(f"{CORPUS} is missing")
    files = corpus(args.limit)
    elapsed, errors = ours(files)
    print(f"files: {len(files)}, errors found: {errors}  (CPU time)")
    report("jacquet validate (every rule)", len(files), elapsed)
    reference = gnubg(files)
    if reference is None:
        print("gnubg is not installed: no reference figure")
        return
    report("gnubg import (men can move)", len(files), reference)
    print(f"ratio (ours / gnubg): {elapsed.cpu / reference.cpu:.1f}x CPU time "
          f"({elapsed.wall / reference.wall:.1f}x wall clock)   target: <= 10x")


def report(label: str, matches: int, timing: Timing) -> None:
    print(f"{label:34} {matches / timing.cpu:8.1f} matches/s {timing.cpu / matches * 1e3:7.2f} ms/match"
          f"   (wall clock {timing.wall / matches * 1e3:.2f} ms/match)")


if __name__ == "__main__":
    main()
