"""The race evaluator (issue 35): a net of its own for the positions of the rule set's
``race`` class (no contact left: :meth:`notation.RuleSet.position_class`), with inputs of
its own, trained by supervised learning on rolled-out targets (:mod:`analysis.race_training`).

- **Classes on boards**: :func:`classes` gives every board's class at once (``(n, 52)``
  boards, the side that has just moved first), the same as ``RuleSet.position_class``
  (tested on random positions of every rule set); a rule set whose table is not the
  standard one is classed by its own tests, board by board.
- **Inputs** (:class:`RaceInputs`), per side in its own numbering, the side that has just
  moved first: on each point 1..24 five units (at least 1, 2, 3, 4 men, and (n − 4)/3
  beyond); men borne off as 14 units (at least 1 … at least 14: whether any is off decides
  the double game, the gammon); the pips / 150; the men outside the home / 15; the
  crossings still to make (each man's quarters between its point and the home) / 45; the
  rearmost man's point / 24; in a rule set scored by a prime held (``murray``) whether the
  side has held one. No contact unit: a race has none.
- **Net** (:class:`RaceNet`): one hidden layer of sigmoid units, the rule set's outputs
  (:mod:`analysis.outcomes`: the outcomes still possible are masked by the judge as for the
  contact net), fitted by Adam on the cross-entropy to rolled-out outcome frequencies.
  Its name, ``race r1``, stands beside the contact net's in every figure (``jacquet-td
  backgammon v2 + race r1``): the number is the net's release (``meta["release"]``, the
  inputs' version where it has none); a net fitted again, on the same inputs, to the
  play-outs of a new contact net is the next release (``race r2``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from analysis import VERSION
from analysis.outcomes import outcomes_for
from analysis.twolayer import BadNet, TwoLayerNet, read_weights
from notation import RuleSet, rule_set
from notation.engine.board import BAR, HOME, MEN, POINTS, SIDE
from notation.engine.rules.base import POSITION_CLASSES

Array = NDArray[np.float32]
Boards = NDArray[np.int8]

BEAROFF, RACE, CONTACT = 0, 1, 2
"""The standard classes' numbers, in the order ``RuleSet.position_classes`` tries them."""
CLASS_NAMES = tuple(kind.name for kind in POSITION_CLASSES)
INPUTS_VERSION = 1
"""The version of the race inputs (``race r1``)."""
QUARTER = POINTS // 4
"""The points of a quarter of the board (a side's 1-6, 7-12, 13-18, 19-24)."""
POINT_UNITS = 5
OFF_UNITS = 14
_PIPS = np.arange(SIDE, dtype=np.int64)
_CROSSINGS = np.array([0] + [(p - 1) // QUARTER for p in range(1, BAR + 1)], dtype=np.int64)


def classes(rules: RuleSet, boards: Boards) -> NDArray[np.int64]:
    """Each board's class (:data:`BEAROFF`, :data:`RACE`, :data:`CONTACT`), as
    ``rules.position_class`` gives it for the board's position."""
    if rules.position_classes != POSITION_CLASSES:
        from analysis.board_judge import trusted_position  # board_judge imports this module
        names = [rules.position_class(trusted_position(board)) for board in boards]
        return np.array([CLASS_NAMES.index(name) for name in names], dtype=np.int64)
    mine, his = boards[:, :SIDE], boards[:, SIDE:]
    home = ~(mine[:, HOME.stop:].any(axis=1) | his[:, HOME.stop:].any(axis=1))
    place = places(rules)
    race = ((_rearmost(mine) <= _frontmost(his, place))
            & (_rearmost(his) <= _frontmost(mine, place)))
    out = np.full(len(boards), CONTACT, dtype=np.int64)
    out[race] = RACE
    out[home] = BEAROFF
    return out


def places(rules: RuleSet) -> NDArray[np.int64]:
    """For each of a side's points 1..25, where it lies on the other side's route (the bar:
    the entry point that lies furthest ahead), as ``notation``'s ``frontmost_on``."""
    entry = min(rules.opposite[point] for point in range(BAR - 6, BAR))
    return np.array([*rules.opposite[1:BAR], entry], dtype=np.int64)


def _rearmost(side: Boards) -> NDArray[np.int64]:
    """Each row's rearmost man's point (0: all off)."""
    occupied = side[:, 1:BAR + 1] > 0
    last = BAR - np.argmax(occupied[:, ::-1], axis=1)
    return np.where(occupied.any(axis=1), last, 0)


def _frontmost(side: Boards, place: NDArray[np.int64]) -> NDArray[np.int64]:
    """Each row's man furthest ahead on the other side's route (25: none left)."""
    front: NDArray[np.int64] = np.where(side[:, 1:BAR + 1] > 0, place, BAR).min(axis=1)
    return front


@dataclass(frozen=True)
class RaceInputs:
    """The race net's inputs for one rule set (see the module's docstring)."""

    rules: RuleSet

    @property
    def side_size(self) -> int:
        """Inputs per side."""
        return POINTS * POINT_UNITS + OFF_UNITS + 4 + (1 if self.rules.tracks_prime else 0)

    @property
    def size(self) -> int:
        """Inputs in all."""
        return 2 * self.side_size

    def encode(self, boards: Boards, primes: NDArray[np.bool_] | None = None) -> Array:
        """The inputs of each board (``(n, 52)``, the side that has just moved first;
        ``primes``: whether each side has held a prime, murray)."""
        parts = [self._side(boards[:, :SIDE], None if primes is None else primes[:, 0]),
                 self._side(boards[:, SIDE:], None if primes is None else primes[:, 1])]
        return np.ascontiguousarray(np.concatenate(parts, axis=1), dtype=np.float32)

    def _side(self, side: Boards, held: NDArray[np.bool_] | None) -> Array:
        counts = side.astype(np.float32)
        points = counts[:, 1:BAR]
        units = [points >= k for k in range(1, POINT_UNITS)]
        n = len(side)
        block = np.empty((n, POINTS, POINT_UNITS), dtype=np.float32)
        for k, unit in enumerate(units):
            block[:, :, k] = unit
        block[:, :, POINT_UNITS - 1] = np.maximum(points - (POINT_UNITS - 1), 0.0) / 3.0
        off = counts[:, 0:1] >= np.arange(1, OFF_UNITS + 1, dtype=np.float32)
        wide = side.astype(np.int64)
        extra = np.empty((n, 4), dtype=np.float32)
        extra[:, 0] = (wide @ _PIPS) / 150.0
        extra[:, 1] = wide[:, HOME.stop:].sum(axis=1) / MEN
        extra[:, 2] = (wide @ _CROSSINGS) / 45.0
        extra[:, 3] = _rearmost(side) / POINTS
        parts = [block.reshape(n, -1), off.astype(np.float32), extra]
        if self.rules.tracks_prime:
            flag = np.zeros((n, 1), np.float32) if held is None else held.astype(np.float32)[:, None]
            parts.append(flag)
        return np.concatenate(parts, axis=1)


@dataclass
class RaceNet(TwoLayerNet):
    """The race evaluator of one rule set (:class:`analysis.twolayer.TwoLayerNet`: weights
    ``w1``, ``b1``, ``w2``, ``b2``, and ``meta``: rule set, sizes, the rollouts it was fitted
    to, the seed) on the race inputs (:class:`RaceInputs`)."""

    inputs: RaceInputs = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.inputs = RaceInputs(rule_set(self.variant))

    @classmethod
    def create(cls, variant: str, hidden: int = 48, seed: int = 0) -> RaceNet:
        """A fresh race net for ``variant``, small random weights from ``seed``."""
        rules = rule_set(variant)
        inputs = RaceInputs(rules).size
        outputs = outcomes_for(rules).size
        meta = {"rule_set": rules.name, "inputs": inputs, "hidden": hidden, "outputs": outputs,
                "seed": seed, "version": INPUTS_VERSION, "format": VERSION, "kind": "race"}
        return cls(rules.name, *cls.fresh_weights(inputs, hidden, outputs, seed), meta)

    @property
    def name(self) -> str:
        """The name printed beside the contact net's: ``race r1`` (its release)."""
        return f"race r{int(self.meta.get('release', self.meta.get('version', INPUTS_VERSION)))}"

    @property
    def digest(self) -> str:
        """The first 12 hex digits of the SHA-256 of the weights."""
        hashed = hashlib.sha256()
        self.digest_into(hashed)
        return hashed.hexdigest()[:12]

    def outputs(self, boards: Boards, primes: NDArray[np.bool_] | None = None) -> Array:
        """The net's outputs for each board (the side that has just moved first)."""
        return self.forward(self.inputs.encode(boards, primes))[1]

    @classmethod
    def load(cls, path: str | Path) -> RaceNet:
        """Read a race net written by :meth:`save`; :class:`~analysis.twolayer.BadNet` (a
        ``ValueError``) if it is not one."""
        with np.load(path, allow_pickle=False) as data:
            meta, weights = read_weights(data)
            if meta.get("kind") != "race" or meta.get("format") != VERSION:
                raise BadNet("net.race.file.format", path=str(path), version=VERSION)
            net = cls(meta["rule_set"], *weights, meta)
        if net.w1.shape != (net.inputs.size, meta["hidden"]):
            raise BadNet("net.race.file.inputs", path=str(path), inputs=int(net.w1.shape[0]),
                         variant=net.variant, version=INPUTS_VERSION, size=net.inputs.size)
        return net


def shipped_race_path(variant: str) -> Path:
    """Where the shipped race net of ``variant`` lives (whether or not it is there)."""
    return Path(str(files("analysis") / "nets" / f"{variant}-race.npz"))


def load_race(variant: str) -> RaceNet | None:
    """The shipped race net of ``variant``, ``None`` where none is shipped."""
    path = shipped_race_path(variant)
    return RaceNet.load(path) if path.exists() else None


def race_rows(rules: RuleSet, boards: Boards) -> NDArray[np.intp]:
    """The rows of ``boards`` the race net judges: the race class and the bear-offs (the
    tables overwrite the latter where they are exact)."""
    return np.flatnonzero(classes(rules, boards) != CONTACT)


def by_class(race: RaceNet | None, rules: RuleSet, boards: Boards,
             primes: NDArray[np.bool_] | None, raw: Array) -> Array:
    """``raw`` (the contact net's outputs for ``boards``) with the rows the race net judges
    (:func:`race_rows`) replaced by its outputs, in place; unchanged without a race net."""
    if race is None or not len(boards):
        return raw
    rows = race_rows(rules, boards)
    if len(rows):
        raw[rows] = race.outputs(boards[rows], None if primes is None else primes[rows])
    return raw

