"""Self-play TD(λ) training games in one kernel: the dice, the move generator, the
encoding, the forward pass, the choice and the updates with eligibility traces, with no
return to Python until the game is over.

It plays the game :func:`analysis.training.self_play_game` plays, step for step: the dice
come from the same Mersenne Twister as Python's ``random.Random`` (its state is handed to
the kernel and back, ``randrange(6)`` drawn as CPython draws it), so a seed gives the same
rolls; each side keeps its traces as :class:`analysis.network.Traces` keeps them (the big
trace as ``scale · E``, rescaled below 1e-4); each candidate's outputs are masked by the
outcomes its position still allows (:mod:`analysis.fast.outcomes`, as
:func:`analysis.players.judge` masks them), the play chosen and the TD targets taken from
the masked outputs (equal ones by the net's own equity, as the reference breaks the ties
of a race already lost), the gradients from the net's own; a play that ends the game is given its
exact outcome. The sums of the matrix products are added in another order than numpy's BLAS
adds them, and ``exp`` is Cephes' ``expf`` (:func:`analysis.fast.forward.sigmoid`), so the weights agree to
float32 rounding, not bit for bit: the same seed gives the same games until two
candidates' equities are that close, and then the two paths part.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from analysis.encoding import Encoder
from analysis.fast.encode import encode, layout, table
from analysis.fast.forward import forward, nonzero
from analysis.fast.jit import kernel
from analysis.fast.movegen import _KEYS, legal_results_primes
from analysis.fast.outcomes import (
    HOME_FOR_LOSER,
    ceiling_code,
    mask,
    most_steps,
    penalty_rates,
    stored_race_table,
)
from analysis.fast.rules import FastRules, fast_rules
from analysis.network import Network
from analysis.outcomes import Outcomes
from notation import RuleSet
from notation.engine.board import BAR, MEN, SIDE
from notation.engine.rules.backgammon import single_gammon_backgammon
from notation.engine.rules.base import PrimeWatch, Scorer, single_or_double_game
from notation.engine.rules.hale import penalty
from notation.engine.rules.murray import MARCIA_PRIMES, marcia
from notation.engine.rules.narde import mars

WORDS = 624
"""The Mersenne Twister's state: 624 words of 32 bits, and a position in them."""

SCORERS: dict[Scorer, int] = {single_or_double_game: 1, mars: 1, single_gammon_backgammon: 2,
                              marcia: 3, penalty: 4}
"""The rule sets' scorers the kernel computes (``RuleSet.scorer``), by the code it knows
them by: 1, R-SCORE and R-SCORE-MARS (2 when the loser has borne off none; the cube at 1,
as in self-play); 2, backgammon's single game, gammon and backgammon; 3, R-SCORE-MARCIA
(marcia, and per punto unless the winner has held a prime); 4, R-SCORE-HALE (the loser's
men left, each at its point's rate: ``RuleSet.penalty_rates``)."""
PRIME_WATCHES: tuple[PrimeWatch, ...] = (MARCIA_PRIMES,)
"""The prime watches (``RuleSet.primes``) the move generator follows: six points in a row
of two or more men (:func:`analysis.fast.movegen.holds_prime`)."""


def trains(rules: RuleSet) -> bool:
    """Whether the kernel can play ``rules``' training games: its moves are covered, its
    scorer is one of :data:`SCORERS`, its ceiling one of
    :data:`analysis.fast.outcomes.CEILINGS`, and its prime watch, if any, one of
    :data:`PRIME_WATCHES`."""
    return (fast_rules(rules) is not None and rules.scorer in SCORERS
            and ceiling_code(rules) is not None
            and (rules.primes is None or any(rules.primes is watch for watch in PRIME_WATCHES)))


@kernel
def _twist(mt: NDArray[np.int64]) -> None:
    for i in range(WORDS):
        y = (mt[i] & 0x80000000) | (mt[(i + 1) % WORDS] & 0x7FFFFFFF)
        value = mt[(i + 397) % WORDS] ^ (y >> 1)
        if y & 1:
            value ^= 0x9908B0DF
        mt[i] = value


@kernel
def _word(mt: NDArray[np.int64], at: NDArray[np.int64]) -> int:
    """The next 32 bits (CPython's ``genrand_uint32``)."""
    if at[0] >= WORDS:
        _twist(mt)
        at[0] = 0
    y = mt[at[0]]
    at[0] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return int(y & 0xFFFFFFFF)


@kernel
def _die(mt: NDArray[np.int64], at: NDArray[np.int64]) -> int:
    """``randrange(6) + 1`` as CPython draws it: 3 bits, again while they make 6 or 7."""
    while True:
        bits = _word(mt, at) >> 29
        if bits < 6:
            return bits + 1


@kernel
def _score(board: NDArray[np.int8], code: int, held: bool, rates: NDArray[np.int64]) -> int:
    """The points of a game won with ``board`` (the winner's 26 counts, then the loser's),
    by the scorer ``code`` (:data:`SCORERS`); ``held``: the winner has held a prime;
    ``rates``: :func:`analysis.fast.outcomes.penalty_rates`."""
    loser = SIDE
    if code == 4:
        total = 0
        for point in range(1, BAR):
            total += rates[0, point] * board[loser + point]
        return total
    if board[loser]:
        return 1
    if code == 1:
        return 2
    if code == 3:
        return 2 if held else 3
    if board[loser + BAR]:
        return 3
    for point in range(HOME_FOR_LOSER[0], HOME_FOR_LOSER[1]):
        if board[loser + point]:
            return 3
    return 2


@kernel
def _update(side: int, delta: NDArray[np.float32], alpha: float, scale: NDArray[np.float64],
            w1: NDArray[np.float32], b1: NDArray[np.float32], w2: NDArray[np.float32],
            b2: NDArray[np.float32], e1: NDArray[np.float32], e1b: NDArray[np.float32],
            e2: NDArray[np.float32], e2b: NDArray[np.float32], rows: NDArray[np.int64],
            used: int) -> None:
    """``w += α Σ_k delta_k · trace_k`` for one side's traces; ``rows[:used]`` are the
    rows of ``w1``'s trace that are not all zero (the inputs this side has had nonzero)."""
    ad = np.float32(alpha) * delta
    scaled = ad * np.float32(scale[side])
    outputs = delta.shape[0]
    hidden = w1.shape[1]
    step = np.empty(hidden, dtype=np.float32)
    for r in range(used):
        i = rows[r]
        for j in range(hidden):
            step[j] = scaled[0] * e1[side, 0, i, j]
        for k in range(1, outputs):
            for j in range(hidden):
                step[j] += scaled[k] * e1[side, k, i, j]
        for j in range(hidden):
            w1[i, j] += step[j]
    for j in range(hidden):
        step[j] = ad[0] * e1b[side, 0, j]
    for k in range(1, outputs):
        for j in range(hidden):
            step[j] += ad[k] * e1b[side, k, j]
    for j in range(hidden):
        b1[j] += step[j]
    for k in range(outputs):
        for j in range(hidden):
            w2[k, j] += ad[k] * e2[side, k, j]
        b2[k] += ad[k] * e2b[side, k]


@kernel
def play_game(mt: NDArray[np.int64], at: NDArray[np.int64], start: NDArray[np.int8],
              w1: NDArray[np.float32], b1: NDArray[np.float32], w2: NDArray[np.float32],
              b2: NDArray[np.float32], params: NDArray[np.int64], opposite: NDArray[np.int64],
              keys: NDArray[np.int64], numbers: NDArray[np.int64], units: NDArray[np.float32],
              values: NDArray[np.float32], constant: float, won: NDArray[np.float32],
              lost: NDArray[np.float32], code: int, worth: NDArray[np.int64], ceiling: int,
              races: NDArray[np.int64], steps: int, rates: NDArray[np.int64], top: float,
              primes: bool, alpha: float, lam: float, max_turns: int
              ) -> tuple[int, int, int]:
    """One training game from ``start`` (52 counts, the first player's side first),
    updating the weights in place; (winner side or -1 when abandoned, points, turns).
    ``worth``, ``ceiling``, ``races``, ``steps``, ``rates``, ``top`` (its ``scale``): the
    outcome mask's (:func:`analysis.fast.outcomes.mask`); ``primes``: each side's prime held so far is
    followed (murray), for the encoding, the mask and the score."""
    inputs, hidden = w1.shape
    outputs = w2.shape[0]
    e1 = np.zeros((2, outputs, inputs, hidden), dtype=np.float32)
    e1b = np.zeros((2, outputs, hidden), dtype=np.float32)
    e2 = np.zeros((2, outputs, hidden), dtype=np.float32)
    e2b = np.zeros((2, outputs), dtype=np.float32)
    previous = np.zeros((2, outputs), dtype=np.float32)
    judged = np.zeros(2, dtype=np.bool_)
    scale = np.ones(2, dtype=np.float64)
    rows = np.zeros((2, inputs), dtype=np.int64)
    used = np.zeros(2, dtype=np.int64)
    touched = np.zeros((2, inputs), dtype=np.bool_)
    indices = np.empty(inputs, dtype=np.int64)
    lam32 = np.float32(lam)
    one = np.float32(1.0)
    held = np.zeros(2, dtype=np.bool_)
    board = start.copy()
    for turn in range(max_turns):
        side = turn & 1
        first = _die(mt, at)
        second = _die(mt, at)
        results, made = legal_results_primes(board, max(first, second), min(first, second),
                                             params, opposite, keys, primes)
        n = results.shape[0]
        flags = np.empty((n, 2), dtype=np.bool_)
        for i in range(n):
            flags[i, 0] = held[side] or made[i]
            flags[i, 1] = held[1 - side]
        x = encode(results, flags, numbers, units, opposite, inputs)
        h, y = forward(x, w1, b1, w2, b2)
        judged_y = y.copy()
        best = 0
        best_equity = np.float32(0.0)
        best_own = np.float32(0.0)
        for i in range(n):
            if results[i, 0] == MEN:
                judged_y[i] = won[_score(results[i], code, flags[i, 0], rates)]
            else:
                mask(results[i], judged_y[i], worth, ceiling, races, steps, flags[i, 0],
                     flags[i, 1], rates, top)
            equity = np.float32(0.0)
            for k in range(outputs):
                equity += judged_y[i, k] * values[k]
            equity += np.float32(constant)
            own = np.float32(constant)
            for k in range(outputs):
                own += y[i, k] * values[k]
            if i == 0 or equity > best_equity or (equity == best_equity and own > best_own):
                best, best_equity, best_own = i, equity, own
        result = results[best]
        held[side] = flags[best, 0]
        if result[0] == MEN:
            points = _score(result, code, held[side], rates)
            for who in range(2):
                if judged[who]:
                    target = won[points] if who == side else lost[points]
                    _update(who, target - previous[who], alpha, scale, w1, b1, w2, b2,
                            e1, e1b, e2, e2b, rows[who], used[who])
            return side, points, turn + 1
        if judged[side]:
            _update(side, judged_y[best] - previous[side], alpha, scale, w1, b1, w2, b2,
                    e1, e1b, e2, e2b, rows[side], used[side])
        yb = y[best]
        hb = h[best]
        dy = yb * (one - yb)
        slope = hb * (one - hb)
        scale[side] *= lam
        if scale[side] < 1e-4:
            e1[side] *= np.float32(scale[side])
            scale[side] = 1.0
        inverse = np.float32(1.0 / scale[side])
        active = nonzero(x[best], indices)
        for t in range(active):
            i = indices[t]
            if not touched[side, i]:
                touched[side, i] = True
                rows[side, used[side]] = i
                used[side] += 1
        g1b = np.empty(hidden, dtype=np.float32)
        gain = np.empty(hidden, dtype=np.float32)
        for k in range(outputs):
            for j in range(hidden):
                g1b[j] = dy[k] * w2[k, j] * slope[j]
                gain[j] = g1b[j] * inverse
            for t in range(active):
                i = indices[t]
                value = x[best, i]
                for j in range(hidden):
                    e1[side, k, i, j] += value * gain[j]
            for j in range(hidden):
                e1b[side, k, j] = e1b[side, k, j] * lam32 + g1b[j]
                e2[side, k, j] = e2[side, k, j] * lam32 + dy[k] * hb[j]
            e2b[side, k] = e2b[side, k] * lam32 + dy[k]
        previous[side] = yb
        judged[side] = True
        board[:SIDE] = result[SIDE:]
        board[SIDE:] = result[:SIDE]
    return -1, 0, max_turns


@dataclass
class FastGames:
    """Training games of one net played by the kernel (see :func:`trains`)."""

    net: Network
    rules: RuleSet
    fast: FastRules
    numbers: NDArray[np.int64]
    won: NDArray[np.float32]
    lost: NDArray[np.float32]
    values: NDArray[np.float32]
    constant: float
    code: int
    worth: NDArray[np.int64]
    ceiling: int
    races: NDArray[np.int64]
    steps: int
    rates: NDArray[np.int64]
    scale: float

    @classmethod
    def for_net(cls, net: Network, rules: RuleSet, encoder: Encoder, outcomes: Outcomes
                ) -> FastGames | None:
        """The kernel's games for ``net`` (read through ``encoder``), or ``None`` where
        :func:`trains` says no."""
        fast = fast_rules(rules)
        scorer = rules.scorer
        ceiling = ceiling_code(rules)
        if fast is None or scorer is None or ceiling is None or not trains(rules):
            return None
        top = rules.score_range[1]
        won = np.array([outcomes.target(True, points) for points in range(top + 1)], np.float32)
        lost = np.array([outcomes.target(False, points) for points in range(top + 1)], np.float32)
        return cls(net, rules, fast, layout(encoder, rules.closes_at), won, lost,
                   np.asarray(outcomes.values, dtype=np.float32), float(outcomes.constant),
                   SCORERS[scorer], np.array(outcomes.points, dtype=np.int64), ceiling,
                   stored_race_table(rules), most_steps(rules), penalty_rates(rules),
                   float(outcomes.scale))

    def play(self, rng: random.Random, alpha: float, lam: float, max_turns: int
             ) -> tuple[int | None, int, int]:
        """One game with the dice of ``rng`` (left as after the game's rolls); as
        :func:`analysis.training.self_play_game`: (winner side or None, points, turns)."""
        version, internal, gauss = rng.getstate()
        mt = np.array(internal[:WORDS], dtype=np.int64)
        at = np.array([internal[WORDS]], dtype=np.int64)
        net, fast = self.net, self.fast
        start = np.array(self.rules.start.mover + self.rules.start.opponent, dtype=np.int8)
        winner, points, turns = play_game(
            mt, at, start, net.w1, net.b1, net.w2, net.b2, fast.params, fast.opposite, _KEYS,
            self.numbers, table(), self.values, self.constant, self.won, self.lost, self.code,
            self.worth, self.ceiling, self.races, self.steps, self.rates, self.scale,
            self.rules.primes is not None, float(alpha), float(lam), int(max_turns))
        state: tuple[Any, ...] = (*(int(word) for word in mt), int(at[0]))
        rng.setstate((version, state, gauss))
        return (None if winner < 0 else int(winner)), int(points), int(turns)
