"""The pure part of ``bench/confirm_rollout.py``: a turn the rollout judged takes the
rollout's best play, loss and mark, by the rule of the column (hand-built rollout figures;
the rollouts themselves are the engine's, tested elsewhere)."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

from confirm_rollout import margin_rule, rollout_rule  # noqa: E402


def _turn(equity: list[float], error: list[float], played: int = 1) -> dict:
    """A turn 2-ply marked ? (loss 0.09), rolled out: plays ``A``, ``B`` (the play made)."""
    return {"forced": False, "level": "net, 2-ply", "best": "A", "loss": 0.09, "mark": "?",
            "rolled": {"plays": ["A", "B"], "played": played,
                       "7:324": {"equity": equity, "error": error}}}


def test_the_rollout_decides_the_best_the_loss_and_the_mark():
    turn = rollout_rule("7:324", 0.06, 0)(_turn([0.10, 0.09], [0.01, 0.0]))
    assert (turn["best"], turn["loss"], turn["mark"]) == ("A", 0.01, None)  # refuted: dropped
    turn = rollout_rule("7:324", 0.06, 0)(_turn([0.0, 0.2], [0.02, 0.0]))
    assert (turn["best"], turn["loss"], turn["mark"]) == ("B", 0.0, None)  # the play made is best
    turn = rollout_rule("7:324", 0.06, 0)(_turn([0.2, 0.05], [0.02, 0.0]))
    assert turn["mark"] == "??"  # confirmed, heavier


def test_a_loss_within_its_standard_errors_of_the_threshold_is_only_doubtful():
    rolled = _turn([0.1, 0.03], [0.02, 0.0])  # loss 0.07, 0.01 above 0.060: half an error
    assert rollout_rule("7:324", 0.06, 0)(rolled)["mark"] == "?"
    assert rollout_rule("7:324", 0.06, 1)(rolled)["mark"] == "?!"
    assert rollout_rule("7:324", 0.07, 0)(rolled)["mark"] == "?"


def test_a_turn_not_rolled_out_keeps_the_default():
    turn = {"forced": False, "level": "net, 2-ply", "best": "A", "loss": 0.065, "mark": "?!"}
    assert rollout_rule("7:324", 0.06, 0)(turn) is turn
    assert margin_rule(0.060)(turn)["mark"] == "?"
    assert margin_rule(0.070)(turn)["mark"] == "?!"
