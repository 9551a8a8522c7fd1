"""The fast move generator: every legal play's resulting position, on arrays.

The same rules as the reference (:mod:`notation.engine.movegen`), step by step: R-OPEN,
R-HIT, R-BAR, R-BEAROFF / R-BEAROFF-REAR, then the rule set's step rules as the reference
filters them (each asked only where its ``applies`` holds at the turn's start and, for
those that watch points, only for a step landing on one): R-COURIER (either release),
R-POSTILION, R-FIRSTQUARTER, ``bouchon=last-two``, R-CLOSE2, R-MID2, R-HEAD (with its
first-turn doublets), R-SIXBLOCK, R-RUNNER, R-HOMEQUARTER; then the turn's rules R-MAX,
R-WASTE, R-HIGH and the turn filter R-UNBLOCK. Squared doublets come from the rule set's
parameters.

A board is 52 ``int8`` counts: the mover's 26 (0 off, 25 the bar), then the opponent's 26,
each in its own numbering. The turn is explored breadth first, one level per die played,
each level's states kept once (board and dice left, through a hash table of Zobrist
keys with the boards compared in full on a match); a state from which no die can be
played ends a sequence. Each level is explored in the reference's order (from the rear-most
point, the higher die first), so the first sequence found for a state or a result is the
reference's canonical one: :func:`legal_results_primes` follows it to say, for a rule set
that scores primes (murray), whether the mover holds a prime after any step of each play
as the reference's ``PrimeWatch.during`` of its steps does. Only resulting positions are
made, no notation (the reference names them), and of each play only its steps' starting
points and dice in the canonical order, as one number (:func:`legal_results_paths`,
:func:`analysis.fast.paths.path_steps`). The kernels run compiled with numba, or as plain Python.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from analysis.fast.jit import kernel
from analysis.fast.rules import (
    CLOSE_TWO,
    CLOSES,
    COURIER,
    FIRST_QUARTER,
    HEAD,
    HEAD_DOUBLETS,
    HITTING,
    HOME_QUARTER,
    LAST_TWO,
    MIDPOINT_TWO,
    POSTILION,
    REAR_BEAR_OFF,
    RUNNER,
    SIX_BLOCK,
    SQUARED,
    UNBLOCK,
    WASTE,
)
from notation.engine.board import BAR, HOME, MEN, SIDE, TALON, WIDTH
from notation.engine.board import FIRST_QUARTER as STARTING_QUARTER
from notation.engine.rules.bouchon import BLOCK
from notation.engine.rules.fevga import PASSED

_HOME_START, _HOME_STOP = HOME.start, HOME.stop
"""A side's home points as ints (a kernel takes no range from outside)."""
_PASSED_TOP = PASSED[-1]
"""R-RUNNER: the mover's points 11-1 are past the opponent's head."""
HOME_QUARTER_LOW = STARTING_QUARTER.start
"""The own starting quarter is points 19-24 (R-HOMEQUARTER, R-FIRSTQUARTER, R-CLOSE2)."""

_KEYS = np.random.default_rng(20261204).integers(1, 2**62, size=(WIDTH + 8, 16), dtype=np.int64)
_KEYS[:, 0] = 0
"""Zobrist keys: one per (column, count), 0 for an empty column (a step changes a key by
the columns it changes alone), and rows 52.. for the dice left."""


@kernel
def courier_phase(board: NDArray[np.int8], base: int) -> bool:
    """R-COURIER's phase for the side whose 26 counts start at ``base`` (as
    :func:`notation.engine.rules.courier_phase`)."""
    if board[base + TALON] < MEN - 1 or board[base]:
        return False
    for point in range(_HOME_START, _HOME_STOP):  # noqa: SIM110 (numba compiles the loop, not all() of a generator)
        if board[base + point]:
            return False
    return True


@kernel
def _courier_point(board: NDArray[np.int8], base: int) -> int:
    for point in range(BAR, 0, -1):
        if point != TALON and board[base + point]:
            return point
    return TALON


@kernel
def runner_phase(board: NDArray[np.int8], base: int) -> bool:
    """R-RUNNER's phase for the side whose 26 counts start at ``base`` (as
    :func:`notation.engine.rules.fevga.runner_phase`): no man on points 11-1, none off."""
    if board[base]:
        return False
    for point in range(1, _PASSED_TOP + 1):  # noqa: SIM110 (numba compiles the loop)
        if board[base + point]:
            return False
    return True


@kernel
def _lowest_man(board: NDArray[np.int8], base: int) -> int:
    """The lowest point of his own numbering holding a man of the side at ``base`` (0 when
    one is borne off, or none is on the board), as R-SIXBLOCK's ``lowest_man``."""
    if board[base]:
        return 0
    for point in range(1, TALON + 1):
        if board[base + point]:
            return point
    return 0


@kernel
def _holds_quarter(board: NDArray[np.int8]) -> bool:
    """Whether the mover holds all six points 24-19."""
    for point in range(HOME_QUARTER_LOW, TALON + 1):  # noqa: SIM110 (numba compiles the loop)
        if not board[point]:
            return False
    return True


@kernel
def holds_prime(board: NDArray[np.int8]) -> bool:
    """Whether the mover holds six points in a row of his route with two or more men each
    (as :func:`notation.engine.rules.murray.holds_prime`)."""
    run = 0
    for point in range(1, TALON + 1):
        if board[point] >= 2:
            run += 1
            if run == BLOCK:
                return True
        else:
            run = 0
    return False


@kernel
def _shut_in(start: NDArray[np.int8], opposite: NDArray[np.int64], wall: NDArray[np.int64]
             ) -> bool:
    """R-UNBLOCK's condition at the turn's start (as ``fevga.shut_in``): every opposing man
    on the board on one point ``s`` of his, ``s`` >= 7, the mover holding the six points in
    front of it; their mover's numbers into ``wall``."""
    point = 0
    for their in range(1, TALON + 1):
        if start[SIDE + their]:
            if point:
                return False
            point = their
    if point < BLOCK + 1:
        return False
    for k in range(1, BLOCK + 1):
        wall[k - 1] = opposite[point - k]
        if not start[wall[k - 1]]:
            return False
    return True


@kernel
def _block(board: NDArray[np.int8], opposite: NDArray[np.int64], below: int) -> bool:
    """Whether the mover has six points in a row on the opponent's route below ``below``."""
    run = 0
    for their_point in range(1, below):
        if board[opposite[their_point]]:
            run += 1
            if run == BLOCK:
                return True
        else:
            run = 0
    return False


@kernel
def _applies(start: NDArray[np.int8], params: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Which step rules can fire in a turn from ``start`` (their ``applies`` filters), by
    parameter index."""
    on = np.zeros(params.shape[0], dtype=np.bool_)
    if params[COURIER]:
        home = 0
        for point in range(_HOME_STOP):
            home += start[point]
        on[COURIER] = courier_phase(start, 0) or (start[BAR] > 0 and home == 0)
    if params[POSTILION]:
        on[POSTILION] = courier_phase(start, SIDE)
    if params[FIRST_QUARTER]:
        quarter = 0
        for point in range(HOME_QUARTER_LOW, TALON + 1):
            quarter += start[point]
        on[FIRST_QUARTER] = start[1] == 0 and quarter >= BLOCK
    on[LAST_TWO] = params[LAST_TWO] != 0
    if params[CLOSE_TWO]:
        back = 0
        for point in range(HOME_QUARTER_LOW, BAR + 1):
            back += start[point]
        on[CLOSE_TWO] = back >= 6
    if params[MIDPOINT_TWO]:
        back = 0
        for point in range(13, BAR + 1):
            back += start[point]
        on[MIDPOINT_TWO] = back >= 3
    if params[HEAD]:
        on[HEAD] = start[TALON] >= 2
    if params[SIX_BLOCK]:
        men = 0
        for point in range(1, BAR):
            men += start[point]
        on[SIX_BLOCK] = not start[SIDE] and men >= BLOCK
    if params[RUNNER]:
        on[RUNNER] = runner_phase(start, 0)
    if params[HOME_QUARTER]:
        quarter = 0
        for point in range(HOME_QUARTER_LOW, TALON + 1):
            quarter += start[point]
        on[HOME_QUARTER] = quarter >= BLOCK
    return on


@kernel
def _step(board: NDArray[np.int8], after: NDArray[np.int8], from_point: int, die: int,
          start: NDArray[np.int8], on: NDArray[np.bool_], params: NDArray[np.int64],
          opposite: NDArray[np.int64], head_quota: int) -> bool:
    """Play one die from ``from_point`` of ``board`` into ``after`` (a copy made here);
    whether the step is legal (``head_quota``: how many men may leave the head this turn,
    R-HEAD)."""
    if not board[from_point] or (board[BAR] and from_point != BAR):
        return False
    to_point = BAR - die if from_point == BAR else from_point - die
    if to_point <= 0:
        for point in range(_HOME_STOP, BAR + 1):
            if board[point]:
                return False
        if params[REAR_BEAR_OFF] or to_point < 0:
            for point in range(from_point + 1, _HOME_STOP):
                if board[point]:
                    return False
        to_point = 0
    else:
        their_point = SIDE + opposite[to_point]
        there = board[their_point]
        if there >= params[CLOSES]:
            return False
    after[:] = board
    if to_point > 0:
        their_point = SIDE + opposite[to_point]
        if board[their_point] and params[HITTING]:
            after[their_point] -= 1
            after[SIDE + BAR] += 1
    after[from_point] -= 1
    after[to_point] += 1
    made = 0 < to_point < BAR and not board[to_point]
    if on[COURIER] and MEN - after[TALON] > 1 and courier_phase(
            board if params[COURIER] == 1 else start, 0):
        return False
    if on[POSTILION] and made and courier_phase(after, SIDE) and _block(
            after, opposite, _courier_point(after, SIDE)):
        return False
    if on[FIRST_QUARTER] and HOME_QUARTER_LOW <= to_point <= TALON and not after[1] and (
            _holds_quarter(after)):
        return False
    if on[LAST_TWO] and not (after[1] and after[2]) and (
            made or from_point == 1 or from_point == 2) and _block(after, opposite, BAR):
        return False
    if on[CLOSE_TWO] and HOME_QUARTER_LOW <= to_point <= TALON:
        closed = 0
        for point in range(HOME_QUARTER_LOW, TALON + 1):
            closed += after[point] >= 2
        if closed > 2:
            return False
    if on[MIDPOINT_TWO] and to_point == 13 and after[13] > 2:
        return False
    if on[HEAD] and from_point == TALON and start[TALON] - after[TALON] > head_quota:
        return False
    if on[RUNNER] and from_point == TALON and MEN - after[TALON] > 1 and runner_phase(board, 0):
        return False
    if on[HOME_QUARTER] and HOME_QUARTER_LOW <= to_point <= TALON and _holds_quarter(after):
        return False
    return not (on[SIX_BLOCK] and made and _block(after, opposite, _lowest_man(after, SIDE)))


@kernel
def _key(board: NDArray[np.int8], keys: NDArray[np.int64]) -> int:
    """The Zobrist key of a board."""
    key = 0
    for column in range(WIDTH):
        key ^= keys[column, board[column]]
    return int(key)


@kernel
def _left_key(left: int, keys: NDArray[np.int64]) -> int:
    """The part of a state's key that says which dice are left."""
    return int(keys[WIDTH + (left >> 4), left & 15])


@kernel
def _moved_key(key: int, board: NDArray[np.int8], after: NDArray[np.int8], from_point: int,
               die: int, opposite: NDArray[np.int64], keys: NDArray[np.int64]) -> int:
    """The key of ``after``, one legal step from ``board`` (whose key is ``key``): only the
    columns the step changed change it."""
    to_point = BAR - die if from_point == BAR else max(from_point - die, 0)
    key ^= keys[from_point, board[from_point]] ^ keys[from_point, after[from_point]]
    key ^= keys[to_point, board[to_point]] ^ keys[to_point, after[to_point]]
    if after[SIDE + BAR] != board[SIDE + BAR]:  # a hit
        their = SIDE + opposite[to_point]
        key ^= keys[their, board[their]] ^ keys[their, after[their]]
        key ^= keys[SIDE + BAR, board[SIDE + BAR]] ^ keys[SIDE + BAR, after[SIDE + BAR]]
    return int(key)


@kernel
def _find(table: NDArray[np.int64], hashes: NDArray[np.int64], boards: NDArray[np.int8],
          lefts: NDArray[np.int64], board: NDArray[np.int8], left: int, key: int) -> int:
    """The slot of ``table`` holding the state (``board``, ``left``), or the empty slot
    where it goes (as ``-1 - slot``)."""
    mask = table.shape[0] - 1
    slot = key & mask
    while True:
        index = table[slot]
        if index < 0:
            return int(-1 - slot)
        if hashes[index] == key and lefts[index] == left:
            same = True
            for column in range(WIDTH):
                if boards[index, column] != board[column]:
                    same = False
                    break
            if same:
                return int(slot)
        slot = (slot + 1) & mask


@kernel
def _grown(array: NDArray[np.int8]) -> NDArray[np.int8]:
    bigger = np.zeros((2 * array.shape[0], array.shape[1]), dtype=array.dtype)
    bigger[:array.shape[0]] = array
    return bigger


@kernel
def _grown1(array: NDArray[np.int64]) -> NDArray[np.int64]:
    bigger = np.zeros(2 * array.shape[0], dtype=array.dtype)
    bigger[:array.shape[0]] = array
    return bigger


HIGH_USED = 1
"""An ended sequence's flag: one die of two played, the high one (R-HIGH)."""
PRIME_HELD = 2
"""An ended sequence's (or a state's) flag: the mover held a prime after one of its steps."""
PATH = 2
"""Where a state's (or an ended sequence's) path starts among its flags' bits."""


@kernel
def _end(ends: NDArray[np.int8], end_keys: NDArray[np.int64], end_steps: NDArray[np.int64],
         end_flags: NDArray[np.int64], ended: int, board: NDArray[np.int8], key: int,
         steps: int, flags: int
         ) -> tuple[NDArray[np.int8], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """An ended sequence (its board, key, steps and flags) added at ``ended``, the arrays
    grown first where they are full; the arrays."""
    if ended == ends.shape[0]:
        ends = _grown(ends)
        end_keys = _grown1(end_keys)
        end_steps = _grown1(end_steps)
        end_flags = _grown1(end_flags)
    ends[ended] = board
    end_keys[ended] = key
    end_steps[ended] = steps
    end_flags[ended] = flags
    return ends, end_keys, end_steps, end_flags


@kernel
def legal_results(start: NDArray[np.int8], high: int, low: int, params: NDArray[np.int64],
                  opposite: NDArray[np.int64], keys: NDArray[np.int64]) -> NDArray[np.int8]:
    """The distinct resulting boards (``(n, 52)``, the mover's then the opponent's, each
    in its own numbering: ``Play.result``) of every legal play of dice ``high``, ``low``
    from the board ``start``, in no particular order."""
    return legal_results_primes(start, high, low, params, opposite, keys, False)[0]


@kernel
def legal_results_primes(start: NDArray[np.int8], high: int, low: int,
                         params: NDArray[np.int64], opposite: NDArray[np.int64],
                         keys: NDArray[np.int64], primes: bool
                         ) -> tuple[NDArray[np.int8], NDArray[np.bool_]]:
    """:func:`legal_results`, and for each result whether the mover holds a prime (six
    points in a row of two or more men) after one of the steps of its play in the
    reference's canonical order (only with ``primes``; all false without)."""
    results, held, _ = legal_results_paths(start, high, low, params, opposite, keys, primes)
    return results, held


@kernel
def legal_results_paths(start: NDArray[np.int8], high: int, low: int,
                        params: NDArray[np.int64], opposite: NDArray[np.int64],
                        keys: NDArray[np.int64], primes: bool
                        ) -> tuple[NDArray[np.int8], NDArray[np.bool_], NDArray[np.int64]]:
    """:func:`legal_results_primes`, and each result's play in the reference's canonical
    order as a number, its path (:func:`analysis.fast.paths.path_steps` reads it): a step is one byte,
    ``8 * from_point + die``, the last step in the lowest byte. A state's path rides in
    the upper bits of its flags (``flags >> PATH``)."""
    doublet = high == low
    if doublet:
        first_left = high if params[SQUARED] else 4
    else:
        first_left = 3  # bit 0: the high die is left, bit 1: the low one
    on = _applies(start, params)
    head_quota = 1
    if doublet and (params[HEAD_DOUBLETS] >> high) & 1 and start[TALON] == MEN:
        head_quota = 2  # R-HEAD's first turn (all men on the head) with one of its doublets
    # no step rule can fire: the order of a non-doublet's two steps cannot matter, so only
    # orders whose starting points never rise are explored, as the reference does (the
    # two dice never lead to one board, so no state is reached twice at the first level)
    order_free = not doublet and not on.any()
    capacity = 64
    boards = np.empty((capacity, WIDTH), dtype=np.int8)
    lefts = np.empty(capacity, dtype=np.int64)
    hashes = np.empty(capacity, dtype=np.int64)
    board_keys = np.empty(capacity, dtype=np.int64)
    highest = np.empty(capacity, dtype=np.int64)
    held = np.empty(capacity, dtype=np.int64)  # each state's PRIME_HELD flag and its path (>> PATH)
    end_keys = np.empty(capacity, dtype=np.int64)
    ends = np.empty((capacity, WIDTH), dtype=np.int8)
    end_steps = np.empty(capacity, dtype=np.int64)
    end_flags = np.empty(capacity, dtype=np.int64)
    ended = 0
    boards[0] = start
    lefts[0] = first_left
    board_keys[0] = _key(start, keys)
    highest[0] = BAR
    held[0] = 0
    level_start, level_end, count = 0, 1, 1
    steps = 0
    after = np.zeros(WIDTH, dtype=np.int8)
    while level_start < level_end:
        table = np.full(1 << max(5, int(np.ceil(np.log2(16 * (level_end - level_start) + 1)))),
                        -1, dtype=np.int64)
        # the level's states in the order found, each's steps from the rear-most point and
        # the higher die first, as the reference's depth-first search takes them: so each
        # state and each ended sequence is first found by the reference's first sequence
        for state in range(level_start, level_end):
            board = boards[state]
            left = lefts[state]
            board_key = board_keys[state]
            limit = highest[state]
            moved = False
            for from_point in range(limit, 0, -1):
                if not board[from_point]:
                    continue
                for option in range(2):
                    if doublet:
                        if option == 1:
                            break
                        die, rest = high, left - 1
                    elif option == 0:
                        if not left & 1:
                            continue
                        die, rest = high, left & 2
                    else:
                        if not left & 2:
                            continue
                        die, rest = low, left & 1
                    if not _step(board, after, from_point, die, start, on, params, opposite,
                                 head_quota):
                        continue
                    moved = True
                    after_key = _moved_key(board_key, board, after, from_point, die, opposite, keys)
                    path = ((held[state] >> PATH) << 8) | (8 * from_point + die)
                    prime = (held[state] & PRIME_HELD) | (path << PATH)
                    if primes and holds_prime(after):
                        prime |= PRIME_HELD
                    if rest:
                        key = after_key ^ _left_key(rest, keys)
                        slot = _find(table, hashes, boards, lefts, after, rest, key)
                        if slot >= 0:
                            continue
                        if count == boards.shape[0]:
                            boards = _grown(boards)
                            lefts = _grown1(lefts)
                            hashes = _grown1(hashes)
                            board_keys = _grown1(board_keys)
                            highest = _grown1(highest)
                            held = _grown1(held)
                            board = boards[state]
                        boards[count] = after
                        lefts[count] = rest
                        hashes[count] = key
                        board_keys[count] = after_key
                        highest[count] = from_point if order_free else BAR
                        held[count] = prime
                        table[-1 - slot] = count
                        count += 1
                        if 2 * (count - level_end) > table.shape[0]:
                            table = _rehashed(table, hashes, level_end, count)
                    else:
                        used_high = HIGH_USED if not doublet and die == high else 0
                        ends, end_keys, end_steps, end_flags = _end(
                            ends, end_keys, end_steps, end_flags, ended, after, after_key,
                            steps + 1, used_high | prime)
                        ended += 1
            if not moved:
                # one die played of two: the high one when the low one is left
                used_high = HIGH_USED if not doublet and left == 2 else 0
                ends, end_keys, end_steps, end_flags = _end(
                    ends, end_keys, end_steps, end_flags, ended, board, board_key, steps,
                    used_high | held[state])
                ended += 1
        level_start, level_end = level_end, count
        steps += 1
    wall = np.zeros(BLOCK, dtype=np.int64)
    unblock = params[UNBLOCK] != 0 and _shut_in(start, opposite, wall)
    return _allowed(ends[:ended], end_keys[:ended], end_steps[:ended], end_flags[:ended],
                    doublet, params[WASTE] != 0, wall if unblock else wall[:0])


@kernel
def _rehashed(table: NDArray[np.int64], hashes: NDArray[np.int64], first: int, count: int
              ) -> NDArray[np.int64]:
    bigger = np.full(2 * table.shape[0], -1, dtype=np.int64)
    mask = bigger.shape[0] - 1
    for index in range(first, count):
        slot = hashes[index] & mask
        while bigger[slot] >= 0:
            slot = (slot + 1) & mask
        bigger[slot] = index
    return bigger


@kernel
def _allowed(ends: NDArray[np.int8], end_keys: NDArray[np.int64], steps: NDArray[np.int64],
             flags: NDArray[np.int64], doublet: bool, waste: bool, wall: NDArray[np.int64]
             ) -> tuple[NDArray[np.int8], NDArray[np.bool_], NDArray[np.int64]]:
    """R-MAX, R-WASTE, R-HIGH over the ended sequences, then R-UNBLOCK where ``wall`` holds
    its six points (empty: it does not bind), then each result once, with the prime flag and
    the path of the first sequence kept for it."""
    n = ends.shape[0]
    most = steps.max()
    keep = steps == most
    if waste:
        best = -1
        for i in range(n):
            if keep[i] and ends[i, 0] > best:
                best = ends[i, 0]
        for i in range(n):
            keep[i] = keep[i] and ends[i, 0] == best
    if most == 1 and not doublet:
        any_high = False
        for i in range(n):
            any_high = any_high or (keep[i] and flags[i] & HIGH_USED != 0)
        if any_high:
            for i in range(n):
                keep[i] = keep[i] and flags[i] & HIGH_USED != 0
    if wall.shape[0]:
        opens = np.zeros(n, dtype=np.bool_)
        for i in range(n):
            for point in wall:
                if not ends[i, point]:
                    opens[i] = True
        if (keep & opens).any():
            keep &= opens
    table = np.full(1 << max(6, int(np.ceil(np.log2(4 * n + 1)))), -1, dtype=np.int64)
    hashes = np.empty(n, dtype=np.int64)
    lefts = np.zeros(n, dtype=np.int64)
    out = np.empty((n, WIDTH), dtype=np.int8)
    primes = np.zeros(n, dtype=np.bool_)
    paths = np.zeros(n, dtype=np.int64)
    made = 0
    for i in range(n):
        if not keep[i]:
            continue
        key = end_keys[i]
        slot = _find(table, hashes, out, lefts, ends[i], 0, key)
        if slot >= 0:
            continue
        out[made] = ends[i]
        primes[made] = flags[i] & PRIME_HELD != 0
        paths[made] = flags[i] >> PATH
        hashes[made] = key
        table[-1 - slot] = made
        made += 1
    return out[:made], primes[:made], paths[:made]
