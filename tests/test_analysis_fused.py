"""The judgement of boards in one kernel call (:mod:`analysis.fast.evaluate`, what the
analysis at 0-ply judges by) against the reference's (:meth:`BoardJudge.judge`: numpy's
matrix products): the same outputs and equities to float32 rounding on positions of random
games and scattered positions of every rule set with a shipped net, the exact bear-offs
and the games over exactly the reference's."""

from __future__ import annotations

import random

import numpy as np
import pytest

from analysis.board_judge import BoardJudge
from analysis.fast.race import pure_bear_off
from analysis.race import CONTACT, classes
from analysis.shipped import load_net
from notation import MEN, OFF, rule_set
from tests.fast_positions import game_positions, scattered_position

VARIANTS = ("backgammon", "fevga", "hale", "jacquet", "murray", "narde", "versailles")

ROUNDING = 2e-6
"""Two sums of float32 in another order (and Cephes' ``expf`` against numpy's): a few units
in the last place of an output (about 6e-8 each), times hale's 45 points of a scaled one."""


def _boards(variant: str) -> tuple[np.ndarray, np.ndarray | None]:
    rules = rule_set(variant)
    rng = random.Random(23)
    positions = [p for p, _, results in game_positions(rules, rng, 400) for p in [p, *sorted(
        results, key=lambda r: r.mover + r.opponent)[:3]]]
    positions += [scattered_position(rules, rng) for _ in range(400)]
    boards = np.array([p.mover + p.opponent for p in positions], dtype=np.int8)
    boards[:5, :26] = 0  # a few games over: the side that moved has borne every man off
    boards[:5, OFF] = MEN
    flags = None
    if rules.tracks_prime:
        flags = np.array([[rng.random() < 0.3, rng.random() < 0.3] for _ in positions], dtype=np.bool_)
    return boards, flags


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_judgement_in_one_kernel_is_the_references_to_float32_rounding(variant: str) -> None:
    rules, net = rule_set(variant), load_net(variant)
    judge = BoardJudge(net, rules)
    kernels = judge.load_kernels()
    if kernels is None:
        pytest.skip("numba is not there")
    boards, flags = _boards(variant)
    reference = judge.judge(boards, flags)
    fused = judge.values(boards, flags)
    assert kernels.fuses(net), f"{variant}: the kernel should know its ceiling and classes"
    kinds = classes(rules, boards)
    assert (kinds == CONTACT).sum() > 100 and (kinds != CONTACT).sum() > 100  # both nets at work
    rounding = ROUNDING * judge.outcomes.scale
    assert fused.y.dtype == np.float32 and fused.equity.dtype == np.float32
    assert np.abs(fused.y - reference.y).max() <= rounding
    assert np.abs(fused.equity - reference.equity).max() <= rounding * 4
    # the pure bear-offs (the tables' outputs) and the games over are the reference's own
    settled = np.array([pure_bear_off(board) for board in boards])
    assert settled.sum() > 50
    assert np.array_equal(fused.y[settled], reference.y[settled])
    assert np.array_equal(fused.y[:5], reference.y[:5]) and (fused.equity[:5] > 0.0).all()


def test_without_the_kernels_the_judgement_is_the_references() -> None:
    rules, net = rule_set("jacquet"), load_net("jacquet")
    judge = BoardJudge(net, rules)  # the kernels not loaded: numpy's matrix products
    boards, flags = _boards("jacquet")
    fused, reference = judge.values(boards, flags), judge.judge(boards, flags)
    assert np.array_equal(fused.y, reference.y) and np.array_equal(fused.equity, reference.equity)


@pytest.mark.parametrize("variant", ["backgammon", "murray"])
def test_a_board_met_again_in_a_batch_is_given_its_own_figures(variant: str) -> None:
    # the kernel judges a board met again (same board, same prime flags) once and copies its
    # figures: each must still be what the board judged alone is, and a board met again
    # with other prime flags (murray) is judged for its own flags
    rules, net = rule_set(variant), load_net(variant)
    judge = BoardJudge(net, rules)
    if judge.load_kernels() is None:
        pytest.skip("numba is not there")
    boards, flags = _boards(variant)
    boards, flags = boards[5:65], None if flags is None else flags[5:65]
    order = np.random.default_rng(5).permutation(np.tile(np.arange(len(boards)), 3))
    again = boards[order]
    again_flags = None if flags is None else flags[order]
    if again_flags is not None:
        again_flags[::2, 0] = ~again_flags[::2, 0]  # one board, two flags: two judgements
    batch = judge.values(again, again_flags)
    for row in range(len(again)):
        alone = judge.values(again[row:row + 1], None if again_flags is None else again_flags[row:row + 1])
        assert np.array_equal(batch.y[row], alone.y[0]) and batch.equity[row] == alone.equity[0], row
    if again_flags is not None:  # the flags matter to some board here, so the test can fail
        flipped = again_flags.copy()
        flipped[:, 0] = ~flipped[:, 0]
        assert not np.array_equal(judge.values(again, flipped).y, batch.y)
