"""Benchmark: reading and validating records, per move, side by side with python-chess.

python-chess reads and validates the real PGN games of ``../shared/data/pgn/`` (every move
parsed and checked for legality by ``chess.pgn.read_game``); in the same run this project
reads and validates generated games of every rule set (every turn checked by the rules
engine, the game tree built, then released when the next game is read, as ``jacquet
validate`` does). Prints µs per move (a chess move / one turn of a tables
game) for both and their ratio; the target is a ratio of at most 1.0. Times are this
process's CPU time, so that other work on a shared machine does not count, each from a
collected heap. Both read with the garbage collector set as ``jacquet validate`` sets it
(:func:`notation.collector.reading_many_games`), so the ratio compares the readers alone.

    pip install chess      # benchmark dependency only
    python bench/read_validate.py [--games N] [--chess-games N]
"""

from __future__ import annotations

import argparse
import gc
import random
import tempfile
import time
from pathlib import Path

from notation import rule_set
from notation.collector import reading_many_games
from notation.formats import read_file, write_file
from notation.game import released
from notation.generate import random_game
from notation.rules import NAMES

PGN = Path(__file__).resolve().parents[2] / "shared" / "data" / "pgn" / "kasparov-pgnmentor.pgn"


def chess_per_move(limit: int) -> tuple[float, int] | None:
    try:
        import chess.pgn
    except ImportError:
        print("python-chess is not installed (pip install chess): no reference figure")
        return None
    if not PGN.exists():
        print(f"{PGN} is missing: no reference figure")
        return None
    moves = 0
    gc.collect()
    start = time.process_time()
    with open(PGN, encoding="utf-8", errors="replace") as handle:
        for _ in range(limit):
            game = chess.pgn.read_game(handle)
            if game is None:
                break
            moves += sum(1 for _ in game.mainline_moves())
    return (time.process_time() - start) / moves * 1e6, moves


def ours_per_turn(variant: str, games: int, folder: Path) -> tuple[float, int]:
    path = folder / f"{variant}.jqn"
    rng = random.Random(1)
    write_file([random_game(rule_set(variant), rng) for _ in range(games)], path)
    turns = 0
    gc.collect()  # not the garbage of generating the games
    start = time.process_time()
    for game in released(read_file(path)):  # as ``jacquet validate`` reads
        assert not game.errors, game.errors[0]
        turns += game.end().ply
    return (time.process_time() - start) / turns * 1e6, turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="generated games per rule set")
    parser.add_argument("--chess-games", type=int, default=2128, help="PGN games for python-chess")
    args = parser.parse_args()
    with reading_many_games(), tempfile.TemporaryDirectory() as folder:
        reference = chess_per_move(args.chess_games)
        if reference:
            print(f"{'python-chess (Kasparov PGN)':32} {reference[1]:8d} moves {reference[0]:8.1f} µs/move")
        for variant in NAMES:
            cost, turns = ours_per_turn(variant, args.games, Path(folder))
            ratio = f"ratio {cost / reference[0]:.2f}" if reference else ""
            print(f"{'jacquet ' + variant + ' (generated)':32} {turns:8d} turns {cost:8.1f} µs/turn  {ratio}")
    print("target: ratio <= 1.00")


if __name__ == "__main__":
    main()
