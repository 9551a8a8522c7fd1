"""Rule set ``fevga``: the worked cases of the rules digest §10, then each rule of the set
(R-RUNNER, R-HOMEQUARTER, R-UNBLOCK with its ``prime`` reading, R-SCORE-MARS) where it
fires and where it must not.

Positions are built by hand from the rules: the mover's men in his own numbering (24 = the
head .. 1), the opponent's in *his* own numbering, the mover's ``p - 12 if p > 12 else
p + 12`` (both run the same way).
"""

import json

import pytest
from click.testing import CliRunner

from jacquet_cli import main
from notation import IllegalPlayError, InvalidError, Position, legal_plays, rule_set
from notation.engine.checker import check_play
from notation.engine.dice import Dice
from notation.engine.play import Step
from notation.engine.state import DOUBLE, GameRuleError, GameState
from notation.engine.step_entry import StepEntry

from .rule_helpers import broken, holds, outcome, outcomes, texts

FEVGA = rule_set("fevga")
SIXBLOCK = rule_set("fevga", prime="sixblock")
START = Position.from_points({24: 15}, {24: 15})


# -- §10 worked cases (first turn) ----------------------------------------------------------


def test_case1_opening_66_only_the_runner_moves():
    plays = legal_plays(START, "66", FEVGA)
    assert texts(plays) == {"24/18"}
    assert len(plays[0].steps) == 1  # 18/12 lands on his head; no other man may leave


def test_case2_opening_55_runner_released_at_9():
    plays = legal_plays(START, "55", FEVGA)
    assert outcomes(plays) == {outcome({24: 14, 4: 1}), outcome({24: 13, 9: 1, 19: 1})}
    assert texts(plays) == {"24/4", "24/9 24/19"}


def test_case3_opening_65_one_play():
    assert [str(p) for p in legal_plays(START, "65", FEVGA)] == ["24/13"]
    error = broken(START, "65", "24/18 24/19", FEVGA)
    assert error.rule_id == "R-RUNNER"
    assert [str(p) for p in error.legal_plays] == ["24/13"]


# the head plus single men on 23, 22, 21, 20; one man past his head, on 5
HOME_QUARTER = Position.from_points({24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 5: 1}, {24: 15})
QUARTER = (24, 23, 22, 21, 20, 19)


def test_case4_homequarter_a_step_to_19_is_illegal():
    plays = legal_plays(HOME_QUARTER, "54", FEVGA)
    assert plays and not any(holds(p.result.points(), QUARTER) for p in plays)
    error = broken(HOME_QUARTER, "54", "24/19 5/1", FEVGA)
    assert error.rule_id == "R-HOMEQUARTER"


def test_case4_homequarter_whatever_else_the_mover_holds():
    with_one = Position.from_points({24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 1: 1}, {24: 15})
    assert broken(with_one, "51", "24/19 24/23", FEVGA).rule_id == "R-HOMEQUARTER"


# -- R-RUNNER -------------------------------------------------------------------------------


def test_runner_alone_moves_until_it_passes_his_head():
    position = Position.from_points({24: 14, 14: 1}, {24: 15})  # runner on 14, not past 12
    assert texts(legal_plays(position, "21", FEVGA)) == {"14/13/11"}  # 14/12: his head
    error = broken(position, "21", "24/22 14/13", FEVGA)
    assert error.rule_id == "R-RUNNER" and "while the runner, on 1" in error.reason


def test_runner_released_die_by_die():
    position = Position.from_points({24: 14, 13: 1}, {24: 15})
    # the runner passes his head (my 12) with either die: the other may be played by any man
    assert texts(legal_plays(position, "32", FEVGA)) == {"13/8", "13/10 24/22", "13/11 24/21"}


def test_after_the_runner_passes_any_number_of_men_leave_the_head():
    position = Position.from_points({24: 14, 5: 1}, {24: 15})
    assert texts(legal_plays(position, "66", FEVGA)) == {"24/18(4)"}  # 18/12: his head


# -- R-UNBLOCK (prime="unblock", the default) -------------------------------------------------


# All his men on his 19 (my 7); I hold my 6-1 (his 18-13), the six points in front of them.
SHUT_IN = Position.from_points({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}, {19: 15})
WALL = (6, 5, 4, 3, 2, 1)


def test_unblock_a_play_must_open_the_wall_where_one_does():
    plays = legal_plays(SHUT_IN, "21", FEVGA)
    assert plays and all(not holds(p.result.points(), WALL) for p in plays)
    assert "3/1 3/2" in texts(plays)
    error = broken(SHUT_IN, "21", "6/4 6/5", FEVGA)
    assert error.rule_id == "R-UNBLOCK"
    assert "prime=unblock" in error.reason
    assert texts(error.legal_plays) == texts(plays)


def test_unblock_lapses_when_no_play_opens_the_wall():
    # 6-5: 6/off and 6/1 or 5/off; no play empties a point of the wall
    plays = legal_plays(SHUT_IN, "65", FEVGA)
    assert outcomes(plays) == {outcome({6: 1, 5: 3, 4: 3, 3: 2, 2: 2, 1: 3}),
                               outcome({6: 2, 5: 2, 4: 3, 3: 2, 2: 2, 1: 2})}


def test_unblock_only_when_all_his_men_stand_on_one_point():
    spread = Position.from_points({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}, {19: 14, 20: 1})
    assert "6/4 6/5" in texts(legal_plays(spread, "21", FEVGA))


def test_unblock_not_in_front_of_his_point_below_7():
    # his men on his 6 (my 18), mine holding his 5-1 and my 24 (his 12): not the rule's case
    position = Position.from_points({17: 3, 16: 3, 15: 3, 14: 2, 13: 2, 9: 2}, {6: 15})
    assert "9/7 9/8" in texts(legal_plays(position, "21", FEVGA))


def test_prime_option_sixblock_reads_the_older_rule():
    # 7/6 completes 11-6 in front of all his men (on his head): illegal with prime=sixblock,
    # legal with the default (no six-in-a-row rule outside the starting quarter)
    position = Position.from_points({24: 9, 11: 1, 10: 1, 9: 1, 8: 1, 7: 2}, {24: 15})
    error = broken(position, "51", "24/19 7/6", SIXBLOCK)
    assert error.rule_id == "R-SIXBLOCK"
    check_play(position, "51", "24/19 7/6", FEVGA)
    assert SIXBLOCK.describe() == "fevga(prime=sixblock)"
    # R-UNBLOCK is the default's: with prime=sixblock the wall may stay
    assert "6/4 6/5" in texts(legal_plays(SHUT_IN, "21", SIXBLOCK))


def test_prime_option_refuses_an_unknown_reading():
    with pytest.raises(InvalidError, match="prime"):
        rule_set("fevga", prime="never")


# -- scoring, no cube ---------------------------------------------------------------------


def test_score_single_and_mars():
    assert FEVGA.score(Position.from_points({}, {3: 1})) == 1
    assert FEVGA.score(Position.from_points({}, {3: 15})) == 2
    assert FEVGA.score_rule == "R-SCORE-MARS"


def test_no_cube():
    with pytest.raises(GameRuleError) as refused:
        GameState.start(FEVGA).after(DOUBLE)
    assert refused.value.rule_id == "R-CUBE"


def test_step_entry_offers_only_steps_that_open_the_wall_and_names_r_unblock():
    entry = StepEntry(SHUT_IN, Dice.parse("21"), FEVGA)
    assert sorted(str(step) for step in entry.next_steps(())) == ["2/1", "2/off", "3/1", "3/2"]
    with pytest.raises(IllegalPlayError) as refused:
        entry.next_steps((Step(6, 4, 2),))
    assert refused.value.rule_id == "R-UNBLOCK"
    said = refused.value.msg.as_json()  # the steps that lead to a legal play listed
    assert said["id"] == "step.refused" and said["params"]["reason"]["id"] == "rule.fevga.unblock"
    assert sorted(said["params"]["steps"].split(", ")) == ["2/1", "2/off", "3/1", "3/2"]


def test_the_command_line_reads_fevga_and_its_option_from_the_registry():
    result = CliRunner().invoke(main, ["legal", "--variant", "fevga", "--dice", "55"])
    assert result.exit_code == 0 and sorted(result.output.splitlines()) == ["24/4", "24/9 24/19"]
    batch = CliRunner().invoke(main, ["legal", "--batch"], input=json.dumps(
        {"variant": "fevga", "position": SHUT_IN.position_id(), "dice": "21",
         "options": {"prime": "sixblock"}}) + "\n")
    assert "6/4 6/5" in {play["play"] for play in json.loads(batch.stdout)}
    refused = CliRunner().invoke(main, ["legal", "--variant", "fevga", "-O", "prime=never",
                                        "--dice", "21"])
    assert refused.exit_code == 2 and "prime is 'unblock' or 'sixblock'" in refused.output
