"""The contact features on positions built by hand (backgammon and murray), the v2
encoding of the rule sets with hitting, and the shipped v1 nets read as before."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from analysis.contact import FEATURES, Contact
from analysis.encoding import Encoder
from analysis.network import Network
from analysis.players import NetPlayer
from analysis.ranking import Evaluator
from analysis.shipped import shipped_path
from analysis.threads import limit_blas_threads
from analysis.training import Trainer, TrainingConfig
from notation import Position, rule_set
from tests.test_analysis_encoding import _positions, _reference

limit_blas_threads(1)


def _features(variant: str, mine: dict[int, int], his: dict[int, int]
              ) -> tuple[dict[str, float], dict[str, float]]:
    """(mine against his, his against mine), by name; men not placed are borne off."""
    position = Position.from_points(mine, his)
    boards = np.array([position.mover + position.opponent], dtype=np.int8)
    me, him = Contact(rule_set(variant)).features(boards)
    return (dict(zip(FEATURES, me[0].tolist(), strict=True)),
            dict(zip(FEATURES, him[0].tolist(), strict=True)))


def test_a_blot_three_pips_in_front_of_one_man():
    """My blot on my 10, his man on his 18 (my 7): 11 rolls with a 3, 1-2 and 2-1, 1-1."""
    me, him = _features("backgammon", {10: 1}, {18: 1})
    assert me["shots"] == pytest.approx(14 / 36)
    assert him["shots"] == pytest.approx(14 / 36)  # and mine at him, the same distance
    assert me["contact"] == him["contact"] == 1
    assert me["pips"] == pytest.approx(10 / 375) and him["pips"] == pytest.approx(18 / 375)
    assert me["escapes"] == me["enter"] == me["prime"] == 0


def test_held_rest_points_stop_the_combined_shots():
    """My points 8 and 9 (his 17 and 16) held: 1-2, 2-1 and 1-1 would rest on them; only
    the direct 3s hit."""
    me, _him = _features("backgammon", {10: 1, 9: 2, 8: 2}, {18: 1})
    assert me["shots"] == pytest.approx(11 / 36)


def test_combined_and_double_shots_from_afar():
    """A blot 8 pips away, nothing held: 6-2, 2-6, 5-3, 3-5, 4-4, 2-2 (four steps)."""
    me, _him = _features("backgammon", {10: 1}, {23: 1})  # his 23 is my 2: 8 pips
    assert me["shots"] == pytest.approx(6 / 36)
    # holding his 19 (my 6), the rest point of 4-4 and one of 2-2's, leaves the sums
    me, _him = _features("backgammon", {10: 1, 6: 2}, {23: 1})
    assert me["shots"] == pytest.approx(4 / 36)


def test_shots_from_the_bar():
    """His man on the bar enters on his 25 - die: my blot on my 3 (his 22) is 3 away."""
    me, _him = _features("backgammon", {3: 1}, {25: 1})
    assert me["shots"] == pytest.approx(14 / 36)


def test_a_prime_in_front_of_his_rearmost_man():
    """I hold my 7..12 (his 18..13) and have three on my 1 (his 24); his man on his 19
    (my 6) cannot play any number, I hold a full prime; my rearmost man (on 12) is free."""
    me, him = _features("backgammon", dict.fromkeys(range(7, 13), 2) | {1: 3}, {19: 1})
    assert me["prime"] == pytest.approx(1.0)
    assert him["escapes"] == pytest.approx(1.0)
    assert me["escapes"] == 0 and him["prime"] == 0
    assert me["contact"] == him["contact"] == 1


def test_entering_against_held_points():
    """His man on the bar; I hold my 1, 2, 3 and 5 (his 24, 23, 22, 20): 4 of his 6 entry
    points; the same four numbers are his rearmost man's blocked ones."""
    me, him = _features("backgammon", {1: 2, 2: 2, 3: 2, 5: 2}, {25: 1, 6: 2})
    assert him["enter"] == pytest.approx(4 / 6)
    assert him["escapes"] == pytest.approx(4 / 6)
    assert me["enter"] == 0
    assert him["pips"] == pytest.approx((25 + 12) / 375)


def test_a_race():
    """All my men on my 1..6, his on his 1..6: no contact, no shot, nothing blocks."""
    me, him = _features("backgammon", {6: 1, 2: 3}, {5: 1, 1: 4})
    for side in (me, him):
        assert side["contact"] == side["shots"] == side["escapes"] == 0


def test_contact_with_a_man_on_the_bar():
    """His man on the bar enters on my 1..6: my men on my 2 still have to pass him (he may
    enter on my 1); a man on my 1 has not, but he has to pass mine."""
    me, him = _features("backgammon", {2: 1}, {25: 1})
    assert me["contact"] == him["contact"] == 1
    me, him = _features("backgammon", {1: 2}, {25: 1})
    assert me["contact"] == 0 and him["contact"] == 1


def test_murray_maps_his_points_twelve_apart():
    """Both sides run the same way (my p is his p ± 12). My blot on my 20 (his 8), his man
    on his 11 (my 23, behind mine): he can hit it with 14 rolls, and he has to pass my
    man; I need not pass his."""
    me, him = _features("murray", {20: 1}, {11: 1})
    assert me["shots"] == pytest.approx(14 / 36)
    assert me["contact"] == 0 and him["contact"] == 1
    # holding my 21 and 22 (his 9 and 10) leaves only the direct 3s
    me, _him = _features("murray", {20: 1, 21: 2, 22: 2}, {11: 1})
    assert me["shots"] == pytest.approx(11 / 36)


def test_murray_entering_and_his_bar():
    """My man on the bar enters on my 24..19 (his 12..7): he holds his 7 and 8 (my 19 and
    20). His man on the bar will enter on my 12..7: my man on 13 has to pass him, one on
    my 7 has not."""
    me, _him = _features("murray", {25: 1}, {7: 2, 8: 2})
    assert me["enter"] == pytest.approx(2 / 6) and me["escapes"] == pytest.approx(2 / 6)
    assert _features("murray", {13: 1}, {25: 1})[0]["contact"] == 1
    assert _features("murray", {7: 1}, {25: 1})[0]["contact"] == 0


def test_the_longest_row_across_the_middle():
    """Held points 10..15 make one row of six across the two halves of the masks."""
    me, _him = _features("murray", dict.fromkeys(range(10, 16), 2) | {1: 1, 2: 2}, {12: 15})
    assert me["prime"] == pytest.approx(1.0)
    me, _him = _features("backgammon", dict.fromkeys((1, 2, 3, 5, 6, 7, 8), 2), {1: 2})
    assert me["prime"] == pytest.approx(4 / 6)


@pytest.mark.parametrize(("variant", "history", "inputs"), [("backgammon", "backgammon-260000.npz", 196),
                                                          ("murray", "murray-170000.npz", 200)])
def test_the_v1_nets_read_as_before(variant, history, inputs):
    """The v1 nets (backgammon's, shipped until its v4 net, and murray's, shipped until its
    v2 net, both kept in their history): every reader encodes for them as v1 did, and the
    outputs are those of the inputs written out one by one."""
    net = Network.load(shipped_path(variant).parent / "history" / history)
    rules = rule_set(variant)
    assert net.version == 1 and net.w1.shape[0] == inputs
    assert net.name == f"jacquet-td {variant} v1"
    player, evaluator = NetPlayer(net), Evaluator(net, rules)
    assert player.encoder.version == evaluator.encoder.version == 1
    positions = _positions(variant, games=1)[:20]
    primes = [(False, i % 2 == 0) for i in range(len(positions))]
    v1 = Encoder.for_rules(rules, 1)
    expected = net.evaluate(np.array([_reference(v1, p, f) for p, f in
                                      zip(positions, primes, strict=True)], np.float32))
    np.testing.assert_allclose(net.evaluate(player.encoder.encode_positions(positions, primes)),
                               expected, rtol=1e-6)


def test_a_new_backgammon_net_is_v2_and_trains(tmp_path):
    config = TrainingConfig(variant="backgammon", games=20, seed=2, hidden=10,
                            checkpoint_every=20, check_every=0)
    trainer = Trainer(tmp_path / "bg.npz", config)
    assert trainer.encoder.version == 2
    net = trainer.run()
    assert net.version == 2 and net.meta["inputs"] == net.w1.shape[0] == 208
    assert net.name == "jacquet-td backgammon v2"
    assert Network.load(tmp_path / "bg.npz").version == 2
    assert all(np.isfinite(getattr(net, n)).all() for n in ("w1", "b1", "w2", "b2"))


def test_a_v1_checkpoint_resumes_as_v1(tmp_path):
    """A checkpoint of a v1 net (as the shipped ones were trained) goes on in v1."""
    path = tmp_path / "old.npz"
    config = TrainingConfig(variant="backgammon", games=2, seed=3, hidden=8,
                            checkpoint_every=2, check_every=0)
    Trainer(path, config).run()
    with np.load(path, allow_pickle=False) as data:
        arrays = {name: data[name] for name in data.files}
    net = Network.from_arrays(arrays)
    v1 = Encoder.for_rules(rule_set("backgammon"), 1)
    old = Network("backgammon", net.w1[:v1.size], net.b1, net.w2, net.b2,
                  {**net.meta, "version": 1, "inputs": v1.size})
    old.save(path, {"rng": arrays["rng"]})
    resumed = Trainer(path, replace(config, games=4), resume=True)
    assert resumed.encoder.version == 1
    net = resumed.run()
    assert net.meta["games"] == 4 and net.version == 1 and net.w1.shape[0] == 196
