"""The timing features of encoding v5 (analysis/timing.py) on positions built by hand and
counted from the rules, the fast kernel equal to the reference on random boards, the v5
layout, and the warm start from a v4 net, which judges every position as the v4 net did."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from analysis import contact, threats, timing
from analysis.encoding import Encoder, NoEncoding
from analysis.network import Network
from analysis.threads import limit_blas_threads
from analysis.warm_start import main, widen
from jacquet_cli.train import train_command
from notation import Position, rule_set
from notation.messages import Message
from tests.fast_positions import encodings, random_boards

limit_blas_threads(1)


def _features(mine: dict[int, int], his: dict[int, int], variant: str = "backgammon"
              ) -> tuple[dict[str, float], dict[str, float]]:
    """(mine against his, his against mine) by name, the hand-made features of the v5 row;
    men not placed are borne off."""
    encoder = Encoder.for_rules(rule_set(variant), 5)
    row = encoder.encode_positions([Position.from_points(mine, his)])[0]
    names = encoder.names()
    assert names[-14:] == [f"him_{n}" for n in contact.FEATURES + threats.FEATURES + timing.FEATURES]
    return ({n[3:]: float(v) for n, v in zip(names, row, strict=True) if n.startswith("me_")},
            {n[4:]: float(v) for n, v in zip(names, row, strict=True) if n.startswith("him_")})


def test_timing_counts_the_spare_men_down_to_the_one_point():
    """Three men on my 6 (one spare: 5 pips), two on my 8 (none spare), five on my 13
    (three spare: 12 pips each), two on my 24 (none): 41 free pips. Points of two men
    alone leave no timing: every man there must break a point to move."""
    me, _him = _features({6: 3, 8: 2, 13: 5, 24: 2}, {6: 2})
    assert me["timing"] == pytest.approx(41 / 100)
    me, _him = _features({6: 2, 8: 2}, {6: 2})
    assert me["timing"] == 0
    me, _him = _features({25: 1, 7: 1}, {6: 2})  # blots are free: the bar's man has 24 pips
    assert me["timing"] == pytest.approx(30 / 100)


def test_mobility_averages_the_escapes_of_the_men_outside_home():
    """His point on my 18 (his 7): a man on my 24 plays 29 of the 36 rolls by himself
    (analysis.threats' count), one on my 13 all 36, a man home (my 6) is not counted."""
    me, _him = _features({24: 2, 13: 1, 6: 4}, {7: 2})
    assert me["mobility"] == pytest.approx((2 * 29 + 36) / 3 / 36)
    me, _him = _features({24: 1}, {7: 2})
    assert me["mobility"] == pytest.approx(29 / 36)
    me, _him = _features({6: 4}, {7: 2})
    assert me["mobility"] == 1


def test_break_contact_counts_the_pips_past_his_foremost_man():
    """His foremost man on his 19 (my 6): my two men on my 24 need 19 pips each to pass
    him, my man on my 13 eight: 46. With his man on the bar instead, he counts on his
    entry point furthest ahead on my route (my 1): each of mine needs his own point's pips.
    In a race (his men all past mine) nothing."""
    me, _him = _features({24: 2, 13: 1}, {19: 1})
    assert me["break_contact"] == pytest.approx(46 / 100)
    me, _him = _features({24: 2, 13: 1}, {25: 1})
    assert me["break_contact"] == pytest.approx(61 / 100)
    me, him = _features({6: 3}, {6: 2})
    assert me["break_contact"] == 0 and him["break_contact"] == 0
    assert me["contact"] == 0  # the v2 feature agrees: a race


def test_spread_is_the_standard_deviation_of_the_men_in_play():
    """Men on one point: 0; one on my 1 and one on the bar (25): 12 either side of 13,
    a whole half route; one man alone: 0."""
    assert _features({8: 5}, {6: 2})[0]["spread"] == 0
    assert _features({1: 1, 25: 1}, {6: 2})[0]["spread"] == pytest.approx(1.0)
    assert _features({13: 1}, {6: 2})[0]["spread"] == 0
    me, _him = _features({6: 2, 24: 2}, {6: 2})
    assert me["spread"] == pytest.approx(9 / 12)


@pytest.mark.parametrize("variant", ["backgammon", "murray"])
def test_the_fast_v5_encoding_equals_the_reference(variant):
    """The kernel's row (the raw board, the contact, threat and timing features) equals
    the reference encoder's on random boards, from games and scattered."""
    rules = rule_set(variant)
    boards, primes = random_boards(rules, 13, 150)
    got, expected = encodings(rules, boards, primes, 5)
    np.testing.assert_array_equal(got, expected)
    last = expected[:, -4:]  # not constant on these boards: the equality says something
    assert (last.max(axis=0) > last.min(axis=0)).all()


@pytest.mark.parametrize(("variant", "size"), [("backgammon", 224), ("murray", 228)])
def test_the_v5_layout(variant, size):
    encoder = Encoder.for_rules(rule_set(variant), 5)
    assert encoder.size == size == len(encoder.names())
    assert encoder.version == 5
    assert Network.create(variant, 8, seed=1, version=5).name == f"jacquet-td {variant} v5"


def test_v5_is_only_for_the_rule_sets_with_hitting(tmp_path):
    with pytest.raises(NoEncoding) as refused:
        Encoder.for_rules(rule_set("hale"), 5)
    assert refused.value.msg == Message.of("training.encoding.hitting", version=5, variant="hale")
    result = CliRunner().invoke(train_command, ["--variant", "hale", "--games", "1", "--encoding", "5",
                                                "-o", str(tmp_path / "unused.npz"), "--quiet"])
    assert result.exit_code == 2 and str(refused.value.msg) in result.output


def test_a_warm_started_v5_net_judges_as_its_v4_net(tmp_path):
    """The v4 net's weights on the inputs both have, 0 on the timing features: the same
    outputs on random boards, and a file that trains on from the v4 net's games."""
    rules = rule_set("backgammon")
    v4 = Network.create("backgammon", 8, seed=3, version=4)
    v4.meta["training"] = {"encoding": 4}
    v5 = widen(v4, 5)
    assert v5.version == 5 and v5.name == "jacquet-td backgammon v5"
    boards, _primes = random_boards(rules, 5, 40)
    np.testing.assert_allclose(v5.evaluate(Encoder.for_rules(rules, 5).encode_boards(boards)),
                               v4.evaluate(Encoder.for_rules(rules, 4).encode_boards(boards)),
                               rtol=0, atol=1e-6)
    assert not v5.w1[Encoder.for_rules(rules, 5).names().index("me_timing")].any()
    old, new = tmp_path / "v4.npz", tmp_path / "v5.npz"
    v4.save(old, {"rng": np.arange(3, dtype=np.uint8)})
    main([str(old), str(new), "5"])
    with np.load(new) as data:
        assert Network.from_arrays(data).meta["training"]["encoding"] == 5
        assert list(data["rng"]) == [0, 1, 2]


def test_a_net_is_not_narrowed_and_the_refusal_names_both_versions():
    v5 = Network.create("backgammon", 8, seed=3, version=5)
    with pytest.raises(NoEncoding) as refused:
        widen(v5, 4)
    assert refused.value.msg == Message.of("training.encoding.narrower", version=4, net=5)


def test_the_warm_start_says_its_usage(capsys):
    with pytest.raises(SystemExit) as ended:
        main(["--help"])
    assert ended.value.code == 0
    usage = capsys.readouterr().out
    assert "OLD" in usage and "NEW" in usage and "VERSION" in usage and "Warm start" in usage
    with pytest.raises(SystemExit) as ended:
        main(["only-one.npz"])
    assert ended.value.code == 2
