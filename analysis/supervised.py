"""Supervised learning of a net on rolled-out targets: minibatch Adam on the cross-entropy
between each sigmoid output and its target (a rolled-out outcome frequency in [0, 1]),
with a hand-written gradient (the cross-entropy's gradient at a sigmoid's input is
``y − t``), resumable from the optimiser's state.

A fit is reproducible by its seed: epoch ``e`` shuffles the examples with a generator
seeded by ``(seed, e)``, so a fit stopped between epochs and resumed from its state
(:meth:`Adam.state`) gives the same weights as one run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from analysis.twolayer import WEIGHTS

Array = NDArray[np.float32]

EPSILON = 1e-7


class Fittable(Protocol):
    """A one-hidden-layer net of sigmoid units: its weights and its forward pass."""

    w1: Array
    b1: Array
    w2: Array
    b2: Array

    def forward(self, x: Array) -> tuple[Array, Array]: ...  # pragma: no cover


def loss(net: Fittable, x: Array, t: Array) -> float:
    """The mean cross-entropy (per example, summed over the outputs) of ``net`` on inputs
    ``x`` and targets ``t``."""
    y = np.clip(net.forward(x)[1], EPSILON, 1 - EPSILON)
    return float(-(t * np.log(y) + (1 - t) * np.log(1 - y)).sum(axis=1).mean())


def gradients(net: Fittable, x: Array, t: Array) -> dict[str, Array]:
    """The gradient of the mean cross-entropy on ``x``, ``t`` for each weight array."""
    h, y = net.forward(x)
    dz2 = (y - t) / np.float32(len(x))                  # (n, O)
    dh = (dz2 @ net.w2) * h * (1.0 - h)                 # (n, H)
    return {"w1": x.T @ dh, "b1": dh.sum(axis=0), "w2": dz2.T @ h, "b2": dz2.sum(axis=0)}


@dataclass
class Adam:
    """Adam's state for one net: the first and second moments of each weight array and the
    steps taken, the epochs done."""

    rate: float = 0.003
    beta1: float = 0.9
    beta2: float = 0.999
    steps: int = 0
    epochs: int = 0
    moments: dict[str, Array] = field(default_factory=dict)

    def step(self, net: Fittable, grads: dict[str, Array]) -> None:
        """One update of ``net``'s weights by ``grads``."""
        self.steps += 1
        correct1 = 1 - self.beta1 ** self.steps
        correct2 = 1 - self.beta2 ** self.steps
        for name in WEIGHTS:
            g = grads[name]
            m = self.moments.setdefault(f"m_{name}", np.zeros_like(g))
            v = self.moments.setdefault(f"v_{name}", np.zeros_like(g))
            m *= self.beta1
            m += (1 - self.beta1) * g
            v *= self.beta2
            v += (1 - self.beta2) * g * g
            weights = getattr(net, name)
            weights -= (self.rate * (m / correct1) / (np.sqrt(v / correct2) + 1e-8)).astype(np.float32)

    def state(self) -> dict[str, NDArray[Any]]:
        """The state as arrays (saved beside the net in a checkpoint)."""
        numbers = np.array([self.rate, self.beta1, self.beta2, self.steps, self.epochs], np.float64)
        return {"adam": numbers, **{f"adam_{k}": v for k, v in self.moments.items()}}

    @classmethod
    def from_state(cls, data: Any) -> Adam:
        """The state :meth:`state` saved (a mapping of names to arrays)."""
        rate, beta1, beta2, steps, epochs = (float(v) for v in data["adam"])
        moments = {k[len("adam_"):]: np.array(data[k], np.float32) for k in data
                   if k.startswith("adam_")}
        return cls(rate, beta1, beta2, int(steps), int(epochs), moments)


def epoch(net: Fittable, adam: Adam, x: Array, t: Array, batch: int, seed: int) -> None:
    """One pass over the examples in minibatches of ``batch``, shuffled by ``(seed, epoch)``."""
    order = np.random.default_rng((seed, adam.epochs)).permutation(len(x))
    for start in range(0, len(x), batch):
        rows = order[start:start + batch]
        adam.step(net, gradients(net, x[rows], t[rows]))
    adam.epochs += 1
