"""Where the one-sided tables live: built once, at first use or by ``jacquet bearoff
build``, into a cache folder, and kept in memory once read.

The folder is ``$JACQUET_CACHE/bearoff`` when that variable is set, else
``$XDG_CACHE_HOME/jacquet/bearoff`` (``~/.cache/jacquet/bearoff``). A table is a
compressed ``.npz`` of uint16 fixed point (about 1.8 MB each), written atomically, so
processes that build the same table at once leave one whole file. A file of another
format, or that cannot be read, is built again.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from analysis.bearoff.moves import BearOffRule
from analysis.bearoff.onesided import FIXED, FORMAT, ROLLS_KEPT, OneSided, Progress, build
from analysis.bearoff.positions import MAX_MEN, Positions
from analysis.bearoff.twosided import MEN, build_two_sided
from analysis.twolayer import save_arrays

_LOADED: dict[BearOffRule, OneSided] = {}
_TWO_SIDED: dict[BearOffRule, tuple[Positions, np.ndarray]] = {}


def cache_folder() -> Path:
    """The folder the tables are kept in (see the module's docstring)."""
    root = os.environ.get("JACQUET_CACHE")
    if root:
        return Path(root) / "bearoff"
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "jacquet" / "bearoff"


def table_path(rule: BearOffRule, folder: Path | None = None) -> Path:
    """The file of ``rule``'s table."""
    return (folder or cache_folder()) / f"{rule.name}.npz"


def _fixed(values: np.ndarray) -> np.ndarray:
    """Probabilities (or shares of 15 men) as uint16 fixed point."""
    return np.asarray(np.round(np.clip(values, 0.0, 1.0) * FIXED), dtype=np.uint16)


def quantized(table: OneSided) -> OneSided:
    """``table`` as its file holds it (uint16 fixed point), so that a table just built
    judges exactly as the same table read back."""
    if table.fixed:
        return table
    return OneSided(table.rule, table.positions, _fixed(table.off), _fixed(table.first),
                    _fixed(table.left / MAX_MEN), table.seconds, fixed=True)


def save(table: OneSided, path: Path) -> int:
    """Write ``table`` to ``path`` (atomically); its size in bytes."""
    path.parent.mkdir(parents=True, exist_ok=True)

    meta = {"format": FORMAT, "rule": table.rule.name, "men": table.positions.men,
            "rolls": ROLLS_KEPT, "build_seconds": round(table.seconds, 2)}
    fixed = quantized(table)
    save_arrays(path, {"off": fixed.off, "first": fixed.first, "left": fixed.left,
                       "meta": np.array(json.dumps(meta))}, compressed=True)
    return path.stat().st_size


def load(rule: BearOffRule, path: Path) -> OneSided | None:
    """The table at ``path``, or None when there is none of this rule and format."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            if meta.get("format") != FORMAT or meta.get("rule") != rule.name:
                return None
            positions = Positions.up_to(int(meta["men"]))
            off, first, left = (np.asarray(data[k], dtype=np.uint16)
                                for k in ("off", "first", "left"))
    except (OSError, ValueError, KeyError):
        return None
    if off.shape != (len(positions), ROLLS_KEPT):
        return None
    return OneSided(rule, positions, off, first, left,
                    float(meta.get("build_seconds", 0.0)), fixed=True)


def table(rule: BearOffRule, progress: Progress | None = None) -> OneSided:
    """``rule``'s table of up to 15 men: from memory, else from the cache folder, else
    built (``progress`` told each step: a first use takes seconds) and saved there."""
    found = _LOADED.get(rule)
    if found is not None:
        return found
    path = table_path(rule)
    found = load(rule, path)
    if found is None or found.positions.men != MAX_MEN:
        if progress is not None:
            progress(f"building the bear-off table {rule.name} once, into {path.parent}")
        found = quantized(build(rule, MAX_MEN, progress))
        try:
            save(found, path)
        except OSError as error:  # a read-only home: the table stays in memory
            if progress is not None:
                progress(f"could not keep the table in {path}: {error}")
    _LOADED[rule] = found
    return found


def two_sided_path(rule: BearOffRule, folder: Path | None = None) -> Path:
    """The file of ``rule``'s two-sided table."""
    return (folder or cache_folder()) / f"{rule.name}-two-sided-{MEN}.npz"


def save_two_sided(wins: np.ndarray, path: Path) -> int:
    """Write a two-sided table's ``wins`` to ``path`` (atomically); its size in bytes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    save_arrays(path, {"wins": _fixed(wins)}, compressed=True)
    return path.stat().st_size


def two_sided(rule: BearOffRule, progress: Progress | None = None) -> tuple[Positions, np.ndarray]:
    """``rule``'s two-sided table of up to 6 men a side (:mod:`analysis.bearoff.twosided`):
    its positions and ``wins``, from memory, the cache folder, or built (seconds) and
    saved there as uint16 fixed point."""
    found = _TWO_SIDED.get(rule)
    if found is not None:
        return found
    path = two_sided_path(rule)
    positions = Positions.up_to(MEN)
    try:
        with np.load(path, allow_pickle=False) as data:
            wins = np.asarray(data["wins"], dtype=np.float32) / FIXED
        if wins.shape != (len(positions), len(positions)):
            raise ValueError(f"{path} holds another table")
    except (OSError, ValueError, KeyError):
        if progress is not None:
            progress(f"building the two-sided bear-off table {rule.name} once, into {path.parent}")
        positions, built = build_two_sided(rule, MEN, progress)
        wins = _fixed(built).astype(np.float32) / FIXED
        try:
            save_two_sided(built, path)
        except OSError as error:
            if progress is not None:
                progress(f"could not keep the table in {path}: {error}")
    _TWO_SIDED[rule] = (positions, wins)
    return positions, wins
