"""The pure part of ``bench/confirm_choices.py``: a choice of which turns the deeper level
decides, applied to the 0-ply and deeper judgements of each turn, gives what ``jacquet
analyse --confirm`` gives with that rule (hand-built turns; the judgements themselves are
the engine's, tested elsewhere)."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

from confirm_choices import DOUBTFUL, choices, combined  # noqa: E402


def _turn(mark: str | None, gap: float, loss: float, deeper: dict | None, forced: bool = False) -> dict:
    turn = {"forced": forced, "mark": mark, "gap": gap, "loss": loss, "best": "13/7 8/7"}
    if deeper is not None:
        turn["2"] = deeper
    return turn


GAME = {"file": "match.mat", "game": 1, "turns": [
    _turn("?", 0.1, 0.07, {"best": "24/18 13/11", "loss": 0.0, "mark": None}),  # marked: refuted
    _turn(None, DOUBTFUL / 4, 0.0, {"best": "24/18 13/11", "loss": 0.13, "mark": "??"}),  # close: set
    _turn(None, 0.9 * DOUBTFUL, 0.0, {"best": "24/18 13/11", "loss": 0.07, "mark": "?"}),  # within 1 only
    _turn(None, 0.5, 0.0, None),  # neither
    _turn(None, 0.0, 0.0, None, forced=True),
]}


def _choice(label: str):
    return next((rule, keep) for name, rule, keep in choices(2) if name.startswith(label))


def test_the_rule_takes_the_deeper_judgement_of_the_marked_and_close_turns_only():
    (game,), again = combined([GAME], 2, *_choice("marked or close within 0.5"))
    assert again == 2
    marks = [turn["mark"] for turn in game["turns"]]
    assert marks == [None, "??", None, None, None]
    assert [turn["best"] for turn in game["turns"]][:3] == ["24/18 13/11", "24/18 13/11", "13/7 8/7"]


def test_a_wider_margin_judges_more_turns_again():
    (game,), again = combined([GAME], 2, *_choice("marked or close within 1"))
    assert again == 3 and game["turns"][2]["mark"] == "?"


def test_both_levels_agreeing_keeps_no_mark_the_deeper_level_adds():
    (game,), again = combined([GAME], 2, *_choice("within 0.5, both levels agree"))
    assert again == 2 and [turn["mark"] for turn in game["turns"]][:2] == [None, None]


def test_zero_ply_alone_changes_nothing():
    (game,), again = combined([GAME], 2, *_choice("0-ply alone"))
    assert again == 0 and game == GAME


def test_a_margin_raises_the_deeper_levels_bad_mark_only():
    """The third turn loses 0.07 at 2-ply: ``?`` from 0.065 or 0.070, ``?!`` from 0.075;
    the second's ``??`` (0.13) stays."""
    for bad, mark in (("0.065", "?"), ("0.070", "?"), ("0.075", "?!"), ("0.080", "?!")):
        (game,), again = combined([GAME], 2, *_choice(f"within 1, {bad} for ?"))
        assert again == 3 and [turn["mark"] for turn in game["turns"]][1:3] == ["??", mark]


def test_both_levels_agreeing_with_a_margin_drops_what_either_drops():
    (game,), _ = combined([GAME], 2, *_choice("within 1, 0.070 for ?, both agree"))
    assert [turn["mark"] for turn in game["turns"]] == [None] * 5
