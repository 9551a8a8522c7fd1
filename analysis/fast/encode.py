"""The encoding on arrays: the inputs of :mod:`analysis.encoding`, board by board, in a
kernel (one pass over each board, no temporary arrays).

:func:`layout` reads an :class:`~analysis.encoding.Encoder` into the numbers the kernel
takes, so the layout stays described in one place (the encoder's), and the test suite
holds the two equal on random positions of every rule set.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from analysis.contact import NUMBERS, WEIGHT
from analysis.encoding import _TABLE, Encoder
from analysis.fast.jit import kernel
from analysis.fast.threats import threats, worst_hit
from analysis.fast.timing import timing
from analysis.rolls import HIGH_DICE, LOW_DICE
from notation.engine.board import BAR, MEN, POINTS, SIDE

# the layout vector
BAR_UNIT = 0
PHASES = 1
"""How many phase units a side has (``Encoder.phases``); their tests follow the header."""
PRIME_UNIT = 2
FEATURES = 3
"""0: none (version 1), 1: the blocking features, 2: the contact features, 3: the contact
and the threat features (version 4), 4: those and the timing features (version 5)."""
CLOSES = 4
HEADER = 5
TEST = SIDE + 1
"""Each phase's test after the header: its weight of each of the side's 26 columns, then its
bound (the phase holds while ``Σ weight · count <= bound``, as ``Phase`` says)."""


def layout(encoder: Encoder, closes_at: int) -> NDArray[np.int64]:
    """The kernel's numbers for ``encoder`` (``closes_at``: its rule set's): the header,
    then each phase's test (:data:`TEST` numbers) in the encoder's order."""
    numbers = np.zeros(HEADER + TEST * len(encoder.phases), dtype=np.int64)
    numbers[BAR_UNIT] = encoder.bar
    numbers[PHASES] = len(encoder.phases)
    numbers[PRIME_UNIT] = encoder.prime
    numbers[FEATURES] = (1 if encoder.blocking is not None
                         else 0 if encoder.contact is None
                         else 4 if encoder.timing is not None
                         else 3 if encoder.threats is not None else 2)
    numbers[CLOSES] = closes_at
    for k, phase in enumerate(encoder.phases):
        at = HEADER + TEST * k
        for point, weight in phase.weights.items():
            numbers[at + point] = weight
        numbers[at + TEST - 1] = phase.bound
    return numbers


@kernel
def _in_phase(board: NDArray[np.int8], base: int, numbers: NDArray[np.int64], at: int) -> bool:
    """Whether the side whose 26 counts start at ``base`` is in the phase whose test starts
    at ``numbers[at]``."""
    total = 0
    for point in range(TEST - 1):
        total += numbers[at + point] * int(board[base + point])
    return bool(total <= numbers[at + TEST - 1])


def table() -> NDArray[np.float32]:
    """The units of every (column, count), as the encoder looks them up."""
    return _TABLE


@kernel
def _blocking(board: NDArray[np.int8], mine: int, his: int, closes: int,
              opposite: NDArray[np.int64], out: NDArray[np.float32], at: int) -> None:
    """The five blocking features of the side at ``mine`` against the side at ``his``
    (offsets of their 26 counts in ``board``), written to ``out[at:at + 5]``."""
    rear = 0
    for point in range(POINTS, 0, -1):
        if board[his + point] > 0:
            rear = point
            break
    pips = 0
    for point in range(1, POINTS + 1):
        pips += point * int(board[mine + point])
    blocks = 0
    run = 0
    longest = 0
    for their_point in range(1, POINTS + 1):
        if their_point < rear and board[mine + opposite[their_point]] >= closes:
            blocks += 1
            run += 1
            longest = max(longest, run)
        else:
            run = 0
    blocked = 0
    for die in range(1, 7):
        if rear - die >= 1 and board[mine + opposite[rear - die]] >= closes:
            blocked += 1
    out[at] = pips / (MEN * POINTS)
    out[at + 1] = rear / POINTS
    out[at + 2] = blocks / 12
    out[at + 3] = longest / 6
    out[at + 4] = blocked / 6


@kernel
def _contact(board: NDArray[np.int8], mine: int, his: int, closes: int,
             opposite: NDArray[np.int64], out: NDArray[np.float32], at: int, with_threats: bool) -> None:
    """The six contact features of the side at ``mine`` against the side at ``his``,
    written to ``out[at:at + 6]`` (as :mod:`analysis.contact` computes them, on point
    masks: bit ``p`` for point ``p``), and with ``with_threats`` the four threat features
    to ``out[at + 6:at + 10]`` (:func:`analysis.fast.threats.threats`, from the same masks
    and each roll's blots hit: :func:`analysis.fast.threats.worst_hit`)."""
    his_men = 0
    my_blots = 0
    my_open = 0
    my_held = 0
    his_held = 0
    my_men = 1
    entry = POINTS
    for point in range(POINTS - 5, POINTS + 1):
        entry = min(entry, opposite[point])
    front = BAR
    for point in range(1, BAR + 1):
        bit = np.int64(1) << point
        if board[his + point]:
            his_men |= bit
            front = min(front, opposite[point] if point <= POINTS else entry)
        if board[mine + point]:
            my_men |= bit
        if point <= POINTS:
            men_there = board[mine + opposite[point]]
            if men_there == 1:
                my_blots |= bit
            if men_there < closes:
                my_open |= bit
            if board[mine + point] >= closes:
                my_held |= bit
            if board[his + opposite[point]] >= closes:
                his_held |= bit
    rear = 0
    while (my_men >> (rear + 1)) != 0:
        rear += 1
    pips = 0
    for point in range(1, BAR + 1):
        pips += point * int(board[mine + point])
    shots = 0
    lost = 0
    for roll in range(HIGH_DICE.shape[0] if my_blots else 0):  # (no blot, no roll hits one)
        first, second = HIGH_DICE[roll], LOW_DICE[roll]
        one, two = his_men >> first, his_men >> second
        rested = ((one & my_open) >> second) | ((two & my_open) >> first)
        reached = one | two | rested
        if first == second:
            for _ in range(2):
                rested = (rested & my_open) >> first
                reached |= rested
        hit = reached & my_blots
        if hit:
            shots += WEIGHT[roll]
            if with_threats:
                lost += worst_hit(hit, opposite) * WEIGHT[roll]
    longest = 0
    run = 0
    for point in range(1, POINTS + 1):
        if (my_held >> point) & 1:
            run += 1
            longest = max(longest, run)
        else:
            run = 0
    escapes = NUMBERS[((his_held << 6) >> rear) & 63]
    out[at] = pips / (MEN * BAR)
    out[at + 1] = 1.0 if rear > front else 0.0
    out[at + 2] = shots / 36
    out[at + 3] = longest / 6
    out[at + 4] = escapes
    out[at + 5] = escapes if rear == BAR else np.float32(0.0)
    if with_threats:
        threats(lost, my_open, his_held, rear, out, at + 6)


@kernel
def encode_row(board: NDArray[np.int8], mine_prime: bool, his_prime: bool, numbers: NDArray[np.int64],
               units: NDArray[np.float32], opposite: NDArray[np.int64], out: NDArray[np.float32]) -> None:
    """The inputs of one board into ``out`` (its ``size`` numbers, zero before: only the
    inputs that are not 0 are written) and, where the layout has them, each side's prime
    flag ``mine_prime``, ``his_prime``."""
    features = numbers[FEATURES]
    closes = numbers[CLOSES]
    at = 0
    for side in range(2):
        base = SIDE * side
        for point in range(1, POINTS + 1):
            count = board[base + point]
            if count:
                for unit in range(4):
                    out[at + unit] = units[base + point, count, unit]
            at += 4
        out[at] = units[base, board[base], 0]
        at += 1
        if numbers[BAR_UNIT]:
            out[at] = units[base + BAR, board[base + BAR], 0]
            at += 1
        for phase in range(numbers[PHASES]):
            out[at] = 1.0 if _in_phase(board, base, numbers, HEADER + TEST * phase) else 0.0
            at += 1
        if numbers[PRIME_UNIT]:
            out[at] = 1.0 if (mine_prime if side == 0 else his_prime) else 0.0
            at += 1
        if features == 1:
            _blocking(board, base, SIDE - base, closes, opposite, out, at)
            at += 5
        elif features >= 2:
            _contact(board, base, SIDE - base, closes, opposite, out, at, features >= 3)
            at += 6 if features == 2 else 10
            if features == 4:
                timing(board, base, SIDE - base, closes, opposite, out, at)
                at += 4


@kernel
def encode(boards: NDArray[np.int8], primes: NDArray[np.bool_], numbers: NDArray[np.int64],
           units: NDArray[np.float32], opposite: NDArray[np.int64], size: int
           ) -> NDArray[np.float32]:
    """The inputs (``(n, size)``) of ``boards`` (``(n, 52)``) and, where the layout has
    them, the prime flags ``primes`` (``(n, 2)``): :func:`encode_row` of each."""
    n = boards.shape[0]
    x = np.zeros((n, size), dtype=np.float32)
    for row in range(n):
        encode_row(boards[row], primes[row, 0], primes[row, 1], numbers, units, opposite, x[row])
    return x
