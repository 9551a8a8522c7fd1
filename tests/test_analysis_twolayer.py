"""The small two-layer net both evaluators are (review D2): the shipped contact and race
nets judge, byte for byte, as the two-layer formula written out here; a net saved and read
back judges as before, and its file holds the same arrays."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.network import Network
from analysis.race import RaceNet
from analysis.shipped import load_net
from analysis.twolayer import TwoLayerNet


def _formula(x: np.ndarray, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray]:
    """One hidden layer of sigmoid units, sigmoid outputs, in float32, as the engine has
    always computed it: 1 / (1 + exp(-z))."""
    h = np.reciprocal(np.exp(-(x @ w1 + b1)) + np.float32(1.0))
    y = np.reciprocal(np.exp(-(h @ w2.T + b2)) + np.float32(1.0))
    return h, y


@pytest.mark.parametrize("variant", ["jacquet", "backgammon"])
def test_the_shipped_nets_judge_as_the_two_layer_formula(variant: str) -> None:
    contact = load_net(variant)
    assert isinstance(contact, TwoLayerNet) and isinstance(contact.race, TwoLayerNet)
    rng = np.random.default_rng(3)
    for net in (contact, contact.race):
        x = (rng.random((40, net.w1.shape[0])) < 0.3).astype(np.float32)
        h, y = net.forward(x)
        want_h, want_y = _formula(x, net.w1, net.b1, net.w2, net.b2)
        assert h.dtype == y.dtype == np.float32
        assert h.tobytes() == want_h.tobytes() and y.tobytes() == want_y.tobytes()


def test_both_nets_read_back_judge_byte_for_byte(tmp_path) -> None:  # type: ignore[no-untyped-def]
    contact = Network.create("hale", hidden=10, seed=4)
    race = RaceNet.create("hale", hidden=6, seed=4)
    contact.b2 += 0.5
    race.w1 -= 0.125
    contact.save(tmp_path / "hale.npz")
    race.save(tmp_path / "hale-race.npz")
    back_contact, back_race = Network.load(tmp_path / "hale.npz"), RaceNet.load(tmp_path / "hale-race.npz")
    rng = np.random.default_rng(5)
    for net, back in ((contact, back_contact), (race, back_race)):
        x = rng.random((7, net.w1.shape[0])).astype(np.float32)
        assert net.forward(x)[1].tobytes() == back.forward(x)[1].tobytes()
        assert back.meta == net.meta and back.digest == net.digest
    # a race net is not a contact net's file, nor the other way round
    with pytest.raises(ValueError):
        RaceNet.load(tmp_path / "hale.npz")
    with pytest.raises(ValueError):
        Network.load(tmp_path / "hale-race.npz")


def test_the_same_seed_gives_the_same_fresh_weights() -> None:
    one, two = Network.create("jacquet", 8, seed=7), Network.create("jacquet", 8, seed=7)
    other = Network.create("jacquet", 8, seed=8)
    assert one.digest == two.digest != other.digest
    assert np.abs(one.w1).max() <= 0.1 and not one.b1.any() and not one.b2.any()
