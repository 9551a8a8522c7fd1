"""The evaluator: one hidden layer of sigmoid units, sigmoid outputs (see
:mod:`analysis.outcomes`), a hand-written gradient, TD(λ) with eligibility traces, and
``.npz`` files with their metadata.

Everything is ``float32``: the weights, the traces and the inputs; a forward pass over all
candidates of a turn is two matrix products.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from analysis import VERSION
from analysis.encoding import Encoder
from analysis.outcomes import Outcomes, outcomes_for
from notation import rule_set

if TYPE_CHECKING:
    from analysis.race import RaceNet

Array = NDArray[np.float32]
ENGINE = "jacquet-td"


def sigmoid(z: Array) -> Array:
    """The logistic function, in place on a fresh array (``z`` is not kept)."""
    np.negative(z, out=z)
    np.exp(z, out=z)
    z += 1.0
    np.reciprocal(z, out=z)
    return z


@dataclass
class Network:
    """Weights ``w1`` (inputs × hidden), ``b1``, ``w2`` (outputs × hidden), ``b2`` and what
    the net is: its rule set, its training so far (``meta``). ``race``: the race evaluator
    that judges the positions of the rule set's ``race`` class beside it
    (:mod:`analysis.race`; :func:`analysis.shipped.load_net` gives the shipped one), part of
    the engine's name and digest."""

    variant: str
    w1: Array
    b1: Array
    w2: Array
    b2: Array
    meta: dict[str, Any] = field(default_factory=dict)
    race: RaceNet | None = None

    @classmethod
    def create(cls, variant: str, hidden: int = 80, seed: int = 0) -> Network:
        """A fresh net for ``variant``: small uniform random weights from ``seed``."""
        rules = rule_set(variant)
        encoder = Encoder.for_rules(rules)
        inputs = encoder.size
        outputs = outcomes_for(rules).size
        rng = np.random.default_rng(seed)
        w1 = rng.uniform(-0.1, 0.1, (inputs, hidden)).astype(np.float32)
        w2 = rng.uniform(-0.1, 0.1, (outputs, hidden)).astype(np.float32)
        meta = {"rule_set": rules.name, "inputs": inputs, "hidden": hidden, "outputs": outputs,
                "games": 0, "seed": seed, "version": encoder.version,
                "format": VERSION}
        return cls(rules.name, w1, np.zeros(hidden, np.float32), w2,
                   np.zeros(outputs, np.float32), meta)

    @property
    def outcomes(self) -> Outcomes:
        """What the outputs mean."""
        return outcomes_for(rule_set(self.variant))

    @property
    def name(self) -> str:
        """The version name printed beside every figure: ``jacquet-td jacquet v2``, with the
        race net's beside it where there is one (``jacquet-td jacquet v2 + race r1``)."""
        name = f"{ENGINE} {self.variant} v{self.version}"
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
        for array in (self.w1, self.b1, self.w2, self.b2):
            hashed.update(np.ascontiguousarray(array, dtype=np.float32).tobytes())
        if self.race is not None:
            self.race.digest_into(hashed)
        return hashed.hexdigest()[:12]

    # -- forward and gradient -------------------------------------------------------------

    def forward(self, x: Array) -> tuple[Array, Array]:
        """Hidden activations ``(n, hidden)`` and outputs ``(n, outputs)`` for inputs
        ``x`` of shape ``(n, inputs)``."""
        h = sigmoid(x @ self.w1 + self.b1)
        y = sigmoid(h @ self.w2.T + self.b2)
        return h, y

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

    def arrays(self) -> dict[str, NDArray[Any]]:
        """The arrays a file holds (weights and the metadata as JSON text)."""
        return {"w1": self.w1, "b1": self.b1, "w2": self.w2, "b2": self.b2,
                "meta": np.array(json.dumps(self.meta, sort_keys=True))}

    def save(self, path: str | Path, extra: dict[str, NDArray[Any]] | None = None) -> None:
        """Write the net (and ``extra`` arrays) to ``path`` atomically: a temporary file
        beside it, then a rename, so a stop mid-write leaves the old file whole."""
        save_arrays(path, {**self.arrays(), **(extra or {})})

    @classmethod
    def load(cls, path: str | Path) -> Network:
        """Read a net written by :meth:`save`."""
        with np.load(path, allow_pickle=False) as data:
            return cls.from_arrays(data)

    @classmethod
    def from_arrays(cls, data: Any) -> Network:
        """A net from the arrays of a file (a mapping of names to arrays)."""
        meta = json.loads(str(data["meta"]))
        if meta.get("format") != VERSION:
            raise ValueError(f"net file format {meta.get('format')} is not {VERSION}")
        net = cls(meta["rule_set"], np.array(data["w1"], np.float32), np.array(data["b1"], np.float32),
                  np.array(data["w2"], np.float32), np.array(data["b2"], np.float32), meta)
        if net.w1.shape != (meta["inputs"], meta["hidden"]):
            raise ValueError("net file: w1 does not match its metadata")
        encoder = Encoder.for_rules(rule_set(net.variant), net.version)
        if meta["inputs"] != encoder.size:
            raise ValueError(f"net file: {meta['inputs']} inputs, but {net.variant}'s encoding "
                             f"v{encoder.version} has {encoder.size}: it was trained for another "
                             "encoding; train it again")
        return net


def save_arrays(path: str | Path, arrays: dict[str, NDArray[Any]], compressed: bool = False) -> None:
    """``np.savez`` (``np.savez_compressed`` if ``compressed``) to ``path`` through a
    temporary file and ``os.replace``."""
    path = Path(path)
    buffer = io.BytesIO()
    (np.savez_compressed if compressed else np.savez)(buffer, **arrays)  # type: ignore[arg-type]
    handle, temporary = tempfile.mkstemp(dir=path.parent or ".", prefix=path.name, suffix=".tmp")
    try:
        os.chmod(temporary, _file_mode(path))
        with os.fdopen(handle, "wb") as out:
            out.write(buffer.getvalue())
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _file_mode(path: Path) -> int:
    """The mode the file keeps (or, new, the usual ``0o666`` less the umask), not
    ``mkstemp``'s private ``0o600``."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


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
