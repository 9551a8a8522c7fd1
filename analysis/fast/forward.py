"""The forward pass of a two-layer net (:class:`analysis.twolayer.TwoLayerNet`) in kernels:
the inputs that are 0 skipped (most of a board's point units are), the sums added in
another order than numpy's BLAS adds them and ``exp`` as Cephes' ``expf``, so the figures
agree with :meth:`analysis.twolayer.TwoLayerNet.forward`'s to float32 rounding (within a
few units in the last place), not bit for bit. Self-play training
(:mod:`analysis.fast.selfplay`) and the fused judgement of boards
(:mod:`analysis.fast.evaluate`) run on it."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from analysis.fast.jit import kernel, summing_kernel


@kernel
def nonzero(row: NDArray[np.float32], indices: NDArray[np.int64]) -> int:
    """The indices of the nonzero entries of ``row`` into ``indices``; how many (written
    without a branch per entry: which inputs are zero is unpredictable)."""
    count = 0
    for i in range(row.shape[0]):
        indices[count] = i
        count += row[i] != 0
    return count


@summing_kernel
def sigmoid(z: NDArray[np.float32], out: NDArray[np.float32], bits: NDArray[np.int32]) -> None:
    """``out = 1 / (1 + exp(-z))`` in float32, ``exp`` as Cephes' ``expf`` computes it
    (``2^k`` times a polynomial of the remainder, within a unit in the last place, as
    numpy's), so that the loop runs on vector units; ``bits`` is scratch space."""
    one = np.float32(1.0)
    powers = bits.view(np.float32)
    for j in range(z.shape[0]):
        t = min(max(-z[j], np.float32(-87.0)), np.float32(88.0))
        k = np.floor(t * np.float32(1.4426950408889634) + np.float32(0.5))
        f = t - k * np.float32(0.693359375)
        f = f + k * np.float32(2.12194440e-4)
        p = np.float32(1.9875691500e-4)
        p = p * f + np.float32(1.3981999507e-3)
        p = p * f + np.float32(8.3334519073e-3)
        p = p * f + np.float32(4.1665795894e-2)
        p = p * f + np.float32(1.6666665459e-1)
        p = p * f + np.float32(5.0000001201e-1)
        out[j] = p * f * f + f + one
        bits[j] = (np.int32(k) + np.int32(127)) << 23
    for j in range(z.shape[0]):
        out[j] = one / (one + out[j] * powers[j])


@summing_kernel
def first_layer(x: NDArray[np.float32], w1: NDArray[np.float32], z: NDArray[np.float32],
                indices: NDArray[np.int64], count: int) -> None:
    """Add to the hidden units' sums ``z`` the inputs ``x[indices[:count]]`` (the inputs
    that are not 0, in the inputs' order) times their rows of ``w1``, four rows at a time
    (a quarter of the loads and stores of ``z``: a tenth of the analysis' judgement of
    boards; the four products summed in pairs, then added)."""
    hidden = w1.shape[1]
    t = 0
    while t + 4 <= count:
        i0, i1, i2, i3 = indices[t], indices[t + 1], indices[t + 2], indices[t + 3]
        v0, v1, v2, v3 = x[i0], x[i1], x[i2], x[i3]
        for j in range(hidden):
            z[j] += (v0 * w1[i0, j] + v1 * w1[i1, j]) + (v2 * w1[i2, j] + v3 * w1[i3, j])
        t += 4
    for rest in range(t, count):
        i = indices[rest]
        value = x[i]
        for j in range(hidden):
            z[j] += value * w1[i, j]


@summing_kernel
def output_layer(z: NDArray[np.float32], w2: NDArray[np.float32], b2: NDArray[np.float32],
                 h: NDArray[np.float32], y: NDArray[np.float32], total: NDArray[np.float32],
                 bits: NDArray[np.int32]) -> None:
    """The hidden units (into ``h``) of their sums ``z``, and the outputs (into ``y``);
    ``total`` (outputs) and ``bits`` (hidden) are scratch space."""
    hidden = w2.shape[1]
    sigmoid(z, h, bits)
    for k in range(w2.shape[0]):
        sum_k = b2[k]
        for j in range(hidden):
            sum_k += h[j] * w2[k, j]
        total[k] = sum_k
    sigmoid(total, y, bits)


@summing_kernel
def forward_row(x: NDArray[np.float32], w1: NDArray[np.float32], b1: NDArray[np.float32],
                w2: NDArray[np.float32], b2: NDArray[np.float32], h: NDArray[np.float32],
                y: NDArray[np.float32], z: NDArray[np.float32], total: NDArray[np.float32],
                bits: NDArray[np.int32], indices: NDArray[np.int64]) -> None:
    """The hidden units (into ``h``) and the outputs (into ``y``) of one board's inputs
    ``x``, skipping the inputs that are 0 (most point units are); ``z`` (hidden),
    ``total`` (outputs), ``bits`` (hidden) and ``indices`` (inputs) are scratch space."""
    z[:] = b1
    first_layer(x, w1, z, indices, nonzero(x, indices))
    output_layer(z, w2, b2, h, y, total, bits)


@summing_kernel
def forward(x: NDArray[np.float32], w1: NDArray[np.float32], b1: NDArray[np.float32],
            w2: NDArray[np.float32], b2: NDArray[np.float32]
            ) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """Hidden units and outputs of the inputs ``x`` (``(n, inputs)``): :func:`forward_row`
    of each row."""
    n = x.shape[0]
    hidden = w1.shape[1]
    outputs = w2.shape[0]
    h = np.empty((n, hidden), dtype=np.float32)
    y = np.empty((n, outputs), dtype=np.float32)
    z = np.empty(hidden, dtype=np.float32)
    total = np.empty(outputs, dtype=np.float32)
    bits = np.empty(max(hidden, outputs), dtype=np.int32)
    indices = np.empty(x.shape[1], dtype=np.int64)
    for row in range(n):
        forward_row(x[row], w1, b1, w2, b2, h[row], y[row], z, total, bits, indices)
    return h, y
