"""Rule set ``jacquet``: the worked cases of rules.md §3, then every rule id of the set,
each once where it fires and once where it must not.

Every position is built by hand from the rules. The mover's men are given in his own
numbering (24 = talon .. 1); the opponent's men in *his* own numbering, which in the
Jacquet family is the mover's ``p - 12 if p > 12 else p + 12``. The comments say where an
opposing man stands in the mover's numbering ("his 20, my 8").
"""

import pytest

from notation import Position, legal_plays, rule_set
from notation.engine.checker import check_play

from .rule_helpers import broken, outcome, outcomes, texts


def holds_block(points, block):
    return all(points.get(p, 0) for p in block)


def his(my_point):
    """The opponent's number for the mover's point (Jacquet family)."""
    return my_point - 12 if my_point > 12 else my_point + 12


START = Position.from_points({24: 15}, {24: 15})


# -- §3 worked cases -------------------------------------------------------------------


def test_case1_opening_66_plays_one_six_and_loses_three(jacquet):
    plays = legal_plays(START, "66", jacquet)
    assert texts(plays) == {"24/18"}
    assert len(plays[0].steps) == 1


def test_case2_opening_55_courier_runs_home(jacquet):
    assert [str(p) for p in legal_plays(START, "55", jacquet)] == ["24/19/14/9/4"]


def test_case3_opening_65_one_resulting_position(jacquet):
    plays = legal_plays(START, "65", jacquet)
    assert [str(p) for p in plays] == ["24/13"]
    for written in ("24/13", "24/18/13", "24/19/13"):
        assert check_play(START, "65", written, jacquet).result == plays[0].result


COURIER_ON_9 = Position.from_points({24: 14, 9: 1}, {24: 15})  # his talon is my 12


def test_case4_courier_released_die_by_die(jacquet):
    assert texts(legal_plays(COURIER_ON_9, "63", jacquet)) == {"9/3 24/21", "9/6 24/18"}


def test_case4_courier_release_next_turn_keeps_the_turn_for_the_courier():
    rules = rule_set("jacquet", courier_release="next-turn")
    assert [str(p) for p in legal_plays(COURIER_ON_9, "63", rules)] == ["9/3"]


def test_case5_bear_off_both_men_with_higher_dice(jacquet):
    position = Position.from_points({4: 1, 2: 1}, {1: 8, 2: 7})
    plays = legal_plays(position, "65", jacquet)
    assert texts(plays) == {"4/off 2/off"}
    assert plays[0].result.mover[0] == 15


def test_case6_bear_off_must_use_both_dice(jacquet):
    # an opposing man on my 3 (his 15); the rest of his men on his 1 (my 13)
    position = Position.from_points({6: 1, 2: 1}, {15: 1, 1: 14})
    assert [str(p) for p in legal_plays(position, "31", jacquet)] == ["6/5/2"]


FIRST_QUARTER_NO_ONE = Position.from_points(
    {24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 3: 1}, {24: 14, 1: 1})  # his courier home, on my 13
FIRST_QUARTER_WITH_ONE = Position.from_points(
    {24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 1: 1}, {24: 14, 1: 1})
FIRST_QUARTER = (24, 23, 22, 21, 20, 19)


def test_case7_first_quarter_step_to_19_illegal_without_point_1(jacquet):
    plays = legal_plays(FIRST_QUARTER_NO_ONE, "54", jacquet)
    assert plays
    assert not any(holds_block(p.result.points(), FIRST_QUARTER) for p in plays)
    assert broken(FIRST_QUARTER_NO_ONE, "54", "24/19 24/20", jacquet).rule_id == "R-FIRSTQUARTER"


def test_case7_first_quarter_step_to_19_legal_with_point_1(jacquet):
    play = check_play(FIRST_QUARTER_WITH_ONE, "54", "24/19 24/20", jacquet)
    assert play.result.points() == {24: 8, 23: 1, 22: 1, 21: 1, 20: 2, 19: 1, 1: 1}
    assert any(holds_block(p.result.points(), FIRST_QUARTER)
               for p in legal_plays(FIRST_QUARTER_WITH_ONE, "54", jacquet))


# I hold 7, 6, 5, 4, 3 (two men on 7); his courier is on his 20 (my 8).
POSTILION = Position.from_points({24: 9, 7: 2, 6: 1, 5: 1, 4: 1, 3: 1}, {24: 14, 20: 1})
BLOCK_7_TO_2 = (7, 6, 5, 4, 3, 2)


def test_case8_postilion_block_ahead_of_his_courier_is_illegal(jacquet):
    plays = legal_plays(POSTILION, "51", jacquet)
    assert plays
    assert not any(holds_block(p.result.points(), BLOCK_7_TO_2) for p in plays)
    error = broken(POSTILION, "51", "7/2 24/23", jacquet)
    assert error.rule_id == "R-POSTILION"


# -- R-SETUP ---------------------------------------------------------------------------


def test_setup_fifteen_men_on_each_talon(jacquet):
    assert jacquet.start == START
    assert jacquet.start.points("mover") == {24: 15}
    assert jacquet.start.points("opponent") == {24: 15}
    assert jacquet.start.borne_off() == (0, 0)


def test_setup_talons_in_diagonally_opposite_corners(jacquet):
    # my talon is his 12, his talon is my 12; my 1 and 24 are his 13 and 12
    assert jacquet.opposite[24] == 12
    assert jacquet.opposite[12] == 24
    assert (jacquet.opposite[1], jacquet.opposite[24]) == (13, 12)
    assert all(jacquet.opposite[p] == his(p) for p in range(1, 25))


def test_setup_is_not_the_backgammon_setup(jacquet, backgammon):
    assert jacquet.start != backgammon.start
    # the backgammon opening 6-1 names men that do not exist in jacquet
    assert broken(jacquet.start, "61", "13/7 8/7", jacquet).rule_id == "R-EMPTY"


# -- R-OPEN ----------------------------------------------------------------------------


def test_open_single_opposing_man_closes_a_point(jacquet):
    position = Position.from_points({24: 15}, {24: 14, 6: 1})  # his courier on my 18
    plays = legal_plays(position, "64", jacquet)
    assert outcomes(plays) == {outcome({24: 14, 14: 1})}  # only via 20
    assert broken(position, "64", "24/18/14", jacquet).rule_id == "R-OPEN"
    assert broken(position, "64", "24/18", jacquet).rule_id == "R-OPEN"


def test_open_no_resting_on_a_closed_point(jacquet):
    # his men on my 18 and my 19: 24/13 has no open rest point
    position = Position.from_points({24: 15}, {24: 13, 6: 1, 7: 1})
    assert texts(legal_plays(position, "65", jacquet)) == {"-"}
    assert broken(position, "65", "24/13", jacquet).rule_id == "R-OPEN"


def test_open_own_men_stack_without_limit(jacquet):
    position = Position.from_points({24: 14, 3: 1}, {24: 15})  # my courier is home
    plays = legal_plays(position, "66", jacquet)
    assert outcome({24: 10, 18: 4, 3: 1}) in outcomes(plays)
    assert check_play(position, "66", "24/18(4)", jacquet).result.mover[18] == 4


def test_open_no_hitting_in_jacquet(jacquet):
    position = Position.from_points({24: 15}, {24: 14, 6: 1})
    assert broken(position, "61", "24/18*/17", jacquet).rule_id == "R-OPEN"


# -- R-STEP ----------------------------------------------------------------------------


def test_step_combined_move_written_without_rest_point_uses_the_open_one(jacquet):
    position = Position.from_points({24: 15}, {24: 14, 6: 1})  # my 18 closed, my 19 open
    assert outcomes(legal_plays(position, "65", jacquet)) == {outcome({24: 14, 13: 1})}
    play = check_play(position, "65", "24/13", jacquet)
    assert [(s.from_point, s.to_point) for s in play.steps] == [(24, 19), (19, 13)]


def test_step_combined_move_through_the_closed_rest_point_is_illegal(jacquet):
    position = Position.from_points({24: 15}, {24: 14, 6: 1})
    assert broken(position, "65", "24/18/13", jacquet).rule_id == "R-OPEN"


def test_step_each_step_is_a_single_die(jacquet):
    play = check_play(START, "64", "24/14", jacquet)
    assert sorted(step.die for step in play.steps) == [4, 6]


# -- R-DOUBLET -------------------------------------------------------------------------


def test_doublet_gives_four_steps(jacquet):
    play = legal_plays(START, "22", jacquet)[0]
    assert str(play) == "24/22/20/18/16"
    assert [s.die for s in play.steps] == [2, 2, 2, 2]


def test_doublet_four_steps_by_four_men(jacquet):
    position = Position.from_points({24: 14, 1: 1}, {24: 15})  # courier home on 1
    plays = legal_plays(position, "22", jacquet)
    assert outcome({24: 10, 22: 4, 1: 1}) in outcomes(plays)
    assert all(len(p.steps) == 4 for p in plays)


def test_doublet_play_that_does_not_fit_four_steps(jacquet):
    assert broken(START, "22", "24/15", jacquet).rule_id == "R-DOUBLET"
    position = Position.from_points({24: 14, 1: 1}, {24: 15})
    assert broken(position, "22", "24/22(5)", jacquet).rule_id == "R-DOUBLET"


def test_doublet_steps_that_cannot_be_played_are_lost(jacquet):
    # 4-4 opening: 24/20/16, then 16/12 lands on his talon and no other man may move
    plays = legal_plays(START, "44", jacquet)
    assert [str(p) for p in plays] == ["24/20/16"]
    assert len(plays[0].steps) == 2


# -- R-MAX -----------------------------------------------------------------------------


COURIER_ON_18 = Position.from_points({24: 14, 18: 1}, {24: 15})


def test_max_both_dice_must_be_played_when_possible(jacquet):
    # 18/12 is his talon, so the courier plays 18/13/7
    assert outcomes(legal_plays(COURIER_ON_18, "65", jacquet)) == {outcome({24: 14, 7: 1})}
    assert broken(COURIER_ON_18, "65", "18/13", jacquet).rule_id == "R-MAX"


def test_max_doublet_most_steps(jacquet):
    position = Position.from_points({24: 14, 1: 1}, {24: 15})
    assert broken(position, "22", "24/20", jacquet).rule_id == "R-MAX"


def test_max_not_fired_when_only_one_die_can_be_played(jacquet):
    assert str(check_play(START, "66", "24/18", jacquet)) == "24/18"


def test_max_empty_turn_when_nothing_can_move(jacquet):
    assert [str(p) for p in legal_plays(COURIER_ON_18, "66", jacquet)] == ["-"]
    assert str(check_play(COURIER_ON_18, "66", "-", jacquet)) == "-"
    assert broken(COURIER_ON_18, "65", "-", jacquet).rule_id == "R-MAX"


# -- R-HIGH ----------------------------------------------------------------------------


def test_high_when_only_one_die_can_be_played_it_is_the_higher(jacquet):
    # an opposing man on my 2 (his 14): 9/4/2 and 9/7/2 are both blocked
    position = Position.from_points({9: 1, 1: 14}, {14: 1, 5: 14})
    assert [str(p) for p in legal_plays(position, "52", jacquet)] == ["9/4"]
    assert broken(position, "52", "9/7", jacquet).rule_id == "R-HIGH"


def test_high_lower_die_is_legal_when_the_higher_cannot_be_played(jacquet):
    # opposing men on my 4 and my 2 (his 16 and 14): the 5 is unplayable
    position = Position.from_points({9: 1, 1: 14}, {16: 1, 14: 1, 5: 13})
    assert [str(p) for p in legal_plays(position, "52", jacquet)] == ["9/7"]
    assert str(check_play(position, "52", "9/7", jacquet)) == "9/7"


def test_high_does_not_apply_to_doublets(jacquet):
    # R-MAX alone: 4-4 opening plays two 4s, no higher/lower choice
    assert str(check_play(START, "44", "24/16", jacquet)) == "24/20/16"


# -- R-COURIER -------------------------------------------------------------------------


def test_courier_only_one_man_leaves_the_talon(jacquet):
    assert outcomes(legal_plays(START, "65", jacquet)) == {outcome({24: 14, 13: 1})}
    assert broken(START, "65", "24/18 24/19", jacquet).rule_id == "R-COURIER"
    assert broken(START, "66", "24/18(2)", jacquet).rule_id == "R-COURIER"


def test_courier_only_the_courier_moves_before_reaching_home(jacquet):
    assert broken(COURIER_ON_9, "63", "24/18 24/21", jacquet).rule_id == "R-COURIER"
    assert broken(COURIER_ON_18, "65", "18/13 24/18", jacquet).rule_id == "R-COURIER"


def test_courier_release_die_by_die_check_play(jacquet):
    assert str(check_play(COURIER_ON_9, "63", "24/21 9/3", jacquet)) == "9/3 24/21"
    assert str(check_play(COURIER_ON_9, "63", "24/18 9/6", jacquet)) == "9/6 24/18"


def test_courier_release_next_turn_rejects_the_talon_man_in_the_same_turn():
    error = broken(COURIER_ON_9, "63", "24/21 9/3", rule_set("jacquet", courier_release="next-turn"))
    assert error.rule_id == "R-COURIER"


def test_courier_released_die_by_die_inside_a_doublet(jacquet):
    # 3-3: 9/6 reaches home with the first 3; the other three 3s are free
    plays = legal_plays(COURIER_ON_9, "33", jacquet)
    assert outcomes(plays) == {
        outcome({24: 13, 15: 1, 6: 1}),
        outcome({24: 12, 21: 1, 18: 1, 6: 1}),
        outcome({24: 11, 21: 3, 6: 1}),
        outcome({24: 13, 18: 1, 3: 1}),
        outcome({24: 12, 21: 2, 3: 1}),
    }
    assert check_play(COURIER_ON_9, "33", "9/6 24/21(3)", jacquet).result.mover[21] == 3


def test_courier_release_next_turn_inside_a_doublet():
    rules = rule_set("jacquet", courier_release="next-turn")
    plays = legal_plays(COURIER_ON_9, "33", rules)
    assert outcomes(plays) == {outcome({24: 14, 3: 1})}
    assert broken(COURIER_ON_9, "33", "9/6 24/21(3)", rules).rule_id == "R-COURIER"


def test_courier_phase_over_any_man_moves(jacquet):
    position = Position.from_points({24: 14, 4: 1}, {24: 15})
    play = check_play(position, "65", "24/18 24/19", jacquet)
    assert play.result.points() == {24: 12, 19: 1, 18: 1, 4: 1}


# -- R-POSTILION -----------------------------------------------------------------------


def test_postilion_fires_when_the_block_straddles_my_1_24_corner(jacquet):
    # my 3, 2, 1, 24, 23, 22 are his 15, 14, 13, 12, 11, 10: consecutive on his route,
    # all ahead of his courier on his 20 (my 8)
    position = Position.from_points({24: 10, 23: 1, 22: 1, 3: 2, 2: 1}, {24: 14, 20: 1})
    corner_block = (3, 2, 1, 24, 23, 22)
    plays = legal_plays(position, "21", jacquet)
    assert plays
    assert not any(holds_block(p.result.points(), corner_block) for p in plays)
    assert broken(position, "21", "3/1 24/23", jacquet).rule_id == "R-POSTILION"


def test_postilion_corner_block_behind_his_courier_is_allowed(jacquet):
    # his courier on his 8 (my 20) has passed his 15..10
    position = Position.from_points({24: 10, 23: 1, 22: 1, 3: 2, 2: 1}, {24: 14, 8: 1})
    play = check_play(position, "21", "3/1 24/23", jacquet)
    assert holds_block(play.result.points(), (3, 2, 1, 24, 23, 22))


def test_postilion_block_ahead_of_his_talon_when_no_man_has_left_it(jacquet):
    # my 11..6 are his 23..18, ahead of his talon (my 12)
    position = Position.from_points({24: 8, 11: 1, 10: 1, 9: 1, 8: 1, 7: 2, 1: 1}, {24: 15})
    assert broken(position, "21", "7/6 24/22", jacquet).rule_id == "R-POSTILION"
    assert not any(holds_block(p.result.points(), (11, 10, 9, 8, 7, 6))
                   for p in legal_plays(position, "21", jacquet))


def test_postilion_not_fired_once_his_courier_phase_is_over(jacquet):
    # his courier reached his 3 (my 15), then a second man left for his 20 (my 8)
    position = Position.from_points({24: 9, 7: 2, 6: 1, 5: 1, 4: 1, 3: 1}, {24: 13, 20: 1, 3: 1})
    play = check_play(position, "51", "7/2 24/23", jacquet)
    assert holds_block(play.result.points(), BLOCK_7_TO_2)


def test_postilion_not_fired_when_the_block_is_behind_his_courier(jacquet):
    # his courier on his 10 (my 22): my 7..2 (his 19..14) lie behind it
    position = Position.from_points({24: 9, 7: 2, 6: 1, 5: 1, 4: 1, 3: 1}, {24: 14, 10: 1})
    play = check_play(position, "51", "7/2 24/23", jacquet)
    assert holds_block(play.result.points(), BLOCK_7_TO_2)


def test_postilion_five_points_are_not_a_block(jacquet):
    play = check_play(POSTILION, "51", "7/6 24/19", jacquet)
    assert play.result.points() == {24: 8, 19: 1, 7: 1, 6: 2, 5: 1, 4: 1, 3: 1}


def test_postilion_checked_on_rest_points(jacquet):
    # 3/1 with 1-1 rests on 2, completing 7..2 for a moment, then leaves it: illegal
    position = Position.from_points({24: 9, 7: 1, 6: 1, 5: 1, 4: 1, 3: 2}, {24: 14, 20: 1})
    assert broken(position, "11", "3/1 24/22", jacquet).rule_id == "R-POSTILION"


# -- R-FIRSTQUARTER --------------------------------------------------------------------


def test_firstquarter_no_rest_on_the_sixth_point(jacquet):
    # 24/15 with 5-4: via 20 is legal, via 19 rests on the sixth point of 24-19
    play = check_play(FIRST_QUARTER_NO_ONE, "54", "24/15", jacquet)
    assert play.result.points() == {24: 9, 23: 1, 22: 1, 21: 1, 20: 1, 15: 1, 3: 1}
    assert broken(FIRST_QUARTER_NO_ONE, "54", "24/19/15", jacquet).rule_id == "R-FIRSTQUARTER"


def test_firstquarter_not_fired_with_five_points(jacquet):
    # 23/19 first empties 23, so 24/19 then leaves five points held: legal in that order
    play = check_play(FIRST_QUARTER_NO_ONE, "54", "24/19 23/19", jacquet)
    assert play.result.points() == {24: 9, 22: 1, 21: 1, 20: 1, 19: 2, 3: 1}


# -- R-BOUCHON options -----------------------------------------------------------------


def test_bouchon_last_two_block_without_points_2_and_1_is_illegal():
    rules = rule_set("jacquet", bouchon="last-two")
    assert broken(POSTILION, "51", "7/2 24/23", rules).rule_id == "R-BOUCHON"


def test_bouchon_last_two_ignores_the_courier_phase():
    rules = rule_set("jacquet", bouchon="last-two")
    his_phase_over = Position.from_points({24: 9, 7: 2, 6: 1, 5: 1, 4: 1, 3: 1},
                                          {24: 13, 20: 1, 3: 1})
    assert broken(his_phase_over, "51", "7/2 24/23", rules).rule_id == "R-BOUCHON"


def test_bouchon_last_two_block_with_points_2_and_1_is_legal():
    rules = rule_set("jacquet", bouchon="last-two")
    position = Position.from_points({24: 8, 7: 2, 6: 1, 5: 1, 4: 1, 3: 1, 1: 1}, {24: 14, 20: 1})
    play = check_play(position, "51", "7/2 24/23", rules)
    assert holds_block(play.result.points(), (7, 6, 5, 4, 3, 2, 1))


def test_bouchon_last_two_replaces_firstquarter():
    rules = rule_set("jacquet", bouchon="last-two")
    # 24..19 are his 12..7, a block: it needs my 2 and 1
    assert broken(FIRST_QUARTER_WITH_ONE, "54", "24/19 24/20", rules).rule_id == "R-BOUCHON"
    with_two_and_one = Position.from_points({24: 9, 23: 1, 22: 1, 21: 1, 20: 1, 2: 1, 1: 1},
                                            {24: 14, 1: 1})
    assert check_play(with_two_and_one, "54", "24/19 24/20", rules).result.mover[19] == 1


def test_bouchon_last_two_six_points_across_his_1_24_end_are_no_block():
    rules = rule_set("jacquet", bouchon="last-two")
    # my 16..11 are his 4, 3, 2, 1, 24, 23: they straddle his own end; his men are home
    # on his 6 and 5 (my 18 and 17), his talon is empty
    position = Position.from_points({24: 9, 16: 2, 15: 1, 14: 1, 13: 1, 11: 1}, {6: 10, 5: 5})
    play = check_play(position, "41", "16/12 24/23", rules)
    assert holds_block(play.result.points(), (16, 15, 14, 13, 12, 11))


def test_bouchon_last_two_six_points_across_my_1_24_corner_are_a_block():
    rules = rule_set("jacquet", bouchon="last-two")
    # my 1, 24, 23, 22, 21, 20 are his 13..8: a block, and my 2 is not held
    position = Position.from_points({24: 11, 23: 1, 22: 1, 21: 1, 1: 1}, {6: 10, 5: 5})
    assert broken(position, "43", "24/20 24/21", rules).rule_id == "R-BOUCHON"


def test_bouchon_none_allows_every_block():
    rules = rule_set("jacquet", bouchon="none")
    play = check_play(POSTILION, "51", "7/2 24/23", rules)
    assert holds_block(play.result.points(), BLOCK_7_TO_2)
    play = check_play(FIRST_QUARTER_NO_ONE, "54", "24/19 24/20", rules)
    assert holds_block(play.result.points(), FIRST_QUARTER)


# -- R-BEAROFF -------------------------------------------------------------------------


def test_bearoff_not_while_a_man_is_outside_home(jacquet):
    position = Position.from_points({9: 1, 4: 14}, {24: 15})
    plays = legal_plays(position, "42", jacquet)
    assert all(p.result.mover[0] == 0 for p in plays)
    assert broken(position, "42", "4/off 9/7", jacquet).rule_id == "R-BEAROFF"


def test_bearoff_exact_die(jacquet):
    position = Position.from_points({4: 1, 2: 1}, {24: 15})
    play = check_play(position, "42", "4/off 2/off", jacquet)
    assert play.result.mover[0] == 15
    # 4/2 then the 4 from 2 (higher than the highest) is legal too: no R-WASTE in jacquet
    assert outcomes(legal_plays(position, "42", jacquet)) == {outcome({}), outcome({2: 1})}


def test_bearoff_exact_die_from_a_point_in_front_of_the_rear_most(jacquet):
    # jacquet has no rear-most rule: the 3 bears off from 3 although a man is on 5
    position = Position.from_points({5: 1, 3: 1}, {24: 15})
    play = check_play(position, "31", "3/off 5/4", jacquet)
    assert play.result.points() == {4: 1}


def test_bearoff_higher_than_highest_occupied_point(jacquet):
    position = Position.from_points({3: 1, 1: 1}, {24: 15})
    assert check_play(position, "65", "3/off 1/off", jacquet).result.mover[0] == 15


def test_bearoff_higher_die_not_while_a_man_stands_higher(jacquet):
    position = Position.from_points({6: 1, 1: 1}, {24: 15})
    # the 2 cannot bear off from 1 while a man is on 6
    assert outcomes(legal_plays(position, "21", jacquet)) == {outcome({4: 1}), outcome({3: 1, 1: 1})}
    assert broken(position, "21", "1/off 6/5", jacquet).rule_id == "R-BEAROFF"


def test_bearoff_combined_move_ending_exactly_on_the_rail(jacquet):
    position = Position.from_points({7: 1, 1: 14}, {24: 15})
    plays = legal_plays(position, "43", jacquet)
    assert outcomes(plays) == {outcome({1: 14})}
    for written in ("7/off", "7/0", "7/3/off", "7/4/off"):
        assert check_play(position, "43", written, jacquet).result.mover[0] == 1


def test_bearoff_combined_move_ending_on_the_rail_with_a_higher_die(jacquet):
    position = Position.from_points({6: 1, 1: 14}, {24: 15})
    assert outcomes(legal_plays(position, "43", jacquet)) == {outcome({1: 14})}
    assert check_play(position, "43", "6/off", jacquet).result.mover[0] == 1


def test_bearoff_r_max_still_applies(jacquet):
    position = Position.from_points({6: 1, 2: 1}, {15: 1, 1: 14})
    assert broken(position, "31", "2/1", jacquet).rule_id == "R-MAX"


# -- R-SCORE ---------------------------------------------------------------------------


def test_score_two_points_when_the_loser_bore_off_none(jacquet):
    assert jacquet.score(Position.from_points({}, {24: 2, 13: 3, 2: 10})) == 2


def test_score_one_point_when_the_loser_bore_off_some(jacquet):
    assert jacquet.score(Position.from_points({}, {3: 5, 1: 9})) == 1


def test_score_game_not_over(jacquet):
    with pytest.raises(ValueError):
        jacquet.score(Position.from_points({1: 1}, {24: 15}))
