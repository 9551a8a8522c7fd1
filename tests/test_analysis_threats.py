"""The threat features of encoding v4 (analysis/threats.py) on positions built by hand and
counted from the rules, the fast kernel equal to the reference on random boards, the v4
layout, and a v4 training that resumes to the weights of an uninterrupted run."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from analysis import contact, threats
from analysis.encoding import Encoder, NoEncoding
from analysis.network import Network
from analysis.threads import limit_blas_threads
from analysis.training import Trainer, TrainingConfig
from jacquet_cli.train import train_command
from notation import Position, rule_set
from notation.messages import Message
from tests.fast_positions import encodings, random_boards

limit_blas_threads(1)

BACKGAMMON = rule_set("backgammon")


def _features(mine: dict[int, int], his: dict[int, int], variant: str = "backgammon"
              ) -> tuple[dict[str, float], dict[str, float]]:
    """(mine against his, his against mine) by name, the contact features and the threat
    features of the v4 row; men not placed are borne off."""
    encoder = Encoder.for_rules(rule_set(variant), 4)
    position = Position.from_points(mine, his)
    row = encoder.encode_positions([position])[0]
    names = encoder.names()
    assert names[-10:] == [f"him_{n}" for n in contact.FEATURES + threats.FEATURES]
    return ({n[3:]: float(v) for n, v in zip(names, row, strict=True) if n.startswith("me_")},
            {n[4:]: float(v) for n, v in zip(names, row, strict=True) if n.startswith("him_")})


def test_a_blot_six_away_with_nothing_between():
    """My blot on my 10 (his 15), his man on his 21: six pips. He hits with any 6 (11
    rolls), 5-1 and 4-2 either way (4), 3-3 and 2-2 (their second and third steps): 17 of
    36; each hit costs the 15 pips my man had made from my 25 to my 10."""
    me, _him = _features({10: 1}, {21: 1})
    assert me["shots"] == pytest.approx(17 / 36)
    assert me["pip_loss"] == pytest.approx(17 * 15 / 36 / 24)


def test_the_worst_blot_a_roll_hits_counts():
    """Two blots, my 10 and my 4 (his 15 and 21), his man on the bar (his 25): every roll
    that hits my 4 (his 21, four pips in) costs 21 pips, one that hits only my 10 (ten pips
    in) costs 15. Rolls hitting his 21 from the bar: a 4 (11), 3-1, 1-3 (2), 2-2, 1-1 (four
    steps of 1: 24, 23, 22, 21): 15 rolls; rolls hitting his 15 and not his 21: 6-4 and 4-6
    are already counted, 5-5 (20, 15) is new: 1 roll; 6-6 (19, 13) misses, 3-3 (22, 19,
    16, 13) too, 5-5 counts once."""
    me, _him = _features({10: 1, 4: 1}, {25: 1})
    assert me["pip_loss"] == pytest.approx((15 * 21 + 1 * 15) / 36 / 24)
    assert me["shots"] == pytest.approx(16 / 36)


def test_no_blot_no_pip_loss():
    me, _him = _features({10: 2, 4: 2}, {25: 1})
    assert me["pip_loss"] == 0 and me["shots"] == 0


def test_back_escapes_against_one_held_point():
    """My rearmost man on my 24, his point held on my 18 (his 7): the whole roll fails for
    5-1, 4-2 (either way: 4), 3-3 (rests on 18), 2-2 (rests on 18) and 6-6 (lands on 18);
    a 6 with another number plays the other first: 29 of 36."""
    me, him = _features({24: 1}, {7: 2})
    assert me["back_escapes"] == pytest.approx(29 / 36)
    # my man alone holds nothing: his men are free, and his rearmost (his 7) too
    assert him["back_escapes"] == 1 and me["containment"] == 0
    # and the same held point seen from his side: containing a man on his 24 (my 1) … 13
    assert him["containment"] == pytest.approx(1 - 29 / 36)


def test_containment_counts_the_weakest_spot_from_the_rules():
    """I hold my 7 (his 18) alone: a man of his on his 24 escapes with 29 rolls (as above),
    on 23 with 31 (5-5, 4-1, 3-2 land on 18), on 22 with 31 (4-4, 2-2, 1-1, 3-1 ×2), on 21
    with 32 (3-3, 1-1, 2-1 ×2), on 20 with 34, on 19 with 35, on 13..18 with all 36: the
    fewest is 29."""
    me, _him = _features({7: 2}, {1: 1})
    assert me["containment"] == pytest.approx(1 - 29 / 36)
    assert [threats.rolls_played(q, {18}) for q in range(13, 25)] == (
        [36] * 6 + [35, 34, 32, 31, 31, 29])


def test_a_full_prime_contains_and_closes_the_back_man():
    """I hold my 7..12 (his 18..13): his man on his 19 (my 6) plays no roll; nothing of mine
    is held against: my rearmost (my 12) plays every roll."""
    me, him = _features(dict.fromkeys(range(7, 13), 2), {19: 1})
    assert me["containment"] == 1
    assert him["back_escapes"] == 0
    assert me["back_escapes"] == 1


def test_a_closed_board_keeps_the_man_on_the_bar():
    """He holds my 19..24 (his 6..1), my man is on the bar: no number enters, no roll is
    played; none of my points in his home board is held: no anchor."""
    me, him = _features({25: 1}, dict.fromkeys(range(1, 7), 2))
    assert me["back_escapes"] == 0 and me["enter"] == 1 and me["anchor"] == 0
    assert him["anchor"] == 0  # his points are in his own home board, not in mine


def test_the_most_advanced_anchor():
    """I hold my 20 (his 5) and my 24 (his 1): the anchor on his 5 point counts, 5/6."""
    me, _him = _features({20: 2, 24: 2}, {6: 5})
    assert me["anchor"] == pytest.approx(5 / 6)
    me, _him = _features({24: 2}, {6: 5})
    assert me["anchor"] == pytest.approx(1 / 6)


@pytest.mark.parametrize("variant", ["backgammon", "murray"])
def test_the_fast_v4_encoding_equals_the_reference(variant):
    """The kernel's row (the raw board, the contact and the threat features) equals the
    reference encoder's on random boards, from games and scattered."""
    rules = rule_set(variant)
    boards, primes = random_boards(rules, 11, 150)
    got, expected = encodings(rules, boards, primes, 4)
    np.testing.assert_array_equal(got, expected)
    # the four features are not constant on these boards: the equality says something
    last = expected[:, -4:]
    assert (last.max(axis=0) > last.min(axis=0)).all()


@pytest.mark.parametrize(("variant", "size"), [("backgammon", 216), ("murray", 220)])
def test_the_v4_layout(variant, size):
    encoder = Encoder.for_rules(rule_set(variant), 4)
    assert encoder.size == size == len(encoder.names())
    assert encoder.version == 4
    assert Network.create(variant, 8, seed=1, version=4).name == f"jacquet-td {variant} v4"


def test_v4_is_only_for_the_rule_sets_with_hitting(tmp_path):
    with pytest.raises(NoEncoding) as refused:
        Encoder.for_rules(rule_set("jacquet"), 4)
    assert refused.value.msg == Message.of("training.encoding.hitting", version=4, variant="jacquet")
    result = CliRunner().invoke(train_command, ["--variant", "jacquet", "--games", "1",
                                      "--encoding", "4", "-o",
                                                str(tmp_path / "unused.npz"), "--quiet"])
    assert result.exit_code == 2 and str(refused.value.msg) in result.output
    assert "Traceback" not in result.output


def _config(games: int) -> TrainingConfig:
    return TrainingConfig(variant="backgammon", games=games, seed=1, hidden=16, encoding=4,
                          checkpoint_every=3, check_every=0, snapshot_every=0)


def test_a_v4_training_resumes_to_the_uninterrupted_weights(tmp_path):
    whole = Trainer(tmp_path / "whole.npz", _config(6)).run()
    path = tmp_path / "parts.npz"
    Trainer(path, _config(3)).run()
    resumed = Trainer(path, _config(6), resume=True).run()
    assert resumed.version == whole.version == 4 and resumed.meta["games"] == 6
    for name in ("w1", "b1", "w2", "b2"):
        np.testing.assert_array_equal(getattr(resumed, name), getattr(whole, name))
    assert not np.array_equal(whole.w1, Network.create("backgammon", 16, seed=1, version=4).w1)
