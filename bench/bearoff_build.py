"""Benchmark: the bear-off tables' build time and size, per bear-off rule, beside what
reading a built table back takes, and gnubg's own one-sided database file for size.

Each table is built in this process (numpy, one core), written to a temporary folder as
the cache holds it (compressed ``.npz``, uint16 fixed point) and read back; then each
two-sided table of up to 6 men a side.

    python bench/bearoff_build.py
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from analysis.bearoff import BearOffRule
from analysis.bearoff.onesided import build
from analysis.bearoff.store import load, quantized, save
from analysis.bearoff.twosided import MEN, build_two_sided
from notation import rule_set
from notation.engine.rules import NAMES


def main() -> None:
    rules_of: dict[BearOffRule, list[str]] = {}
    for name in NAMES:
        rules_of.setdefault(BearOffRule.of(rule_set(name)), []).append(name)
    print(f"{'table':<24} {'rule sets':<26} {'positions':>9} {'build s':>8} {'CPU s':>7} "
          f"{'file MB':>8} {'read s':>7}")
    with tempfile.TemporaryDirectory() as folder:
        for rule, users in rules_of.items():
            began, cpu = time.perf_counter(), time.process_time()
            table = build(rule)
            seconds, cpu_seconds = time.perf_counter() - began, time.process_time() - cpu
            path = Path(folder) / f"{rule.name}.npz"
            size = save(quantized(table), path)
            began = time.perf_counter()
            assert load(rule, path) is not None
            read = time.perf_counter() - began
            print(f"{rule.name:<24} {', '.join(users):<26} {len(table.positions):>9,} "
                  f"{seconds:>8.1f} {cpu_seconds:>7.1f} {size / 1e6:>8.2f} {read:>7.2f}", flush=True)
        for rule in rules_of:
            began, cpu = time.perf_counter(), time.process_time()
            positions, wins = build_two_sided(rule)
            seconds, cpu_seconds = time.perf_counter() - began, time.process_time() - cpu
            path = Path(folder) / f"{rule.name}-two-sided.npz"
            np.savez_compressed(path, wins=np.round(wins * 65535).astype(np.uint16))
            print(f"{rule.name + ' 2-sided':<24} {f'up to {MEN} men a side':<26} "
                  f"{len(positions) ** 2:>9,} {seconds:>8.1f} {cpu_seconds:>7.1f} "
                  f"{path.stat().st_size / 1e6:>8.2f}", flush=True)
    try:
        import gnubg_nn
    except ImportError:
        return
    database = Path(gnubg_nn.__file__).parent / "data" / "gnubg_os0.bd"
    if database.exists():
        print(f"{'gnubg_os0.bd':<24} {'gnubg (backgammon)':<26} {54264:>9,} {'':>8} {'':>7} "
              f"{database.stat().st_size / 1e6:>8.2f}")


if __name__ == "__main__":
    main()
