"""Kill ``jacquet import`` hundreds of times and count what the archive lost.

Rounds, each on a new archive: ``jacquet import`` of a record file of every rule set is
started and SIGKILLed at a random moment (three times in four while it stores games, counted
from its first write; otherwise anywhere from its start: starting, opening or recovering the
archive, reading what is already there), again and again until a run finishes by itself or
the round's kills are spent; then the import is run to its end. After every kill and at the
end of every round the archive is inspected: ``PRAGMA integrity_check``, every game whole and
read back equal to its source, no game committed before lost. The harness is the one of
``tests/test_archive_faults.py``, so the test and this bench check the same things.

    python bench/kill_import.py [--kills 300] [--games 240] [--seed 1] [--folder DIR]

Prints kills, kills that landed mid-transaction (the importer held the write lock), games
lost, half games and integrity failures (the last three must be 0; the exit code is 1
otherwise).
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.test_archive_faults import Findings, import_command, inspect, kill_import, write_source

BATCHES = (1, 6, 50, 200)  # games per transaction, one per round in turn
KILLS_PER_ROUND = 40


@dataclass
class Tally:
    """What the kills did, and what the archive lost."""

    kills: int = 0
    mid_transaction: int = 0
    finished: int = 0
    lost: int = 0
    half: int = 0
    integrity: int = 0
    strays: int = 0
    unfinished_resumes: int = 0

    def add(self, findings: Findings) -> None:
        self.lost += len(findings.lost)
        self.half += len(findings.half)
        self.integrity += bool(findings.integrity)
        self.strays += len(findings.strays)
        for problem in findings.integrity + findings.half:
            print(f"  ! {problem}", flush=True)

    @property
    def sound(self) -> bool:
        return not (self.lost or self.half or self.integrity or self.strays or self.unfinished_resumes)


def one_round(db_path: Path, source: Path, expected: dict, batch: int, kills: int,
              rng: random.Random, tally: Tally) -> None:
    """Kill imports into a new archive at ``db_path`` until one finishes or ``kills`` are
    spent, inspecting after each; then complete the import and inspect once more."""
    present: set[str] = set()
    verified: set[str] = set()
    for _ in range(kills):
        if rng.random() < 0.75:
            kill = kill_import(db_path, source, batch, rng.uniform(0, 0.4), from_first_write=True)
        else:
            kill = kill_import(db_path, source, batch, rng.uniform(0, 2.5))
        findings = inspect(db_path, expected, present, verified)
        tally.add(findings)
        present = findings.hashes
        if not kill.killed:
            tally.finished += 1
            break
        tally.kills += 1
        tally.mid_transaction += bool(kill.mid_transaction)
    result = subprocess.run(import_command(db_path, source, batch), capture_output=True, text=True,
                            check=False)
    findings = inspect(db_path, expected, present, verified)
    tally.add(findings)
    if result.returncode != 0 or findings.hashes != set(expected):
        tally.unfinished_resumes += 1
        print(f"  ! the import was not completed: {result.stderr.strip()[-300:]}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=300)
    parser.add_argument("--games", type=int, default=240)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--folder", help="Where to work (default: a temporary folder).")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.folder) as folder:
        source = Path(folder) / "source.jqn"
        expected = write_source(source, args.games, args.seed)
        rng = random.Random(args.seed)
        tally = Tally()
        started = time.perf_counter()
        round_number = 0
        while tally.kills < args.kills:
            batch = BATCHES[round_number % len(BATCHES)]
            round_number += 1
            db_path = Path(folder) / f"round-{round_number}.db"
            one_round(db_path, source, expected, batch,
                      min(KILLS_PER_ROUND, args.kills - tally.kills), rng, tally)
            print(f"round {round_number} (batch {batch}): {tally.kills} kills so far", flush=True)
            for stale in Path(folder).glob(f"round-{round_number}.db*"):
                stale.unlink()
    print(f"rounds: {round_number}, {args.games} games each, {time.perf_counter() - started:.0f} s")
    print(f"kills: {tally.kills}")
    print(f"kills that landed mid-transaction: {tally.mid_transaction}")
    print(f"runs that finished before their kill: {tally.finished}")
    print(f"games lost: {tally.lost}")
    print(f"half games: {tally.half}")
    print(f"integrity failures: {tally.integrity}")
    print(f"games not from the source: {tally.strays}")
    print(f"imports not completed by running them again: {tally.unfinished_resumes}")
    return 0 if tally.sound else 1


if __name__ == "__main__":
    sys.exit(main())
