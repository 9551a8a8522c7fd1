"""Rule set ``murray`` (rules.md §4): hitting and the bar, the courier with hitting, the
limits on closed points, rear-most bear-off without wasting pips, marcia scoring.

Positions are built by hand. The mover's men in his numbering; the opponent's in his own
(``p - 12 if p > 12 else p + 12`` of the mover's ``p``), with the mover's number in a
comment. Two or more opposing men close a point; one is a blot.
"""

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from notation import Position, legal_plays, rule_set
from notation.engine.checker import check_play
from notation.engine.play import Step
from notation.engine.rules import holds_prime, prime_during, prime_made, prime_possible

from .rule_helpers import broken, outcome, outcomes, texts


def closed_in_starting_table(points):
    return sum(1 for p in range(19, 25) if points.get(p, 0) >= 2)


def board(points):
    """A 26-slot count tuple for :func:`holds_prime`; men not placed are off."""
    return Position.from_points(points, {24: 15}).mover


START = Position.from_points({24: 15}, {24: 15})


# -- R-OPEN and R-HIT ------------------------------------------------------------------


def test_open_two_opposing_men_close_a_point(murray):
    position = Position.from_points({24: 15}, {6: 2, 24: 13})  # two men on my 18
    assert outcomes(legal_plays(position, "65", murray)) == {outcome({24: 14, 13: 1})}
    assert broken(position, "65", "24/18/13", murray).rule_id == "R-OPEN"


def test_open_one_opposing_man_does_not_close_a_point(murray, jacquet):
    position = Position.from_points({24: 15}, {6: 1, 24: 14})  # a blot on my 18
    assert outcome({24: 14, 17: 1}) in outcomes(legal_plays(position, "61", murray))
    assert broken(position, "61", "24/18/17", jacquet).rule_id == "R-OPEN"


def test_hit_sends_the_blot_to_the_bar(murray):
    position = Position.from_points({24: 15}, {6: 1, 24: 14})
    play = check_play(position, "61", "24/18*/17", murray)
    assert play.steps[0].hit and not play.steps[1].hit
    assert play.result.points("opponent") == {25: 1, 24: 14}
    assert play.result.points() == {24: 14, 17: 1}


def test_hit_on_a_rest_point_is_a_different_play(murray):
    position = Position.from_points({24: 15}, {6: 1, 24: 14})
    plays = legal_plays(position, "61", murray)
    assert texts(plays) == {"24/18*/17", "24/23/17"}
    quiet = check_play(position, "61", "24/23/17", murray)
    assert quiet.result.points("opponent") == {6: 1, 24: 14}
    assert not any(step.hit for step in quiet.steps)


def test_hit_mark_on_an_empty_point(murray):
    position = Position.from_points({24: 15}, {6: 1, 24: 14})
    assert broken(position, "61", "24/23*/17", murray).rule_id == "R-HIT"


# -- R-BAR -----------------------------------------------------------------------------


def test_bar_die_1_enters_on_the_talon(murray):
    # my 23 closed (his 11): the 2 cannot enter, the 1 enters on 24
    position = Position.from_points({25: 1, 24: 12, 5: 2}, {11: 2, 24: 13})
    plays = legal_plays(position, "21", murray)
    assert outcomes(plays) == {outcome({24: 12, 22: 1, 5: 2}), outcome({24: 13, 5: 1, 3: 1})}
    assert all(play.steps[0].from_point == 25 and play.steps[0].to_point == 24 for play in plays)
    assert broken(position, "21", "bar/23 5/4", murray).rule_id == "R-OPEN"


def test_bar_enters_on_25_minus_the_die(murray):
    position = Position.from_points({25: 1, 24: 12, 5: 2}, {11: 2, 24: 13})
    play = check_play(position, "64", "bar/19 24/20", murray)
    assert play.result.points() == {24: 11, 20: 1, 19: 1, 5: 2}
    play = check_play(position, "64", "bar/21 24/18", murray)
    assert play.result.points() == {24: 11, 21: 1, 18: 1, 5: 2}


def test_bar_nothing_else_moves_while_a_man_is_on_it(murray):
    # two men on the bar, my 19 closed (his 7): one enters with the 5, the 6 is lost
    position = Position.from_points({25: 2, 24: 11, 5: 2}, {7: 2, 24: 13})
    assert [str(p) for p in legal_plays(position, "65", murray)] == ["bar/20"]
    assert broken(position, "65", "bar/20 24/18", murray).rule_id == "R-BAR"


def test_bar_no_entry_loses_the_whole_turn(murray):
    position = Position.from_points({25: 1, 24: 12, 5: 2}, {7: 2, 8: 2, 24: 11})  # my 19, 20 closed
    assert texts(legal_plays(position, "65", murray)) == {"-"}
    assert broken(position, "65", "24/13", murray).rule_id == "R-BAR"


def test_bar_once_entered_the_other_die_is_free(murray):
    position = Position.from_points({25: 1, 24: 12, 5: 2}, {7: 2, 24: 13})  # my 19 closed
    plays = legal_plays(position, "65", murray)
    assert outcomes(plays) == {outcome({24: 11, 20: 1, 18: 1, 5: 2}),
                               outcome({24: 12, 14: 1, 5: 2})}
    assert check_play(position, "65", "bar/20 24/18", murray).result.mover[18] == 1


def test_bar_r_max_applies_to_the_whole_turn(murray):
    position = Position.from_points({25: 1, 24: 12, 5: 2}, {7: 2, 24: 13})
    assert broken(position, "65", "bar/20", murray).rule_id == "R-MAX"


# -- R-CLOSE2 --------------------------------------------------------------------------


def test_close2_third_closed_point_in_the_starting_table(murray):
    # closed: 24 (three men) and 22; 24/21 keeps the talon closed and closes 21
    position = Position.from_points({24: 3, 22: 2, 21: 1, 4: 9}, {24: 15})
    plays = legal_plays(position, "31", murray)
    assert plays
    assert all(closed_in_starting_table(p.result.points()) <= 2 for p in plays)
    assert broken(position, "31", "24/21 4/3", murray).rule_id == "R-CLOSE2"


def test_close2_talon_no_longer_counts_with_one_man(murray):
    position = Position.from_points({24: 2, 22: 2, 21: 1, 4: 10}, {24: 15})
    play = check_play(position, "31", "24/21 4/3", murray)
    assert play.result.points() == {24: 1, 22: 2, 21: 2, 4: 9, 3: 1}


def test_close2_checked_on_the_rest_point_of_a_combined_move(murray):
    position = Position.from_points({24: 3, 22: 2, 20: 1, 4: 9}, {24: 15})
    assert broken(position, "42", "24/20/18", murray).rule_id == "R-CLOSE2"
    play = check_play(position, "42", "24/22/18", murray)
    assert play.result.points() == {24: 2, 22: 2, 20: 1, 18: 1, 4: 9}


def test_close2_checked_when_entering_from_the_bar(murray):
    position = Position.from_points({25: 1, 24: 2, 22: 2, 20: 1, 4: 9}, {24: 15})
    assert broken(position, "53", "bar/20 22/19", murray).rule_id == "R-CLOSE2"
    assert all(p.steps[0].to_point != 20 for p in legal_plays(position, "53", murray))


# -- R-MID2 ----------------------------------------------------------------------------


MIDPOINT_FULL = Position.from_points({19: 1, 13: 2, 4: 12}, {10: 15})  # his men on my 22


def test_mid2_third_man_on_point_13(murray):
    plays = legal_plays(MIDPOINT_FULL, "61", murray)
    assert plays
    assert all(p.result.mover[13] <= 2 for p in plays)
    assert broken(MIDPOINT_FULL, "61", "19/13 4/3", murray).rule_id == "R-MID2"


def test_mid2_third_man_may_not_even_rest_on_13(murray):
    assert broken(MIDPOINT_FULL, "64", "19/13/9", murray).rule_id == "R-MID2"
    play = check_play(MIDPOINT_FULL, "64", "19/9", murray)  # through 15
    assert play.result.points() == {13: 2, 9: 1, 4: 12}


def test_mid2_second_man_on_13_is_fine(murray):
    position = Position.from_points({19: 1, 13: 1, 4: 13}, {10: 15})
    assert check_play(position, "61", "19/13 4/3", murray).result.mover[13] == 2


# -- R-COURIER with hitting ------------------------------------------------------------


def test_courier_one_man_leaves_the_talon(murray):
    assert broken(START, "65", "24/18 24/19", murray).rule_id == "R-COURIER"
    assert outcomes(legal_plays(START, "65", murray)) == {outcome({24: 14, 13: 1})}


def test_courier_released_die_by_die(murray):
    position = Position.from_points({24: 14, 9: 1}, {24: 15})  # his talon closes my 12
    assert outcomes(legal_plays(position, "63", murray)) == {
        outcome({24: 13, 21: 1, 3: 1}), outcome({24: 13, 18: 1, 6: 1})}


def test_courier_hit_as_the_only_man_away_is_the_courier_again(murray):
    # the courier was hit before any other man left: only it may move
    position = Position.from_points({25: 1, 24: 14}, {24: 15})
    assert outcomes(legal_plays(position, "65", murray)) == {outcome({24: 14, 14: 1})}
    assert broken(position, "65", "bar/19 24/19", murray).rule_id == "R-COURIER"


def test_courier_phase_over_with_two_men_away_even_with_none_home(murray):
    # a man on 20 and one on the bar: two away, the phase is over
    position = Position.from_points({25: 1, 24: 13, 20: 1}, {24: 15})
    play = check_play(position, "65", "bar/19 24/19", murray)
    assert play.result.points() == {24: 12, 20: 1, 19: 2}


def test_courier_phase_comes_back_when_a_man_enters_on_the_talon(murray):
    # two away (bar and 20) at the start: no phase; bar/24 with the 1 leaves one man away
    # and none home, so the 2 belongs to the courier on 20 (the phase is judged per step)
    position = Position.from_points({25: 1, 24: 13, 20: 1}, {24: 15})
    assert outcomes(legal_plays(position, "21", murray)) == {
        outcome({24: 14, 18: 1}),
        outcome({24: 12, 23: 2, 20: 1}),
        outcome({24: 13, 22: 1, 20: 1}),
        outcome({24: 13, 23: 1, 19: 1}),
    }
    assert broken(position, "21", "bar/24 24/22", murray).rule_id == "R-COURIER"


def test_courier_phase_after_both_men_on_the_bar_enter_on_the_talon(murray):
    # 1-1: both enter on 24, all fifteen are on the talon again: one man may leave
    position = Position.from_points({25: 2, 24: 13}, {24: 15})
    assert outcomes(legal_plays(position, "11", murray)) == {outcome({24: 14, 22: 1})}
    assert broken(position, "11", "bar/24(2) 24/23(2)", murray).rule_id == "R-COURIER"


# -- R-BEAROFF-REAR --------------------------------------------------------------------


def test_bearoff_rear_exact_die_in_front_of_the_rear_most_is_illegal(murray, jacquet):
    position = Position.from_points({5: 1, 3: 1}, {24: 15})
    assert all(p.result.mover[0] == 13 for p in legal_plays(position, "31", murray))
    assert broken(position, "31", "3/off 5/4", murray).rule_id == "R-BEAROFF-REAR"
    assert check_play(position, "31", "3/off 5/4", jacquet).result.points() == {4: 1}


def test_bearoff_rear_combined_move_off_from_in_front_of_the_rear_most(murray, jacquet):
    # 3/off with 2-1 ends with an exact die from 2 or 1 while the rear man is on 5
    position = Position.from_points({5: 1, 3: 1}, {24: 15})
    assert all(p.result.mover[0] == 13 for p in legal_plays(position, "21", murray))
    assert broken(position, "21", "3/off", murray).rule_id == "R-BEAROFF-REAR"
    assert check_play(position, "21", "3/off", jacquet).result.points() == {5: 1}


def test_bearoff_rear_die_smaller_than_the_rear_most_point_moves_forward(murray):
    # the 4 cannot bear off the man on 5; the 2 brings him to 3, then the 4 bears off from 3
    position = Position.from_points({5: 1, 3: 1}, {24: 15})
    assert outcomes(legal_plays(position, "42", murray)) == {outcome({3: 1})}


def test_bearoff_rear_higher_die_from_the_rear_most(murray):
    position = Position.from_points({3: 1, 1: 2}, {24: 15})
    assert check_play(position, "52", "3/off 1/off", murray).result.points() == {1: 1}


def test_bearoff_rear_not_while_a_man_is_outside_home(murray):
    position = Position.from_points({9: 1, 3: 14}, {24: 15})
    assert broken(position, "31", "3/off 9/8", murray).rule_id == "R-BEAROFF"


# -- R-WASTE and R-HIGH ----------------------------------------------------------------


def test_waste_seed_example_the_5_must_bear_off_the_man_on_3(murray, jacquet):
    position = Position.from_points({3: 1, 1: 2}, {24: 15})
    assert outcomes(legal_plays(position, "52", murray)) == {outcome({1: 1})}
    assert broken(position, "52", "3/1 1/off", murray).rule_id == "R-WASTE"
    # jacquet has no R-WASTE: playing the 2 first is legal there
    assert check_play(position, "52", "3/1 1/off", jacquet).result.points() == {1: 2}


def test_waste_a_man_coming_home_mid_turn_is_borne_off_with_the_next_die(murray, jacquet):
    position = Position.from_points({7: 1, 2: 14}, {24: 15})
    assert outcomes(legal_plays(position, "61", murray)) == {outcome({2: 14})}
    assert broken(position, "61", "7/1 2/1", murray).rule_id == "R-WASTE"
    assert check_play(position, "61", "7/1 2/1", jacquet).result.points() == {2: 13, 1: 2}


def test_waste_not_fired_when_the_plays_bear_off_as_many(murray):
    position = Position.from_points({6: 1, 4: 1}, {24: 15})
    # 6/off 4/2 and 6/4 4/off both bear off one man
    assert outcomes(legal_plays(position, "62", murray)) == {outcome({2: 1}), outcome({4: 1})}
    # the checker accepts either after looking for a play of both dice that bears off two
    for written, left in (("6/off 4/2", {2: 1}), ("6/4 4/off", {4: 1})):
        fast = check_play(position, "62", written, murray)
        reference = check_play(position, "62", written, murray, exhaustive=True)
        assert fast.result.points() == left
        assert (fast.result, str(fast)) == (reference.result, str(reference))


def test_waste_a_play_bearing_off_with_every_die_is_the_one_the_search_keeps(murray):
    # Every die bears a man off: no play can bear off more, so R-WASTE keeps it (the
    # checker accepts it without any search; written in another order, the search finds
    # it). The same play as the exhaustive check gives. (For a play that leaves a die
    # unborne, the checker looks for a play of every die that bears off more: see the seed
    # example above.)
    cases = ((Position.from_points({6: 1, 5: 1, 3: 4}, {24: 15}), "65", ("6/off 5/off", "5/off 6/off"),
              "6/off 5/off"),
             (Position.from_points({6: 2, 5: 2, 3: 4}, {24: 15}), "66", ("6/off(2) 5/off(2)",),
              "6/off(2) 5/off(2)"))
    for position, dice, spellings, canonical in cases:
        for written in spellings:
            fast = check_play(position, dice, written, murray)
            reference = check_play(position, dice, written, murray, exhaustive=True)
            assert (fast.result, str(fast)) == (reference.result, str(reference))
            assert fast.result.points() == {3: 4} and str(fast) == canonical


def test_high_applies_in_murray(murray):
    # courier on 13, my 4 closed (his 16): 13/8/4 and 13/9/4 are blocked
    position = Position.from_points({24: 14, 13: 1}, {16: 2, 24: 13})
    assert [str(p) for p in legal_plays(position, "54", murray)] == ["13/8"]
    assert broken(position, "54", "13/9", murray).rule_id == "R-HIGH"


def test_high_after_waste_with_a_man_on_the_bar(murray):
    # only one die can be played (entering); R-WASTE keeps both (none borne off),
    # R-HIGH then keeps the 6; my 14 and 13 closed (his 2 and 1)
    position = Position.from_points({25: 1, 5: 14}, {2: 2, 1: 2, 24: 11})
    assert outcomes(legal_plays(position, "65", murray)) == {outcome({19: 1, 5: 14})}
    assert broken(position, "65", "bar/20", murray).rule_id == "R-HIGH"


# -- R-SCORE-MARCIA --------------------------------------------------------------------


def test_score_one_point_when_the_loser_bore_off_some(murray):
    assert murray.score(Position.from_points({}, {2: 5, 1: 7})) == 1
    assert murray.score(Position.from_points({}, {2: 5, 1: 7}), winner_held_prime=True) == 1


def test_score_marcia_two_when_the_winner_held_a_prime(murray):
    assert murray.score(Position.from_points({}, {24: 3, 3: 12}), winner_held_prime=True) == 2


def test_score_marcia_per_punto_three_without_a_prime(murray):
    assert murray.score(Position.from_points({}, {24: 3, 3: 12}), winner_held_prime=False) == 3


def test_holds_prime_six_consecutive_points_of_two_or_more():
    assert holds_prime(board({10: 2, 9: 2, 8: 2, 7: 2, 6: 2, 5: 2}))
    assert holds_prime(board({24: 3, 23: 2, 22: 2, 21: 2, 20: 2, 19: 2}))
    assert holds_prime(board({6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 3}))


def test_holds_prime_not_with_five_points_or_a_blot():
    assert not holds_prime(board({10: 2, 9: 2, 8: 2, 7: 2, 6: 2, 4: 2}))
    assert not holds_prime(board({10: 2, 9: 2, 8: 1, 7: 2, 6: 2, 5: 2}))
    # the route ends at 1: 2, 1, 24, 23, 22, 21 are not consecutive points of it
    assert not holds_prime(board({2: 2, 1: 2, 24: 2, 23: 2, 22: 2, 21: 2}))
    # the bar and the men borne off are not points of the route
    assert not holds_prime(board({25: 2, 24: 2, 23: 2, 22: 2, 21: 2, 20: 2}))
    assert not holds_prime(board({6: 2, 5: 2, 4: 2, 3: 2, 2: 2}))  # ten men off


def test_prime_held_only_on_a_rest_point_counts():
    # 11/5 makes 10..5 two deep for a moment; 5/1 breaks it again
    start = {24: 3, 11: 1, 10: 2, 9: 2, 8: 2, 7: 2, 6: 2, 5: 1}
    position = Position.from_points(start, {24: 15})
    play = check_play(position, "64", "11/5/1", rule_set("murray"))
    assert not holds_prime(play.result.mover)
    assert prime_during(position.mover, play.steps)
    assert prime_made(position.mover, play.steps)  # 11/5 makes the point that completes it


def test_no_prime_during_a_turn_that_never_makes_one():
    position = Position.from_points({24: 3, 11: 1, 10: 2, 9: 2, 8: 2, 7: 2, 6: 2, 5: 1}, {24: 15})
    play = check_play(position, "64", "11/7 10/4", rule_set("murray"))
    assert not prime_during(position.mover, play.steps)
    assert not prime_made(position.mover, play.steps)


def test_a_prime_standing_before_the_turn_is_seen_by_prime_during_not_prime_made():
    # prime_made only looks for a point made into a prime (none can stand before a turn
    # of a game until its first is seen); prime_during looks at the whole board first
    primed = board({10: 2, 9: 2, 8: 2, 7: 2, 6: 2, 5: 2, 24: 3})
    steps = (Step(24, 18, 6), Step(24, 19, 5))
    assert prime_during(primed, steps) and not prime_made(primed, steps)


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=24, max_size=24),
       st.lists(st.tuples(st.integers(1, 24), st.integers(1, 6)), min_size=1, max_size=4))
def test_prime_made_is_a_prime_after_some_step_when_none_stands_before(points, moves):
    """prime_made (which looks at the board only after a step that makes a point next to
    another made point) says the same as looking for a prime after every step."""
    start = (0, *points, 0)
    assume(not holds_prime(start))
    board, steps, after_each = list(start), [], []
    for from_point, die in moves:  # single-die steps as the board allows (men, not rules)
        if not board[from_point]:
            continue
        to_point = max(from_point - die, 0)
        board[from_point] -= 1
        board[to_point] += 1
        steps.append(Step(from_point, to_point, die))
        after_each.append(holds_prime(board))
    assert prime_made(start, tuple(steps)) == any(after_each)


def test_a_prime_is_possible_in_a_turn_only_where_its_landings_could_complete_one():
    five = board({11: 1, 10: 2, 9: 2, 8: 2, 7: 2, 6: 2, 24: 4})
    assert prime_possible(five, (Step(24, 18, 6), Step(11, 5, 6)))  # lands on 5: 10-5
    assert not prime_possible(five, (Step(24, 18, 6), Step(24, 19, 5)))
    assert not prime_possible(board({24: 15}), (Step(24, 18, 6), Step(24, 19, 5)))


def test_a_prime_standing_where_a_game_state_starts_is_held(murray):
    """A state made at a position (not the game's start) holds the primes standing in it,
    for either side, even when the next step breaks one: a prime at any moment counts."""
    from notation.engine.dice import Dice
    from notation.engine.state import ROLL, Colour, GameState
    primed = {10: 2, 9: 2, 8: 2, 7: 2, 6: 2, 5: 2, 24: 3}
    state = GameState(murray, Position.from_points(primed, {24: 15}), Colour.BLACK)
    assert state.prime_held == (False, True)
    broken_prime, _ = state.after(ROLL, Dice(6, 5), "10/4 9/4")
    assert broken_prime.prime_held == (False, True)
    assert not holds_prime(broken_prime.position.opponent)
    white = GameState(murray, Position.from_points({24: 15}, primed), Colour.WHITE)
    assert white.prime_held == (False, True)
    assert GameState(murray, murray.start, Colour.WHITE).prime_held == (False, False)


def test_a_prime_made_for_a_moment_does_not_depend_on_the_order_the_moves_are_written(murray):
    """8/6 makes 6-1 a prime before 3/2 breaks it: the canonical text (8/6 3/2) keeps the
    moves in the order the generator plays them, so the play is read in that order however
    a record wrote it, and reading it back gives the same score. R-WASTE may apply here
    (all men but one home), so this is also the checker's bounded search for a better play."""
    from notation.engine.dice import Dice
    from notation.engine.state import ROLL, Colour, GameState
    position = Position.from_points({8: 1, 6: 1, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2}, {24: 13, 20: 2})
    state = GameState(murray, position, Colour.WHITE)
    assert state.prime_held == (False, False)
    for written in ("8/6 3/2", "3/2 8/6"):
        after, turn = state.after(ROLL, Dice(2, 1), written)
        assert after.prime_held == (True, False), written
        assert str(turn.play) == "8/6 3/2"
        assert turn.play.steps == check_play(position, "21", written, murray, exhaustive=True).steps


def test_a_prime_held_only_at_a_rest_point_is_written_and_read_back(murray):
    """R-SCORE-MARCIA counts a prime held at any moment, rest points included: when the
    order of a man's two dice decides it, the canonical text shows the rest point, so a
    written record keeps whether the prime was held."""
    from notation.engine.dice import Dice
    from notation.engine.state import ROLL, Colour, GameState
    start = Position.from_points({20: 1, 19: 1, 18: 2, 17: 2, 16: 2, 15: 2, 14: 2, 24: 3}, {24: 14, 3: 1})
    state = GameState(murray, start, Colour.WHITE)
    held, turn = state.after(ROLL, Dice(6, 1), "20/19/13")
    assert held.prime_held == (True, False) and str(turn.play) == "20/19/13"
    assert state.after(ROLL, Dice(6, 1), str(turn.play))[0].prime_held == (True, False)
    not_held, turn = state.after(ROLL, Dice(6, 1), "20/14/13")
    assert not_held.prime_held == (False, False) and str(turn.play) == "20/14/13"
    # the same move where no prime is at stake keeps the short form
    assert str(check_play(Position.from_points({20: 1, 24: 14}, {24: 15}), "61", "20/13", murray)) == "20/13"
