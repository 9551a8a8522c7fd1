"""``bench/gnubg_judge.py``'s pure parts: the engine's turns found in gnubg's judgement by
position ID and dice, and the measures of a judge against gnubg 2-ply; and (where GNU
Backgammon is installed: CI installs it) its worker run inside gnubg, whose every legal
play must leave the positions the project's own move generator finds.
"""

import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from notation import Dice, legal_plays, rule_set
from notation.formats.mat import read_mat

from .conftest import DATA

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

from gnubg_judge_measures import (  # noqa: E402
    Decision,
    EngineTurn,
    Judged,
    figures,
    gnubg_zero_ply,
    match_turns,
    spearman,
)

GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if os.path.exists("/usr/games/gnubg") else None)
START = "4HPwATDgc/ABMA"

OPENING_51 = {
    "position": START, "dice": "51", "player": "X", "played": "4PPgASjgc/ABMA", "class": 10,
    "plays": [["4PPgASjgc/ABMA", 0.00705, 0.00164, "24/23 13/8"],
              ["0PPgATDgc/ABMA", -0.01183, -0.02805, "13/8 6/5"],
              ["4HPwQSDgc/ABMA", -0.02075, -0.02727, "24/18"],
              ["4OvgATDgc/ABMA", -0.05953, -0.05965, "13/7"],
              ["xGfwASjgc/ABMA", -0.11908, -0.10907, "24/23 8/3"],
              ["pGfwATDgc/ABMA", -0.15247, -0.14662, "8/3 6/5"],
              ["wmfwATDgc/ABMA", -0.15524, -0.15871, "8/2"],
              ["xFfwATDgc/ABMA", -0.27764, -0.25477, "8/7 8/3"]]}
"""The opening 5-1 as ``bench/gnubg_judge_worker.py`` wrote it from GNU Backgammon 1.07
(equities rounded): every legal play, the position it leaves, 2-ply and 0-ply."""


def opening(played: str, **changes: object) -> Decision:
    return Decision.from_json({**OPENING_51, "played": played, **changes})


def turn(game: int, played: str, best: str | None = "4PPgASjgc/ABMA", *, loss: float = 0.0,
         mark: str | None = None, position: str = START, dice: str = "15", forced: bool = False,
         player: str = "Ann") -> EngineTurn:
    return EngineTurn(game, position, dice, player, played, best, loss, mark, forced)


def test_the_project_names_each_play_of_the_opening_51_as_gnubg_does():
    rules = rule_set("backgammon")
    ours = {play.next_position.position_id() for play in legal_plays(rules.start, Dice.parse("51"), rules)}
    assert ours == {play[0] for play in OPENING_51["plays"]}


def test_a_turn_meets_gnubg_decision_of_its_game_position_and_dice():
    games = [[opening("4PPgASjgc/ABMA")], [opening("4OvgATDgc/ABMA")]]
    found = match_turns(games, [turn(2, "4OvgATDgc/ABMA", loss=0.07, mark="?"),
                                turn(1, "4PPgASjgc/ABMA")])
    assert [(j.game, j.decision.played, j.marked) for j in found.judged] == [
        (2, "4OvgATDgc/ABMA", True), (1, "4PPgASjgc/ABMA", False)]
    assert (found.unmatched, found.played_unknown, found.forced_disagree, found.gnubg_left) == (0, 0, 0, 0)


def test_what_cannot_be_matched_is_counted_not_dropped_silently():
    games = [[opening("4PPgASjgc/ABMA")], [opening("4OvgATDgc/ABMA")]]
    found = match_turns(games, [
        turn(1, "4PPgASjgc/ABMA", dice="21"),                 # another roll: no such decision
        turn(3, "4PPgASjgc/ABMA"),                            # no third game
        turn(1, "4PPgASjgc/ABMA", forced=True, dice="66"),    # forced and unknown: not counted
        turn(2, "4OvgATDgc/ABMA", best=None)])                # its best names no legal play
    assert found.judged == []
    assert (found.unmatched, found.played_unknown, found.gnubg_left) == (2, 1, 1)


def test_a_loss_is_against_gnubg_best_and_a_play_that_ties_it_is_best():
    decision = opening("4OvgATDgc/ABMA")
    assert decision.loss("4PPgASjgc/ABMA") == 0.0
    assert decision.loss("4OvgATDgc/ABMA") == pytest.approx(0.00705 + 0.05953)
    assert decision.loss("4OvgATDgc/ABMA", zero_ply=True) == pytest.approx(0.00164 + 0.05965)
    assert decision.loss("not a play") is None
    tied = Decision.from_json({**OPENING_51, "plays": [
        ["a", 0.1, 0.0, "x"], ["b", 0.1, 0.0, "y"], ["c", 0.0, 0.0, "z"]]})
    assert figures([Judged(tied, 1, "Ann", "b", 0.0, False)])["best_agree"] == 1.0


def test_spearman_is_the_correlation_of_the_ranks_ties_at_their_mean():
    assert spearman([1, 2, 3, 4], [10, 20, 25, 100]) == pytest.approx(1.0)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    # ranks 1..5 against 1, 2, 3.5, 5, 3.5: 8 / sqrt(10 * 9.5)
    assert spearman([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]) == pytest.approx(8 / math.sqrt(95))
    assert math.isnan(spearman([1, 2, 3], [0, 0, 0]))
    with pytest.raises(ValueError):
        spearman([1, 2], [1])


def test_marks_are_scored_against_gnubg_losses_of_0_08_or_more():
    # 13/7 loses 0.0666 in gnubg's eyes (no error), 8/3 6/5 0.1595 and 8/7 8/3 0.2847 (errors).
    judged = [Judged(opening("4OvgATDgc/ABMA"), 1, "Ann", "4PPgASjgc/ABMA", 0.09, True),
              Judged(opening("pGfwATDgc/ABMA"), 1, "Ann", "4PPgASjgc/ABMA", 0.20, True),
              Judged(opening("xFfwATDgc/ABMA"), 1, "Ann", "4PPgASjgc/ABMA", 0.01, False),
              Judged(opening("4PPgASjgc/ABMA"), 1, "Ann", "xFfwATDgc/ABMA", 0.00, False)]
    found = figures(judged)
    assert (found["marked"], found["errors"], found["both"]) == (2, 2, 1)
    assert (found["precision"], found["recall"]) == (0.5, 0.5)
    # the mark gnubg refutes (13/7, 0.0666) is a doubtful play in its eyes, not a flat one;
    # the marks by the judge's own loss: 0.20 is a ?? (0.120 or more), and it holds
    assert (found["refuted_flat"], found["refuted_near"]) == (0, 1)
    assert (found["marked_heavy"], found["both_heavy"]) == (1, 1)
    assert (found["marked_races"], found["both_races"]) == (0, 0)
    assert found["best_agree"] == 0.75
    assert found["best_loss_thousandths"] == pytest.approx(1000 * (0.00705 + 0.27764) / 4)
    assert found["races"] == 0 and math.isnan(found["best_agree_races"])


def test_players_with_too_few_decisions_are_left_out_of_the_error_rates():
    plays = ["4PPgASjgc/ABMA", "0PPgATDgc/ABMA", "4OvgATDgc/ABMA", "xFfwATDgc/ABMA"]
    judged = [Judged(opening(p), 1, name, "4PPgASjgc/ABMA", loss, False)
              for name, p, loss in [("Ann", plays[0], 0.0), ("Ann", plays[0], 0.0),
                                    ("Bob", plays[1], 0.02), ("Bob", plays[1], 0.02),
                                    ("Cid", plays[3], 0.30), ("Cid", plays[3], 0.30),
                                    ("Dan", plays[2], 0.0)]]
    found = figures(judged, min_decisions=2)
    assert found["players"] == 3 and found["spearman_players"] == pytest.approx(1.0)


def test_gnubg_0_ply_as_a_judge_marks_losses_of_0_060_or_more_in_its_own_eyes():
    games = [[opening("4OvgATDgc/ABMA", player="O"), opening("4PPgASjgc/ABMA"),
              Decision.from_json({**OPENING_51, "plays": [["a", None, None, "x"]], "played": "a"})]]
    judged = gnubg_zero_ply(games, {(1, "O"): "Bob"})
    assert [(j.player, j.marked, j.best) for j in judged] == [
        ("Bob", True, "4PPgASjgc/ABMA"), ("X", False, "4PPgASjgc/ABMA")]
    assert judged[0].loss == pytest.approx(0.00164 + 0.05965)


@pytest.mark.skipif(GNUBG is None and os.environ.get("CI") != "true",
                    reason="GNU Backgammon is not installed (apt-get install gnubg)")
def test_gnubg_lists_every_legal_play_the_project_finds_and_leaves_the_same_positions(tmp_path):
    assert GNUBG is not None, "gnubg must be installed in CI"
    match = DATA / "mat" / "match10013413.mat"
    output = tmp_path / "judged.json"
    job = tmp_path / "job.json"
    job.write_text(json.dumps({"plies": 0, "filter": [16, 0.32], "matches": [
        {"file": str(match), "output": str(output), "key": {"test": 1}}]}), encoding="utf-8")
    subprocess.run([GNUBG, "-t", "-q", "-p", str(BENCH / "gnubg_judge_worker.py")], cwd=tmp_path,
                   env={**os.environ, "GNUBG_JUDGE_JOB": str(job)}, capture_output=True, check=True,
                   timeout=600)
    judged = json.loads(output.read_text(encoding="utf-8"))
    assert judged["key"] == {"test": 1}
    games = [[Decision.from_json(d) for d in game] for game in judged["games"]]
    ours = read_mat(match)
    assert len(games) == len(ours)
    compared = 0
    for decisions, game in zip(games, ours, strict=True):
        turns = [node for node in game.mainline()
                 if node.turn.kind == "roll" and node.turn.play is not None and node.turn.play.steps]
        assert len(decisions) == len(turns)
        for decision, node in zip(decisions, turns, strict=True):
            before = node.parent.state
            assert decision.position == before.position.position_id()
            assert decision.dice == "".join(sorted(str(node.turn.dice), reverse=True))
            plays = legal_plays(before.position, node.turn.dice, before.rules)
            assert {p.after for p in decision.plays} == {p.next_position.position_id() for p in plays}
            assert decision.played == node.turn.play.next_position.position_id()
            assert all(isinstance(p.equity, float) for p in decision.plays) or decision.forced
            compared += 1
    assert compared > 100
