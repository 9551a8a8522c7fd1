"""Mutation testing of the readers on real records, outside CI: every kind of corruption at
every site of every record (``tests/corruption.py`` defines records, mutants and verdicts;
``tests/test_mutation.py`` runs a sample of the same). Prints the mutants tried and their
verdicts, per kind and per format, the rules that caught them, and every missed one; the
missed ones are also written to ``OUT/missed.txt`` with the corrupted record's text.

    python bench/mutants.py [--source samples|mat|all] [--seed 1] [--limit N]
                            [--files N] [--out bench/results/mutants]

``--files N`` takes N real matches spread over the corpus (default: all 1,422, about a
million mutants and several CPU-hours); ``--limit`` stops after N mutants.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the shared corruption code lives with the tests

from tests.corruption import GOOD, KINDS, VERDICTS, corrupt, jqn_records, load, mat_record, mutant, try_mutant  # noqa: E402
from tests.fuzzing import real_mat_paths  # noqa: E402

SHM = Path("/dev/shm")


def records(source: str, files: int | None):
    """The records to corrupt, loaded one at a time (a match's sites hold its game)."""
    if source in ("samples", "all"):
        yield from jqn_records()
    if source in ("mat", "all"):
        paths = real_mat_paths()
        if files is not None and files < len(paths):
            step = len(paths) / files
            paths = [paths[int(i * step)] for i in range(files)]
        for path in paths:
            yield mat_record(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", choices=("samples", "mat", "all"), default="all")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=int)
    parser.add_argument("--files", type=int, help="real matches to take, spread over the corpus")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "mutants"))
    parser.add_argument("--progress", type=float, default=60.0)
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(dir=SHM if SHM.is_dir() else None))
    verdicts: Counter = Counter()
    rules: Counter = Counter()
    missed: list[str] = []
    skipped: list[str] = []
    counts = Counter()
    start = last = time.perf_counter()
    tried = 0
    for raw in records(args.source, args.files):
        record = load(raw, scratch)
        if record is None:
            skipped.append(raw.name)
            continue
        counts[record.fmt, "records"] += 1
        counts[record.fmt, "sites"] += len(record.sites)
        for index in range(len(record.sites)):
            for kind in KINDS:
                rng = random.Random(f"{args.seed}:{record.name}:{index}:{kind}")
                changed = mutant(record, index, kind, rng)
                if changed is None:
                    verdicts[record.fmt, kind, "n/a"] += 1
                    continue
                verdict, rule = try_mutant(record, changed, scratch)
                verdicts[record.fmt, kind, verdict] += 1
                tried += 1
                if verdict in ("caught", "later"):
                    rules[kind, verdict, rule] += 1
                if verdict not in GOOD:
                    missed.append(f"{record.name} line {record.sites[index].line}: {changed} -> "
                                  f"{verdict}\n{corrupt(record, changed)}\n")
                if args.limit and tried >= args.limit:
                    break
            if args.limit and tried >= args.limit:
                break
        now = time.perf_counter()
        if now - last > args.progress:
            last = now
            print(f"{tried} mutants, {tried / (now - start):.0f}/s, missed {len(missed)}", flush=True)
        if args.limit and tried >= args.limit:
            break
    report = _report(verdicts, rules, counts, skipped, tried, time.perf_counter() - start)
    report += [f"MISSED {line.splitlines()[0]}" for line in missed]
    print("\n".join(report))
    (out / "summary.txt").write_text("\n".join(report) + "\n", encoding="utf-8")
    (out / "missed.txt").write_text("\n".join(missed), encoding="utf-8")
    sys.exit(1 if missed else 0)


def _report(verdicts: Counter, rules: Counter, counts: Counter, skipped: list[str], tried: int,
            seconds: float) -> list[str]:
    lines = [f"{tried} mutants in {seconds:.0f} s"]
    for fmt in ("jqn", "mat"):
        if not counts[fmt, "records"]:
            continue
        lines.append(f"{fmt}: {counts[fmt, 'records']} records, {counts[fmt, 'sites']} sites")
        for kind in KINDS:
            row = {v: verdicts[fmt, kind, v] for v in VERDICTS + ("n/a",) if verdicts[fmt, kind, v]}
            lines.append(f"  {kind:12} " + ", ".join(f"{v} {n}" for v, n in row.items()))
        total = {v: sum(n for (f, _, w), n in verdicts.items() if f == fmt and w == v) for v in VERDICTS}
        lines.append("  total        " + ", ".join(f"{v} {n}" for v, n in total.items() if n))
    for kind in KINDS:
        for verdict in ("caught", "later"):
            found = sorted(((n, r) for (k, v, r), n in rules.items() if (k, v) == (kind, verdict)),
                           reverse=True)
            if found:
                lines.append(f"{verdict} {kind} by: " + ", ".join(f"{r} {n}" for n, r in found))
    if skipped:
        lines.append(f"records skipped (they do not read without error): {', '.join(skipped)}")
    return lines


if __name__ == "__main__":
    main()
