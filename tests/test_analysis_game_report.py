"""The game report (issue 37): the stages of a game as each rule set defines them, the
figures per player and stage of a hand-built analysis worked out by hand, and the report of
real games analysed by the shipped nets (a real backgammon match game from tests/data/mat,
the jacquet sample game): its counts add up to the analysis's, its stages follow the rules,
and `jacquet analyse --json` gives it as documented."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from analysis.analyse import analyse_game
from analysis.game_report import TOTAL, game_report, positions_before, report_json
from analysis.ranking import Evaluator
from analysis.report import analysis_json
from analysis.shipped import load_net
from analysis.threads import limit_blas_threads
from jacquet_cli import main
from notation import Position, rule_set
from notation.formats import read_file

limit_blas_threads(1)
DATA = Path(__file__).parent / "data"
MATCH = DATA / "mat" / "BoardLord_-_Llabba_7pt_Backgammon_Studio_2023_08_09_18_11_07.mat"
JACQUET = Path(__file__).parents[1] / "samples" / "jacquet" / "annotated-game.jqn"


def test_the_opening_of_the_jacquet_family_is_the_courier_s_run():
    """A side's opening lasts while his courier has not reached home (R-COURIER), however
    many turns that takes; the runner's in fevga the same."""
    jacquet = rule_set("jacquet")
    assert jacquet.stage(jacquet.start, 1) == "opening"
    on_the_way = Position.from_points({24: 14, 13: 1}, {24: 15})
    assert jacquet.stage(on_the_way, 7) == "opening"
    home = Position.from_points({24: 14, 5: 1}, {24: 15})
    assert jacquet.stage(home, 2) == "middle"
    fevga = rule_set("fevga")
    assert fevga.stage(fevga.start, 1) == "opening"


def test_without_phases_the_opening_is_a_side_s_first_three_turns():
    for name in ("backgammon", "narde"):
        rules = rule_set(name)
        assert [rules.stage(rules.start, turn) for turn in (1, 2, 3, 4)] == \
            ["opening", "opening", "opening", "middle"]


def test_race_and_bear_off_are_the_position_classes():
    """No contact left: a race, whatever the turn; every man of both sides home: the bear-off."""
    backgammon = rule_set("backgammon")
    assert backgammon.stage(Position.from_points({10: 15}, {10: 15}), 1) == "race"
    assert backgammon.stage(Position.from_points({6: 15}, {6: 15}), 2) == "bearoff"
    jacquet = rule_set("jacquet")
    assert jacquet.stage(Position.from_points({6: 14, 1: 1}, {5: 15}), 30) == "bearoff"


def _turn(ply: int, player: str, loss: float, mark: str | None, luck: float | None,
          forced: bool = False, level: str = "judge, 0-ply") -> dict:
    return {"ply": ply, "player": player, "dice": "31", "played": f"p{ply}", "best": f"b{ply}",
            "loss": loss, "mark": mark, "forced": forced, "luck": luck, "level": level}


def test_a_hand_built_analysis_adds_up_as_worked_out_by_hand():
    """The first eight plies of a real backgammon game, judged by hand: White's three
    opening turns (one forced) and his fourth, a middle-game turn judged at 2-ply; Black's
    likewise, in the archive's spelling (W/B)."""
    game = next(iter(read_file(MATCH)))
    turns = [_turn(1, "W", 0.0, None, 0.10, forced=True), _turn(2, "B", 0.05, "?!", -0.2),
             _turn(3, "W", 0.02, None, 0.05), _turn(4, "B", 0.0, None, None),
             _turn(5, "W", 0.07, "?", 0.0), _turn(6, "B", 0.30, "??", 0.4),
             _turn(7, "W", 0.13, "??", -0.1, level="judge, 2-ply"), _turn(8, "B", 0.0, None, 0.3)]
    report = game_report(turns, positions_before(game), game.rules, "judge, 0-ply", None, worst=2)
    white, black = report.players["White"], report.players["Black"]
    assert report.stages == ("opening", "middle")
    assert (white["opening"].turns, white["opening"].decisions) == (3, 2)
    assert white["opening"].error_rate == pytest.approx(45.0)  # (0.02 + 0.07) / 2
    assert white["opening"].marks == {"?!": 0, "?": 1, "??": 0}
    assert white["opening"].luck == pytest.approx(0.15)
    assert white["middle"].error_rate == pytest.approx(130.0)
    assert dict(white["middle"].levels) == {"judge, 2-ply": 1}
    assert dict(white[TOTAL].levels) == {"judge, 0-ply": 2, "judge, 2-ply": 1}
    assert white[TOTAL].error_rate == pytest.approx(1000 * 0.22 / 3)
    assert black["opening"].error_rate == pytest.approx(350 / 3)
    assert black["opening"].marks == {"?!": 1, "?": 0, "??": 1}
    assert black[TOTAL].luck == pytest.approx(0.5)
    assert [(p.ply, p.stage) for p in report.worst["White"]] == [(7, "middle"), (5, "opening")]
    assert [p.ply for p in report.worst["Black"]] == [6, 2]
    assert report.luck_level == "judge, 0-ply"
    shown = report_json(report, {"White": "BoardLord", "Black": "Llabba"})
    assert shown["players"]["White"]["opening"]["skill"] == "skill.awful"
    assert shown["worst"]["Black"][0]["position"] == positions_before(game)[6].position_id()


@pytest.fixture(scope="module")
def analysed() -> list[dict]:
    """The first game of a real backgammon match and the jacquet sample, analysed at 0-ply
    by the shipped nets (their ``jacquet analyse --json`` objects)."""
    found = []
    for path in (MATCH, JACQUET):
        game = next(iter(read_file(path)))
        net = load_net(game.rules.name)
        evaluator = Evaluator(net, game.rules)
        found.append(analysis_json(analyse_game(game, evaluator), evaluator.outcomes.names))
    return found


def test_a_real_game_s_report_adds_up_to_its_analysis(analysed):
    for analysis in analysed:
        report = analysis["report"]
        for title, summary in analysis["players"].items():
            player = report["players"][title]
            total = player[TOTAL]
            assert total["decisions"] == summary["decisions"]
            assert total["marks"] == {mark: summary["marks"][mark] for mark in ("?!", "?", "??")}
            assert total["error_rate"] == pytest.approx(summary["error_rate"], abs=0.051)
            assert total["luck"] == pytest.approx(summary["luck"], abs=1e-3)
            assert total["turns"] == sum(t["player"] == title for t in analysis["turns"])
            for key in ("turns", "decisions"):
                assert sum(player[stage][key] for stage in report["stages"]) == total[key]
            for mark in ("?!", "?", "??"):
                assert sum(player[stage]["marks"][mark] for stage in report["stages"]) == total["marks"][mark]
            assert sum(total["levels"].values()) == total["decisions"]
            losses = sorted((t["loss"] for t in analysis["turns"]
                             if t["player"] == title and not t["forced"] and t["loss"] > 0), reverse=True)
            assert [w["loss"] for w in report["worst"][title]] == pytest.approx(losses[:3], abs=1e-4)


def test_a_real_game_s_opening_is_the_rule_set_s(analysed):
    """Backgammon: each side's first three turns (a real game stays in contact longer).
    The jacquet sample: White's courier reaches home on his second turn (2. 65: 14/3) and
    Black's on his fifth (5... 31: 8/5 24/23), as the record's comments say: their
    openings are their turns that start in the courier's run, 2 and 5."""
    backgammon, jacquet = (analysis["report"]["players"] for analysis in analysed)
    assert (backgammon["White"]["opening"]["turns"], backgammon["Black"]["opening"]["turns"]) == (3, 3)
    assert (jacquet["White"]["opening"]["turns"], jacquet["Black"]["opening"]["turns"]) == (2, 5)
    for analysis in analysed:
        assert analysis["report"]["stages"][0] == "opening"
        assert analysis["report"]["engine"] == analysis["engine"]


def test_jacquet_analyse_json_gives_the_report():
    result = CliRunner().invoke(main, ["analyse", str(MATCH), "--game", "1", "--json",
                                       "--confirm", "none", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    analysis = json.loads(result.stdout.splitlines()[0])
    report = analysis["report"]
    assert set(report) == {"engine", "confirm", "luck_level", "stages", "players", "worst"}
    assert report["players"]["White"]["name"] == analysis["players"]["White"]["name"]
    assert report["luck_level"].endswith(", 0-ply")
    for title in ("White", "Black"):
        assert report["players"][title][TOTAL]["decisions"] == analysis["players"][title]["decisions"]
