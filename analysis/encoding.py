"""Positions to network inputs, for all the candidates of a turn at once.

Each side has one block of inputs, the side that has just moved first, then the side to
roll, each along its own route (its own numbering):

- points 1..24: TD-Gammon's 4 units per point (at least 1 man, at least 2, at least 3,
  and (n − 3)/2 beyond), 96 inputs;
- men borne off / 15;
- men on the bar / 2, where the rule set has hitting (``murray``, ``backgammon``);
- each of the rule set's phases (``RuleSet.phases``: the courier's run in all but
  ``backgammon``), 1 while the side is in it, derived from its board by the phase's own
  test (R-COURIER as :func:`notation.engine.rules.courier_phase` says);
- where the rule set ``tracks_prime`` (``murray``), whether the side has held a prime at any moment of the
  game so far (it decides marcia per punto);
- from version 2 on, the side's hand-made features: in the rule sets without hitting
  (``jacquet``, ``versailles``, ``hale``) its five blocking features
  (:mod:`analysis.blocking`), in those with hitting (``murray``, ``backgammon``) its six
  contact features (:mod:`analysis.contact`);
- in version 4 (the rule sets with hitting), the contact features and then the four
  threat features (:mod:`analysis.threats`: pip loss, back escapes, containment, anchor);
- in version 5 (the rule sets with hitting), version 4's and then the four timing features
  (:mod:`analysis.timing`: timing, mobility, break contact, spread).

Version 1 is the raw board alone (TD-Gammon's units); version 2, the default for a new
net, adds the hand-made features; version 4 the threat features beside them (asked for by
``jacquet train --encoding 4``), version 5 the timing features beside those
(``--encoding 5``). A net records its version (``meta["version"]``) and is always read
through the encoder of that version (:meth:`Encoder.for_rules`), so nets of every version
coexist. Inputs in all:

============================== ============== ============== ============== ==============
rule set                       version 1      version 2      version 4      version 5
============================== ============== ============== ============== ==============
``jacquet``, ``versailles``,   2 × 98 = 196   2 × 103 = 206  (none)         (none)
``hale``
``murray``                     2 × 100 = 200  2 × 106 = 212  2 × 110 = 220  2 × 114 = 228
``backgammon``                 2 × 98 = 196   2 × 104 = 208  2 × 108 = 216  2 × 112 = 224
============================== ============== ============== ============== ==============

(``backgammon`` v1 is TD-Gammon's 198 less its two whose-turn units: the net always judges
from the side that has just moved.)

The encoding is vectorised: the boards of all candidates become one ``int8`` array and the
point units come from one lookup table indexed by the counts (no Python loop per point).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from analysis import blocking, contact, threats, timing
from analysis.blocking import Blocking
from analysis.contact import Contact
from analysis.threats import Threats
from analysis.timing import Timing
from notation import MEN, OFF, Play, Position, RuleSet
from notation.engine.board import BAR, SIDE, WIDTH
from notation.engine.rules.base import Phase, PrimeWatch
from notation.messages import MessageError

POINT_UNITS = 96
VERSIONS = (1, 2, 4, 5)
"""The input layouts: 1 the raw board, 2 with the hand-made features, 4 (the rule sets with
hitting only) with the threat features beside them, 5 (the same) with the timing features
beside those. (Engine version 3 is a method, not a layout: :mod:`analysis.contact_training`.)"""
LATEST = 2
"""The layout a new net gets unless its training asks for another."""
THREATS = 4
"""The first layout with the threat features (:mod:`analysis.threats`)."""
TIMING = 5
"""The layout with the timing features (:mod:`analysis.timing`) beside the threat features."""

_FLAGS = 4
"""The most flags a side can have: its phases and its prime."""
_COLUMNS = WIDTH + 2 * _FLAGS
"""Columns of the extended boards: the mover's 26 counts, the opponent's 26, then the
flags as counts 0 or 1, two columns (mover, opponent) per flag: each phase's, then the
prime's (an encoder uses as many as it has flags)."""
_TABLE = np.zeros((_COLUMNS, MEN + 1, 4), dtype=np.float32)
for _n in range(MEN + 1):
    for _side in (0, SIDE):
        for _point in range(1, BAR):
            _TABLE[_side + _point, _n] = (_n >= 1, _n >= 2, _n >= 3, max(_n - 3, 0) / 2.0)
        _TABLE[_side + OFF, _n, 0] = _n / MEN
        _TABLE[_side + BAR, _n, 0] = _n / 2.0
_TABLE[WIDTH:, 1, 0] = 1.0
"""Units of every column by its count: 4 per point, one (the first) for the others."""
_FLAT_TABLE = _TABLE.reshape(_COLUMNS * (MEN + 1), 4)
_OFFSETS = np.arange(_COLUMNS, dtype=np.intp) * (MEN + 1)
"""Row of (column, count) in the flat table: ``np.take`` on it is 5x faster than
indexing the 3-d table with two arrays."""



def _phase_tests(phases: tuple[Phase, ...]) -> tuple[NDArray[np.int16], NDArray[np.int16]]:
    """Every phase's test for both sides as one product: a ``(52, 2·phases)`` matrix of the
    phases' weights (the mover's column then the opponent's, phase by phase) and the
    bounds, so that ``boards @ matrix <= bounds`` gives every flag at once (R-COURIER:
    with ``k`` men off or home and ``t`` on the talon, ``2k - t <= -14``)."""
    matrix = np.zeros((WIDTH, 2 * len(phases)), dtype=np.int16)
    bounds = np.zeros(2 * len(phases), dtype=np.int16)
    for k, phase in enumerate(phases):
        for side in (0, 1):
            for point, weight in phase.weights.items():
                matrix[SIDE * side + point, 2 * k + side] = weight
            bounds[2 * k + side] = phase.bound
    return matrix, bounds



class NoEncoding(MessageError, ValueError):
    """An encoding version that does not exist, or not for the rule set: ``msg`` says which."""


@dataclass(frozen=True)
class Encoder:
    """The input layout of one rule set (see the module docstring)."""

    rule_set: str
    bar: bool
    phases: tuple[Phase, ...]
    primes: PrimeWatch | None
    blocking: Blocking | None = field(default=None, compare=False)
    contact: Contact | None = field(default=None, compare=False)
    threats: Threats | None = field(default=None, compare=False)
    timing: Timing | None = field(default=None, compare=False)
    _kept: NDArray[np.intp] = field(init=False, repr=False, compare=False)
    _tests: tuple[NDArray[np.int16], NDArray[np.int16]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.phases) + self.prime > _FLAGS:
            raise ValueError(f"an encoding holds at most {_FLAGS} flags a side")
        object.__setattr__(self, "_kept", self._keep())
        object.__setattr__(self, "_tests", _phase_tests(self.phases))

    @classmethod
    def for_rules(cls, rules: RuleSet, version: int | None = None) -> Encoder:
        """The encoder of ``rules`` in layout ``version`` (``None``: :data:`LATEST`, for a
        new net; a net's own is ``net.meta["version"]``). Versions 4 and 5 are the rule sets'
        with hitting (``RuleSet.hitting``): their threats are hits."""
        version = LATEST if version is None else version
        if version not in VERSIONS:
            raise NoEncoding("training.encoding.unknown", version=version,
                             versions=", ".join(map(str, VERSIONS)))
        if version >= THREATS and not rules.hitting:
            raise NoEncoding("training.encoding.hitting", version=version, variant=rules.name)
        featured = version >= 2
        return cls(rules.name, rules.hitting, rules.phases, rules.primes,
                   Blocking(rules) if featured and not rules.hitting else None,
                   Contact(rules) if featured and rules.hitting else None,
                   Threats(rules) if version >= THREATS else None,
                   Timing(rules) if version == TIMING else None)

    @property
    def prime(self) -> bool:
        """Whether each side has a prime flag (the rule set watches primes)."""
        return self.primes is not None

    @property
    def version(self) -> int:
        """The layout's version, part of a net's name: 5 with the timing features, 4 with
        the threat features, 2 with the hand-made features (blocking or contact) alone, 1
        without (the raw board)."""
        if self.timing is not None:
            return TIMING
        if self.threats is not None:
            return THREATS
        return 2 if self.blocking is not None or self.contact is not None else 1

    @property
    def features(self) -> tuple[str, ...]:
        """The names of each side's hand-made features (none in version 1)."""
        if self.blocking is not None:
            return blocking.FEATURES
        if self.contact is not None:
            return (contact.FEATURES + (threats.FEATURES if self.threats is not None else ())
                    + (timing.FEATURES if self.timing is not None else ()))
        return ()

    @property
    def side_inputs(self) -> int:
        """Inputs per side."""
        return POINT_UNITS + 1 + self.bar + len(self.phases) + self.prime + len(self.features)

    @property
    def size(self) -> int:
        """Inputs in all."""
        return 2 * self.side_inputs

    def names(self) -> list[str]:
        """A name for every input, in order (for docs and debugging)."""
        names: list[str] = []
        for side in ("me", "him"):
            for point in range(1, BAR):
                names += [f"{side}{point}>=1", f"{side}{point}>=2", f"{side}{point}>=3",
                          f"{side}{point}>3"]
            names.append(f"{side}_off")
            if self.bar:
                names.append(f"{side}_bar")
            names += [f"{side}_{phase.name}" for phase in self.phases]
            if self.prime:
                names.append(f"{side}_prime")
            names += [f"{side}_{feature}" for feature in self.features]
        return names

    def _keep(self) -> NDArray[np.intp]:
        """Which of the looked-up units (4 a column) are inputs, in input order (the mover's,
        then the opponent's: each side's hand-made features follow its block)."""
        keep: list[int] = []
        for side in (0, 1):
            base = SIDE * side
            for point in range(1, BAR):
                keep += range(4 * (base + point), 4 * (base + point) + 4)
            keep.append(4 * (base + OFF))
            if self.bar:
                keep.append(4 * (base + BAR))
            flags = len(self.phases)
            keep += [4 * (WIDTH + 2 * k + side) for k in range(flags)]
            if self.prime:
                keep.append(4 * (WIDTH + 2 * flags + side))
        return np.array(keep, dtype=np.intp)

    def encode_boards(self, boards: NDArray[np.int8], primes: NDArray[np.bool_] | None = None
                      ) -> NDArray[np.float32]:
        """Inputs for ``boards`` (shape ``(n, 52)``: the mover's 26 counts then the
        opponent's, each in its own numbering) and, in murray, ``primes`` (shape
        ``(n, 2)``: whether each side has held a prime).

        One lookup in a table indexed by (column, count) gives every unit; the phase and
        prime flags ride along as extra columns of counts 0 or 1. Version 1: about 8 µs for
        20 candidates on an idle core, against about 25 for a Python loop over the points;
        the hand-made features of version 2 are computed for all candidates at once too.
        """
        n = boards.shape[0]
        flags = 2 * len(self.phases)
        columns = WIDTH + flags + 2 * self.prime
        extended = np.zeros((n, columns), dtype=np.intp)
        extended[:, :WIDTH] = boards
        if flags:
            matrix, bounds = self._tests
            extended[:, WIDTH:WIDTH + flags] = (boards @ matrix) <= bounds
        if self.prime and primes is not None:
            extended[:, WIDTH + flags:] = primes
        extended += _OFFSETS[:columns]
        units = np.take(_FLAT_TABLE, extended, axis=0).reshape(n, 4 * columns)
        featured = self.blocking if self.blocking is not None else self.contact
        if featured is None:
            return units[:, self._kept]
        half = len(self._kept) // 2
        mover, opponent = featured.features(boards)
        for more in (self.threats, self.timing):
            if more is not None:
                extra = more.features(boards)
                mover, opponent = np.hstack((mover, extra[0])), np.hstack((opponent, extra[1]))
        return np.concatenate((units[:, self._kept[:half]], mover,
                               units[:, self._kept[half:]], opponent), axis=1)

    def encode_positions(self, positions: Sequence[Position],
                         primes: Sequence[tuple[bool, bool]] | None = None) -> NDArray[np.float32]:
        """Inputs for ``positions``, each seen by the side that has just moved (``mover``)
        with, in murray, whether (mover, opponent) have held a prime."""
        boards = _boards([p.mover + p.opponent for p in positions])
        flags = np.array(primes, dtype=np.bool_) if self.prime and primes is not None else None
        return self.encode_boards(boards, flags)

    def encode_plays(self, plays: Sequence[Play], start: Position,
                     primes: tuple[bool, bool] = (False, False)
                     ) -> tuple[NDArray[np.float32], NDArray[np.bool_] | None]:
        """Inputs for the results of ``plays`` (all the candidates of a turn from
        ``start``), and in murray the (mover, opponent) prime flags after each play
        (``primes`` being those before the turn; ``None`` elsewhere)."""
        boards = _boards([p.result.mover + p.result.opponent for p in plays])
        if self.primes is None:
            return self.encode_boards(boards), None
        during = self.primes.during
        mine, his = primes
        flags = np.empty((len(plays), 2), dtype=np.bool_)
        flags[:, 1] = his
        flags[:, 0] = [mine or during(start.mover, p.steps) for p in plays]
        return self.encode_boards(boards, flags), flags


def _boards(counts: list[tuple[int, ...]]) -> NDArray[np.int8]:
    """The 52 counts of each board as one ``(n, 52)`` array (through ``bytes``: twice as
    fast as ``np.array`` of tuples)."""
    raw = b"".join([bytes(c) for c in counts])
    return np.frombuffer(raw, dtype=np.int8).reshape(len(counts), WIDTH)
