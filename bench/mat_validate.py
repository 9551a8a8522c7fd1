"""Benchmark: validating the real ``.mat`` corpus, side by side with GNU Backgammon
importing the same files in the same run.

GNU Backgammon (C) only checks that men can move; we check every rule, the dice and the
scores. Prints matches per second and milliseconds per match for both, and their ratio;
the target is to stay within 10x of gnubg's time per match.

    apt-get install gnubg    # the reference, when available
    python bench/mat_validate.py [--limit N]
"""

from __future__ import annotations

import argparse
import csv
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from notation.mat import read_mat

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "data" / "backgammon"
GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if Path("/usr/games/gnubg").exists() else None)


def corpus(limit: int | None) -> list[Path]:
    with open(CORPUS / "MANIFEST.tsv", encoding="utf-8") as handle:
        rows = [row for row in csv.DictReader(handle, delimiter="\t")
                if "crash" not in row["notes"]]  # gnubg 1.07 crashes on an empty player name
    return [CORPUS / row["file"] for row in rows][:limit]


def ours(files: list[Path]) -> tuple[float, int]:
    start = time.perf_counter()
    errors = 0
    for path in files:
        errors += sum(len(game.errors) for game in read_mat(path))
    return time.perf_counter() - start, errors


def gnubg(files: list[Path]) -> float | None:
    """gnubg importing every file in one process, minus the cost of starting it."""
    if GNUBG is None:
        return None
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as script:
        script.write("".join(f"import mat {path}\n" for path in files))
    def run(commands: str) -> float:
        start = time.perf_counter()
        subprocess.run(f"{GNUBG} -t -q -r < {commands}", shell=True, capture_output=True, timeout=600)
        return time.perf_counter() - start
    empty = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
    empty.close()
    startup = min(run(empty.name) for _ in range(3))
    return max(run(script.name) - startup, 1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, help="only the first N files")
    args = parser.parse_args()
    if not CORPUS.exists():
        raise SystemExit(f"{CORPUS} is missing")
    files = corpus(args.limit)
    elapsed, errors = ours(files)
    print(f"files: {len(files)}, errors found: {errors}")
    print(f"{'jacquet validate (every rule)':34} {len(files) / elapsed:8.1f} matches/s "
          f"{elapsed / len(files) * 1e3:7.2f} ms/match")
    reference = gnubg(files)
    if reference is None:
        print("gnubg is not installed: no reference figure")
        return
    print(f"{'gnubg import (men can move)':34} {len(files) / reference:8.1f} matches/s "
          f"{reference / len(files) * 1e3:7.2f} ms/match")
    print(f"ratio (ours / gnubg): {elapsed / reference:.1f}x   target: <= 10x")


if __name__ == "__main__":
    main()
