"""The contact net: the small two-layer net of :mod:`analysis.twolayer` (sigmoid outputs, see
:mod:`analysis.outcomes`) on the inputs of :mod:`analysis.encoding`, a hand-written
gradient, TD(λ) with eligibility traces, and ``.npz`` files with their metadata.

Everything is ``float32``: the weights, the traces and the inputs.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from analysis import VERSION
from analysis.encoding import Encoder
from analysis.outcomes import Outcomes, outcomes_for
from analysis.twolayer import BadNet, TwoLayerNet, read_weights
from notation import rule_set

if TYPE_CHECKING:
    from analysis.race import RaceNet

Array = NDArray[np.float32]
ENGINE = "jacquet-td"


@dataclass
class Network(TwoLayerNet):
    """The contact net (:class:`analysis.twolayer.TwoLayerNet`: weights ``w1``, ``b1``,
    ``w2``, ``b2`` and ``meta``, its rule set and its training so far). ``race``: the race
    evaluator that judges the positions of the rule set's ``race`` class beside it
    (:mod:`analysis.race`; :func:`analysis.shipped.load_net` gives the shipped one), part of
    the engine's name and digest."""

    race: RaceNet | None = None

    @classmethod
    def create(cls, variant: str, hidden: int = 80, seed: int = 0, version: int | None = None
               ) -> Network:
        """A fresh net for ``variant``: small uniform random weights from ``seed``, on the
        inputs of encoding ``version`` (``None``: the default for a new net)."""
        rules = rule_set(variant)
        encoder = Encoder.for_rules(rules, version)
        inputs = encoder.size
        outputs = outcomes_for(rules).size
        meta = {"rule_set": rules.name, "inputs": inputs, "hidden": hidden, "outputs": outputs,
                "games": 0, "seed": seed, "version": encoder.version,
                "format": VERSION}
        return cls(rules.name, *cls.fresh_weights(inputs, hidden, outputs, seed), meta)

    @property
    def outcomes(self) -> Outcomes:
        """What the outputs mean."""
        return outcomes_for(rule_set(self.variant))

    @property
    def name(self) -> str:
        """The version name printed beside every figure: ``jacquet-td jacquet v2``, with the
        race net's beside it where there is one (``jacquet-td jacquet v2 + race r1``). The
        version is the encoding's, or the method's where a newer method made the net
        (``meta["engine_version"]``: 6 for a net fitted to rolled-out targets, 3 in the
        files fitted before session 26: :data:`analysis.contact_training.ROLLED_OUT`; 7 for
        a committee of nets, :data:`analysis.committee.COMMITTEE`)."""
        name = f"{ENGINE} {self.variant} v{int(self.meta.get('engine_version', self.version))}"
        return name if self.race is None else f"{name} + {self.race.name}"

    @property
    def version(self) -> int:
        """The encoding version the net was trained on (1 for nets older than the record)."""
        return int(self.meta.get("version", 1))

    @property
    def digest(self) -> str:
        """The first 12 hex digits of the SHA-256 of the weights (the race net's too): tells
        apart two nets of one name (a net trained on under the same version)."""
        hashed = hashlib.sha256()
        self.digest_into(hashed)
        if self.race is not None:
            self.race.digest_into(hashed)
        return hashed.hexdigest()[:12]

    # -- forward and gradient -------------------------------------------------------------

    def evaluate(self, x: Array) -> Array:
        """The outputs for inputs ``x`` (one row per position)."""
        return self.forward(x)[1]

    def gradient(self, x: Array, h: Array, y: Array) -> tuple[Array, Array, Array, Array]:
        """The gradient of every output for one position (``x``, ``h``, ``y`` of shapes
        ``(inputs,)``, ``(hidden,)``, ``(outputs,)``), per output ``k``:
        ``d y_k / d w1`` (outputs × inputs × hidden), ``d y_k / d b1`` (outputs × hidden),
        ``d y_k / d w2[k]`` (outputs × hidden: only row ``k`` of ``w2`` moves ``y_k``),
        ``d y_k / d b2[k]`` (outputs)."""
        dy = y * (1.0 - y)                             # (O,)
        g2 = dy[:, None] * h[None, :]                  # (O, H)
        g1b = dy[:, None] * self.w2 * (h * (1.0 - h))  # (O, H)
        g1 = x[None, :, None] * g1b[:, None, :]        # (O, I, H)
        return g1, g1b, g2, dy

    # -- files ----------------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | Path) -> Network:
        """Read a net written by :meth:`save`; :class:`~analysis.twolayer.BadNet` if it is
        a file of another format or encoding (``OSError``, ``ValueError`` or ``KeyError`` if
        it is no net file at all)."""
        with np.load(path, allow_pickle=False) as data:
            return cls.from_arrays(data)

    @classmethod
    def from_arrays(cls, data: Any) -> Network:
        """A net from the arrays of a file (a mapping of names to arrays)."""
        meta, weights = read_weights(data)
        if meta.get("format") != VERSION:
            raise BadNet("net.file.format", found=str(meta.get("format")), version=VERSION)
        net = cls(meta["rule_set"], *weights, meta)
        if net.w1.shape != (meta["inputs"], meta["hidden"]):
            raise BadNet("net.file.shape")
        encoder = Encoder.for_rules(rule_set(net.variant), net.version)
        if meta["inputs"] != encoder.size:
            raise BadNet("net.file.inputs", inputs=int(meta["inputs"]), variant=net.variant,
                         version=encoder.version, size=encoder.size)
        return net


class Traces:
    """TD(λ) eligibility traces of one side during one game, per output (the trace of
    output ``k`` is the decayed sum of ``∇ y_k``), and the side's last outputs.

    ``step(x, h, y)`` is called at every position the side produces: first the update for
    the previous one, ``w += α Σ_k (y_k − y_prev_k) · trace_k``, then
    ``trace = λ · trace + ∇ y`` (the gradient at the weights the position was judged by,
    i.e. before this update: the usual on-line approximation).
    ``finish(target)`` makes the last update with the game's result in place of a next
    judgement. Traces are never saved: a game always starts with zero traces, so a
    checkpoint between games holds everything training needs.

    The big trace (of ``w1``, outputs × inputs × hidden) is kept as ``scale · E``: the
    decay multiplies ``scale`` alone, and a gradient, nonzero only in the rows of the
    inputs that are (a fifth of them or fewer), is added to those rows of ``E`` alone;
    ``E`` is rescaled when ``scale`` falls below 1e-4.
    """

    def __init__(self, net: Network, alpha: float, lam: float) -> None:
        self.net = net
        self.alpha = float(alpha)
        self.lam = float(lam)
        o, hidden = net.w2.shape
        self.e1 = np.zeros((o, net.w1.shape[0], hidden), np.float32)
        self.scale = 1.0
        self.e1b = np.zeros((o, hidden), np.float32)
        self.e2 = np.zeros((o, hidden), np.float32)
        self.e2b = np.zeros(o, np.float32)
        self.previous: Array | None = None

    def _update(self, delta: Array) -> None:
        net = self.net
        ad = (self.alpha * delta).astype(np.float32)
        inputs, hidden = net.w1.shape
        net.w1 += ((ad * np.float32(self.scale)) @ self.e1.reshape(len(ad), inputs * hidden)
                   ).reshape(inputs, hidden)
        net.b1 += ad @ self.e1b
        net.w2 += ad[:, None] * self.e2
        net.b2 += ad * self.e2b

    def step(self, x: Array, h: Array, y: Array, judged: Array | None = None) -> None:
        """The side has produced a position with inputs ``x``, judged ``h``, ``y`` (the
        net's own outputs); ``judged`` (default ``y``) is what the position is worth as the
        previous one's target: the outputs with the outcomes no longer possible at 0, so
        the net learns them as 0 (:meth:`analysis.outcomes.Outcomes.mask`)."""
        if self.previous is not None:
            self._update((y if judged is None else judged) - self.previous)
        net = self.net
        lam = np.float32(self.lam)
        dy = y * (1.0 - y)
        g1b = dy[:, None] * net.w2 * (h * (1.0 - h))
        self.scale *= self.lam
        if self.scale < 1e-4:
            self.e1 *= np.float32(self.scale)
            self.scale = 1.0
        used = np.flatnonzero(x)
        self.e1[:, used, :] += x[used][None, :, None] * (g1b * np.float32(1.0 / self.scale))[:, None, :]
        self.e1b *= lam
        self.e1b += g1b
        self.e2 *= lam
        self.e2 += dy[:, None] * h[None, :]
        self.e2b *= lam
        self.e2b += dy
        self.previous = y.copy()

    def trace_w1(self) -> Array:
        """The trace of ``w1`` itself (for tests)."""
        trace: Array = self.e1 * np.float32(self.scale)
        return trace

    def finish(self, target: Array) -> None:
        """The game is over: the last update, towards ``target``."""
        if self.previous is not None:
            self._update(target - self.previous)
        self.previous = None
