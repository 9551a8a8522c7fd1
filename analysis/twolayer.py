"""The small two-layer net every evaluator of the engine is (the contact net,
:class:`analysis.network.Network`, and the race net, :class:`analysis.race.RaceNet`): weights
``w1`` (inputs × hidden), ``b1``, ``w2`` (outputs × hidden), ``b2``, one hidden layer of
sigmoid units and sigmoid outputs, its metadata (``meta``), its digest, and ``.npz`` files
written atomically.

Everything is ``float32``: a forward pass over all the candidates of a turn is two matrix
products.
"""

from __future__ import annotations

import io
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from notation.messages import MessageError

Array = NDArray[np.float32]
WEIGHTS = ("w1", "b1", "w2", "b2")
"""The weight arrays of a net, in the order they are hashed and saved."""


def sigmoid(z: Array) -> Array:
    """The logistic function, in place on a fresh array (``z`` is not kept)."""
    np.negative(z, out=z)
    np.exp(z, out=z)
    z += 1.0
    np.reciprocal(z, out=z)
    return z


class BadNet(MessageError, ValueError):
    """A file that is not a net this engine can read (``msg``: the ``net.file.*`` or
    ``net.race.file.*`` message saying why)."""


@dataclass
class TwoLayerNet:
    """Weights ``w1`` (inputs × hidden), ``b1``, ``w2`` (outputs × hidden), ``b2`` of a net of
    rule set ``variant``, and what the net is (``meta``)."""

    variant: str
    w1: Array
    b1: Array
    w2: Array
    b2: Array
    meta: dict[str, Any] = field(default_factory=dict)

    @staticmethod
    def fresh_weights(inputs: int, hidden: int, outputs: int, seed: int
                      ) -> tuple[Array, Array, Array, Array]:
        """Small uniform random weights from ``seed`` (``w1``, ``w2`` in ±0.1), zero biases."""
        rng = np.random.default_rng(seed)
        w1 = rng.uniform(-0.1, 0.1, (inputs, hidden)).astype(np.float32)
        w2 = rng.uniform(-0.1, 0.1, (outputs, hidden)).astype(np.float32)
        return w1, np.zeros(hidden, np.float32), w2, np.zeros(outputs, np.float32)

    def forward(self, x: Array) -> tuple[Array, Array]:
        """Hidden activations ``(n, hidden)`` and outputs ``(n, outputs)`` for inputs ``x``
        of shape ``(n, inputs)``."""
        h = sigmoid(x @ self.w1 + self.b1)
        return h, sigmoid(h @ self.w2.T + self.b2)

    def digest_into(self, hashed: Any) -> None:
        """Feed the weights to a hash."""
        for name in WEIGHTS:
            hashed.update(np.ascontiguousarray(getattr(self, name), dtype=np.float32).tobytes())

    def arrays(self) -> dict[str, NDArray[Any]]:
        """The arrays a file holds (weights and the metadata as JSON text)."""
        return {"w1": self.w1, "b1": self.b1, "w2": self.w2, "b2": self.b2,
                "meta": np.array(json.dumps(self.meta, sort_keys=True))}

    def save(self, path: str | Path, extra: dict[str, NDArray[Any]] | None = None) -> None:
        """Write the net (and ``extra`` arrays) to ``path`` atomically: a temporary file
        beside it, then a rename, so a stop mid-write leaves the old file whole."""
        save_arrays(path, {**self.arrays(), **(extra or {})})


def read_weights(data: Any) -> tuple[dict[str, Any], tuple[Array, Array, Array, Array]]:
    """The metadata and the weights (``w1``, ``b1``, ``w2``, ``b2``, as ``float32``) of the
    arrays of a file :meth:`TwoLayerNet.save` wrote (a mapping of names to arrays)."""
    meta = json.loads(str(data["meta"]))
    w1, b1, w2, b2 = (np.array(data[name], np.float32) for name in WEIGHTS)
    return meta, (w1, b1, w2, b2)


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
