"""Check: the analysis of games by this checkout against another's (the reference: main's,
say, before a change to how boards are judged), figure by figure.

Both checkouts' ``jacquet analyse --json`` (this interpreter, ``--jobs 1``) of the same
files: the first N real matches of :mod:`bench.analyse_speed` and every rule set's
generated games (``samples/generated/*.jqn``), at ``--confirm none`` and with the default
confirmation. Everything a reader acts on must be the same: each turn's plays in the same
order (the ranking), the same plays made and best, marks, ranks, forced or not, who decided
(the level), the luck measured or not, the skill labels, the worst plays. A figure may move
by at most one unit of its last printed decimal (4 places; the error rate 1): a last-bit
difference of a float32 sum flipping a rounding. Prints the count of figures that differ
and the largest difference, and exits 1 when anything else differs.

    python bench/judge_compare.py REFERENCE_DIR [--matches 20] [--confirm none default]
                                  [--samples RULESET ...]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT.parent / "shared" / "data" / "backgammon" / "real-mat" / "backgammon-studio"
PLACES = {"error_rate": 1}
"""The decimals a figure is printed with, where not 4."""


@dataclass
class Differences:
    """What two analyses' JSON differ by."""

    figures: int = 0
    compared: int = 0
    largest: float = 0.0
    where: str = ""
    other: list[str] = field(default_factory=list)

    def compare(self, ours: Any, theirs: Any, path: str, key: str = "") -> None:
        """Walk both values side by side."""
        if isinstance(ours, dict) and isinstance(theirs, dict):
            if list(ours) != list(theirs):
                self.other.append(f"{path}: keys {list(ours)} against {list(theirs)}")
                return
            for name in ours:
                self.compare(ours[name], theirs[name], f"{path}.{name}", name)
        elif isinstance(ours, list) and isinstance(theirs, list):
            if len(ours) != len(theirs):
                self.other.append(f"{path}: {len(ours)} items against {len(theirs)}")
                return
            for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
                self.compare(a, b, f"{path}[{i}]", key)
        elif _number(ours) and _number(theirs) and (isinstance(ours, float) or isinstance(theirs, float)):
            self.compared += 1
            gap = abs(ours - theirs)
            if gap:
                self.figures += 1
                if gap > self.largest:
                    self.largest, self.where = gap, f"{path}: {ours} against {theirs}"
                unit = 10.0 ** -PLACES.get(key, 4)
                if gap > unit * 1.000001:
                    self.other.append(f"{path}: {ours} against {theirs} (more than {unit})")
        elif ours != theirs:
            self.other.append(f"{path}: {ours!r} against {theirs!r}")


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def analysed(checkout: Path, files: list[Path], confirm: str) -> list[dict[str, Any]]:
    """``jacquet analyse --json`` of ``files`` by ``checkout``, one object per game."""
    command = [sys.executable, "-m", "jacquet_cli", "analyse", *map(str, files), "--json", "--jobs", "1"]
    if confirm != "default":
        command += ["--confirm", confirm]
    run = subprocess.run(command, capture_output=True, text=True, check=False, cwd=checkout)
    if run.returncode:
        raise SystemExit(f"{checkout}: jacquet analyse failed ({run.returncode}): {run.stderr[-2000:]}")
    return [json.loads(line) for line in run.stdout.splitlines() if line.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reference", type=Path, help="The reference checkout (main's, say).")
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--confirm", nargs="+", default=["none", "default"])
    parser.add_argument("--samples", nargs="*", default=None,
                        help="Only these rule sets' generated games (default: every one).")
    args = parser.parse_args()
    samples = sorted((ROOT / "samples" / "generated").glob("*.jqn"))
    if args.samples is not None:
        samples = [path for path in samples if path.stem.split("-")[0] in args.samples]
    sets = {"matches": sorted(REAL.glob("*.mat"))[:args.matches], "samples": samples}
    failed = False
    for confirm in args.confirm:
        for name, files in sets.items():
            if not files:
                print(f"{name}: no files")
                continue
            ours, theirs = analysed(ROOT, files, confirm), analysed(args.reference.resolve(), files, confirm)
            found = Differences()
            if len(ours) != len(theirs):
                found.other.append(f"{len(ours)} games against {len(theirs)}")
            for a, b in zip(ours, theirs, strict=False):
                found.compare(a, b, f"{Path(a['file']).name}#{a['game']}")
            turns = sum(len(game["turns"]) for game in ours)
            print(f"{name} ({len(files)} files, {len(ours)} games, {turns} turns), --confirm {confirm}: "
                  f"{found.figures} of {found.compared} figures differ, the largest by {found.largest:.4g}"
                  + (f" ({found.where})" if found.where else "")
                  + f"; {len(found.other)} other differences")
            for line in found.other[:20]:
                print(f"  {line}")
            failed = failed or bool(found.other)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
