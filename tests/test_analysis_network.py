"""The network: gradient against finite differences, TD updates, traces, files."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from analysis.network import Network, Traces
from analysis.outcomes import outcomes_for
from analysis.threads import limit_blas_threads
from notation import rule_set
from notation.engine.rules import NAMES

limit_blas_threads(1)


def _net64(variant: str = "murray", hidden: int = 7, seed: int = 3) -> Network:
    net = Network.create(variant, hidden, seed)
    rng = np.random.default_rng(seed)
    net.w1 = rng.normal(0, 0.5, net.w1.shape)  # type: ignore[assignment]
    net.b1 = rng.normal(0, 0.5, net.b1.shape)  # type: ignore[assignment]
    net.w2 = rng.normal(0, 0.5, net.w2.shape)  # type: ignore[assignment]
    net.b2 = rng.normal(0, 0.5, net.b2.shape)  # type: ignore[assignment]
    return net


def test_gradient_matches_finite_differences():
    net = _net64()
    rng = np.random.default_rng(0)
    x = rng.random(net.w1.shape[0]) * (rng.random(net.w1.shape[0]) < 0.3)
    h, y = net.forward(x[None, :].copy())
    grads = net.gradient(x, h[0], y[0])
    eps = 1e-6
    for name, grad in zip(("w1", "b1"), grads[:2], strict=True):
        weights = getattr(net, name)
        for index in [tuple(rng.integers(0, s) for s in weights.shape) for _ in range(25)]:
            saved = weights[index]
            weights[index] = saved + eps
            up = net.evaluate(x[None, :].copy())[0]
            weights[index] = saved - eps
            down = net.evaluate(x[None, :].copy())[0]
            weights[index] = saved
            numeric = (up - down) / (2 * eps)
            np.testing.assert_allclose(grad[(slice(None), *index)], numeric, rtol=1e-5, atol=1e-9)
    # w2, b2: output k depends on row k only (the diagonal blocks the gradient returns)
    g2, g2b = grads[2], grads[3]
    for k in range(net.w2.shape[0]):
        for j in range(net.w2.shape[1]):
            saved = net.w2[k, j]
            net.w2[k, j] = saved + eps
            up = net.evaluate(x[None, :].copy())[0]
            net.w2[k, j] = saved - eps
            down = net.evaluate(x[None, :].copy())[0]
            net.w2[k, j] = saved
            numeric = (up - down) / (2 * eps)
            assert numeric[k] == pytest.approx(g2[k, j], rel=1e-5, abs=1e-9)
            others = np.delete(numeric, k)
            np.testing.assert_allclose(others, 0, atol=1e-9)
        saved = net.b2[k]
        net.b2[k] = saved + eps
        up = net.evaluate(x[None, :].copy())[0][k]
        net.b2[k] = saved - eps
        down = net.evaluate(x[None, :].copy())[0][k]
        net.b2[k] = saved
        assert (up - down) / (2 * eps) == pytest.approx(g2b[k], rel=1e-5)


def _inputs(net: Network, seed: int, rows: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return ((rng.random((rows, net.w1.shape[0])) < 0.15) * 1.0).astype(np.float32)


def test_td_update_reduces_the_error_on_a_fixed_transition():
    net = Network.create("jacquet", 20, seed=1)
    x = _inputs(net, 5)
    target = outcomes_for(rule_set("jacquet")).target(True, 2)
    errors = []
    for _ in range(5):
        h, y = net.forward(x)
        errors.append(float(np.abs(target - y[0]).sum()))
        traces = Traces(net, alpha=0.1, lam=0.7)
        traces.step(x[0], h[0], y[0])
        traces.finish(target)
    assert all(later < earlier for earlier, later in itertools.pairwise(errors))


def test_td_step_moves_a_judgement_towards_the_next_one():
    net = Network.create("backgammon", 20, seed=2)
    a, b = _inputs(net, 6), _inputs(net, 7)
    h_a, y_a = net.forward(a)
    h_b, y_b = net.forward(b)
    traces = Traces(net, alpha=0.1, lam=0.0)
    traces.step(a[0], h_a[0], y_a[0])
    traces.step(b[0], h_b[0], y_b[0])  # the update for a, towards y_b (held fixed here)
    after = net.evaluate(a)[0]
    assert np.abs(y_b[0] - after).sum() < np.abs(y_b[0] - y_a[0]).sum()


def test_sparse_scaled_trace_equals_the_dense_formula():
    net = Network.create("murray", 6, seed=4)
    xs = _inputs(net, 8, rows=40)
    traces = Traces(net, alpha=0.0, lam=0.7)  # α = 0: the weights stay, the traces grow
    dense = np.zeros_like(traces.e1)
    for x in xs:
        h, y = net.forward(x[None, :])
        traces.step(x, h[0], y[0])
        dense = 0.7 * dense + net.gradient(x, h[0], y[0])[0]
    np.testing.assert_allclose(traces.trace_w1(), dense, rtol=1e-4, atol=1e-7)


def test_save_and_load_round_trip(tmp_path):
    net = Network.create("hale", 12, seed=9)
    net.meta["games"] = 1234
    net.w1 += 0.25
    path = tmp_path / "hale.npz"
    net.save(path)
    back = Network.load(path)
    assert back.meta == net.meta
    assert back.name == "jacquet-td hale v2"
    for name in ("w1", "b1", "w2", "b2"):
        assert np.array_equal(getattr(back, name), getattr(net, name))
        assert getattr(back, name).dtype == np.float32
    x = _inputs(net, 1, rows=3)
    assert np.array_equal(back.evaluate(x), net.evaluate(x))
    assert [p.name for p in tmp_path.iterdir()] == ["hale.npz"]  # no temporary file left


def test_equity_and_targets_per_rule_set():
    for variant, points, equity in (("jacquet", 2, 2.0), ("murray", 3, 3.0), ("backgammon", 2, 2.0),
                                    ("hale", 17, 17.0), ("versailles", 1, 1.0)):
        outcomes = outcomes_for(rule_set(variant))
        won, lost = outcomes.target(True, points), outcomes.target(False, points)
        assert outcomes.equity(won) == pytest.approx(equity)
        assert outcomes.equity(lost) == pytest.approx(-equity)
        np.testing.assert_array_equal(outcomes.mirrored(won), lost)


@pytest.mark.parametrize("variant", NAMES)
def test_every_score_a_rule_set_gives_is_the_equity_of_its_target(variant):
    """The outputs come from the RuleSet alone (its outcomes, or its penalties): for every
    cubeless score it can give, the target of the game won so is worth exactly that, and
    the loser's target is the winner's seen from the other side."""
    rules = rule_set(variant)
    outcomes = outcomes_for(rules)
    for points in rules.resign_points():  # every cubeless score
        won, lost = outcomes.target(True, points), outcomes.target(False, points)
        assert outcomes.equity(won) == pytest.approx(points)
        assert outcomes.equity(lost) == pytest.approx(-points)
        np.testing.assert_array_equal(outcomes.mirrored(won), lost)


def test_a_td_step_pulls_the_previous_position_towards_the_judged_outputs():
    """Training's targets are the judged outputs (impossible outcomes at 0), not the net's
    own: a step with ``judged`` moves the weights exactly as the end of a game with that
    target would, while its gradient is still the net's own outputs'."""
    nets = [Network.create("jacquet", 20, seed=3) for _ in range(2)]
    x1, x2 = _inputs(nets[0], 1), _inputs(nets[0], 2)
    judged = np.array([0.4, 0.0, 0.0], dtype=np.float32)  # win2, lose2 no longer possible
    stepped, finished = (Traces(net, alpha=0.1, lam=0.7) for net in nets)
    for traces, net in ((stepped, nets[0]), (finished, nets[1])):
        h, y = net.forward(x1)
        traces.step(x1[0], h[0], y[0])
    h2, y2 = nets[0].forward(x2)
    stepped.step(x2[0], h2[0], y2[0], judged)
    finished.finish(judged)
    for name in ("w1", "b1", "w2", "b2"):
        np.testing.assert_allclose(getattr(nets[0], name), getattr(nets[1], name), rtol=1e-6)
    assert not np.array_equal(nets[0].w2, Network.create("jacquet", 20, seed=3).w2)
