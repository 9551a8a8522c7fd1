"""Fuzz every reader with many inputs, outside CI: random bytes, random text, runs of a
format's vocabulary, and valid records with one to four mutations (``tests/fuzzing.py``:
the same seeds, mutations and rule as ``tests/test_fuzz_readers.py``).

Each input is written to ``SCRATCH/jacquet-fuzz-current.EXT`` (``/dev/shm`` where there is
one: writing a file there costs microseconds, elsewhere a third of a millisecond) and read
there, so whatever the process dies on is on disk. An input that breaks the rule (an
exception other than ``RecordError``, an error that is not located, a read slower than
``--slow`` seconds) is saved to ``OUT/failures/`` with its traceback and how to draw it
again (``--seed`` and its number).
Memory: the peak of Python allocations (``tracemalloc``) is measured on one input in
``--memory-every`` (it slows reading several times); the process's maximum resident size
(lxml's own allocations included) is watched after every input, and the input that raised
it most is reported.

    python bench/fuzz_readers.py --inputs 1000000 [--seed 1] [--format jqn --format mat]
                                 [--out bench/results/fuzz] [--scratch DIR] [--no-shared]
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import resource
import signal
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the shared fuzzing code lives with the tests

from tests.fuzzing import (  # noqa: E402
    EXTENSION,
    RANDOM_KINDS,
    READABLE,
    Unstructured,
    measured,
    mutate,
    random_input,
    random_mutation,
    read_input,
    seed_records,
)

KINDS = ("mutated",) * 3 + RANDOM_KINDS  # half the inputs are mutated records
SHM = Path("/dev/shm")


class Hang(BaseException):
    """Raised by the alarm when one input takes longer than ``--hang`` seconds."""


def _alarm(signum, frame) -> None:
    raise Hang()


def draw(seed: int, number: int, formats: list[str], shared: bool) -> tuple[str, str, bytes, list]:
    """Input ``number`` of the run with ``seed``: its format, kind, bytes and mutations
    (drawn again from the same two numbers, so any input can be rebuilt)."""
    rng = random.Random(f"{seed}:{number}")
    fmt = formats[number % len(formats)]
    kind = rng.choice(KINDS)
    if kind != "mutated":
        return fmt, kind, random_input(rng, fmt, kind), []
    data = rng.choice(seed_records(fmt, shared))
    mutations = [random_mutation(rng, fmt) for _ in range(rng.randint(1, 4))]
    for mutation in mutations:
        data = mutate(data, mutation)
    return fmt, kind, data, mutations


class Report:
    """Counts and extremes over the run."""

    def __init__(self) -> None:
        self.inputs: Counter = Counter()
        self.outcomes: Counter = Counter()
        self.classes: Counter = Counter()
        self.rules: Counter = Counter()
        self.failures: Counter = Counter()
        self.bytes = 0
        self.slowest = (0.0, "")
        self.peak = (0, "")
        self.measured = 0
        self.rss = _max_rss()
        self.rise = (0, "")

    def add(self, fmt: str, kind: str, number: int, size: int, reading, seconds: float,
            peak: int | None) -> None:
        self.inputs[fmt, kind] += 1
        self.bytes += size
        label = f"#{number} {fmt} {kind} {size} bytes"
        if seconds > self.slowest[0]:
            self.slowest = (seconds, label)
        if peak is not None:
            self.measured += 1
            if peak > self.peak[0]:
                self.peak = (peak, label)
        rss = _max_rss()
        if rss - self.rss > self.rise[0]:
            self.rise = (rss - self.rss, label)
        self.rss = rss
        if reading.raised is not None:
            self.outcomes[fmt, "raised RecordError"] += 1
            self.classes[type(reading.raised).__name__] += 1
            self.rules[fmt, reading.raised.rule_id] += 1
        elif any(p.severity == "error" for p in reading.problems):
            self.outcomes[fmt, "games with errors"] += 1
        else:
            self.outcomes[fmt, "read clean"] += 1
        for problem in reading.problems:
            self.classes[type(problem).__name__] += 1
            self.rules[fmt, f"{problem.rule_id} ({problem.severity})"] += 1

    def lines(self, elapsed: float) -> list[str]:
        total = sum(self.inputs.values())
        out = [(f"{total} inputs ({self.bytes / 1e6:.1f} MB) in {elapsed:.0f} s, "
                f"{total / max(elapsed, 1e-9):.0f}/s; unexpected: {sum(self.failures.values())}")]
        for fmt in sorted({f for f, _ in self.inputs}):
            kinds = ", ".join(f"{k} {n}" for (f, k), n in sorted(self.inputs.items()) if f == fmt)
            outcomes = ", ".join(f"{o} {n}" for (f, o), n in sorted(self.outcomes.items()) if f == fmt)
            out.append(f"  {fmt:5} {sum(n for (f, _), n in self.inputs.items() if f == fmt):8}  "
                       f"{kinds}\n        {outcomes}")
            rules = sorted(((n, r) for (f, r), n in self.rules.items() if f == fmt), reverse=True)
            out.append("        errors by rule: " + ", ".join(f"{r} {n}" for n, r in rules[:12])
                       + (f" (+{len(rules) - 12} more)" if len(rules) > 12 else ""))
        out.append("errors by class: " + ", ".join(f"{c} {n}" for c, n in self.classes.most_common()))
        out.append(f"slowest input: {self.slowest[0] * 1000:.1f} ms ({self.slowest[1]})")
        out.append(f"peak Python memory of one input: {self.peak[0] / 1e6:.1f} MB ({self.peak[1]}), "
                   f"over {self.measured} inputs measured")
        out.append(f"maximum resident size of the process: {_max_rss() / 1e6:.0f} MB; its largest "
                   f"rise in one input: {self.rise[0] / 1e6:.0f} MB ({self.rise[1]})")
        for (fmt, name), count in sorted(self.failures.items()):
            out.append(f"UNEXPECTED {fmt} {name}: {count}")
        return out


def _max_rss() -> int:
    """The process's maximum resident size so far, in bytes (what C libraries allocate
    included)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _save(folder: Path, number: int, fmt: str, kind: str, data: bytes, mutations: list,
          seed: int, problem: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    stem = folder / f"{number}-{fmt}"
    stem.with_suffix(EXTENSION[fmt]).write_bytes(data)
    stem.with_suffix(".txt").write_text(
        f"seed {seed}, input {number}, {fmt}, {kind}\nmutations: {mutations!r}\n\n{problem}\n",
        encoding="utf-8")


def run(args: argparse.Namespace) -> Report:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    scratch = Path(args.scratch or (SHM if SHM.is_dir() else out))
    formats = args.format or list(READABLE)
    for fmt in formats:
        seed_records(fmt, args.shared)  # built once, before the clock
    report = Report()
    signal.signal(signal.SIGALRM, _alarm)
    start = last = time.perf_counter()
    for number in range(args.start, args.start + args.inputs):
        fmt, kind, data, mutations = draw(args.seed, number, formats, args.shared)
        path = scratch / f"jacquet-fuzz-current{EXTENSION[fmt]}"
        path.write_bytes(data)
        memory = number % args.memory_every == 0
        signal.setitimer(signal.ITIMER_REAL, args.hang)
        try:
            reading, seconds, peak = measured(functools.partial(read_input, path, fmt), memory)
            if seconds > args.slow:
                raise Unstructured(f"slow: {seconds:.1f} s for {len(data)} bytes")
        except (Exception, Hang) as error:  # noqa: BLE001 - a fuzzer saves whatever a reader raised
            name = type(error).__name__
            report.failures[fmt, name] += 1
            _save(out / "failures", number, fmt, kind, data, mutations, args.seed,
                  "".join(traceback.format_exception(error)))
            continue
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        report.add(fmt, kind, number, len(data), reading, seconds, peak if memory else None)
        now = time.perf_counter()
        if now - last > args.progress:
            last = now
            done = number - args.start + 1
            print(f"{done} inputs, {done / (now - start):.0f}/s, "
                  f"unexpected {sum(report.failures.values())}", flush=True)
    elapsed = time.perf_counter() - start
    summary = report.lines(elapsed)
    print("\n".join(summary))
    (out / "summary.txt").write_text("\n".join(summary) + "\n", encoding="utf-8")
    (out / "summary.json").write_text(json.dumps({
        "inputs": {f"{f}/{k}": n for (f, k), n in report.inputs.items()},
        "outcomes": {f"{f}/{o}": n for (f, o), n in report.outcomes.items()},
        "classes": dict(report.classes), "rules": {f"{f}/{r}": n for (f, r), n in report.rules.items()},
        "unexpected": {f"{f}/{n}": c for (f, n), c in report.failures.items()},
        "slowest_seconds": report.slowest[0], "slowest": report.slowest[1],
        "peak_bytes": report.peak[0], "peak": report.peak[1], "seconds": elapsed,
        "max_rss_bytes": _max_rss(), "largest_rss_rise": report.rise[1],
        "seed": args.seed, "start": args.start}, indent=1), encoding="utf-8")
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", type=int, default=0, help="number of the first input")
    parser.add_argument("--format", action="append", choices=READABLE,
                        help="a format to fuzz (repeat; default all)")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "fuzz"))
    parser.add_argument("--scratch", help="folder of the input being read (default /dev/shm)")
    parser.add_argument("--memory-every", type=int, default=50)
    parser.add_argument("--slow", type=float, default=5.0,
                        help="seconds after which an input counts as a failure")
    parser.add_argument("--hang", type=float, default=60.0,
                        help="seconds after which reading is interrupted")
    parser.add_argument("--progress", type=float, default=60.0, help="seconds between progress lines")
    parser.add_argument("--no-shared", dest="shared", action="store_false",
                        help="leave the shared corpus out of the seeds")
    args = parser.parse_args()
    report = run(args)
    sys.exit(1 if report.failures else 0)


if __name__ == "__main__":
    main()
