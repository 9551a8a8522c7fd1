"""Benchmark: reading and validating records, per move, side by side with python-chess.

python-chess reads and validates the real PGN games of ``../shared/data/pgn/`` (every move
parsed and checked for legality by ``chess.pgn.read_game``); in the same run this project
reads and validates generated games of every rule set (every turn checked by the rules
engine, the game tree built, then released when the next game is read, as ``jacquet
validate`` does). Prints µs per move (a chess move / one turn of a tables
game) for both and their ratio; the target is a ratio of at most 1.0. Times are this
process's CPU time, so that other work on a shared machine does not count, each from a
collected heap. Both read with the garbage collector set as ``jacquet validate`` sets it
(:func:`jacquet_cli.collector.reading_many_games`), so the ratio compares the readers alone.
Our figure is measured as in the middle of a long file, as python-chess's is over its
2,000 games: in each rule set ``--games`` games are read first (other games: their plays
are not those measured; the caches of plays and dice, and the interpreter, are as a long
file leaves them), then ``--games`` games measured. The games are generated in this
process and read in another: generating a game checks its plays, which would leave every
play measured in the cache of plays read. The machine's noise is a few per cent
from run to run: every reader reads its games once in each of ``--rounds`` rounds, each
round a fresh process (no cache warmed by an earlier round), and the best round of each is
printed.

    pip install chess      # benchmark dependency only
    python bench/read_validate.py [--games N] [--chess-games N] [--rounds N]
"""

from __future__ import annotations

import argparse
import gc
import multiprocessing
import random
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from jacquet_cli.collector import reading_many_games
from notation import rule_set
from notation.engine.rules import NAMES
from notation.formats import read_file, write_file
from notation.tree.game import released
from notation.tree.generate import random_game

PGN = Path(__file__).resolve().parents[2] / "shared" / "data" / "pgn" / "kasparov-pgnmentor.pgn"


def chess_per_move(limit: int) -> tuple[float, int] | None:
    """python-chess's CPU time per move reading and validating the first ``limit`` games of
    the Kasparov PGN, and the moves read; ``None`` when it cannot run."""
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


def generate(variant: str, games: int, folder: Path, seed: int) -> Path:
    """A file of ``games`` random games of ``variant`` (the same games for the same seed)."""
    path = folder / f"{variant}-{seed}.jqn"
    rng = random.Random(seed)
    write_file([random_game(rule_set(variant), rng) for _ in range(games)], path)
    return path


def ours_per_turn(path: Path) -> tuple[float, int]:
    """Our CPU time per turn reading and validating the games of ``path``, and the turns read."""
    turns = 0
    gc.collect()  # not the garbage of earlier work
    start = time.process_time()
    for game in released(read_file(path)):  # as ``jacquet validate`` reads
        assert not game.errors, game.errors[0]
        turns += game.end().ply
    return (time.process_time() - start) / turns * 1e6, turns


def one_round(files: dict[str, tuple[Path, Path]], chess_games: int) -> tuple[tuple[float, int] | None, dict]:
    """Every reader once, in a fresh process: python-chess's figure, and ours per rule set
    for its measured games, read after its other games (see the module's text)."""
    with reading_many_games():
        reference = chess_per_move(chess_games)
        figures = {}
        for variant, (earlier, measured) in files.items():
            ours_per_turn(earlier)
            figures[variant] = ours_per_turn(measured)
        return reference, figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="generated games per rule set")
    parser.add_argument("--chess-games", type=int, default=2128, help="PGN games for python-chess")
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds, each in a fresh process; the best round of each reader counts")
    args = parser.parse_args()
    rounds = max(1, args.rounds)
    with tempfile.TemporaryDirectory() as folder:
        files = {variant: (generate(variant, args.games, Path(folder), seed=2),
                           generate(variant, args.games, Path(folder), seed=1)) for variant in NAMES}
        references, ours = [], {variant: [] for variant in NAMES}
        spawn = multiprocessing.get_context("spawn")
        for _ in range(rounds):
            with ProcessPoolExecutor(max_workers=1, mp_context=spawn) as pool:
                reference, figures = pool.submit(one_round, files, args.chess_games).result()
            if reference:
                references.append(reference)
            for variant, figure in figures.items():
                ours[variant].append(figure)
    reference = min(references) if references else None
    if reference:
        print(f"{'python-chess (Kasparov PGN)':32} {reference[1]:8d} moves {reference[0]:8.1f} µs/move")
    for variant, figures in ours.items():
        cost, turns = min(figures)
        ratio = f"ratio {cost / reference[0]:.2f}" if reference else ""
        print(f"{'jacquet ' + variant + ' (generated)':32} {turns:8d} turns {cost:8.1f} µs/turn  {ratio}")
    print(f"best of {rounds} rounds (each a fresh process) for every reader; target: ratio <= 1.00")


if __name__ == "__main__":
    main()
