"""Rule sets ``versailles`` (rules.md §5), ``hale`` (§6) and ``backgammon`` (§7).

Positions are built by hand. The mover's men in his numbering; the opponent's in his own:
``p - 12 if p > 12 else p + 12`` of the mover's ``p`` in the Jacquet family, ``25 - p`` in
backgammon.
"""

import pytest

from notation import Position, legal_plays, rule_set
from notation.engine.checker import check_play
from notation.engine.rules.base import single_or_double_game
from notation.engine.rules.jacquet import jacquet_family
from notation.errors import InvalidPositionError

from .rule_helpers import broken, outcome, outcomes, texts

START = Position.from_points({24: 15}, {24: 15})
BACKGAMMON_SETUP = {24: 2, 13: 5, 8: 3, 6: 5}


# -- versailles: R-DOUBLET-SQUARED -----------------------------------------------------


def test_versailles_1_1_is_one_step_of_1(versailles):
    plays = legal_plays(START, "11", versailles)
    assert texts(plays) == {"24/23"}
    assert len(plays[0].steps) == 1


def test_versailles_2_2_is_two_steps_of_2(versailles, jacquet):
    assert outcomes(legal_plays(START, "22", versailles)) == {outcome({24: 14, 20: 1})}
    assert outcomes(legal_plays(START, "22", jacquet)) == {outcome({24: 14, 16: 1})}


def test_versailles_doublet_that_does_not_fit_its_steps(versailles):
    assert broken(START, "11", "24/22", versailles).rule_id == "R-DOUBLET-SQUARED"
    assert broken(START, "22", "24/16", versailles).rule_id == "R-DOUBLET-SQUARED"


# courier home on 1; his men all home on his 1 (my 13), so my 12 (his empty talon) is open
OPEN_BOARD = Position.from_points({24: 14, 1: 1}, {1: 15})


def test_versailles_6_6_is_six_steps_of_6(versailles):
    plays = legal_plays(OPEN_BOARD, "66", versailles)
    assert all(len(play.steps) == 6 for play in plays)
    assert outcome({24: 12, 6: 2, 1: 1}) in outcomes(plays)
    assert outcome({24: 11, 18: 1, 12: 1, 6: 1, 1: 1}) in outcomes(plays)
    assert check_play(OPEN_BOARD, "66", "24/6(2)", versailles).result.mover[6] == 2


def test_versailles_r_max_counts_steps(versailles, jacquet):
    # four 6s are a full turn in jacquet, not in versailles
    assert check_play(OPEN_BOARD, "66", "24/6 24/18", jacquet).result.mover[6] == 1
    assert broken(OPEN_BOARD, "66", "24/6 24/18", versailles).rule_id == "R-MAX"


def test_versailles_opening_5_5_fifth_step_for_any_man(versailles):
    # the courier reaches 4 with four 5s; the fifth is played by a talon man
    assert outcomes(legal_plays(START, "55", versailles)) == {outcome({24: 13, 19: 1, 4: 1})}
    assert broken(START, "55", "24/4", versailles).rule_id == "R-MAX"


def test_versailles_opening_6_6_plays_one_step(versailles):
    # 18/12 is his talon and the courier rule holds the other men: five steps are lost
    assert texts(legal_plays(START, "66", versailles)) == {"24/18"}


def test_versailles_non_doublets_as_in_jacquet(versailles):
    assert texts(legal_plays(START, "65", versailles)) == {"24/13"}
    assert broken(START, "65", "24/18 24/19", versailles).rule_id == "R-COURIER"


def test_versailles_scores_as_jacquet(versailles):
    assert versailles.score(Position.from_points({}, {24: 15})) == 2
    assert versailles.score(Position.from_points({}, {1: 3})) == 1


# -- hale: R-SCORE-HALE ----------------------------------------------------------------


def test_hale_penalty_per_quarter(hale):
    # the loser's men in his own numbering
    assert hale.score(Position.from_points({}, {20: 1})) == 3   # Q1
    assert hale.score(Position.from_points({}, {15: 1})) == 2   # Q2
    assert hale.score(Position.from_points({}, {10: 1})) == 1   # Q3, default rate
    assert hale.score(Position.from_points({}, {3: 1})) == 1    # Q4


def test_hale_penalty_adds_every_man_left(hale):
    loser = {24: 2, 19: 1, 18: 1, 13: 2, 12: 1, 7: 1, 6: 3, 1: 1}
    # 3 x 3 (Q1) + 3 x 2 (Q2) + 2 x 1 (Q3) + 4 x 1 (Q4)
    assert hale.score(Position.from_points({}, loser)) == 21


def test_hale_third_table_penalty_option():
    loser = {24: 2, 19: 1, 18: 1, 13: 2, 12: 1, 7: 1, 6: 3, 1: 1}
    assert rule_set("hale", third_table_penalty=2).score(Position.from_points({}, loser)) == 23
    assert rule_set("hale", third_table_penalty=0).score(Position.from_points({}, loser)) == 19


def test_hale_no_marcia_doubling(hale):
    # fifteen men on his talon pay 45, not a doubled game
    assert hale.score(Position.from_points({}, {24: 15})) == 45


def test_hale_moves_as_jacquet(hale):
    assert texts(legal_plays(START, "66", hale)) == {"24/18"}
    assert texts(legal_plays(START, "55", hale)) == {"24/19/14/9/4"}
    assert broken(START, "65", "24/18 24/19", hale).rule_id == "R-COURIER"


# -- backgammon ------------------------------------------------------------------------


def test_backgammon_setup(backgammon):
    assert backgammon.start.points("mover") == BACKGAMMON_SETUP
    assert backgammon.start.points("opponent") == BACKGAMMON_SETUP
    assert backgammon.start.position_id() == "4HPwATDgc/ABMA"


def test_backgammon_points_face_each_other(backgammon):
    assert all(backgammon.opposite[p] == 25 - p for p in range(1, 25))


def test_backgammon_hit_uses_the_25_minus_p_mapping(backgammon):
    # his blot on his 7 is my 18
    position = Position.from_points(BACKGAMMON_SETUP, {24: 2, 13: 5, 8: 3, 6: 4, 7: 1})
    play = check_play(position, "62", "24/18* 13/11", backgammon)
    assert play.steps[0].hit
    assert play.result.points("opponent") == {25: 1, 24: 2, 13: 5, 8: 3, 6: 4}


def test_backgammon_his_made_points_close_mine(backgammon):
    # his 6 (five men) is my 19
    assert broken(backgammon.start, "54", "24/19 24/20", backgammon).rule_id == "R-OPEN"


def test_backgammon_no_courier(backgammon):
    play = check_play(backgammon.start, "64", "24/18 24/20", backgammon)
    assert play.result.points() == {20: 1, 18: 1, 13: 5, 8: 3, 6: 5}


def test_backgammon_standard_opening_plays(backgammon):
    assert "13/7 8/7" in texts(legal_plays(backgammon.start, "61", backgammon))
    assert "8/5 6/5" in texts(legal_plays(backgammon.start, "31", backgammon))


ON_THE_BAR = Position.from_points({25: 1, 24: 1, 13: 5, 8: 3, 6: 5}, BACKGAMMON_SETUP)


def test_backgammon_enters_into_his_home_board(backgammon):
    # a 6 enters on my 19, his 6 (closed by five men); a 5 on my 20, his 5 (empty)
    plays = legal_plays(ON_THE_BAR, "65", backgammon)
    assert all(play.steps[0].from_point == 25 and play.steps[0].to_point == 20 for play in plays)
    assert broken(ON_THE_BAR, "65", "bar/19 13/8", backgammon).rule_id == "R-OPEN"


def test_backgammon_bar_must_be_entered_first(backgammon):
    assert broken(ON_THE_BAR, "65", "13/7 13/8", backgammon).rule_id == "R-BAR"
    play = check_play(ON_THE_BAR, "65", "bar/20 13/7", backgammon)
    assert play.result.points() == {24: 1, 20: 1, 13: 4, 8: 3, 7: 1, 6: 5}


# his men all on his 6 (my 19), out of the way of my home board
BEAROFF_OPPONENT = {6: 15}


def test_backgammon_bear_off_higher_dice(backgammon):
    position = Position.from_points({4: 1, 2: 1}, BEAROFF_OPPONENT)
    assert check_play(position, "65", "4/off 2/off", backgammon).result.mover[0] == 15


def test_backgammon_bear_off_exact_die_from_any_point(backgammon):
    position = Position.from_points({6: 1, 2: 1}, BEAROFF_OPPONENT)
    assert check_play(position, "21", "2/off 6/5", backgammon).result.points() == {5: 1}


def test_backgammon_bear_off_higher_die_not_while_a_man_stands_higher(backgammon):
    position = Position.from_points({6: 1, 1: 1}, BEAROFF_OPPONENT)
    assert broken(position, "21", "1/off 6/5", backgammon).rule_id == "R-BEAROFF"


def test_backgammon_bear_off_not_while_a_man_is_outside(backgammon):
    position = Position.from_points({9: 1, 4: 14}, BEAROFF_OPPONENT)
    assert broken(position, "42", "4/off 9/7", backgammon).rule_id == "R-BEAROFF"


def test_backgammon_single_game_times_the_cube(backgammon):
    final = Position.from_points({}, {3: 5, 20: 2})  # the loser bore off 8
    assert backgammon.score(final) == 1
    assert backgammon.score(final, cube=4) == 4


def test_backgammon_gammon_times_the_cube(backgammon):
    final = Position.from_points({}, {3: 10, 12: 5})  # none off, none in my home
    assert backgammon.score(final) == 2
    assert backgammon.score(final, cube=2) == 4


def test_backgammon_backgammon_times_the_cube(backgammon):
    in_winners_home = Position.from_points({}, {3: 14, 20: 1})  # his 20 is my 5
    on_the_bar = Position.from_points({}, {3: 14, 25: 1})
    assert backgammon.score(in_winners_home) == 3
    assert backgammon.score(on_the_bar, cube=2) == 6


def test_legal_plays_refuses_a_position_the_rule_set_does_not_allow():
    with pytest.raises(InvalidPositionError, match="no bar"):
        legal_plays(Position.from_points({25: 1, 24: 14}, {24: 15}), "31", "jacquet")
    with pytest.raises(InvalidPositionError, match="one point"):  # my 10 is his 22
        legal_plays(Position.from_points({24: 14, 10: 1}, {22: 1, 24: 14}), "31", "jacquet")
    assert [str(p) for p in legal_plays(Position.from_points({25: 1, 24: 14}, {24: 15}), "31", "murray")]


# -- the Jacquet family's constructor ---------------------------------------------------


def test_a_relative_built_on_the_family_has_no_courier_nor_blocking_unless_it_asks():
    """jacquet_family gives the geometry and start only: a relative without the courier
    (as narde and fevga are) may move two men off the talon with its first 6-5, and
    make six points in a row in front of the opponent."""
    relative = jacquet_family("relative", scorer=single_or_double_game)
    assert relative.start == START and relative.step_rules == () and not relative.courier
    assert {"24/18 24/19", "24/13"} <= texts(legal_plays(START, "65", relative))
    assert texts(legal_plays(START, "65", rule_set("jacquet"))) == {"24/13"}
    blocking = Position.from_points({24: 9, 11: 1, 10: 1, 9: 1, 8: 1, 7: 2}, {24: 15})
    assert "24/19 7/6" in texts(legal_plays(blocking, "51", relative))  # 11 to 6 in a row
    assert "24/19 7/6" not in texts(legal_plays(blocking, "51", rule_set("jacquet")))  # R-POSTILION
