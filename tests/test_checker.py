"""The play checker: how plays may be written, what is malformed (InvalidPlayError,
InvalidDiceError) and what is illegal (IllegalPlayError with its rule id, a specific
message and the legal plays).

Positions are built by hand; the opponent's men are in his own numbering.
"""

import pytest

from notation import (
    IllegalPlayError,
    InvalidDiceError,
    InvalidError,
    InvalidPlayError,
    Position,
    legal_plays,
    rule_set,
)
from notation.engine.checker import check_play


def broken(position, dice, text, rules):
    """The IllegalPlayError that checking ``text`` raises (the test fails if none)."""
    with pytest.raises(IllegalPlayError) as info:
        check_play(position, dice, text, rules)
    return info.value


def invalid(error_type, position, dice, text, rules):
    """The invalid-input error raised, checking it is not reported as an illegal play."""
    with pytest.raises(error_type) as info:
        check_play(position, dice, text, rules)
    assert isinstance(info.value, InvalidError)
    assert not isinstance(info.value, IllegalPlayError)
    return info.value


START = Position.from_points({24: 15}, {24: 15})
COURIER_ON_9 = Position.from_points({24: 14, 9: 1}, {24: 15})
COURIER_ON_18 = Position.from_points({24: 14, 18: 1}, {24: 15})
COURIER_HOME = Position.from_points({24: 14, 4: 1}, {24: 15})
BEAROFF = Position.from_points({6: 1, 5: 14}, {24: 15})


# -- written forms that are accepted ---------------------------------------------------


def test_rest_point_may_be_left_out(jacquet):
    for written in ("24/13", "24/18/13", "24/19/13"):
        assert str(check_play(START, "65", written, jacquet)) == "24/13"


def test_rest_point_left_out_uses_the_open_one(jacquet):
    position = Position.from_points({24: 15}, {24: 14, 7: 1})  # his courier on my 19
    play = check_play(position, "65", "24/13", jacquet)
    assert [(s.from_point, s.to_point) for s in play.steps] == [(24, 18), (18, 13)]


def test_moves_in_any_order(jacquet):
    first = check_play(COURIER_ON_9, "63", "9/3 24/21", jacquet)
    second = check_play(COURIER_ON_9, "63", "24/21 9/3", jacquet)
    assert first.result == second.result
    assert str(first) == str(second) == "9/3 24/21"


def test_repeats_written_with_a_count(jacquet):
    by_count = check_play(COURIER_HOME, "66", "24/18(4)", jacquet)
    one_by_one = check_play(COURIER_HOME, "66", "24/18 24/18 24/18 24/18", jacquet)
    assert by_count.result == one_by_one.result
    assert by_count.result.points() == {24: 10, 18: 4, 4: 1}
    assert check_play(COURIER_HOME, "66", "24/18(2) 24/18 24/18", jacquet).result == by_count.result


def test_repeats_in_backgammon(backgammon):
    play = check_play(backgammon.start, "11", "8/7(2) 6/5(2)", backgammon)
    assert play.result.points() == {24: 2, 13: 5, 8: 1, 7: 2, 6: 3, 5: 2}


def test_bear_off_written_off_or_0(jacquet):
    by_word = check_play(BEAROFF, "65", "6/off 5/off", jacquet)
    by_zero = check_play(BEAROFF, "65", "6/0 5/0", jacquet)
    assert by_word.result == by_zero.result
    assert by_word.result.points() == {5: 13}


def test_bar_written_25_or_bar_in_backgammon(backgammon):
    setup = {24: 2, 13: 5, 8: 3, 6: 5}
    position = Position.from_points({25: 1, 24: 1, 13: 5, 8: 3, 6: 5}, setup)
    by_word = check_play(position, "31", "bar/22 6/5", backgammon)
    by_number = check_play(position, "31", "25/22 6/5", backgammon)
    assert by_word.result == by_number.result
    assert by_word.result.points()[22] == 1


def test_empty_play_when_nothing_can_move(jacquet):
    play = check_play(COURIER_ON_18, "66", "-", jacquet)
    assert str(play) == "-"
    assert play.steps == ()
    assert play.result == COURIER_ON_18


def test_empty_play_is_illegal_when_a_die_can_be_played(jacquet):
    error = broken(COURIER_ON_18, "65", "-", jacquet)
    assert error.rule_id == "R-MAX"


@pytest.mark.parametrize("dice", ["6-5", "65", "5 6", "5-6", "56"])
def test_dice_written_in_any_usual_way(jacquet, dice):
    assert str(check_play(START, dice, "24/13", jacquet)) == "24/13"


# -- malformed input is invalid, not illegal -------------------------------------------


def test_point_25_does_not_exist_in_jacquet(jacquet):
    invalid(InvalidPlayError, START, "63", "25/22", jacquet)
    invalid(InvalidPlayError, START, "63", "bar/22", jacquet)


def test_point_26_does_not_exist(jacquet, backgammon):
    invalid(InvalidPlayError, START, "65", "26/20", jacquet)
    invalid(InvalidPlayError, backgammon.start, "65", "26/20", backgammon)


def test_die_7_is_invalid_dice(jacquet):
    invalid(InvalidDiceError, START, "73", "24/14", jacquet)
    invalid(InvalidDiceError, START, "0-5", "24/19", jacquet)


def test_unreadable_dice(jacquet):
    invalid(InvalidDiceError, START, "x5", "24/19", jacquet)
    invalid(InvalidDiceError, START, "6 5 4", "24/9", jacquet)


def test_unreadable_play(jacquet):
    invalid(InvalidPlayError, START, "65", "abc", jacquet)
    invalid(InvalidPlayError, START, "65", "24/", jacquet)
    invalid(InvalidPlayError, START, "65", "24-13", jacquet)


def test_moving_backwards_is_invalid(jacquet):
    invalid(InvalidPlayError, START, "65", "13/24", jacquet)
    invalid(InvalidPlayError, START, "65", "24/19/24", jacquet)


def test_moving_from_off_is_invalid(jacquet):
    invalid(InvalidPlayError, BEAROFF, "65", "off/5", jacquet)


# -- illegal plays: rule id, message, legal plays --------------------------------------


def test_courier_message(jacquet):
    error = broken(COURIER_ON_9, "63", "24/18 24/21", jacquet)
    assert error.rule_id == "R-COURIER"
    assert error.msg.as_json() == {"id": "rule.courier.not-passed", "params": {"step": "24/18", "point": "9"}}
    assert str(error).startswith("[R-COURIER] ")


def test_courier_next_turn_message():
    rules = rule_set("jacquet", courier_release="next-turn")
    error = broken(COURIER_ON_9, "63", "9/3 24/21", rules)
    assert error.rule_id == "R-COURIER"
    assert error.msg.as_json() == {"id": "rule.courier.next-turn", "params": {"step": "24/21"}}


def test_dice_mismatch_is_r_dice(jacquet):
    error = broken(START, "65", "24/20", jacquet)
    assert error.rule_id == "R-DICE"
    assert error.msg.id == "rule.dice" and error.msg.params["moved"] == 4
    assert broken(START, "65", "24/18 24/12", jacquet).rule_id == "R-DICE"


def test_dice_mismatch_for_a_doublet_names_the_doublet_rule(jacquet):
    error = broken(START, "22", "24/15", jacquet)
    assert error.rule_id == "R-DOUBLET"
    assert error.msg.id == "rule.doublet" and (error.msg.params["steps"], error.msg.params["die"]) == (4, 2)


def test_moving_from_an_empty_point_is_r_empty(jacquet):
    error = broken(START, "61", "13/7 24/23", jacquet)
    assert error.rule_id == "R-EMPTY"
    assert error.msg.as_json() == {"id": "rule.empty", "params": {"step": "13/7", "point": "13"}}


def test_closed_point_message_names_the_point(jacquet):
    position = Position.from_points({24: 15}, {24: 14, 6: 1})  # his man on my 18
    error = broken(position, "64", "24/18/14", jacquet)
    assert error.rule_id == "R-OPEN"
    assert error.msg.id == "rule.open" and (error.msg.params["point"], error.msg.params["count"]) == (18, 1)


def test_hit_mark_in_jacquet_is_r_open(jacquet):
    position = Position.from_points({24: 15}, {24: 14, 6: 1})
    error = broken(position, "61", "24/18*/17", jacquet)
    assert error.rule_id == "R-OPEN"
    assert "no hitting" in error.reason


def test_max_message(jacquet):
    error = broken(COURIER_ON_18, "65", "18/13", jacquet)
    assert error.rule_id == "R-MAX"
    assert error.reason.startswith("18/13 plays 1 die")
    assert "2 dice can be played" in error.reason


def test_max_message_for_a_doublet(jacquet):
    position = Position.from_points({24: 14, 1: 1}, {24: 15})
    error = broken(position, "22", "24/20", jacquet)
    assert error.rule_id == "R-MAX"
    assert "2 steps of 2" in error.reason and "4 can be played" in error.reason


def test_high_message(jacquet):
    # his man on my 2 (his 14): only one die can be played, and it must be the 5
    position = Position.from_points({9: 1, 1: 14}, {14: 1, 5: 14})
    error = broken(position, "52", "9/7", jacquet)
    assert error.rule_id == "R-HIGH"
    assert error.reason.startswith("9/7 plays the 2")
    assert "must be the higher, 5" in error.reason


def test_bearoff_message_names_the_man_outside(jacquet):
    position = Position.from_points({9: 1, 4: 14}, {24: 15})
    error = broken(position, "42", "4/off 9/7", jacquet)
    assert error.rule_id == "R-BEAROFF"
    assert "outside points 6-1" in error.reason


def test_bar_message(murray):
    position = Position.from_points({25: 2, 24: 11, 5: 2}, {7: 2, 24: 13})
    error = broken(position, "65", "bar/20 24/18", murray)
    assert error.rule_id == "R-BAR"
    assert error.msg.as_json() == {"id": "rule.bar", "params": {"step": "24/18"}}


def test_waste_message(murray):
    position = Position.from_points({3: 1, 1: 2}, {24: 15})
    error = broken(position, "52", "3/1 1/off", murray)
    assert error.rule_id == "R-WASTE"
    assert "bears off 1 man; 2 can be borne off" in error.reason


def test_error_carries_the_legal_plays(jacquet):
    error = broken(COURIER_ON_9, "63", "24/18 24/21", jacquet)
    expected = legal_plays(COURIER_ON_9, "63", jacquet)
    assert [str(p) for p in error.legal_plays] == [str(p) for p in expected]
    assert [p.result for p in error.legal_plays] == [p.result for p in expected]


def test_every_kind_of_error_carries_the_legal_plays(jacquet):
    cases = [(START, "65", "24/20"),              # R-DICE
             (START, "61", "13/7 24/23"),         # R-EMPTY
             (COURIER_ON_18, "65", "18/13"),      # R-MAX
             (COURIER_ON_9, "63", "24/18 24/21")]  # R-COURIER
    for position, dice, text in cases:
        error = broken(position, dice, text, jacquet)
        expected = legal_plays(position, dice, jacquet)
        assert [str(p) for p in error.legal_plays] == [str(p) for p in expected], text


# -- the returned play is the legal play -----------------------------------------------


def test_returned_play_is_the_listed_legal_play(jacquet):
    listed = {str(p): p.result for p in legal_plays(COURIER_ON_9, "63", jacquet)}
    for text, result in listed.items():
        play = check_play(COURIER_ON_9, "63", text, jacquet)
        assert (str(play), play.result) == (text, result)


def test_returned_play_has_the_canonical_text_under_waste(murray):
    position = Position.from_points({2: 2, 1: 1}, {24: 15})
    assert [str(p) for p in legal_plays(position, "61", murray)] == ["2/off 2/1"]
    assert str(check_play(position, "61", "2/off 2/1", murray)) == "2/off 2/1"


def test_a_play_that_leaves_dice_unplayed_is_the_one_the_full_check_gives(jacquet):
    # no line of steps plays more dice (R-MAX), nor the higher die alone (R-HIGH)
    cases = ((START, "44", "24/20/16", 2),   # the courier stops on 16: 12 is his talon
             (Position.from_points({1: 1}, {24: 15}), "42", "1/off", 1),  # the game ends
             (Position.from_points({9: 1, 1: 14}, {14: 1, 5: 14}), "52", "9/4", 1))
    for position, dice, text, steps in cases:
        assert [str(p) for p in legal_plays(position, dice, jacquet)] == [text]
        fast = check_play(position, dice, text, jacquet)
        reference = check_play(position, dice, text, jacquet, exhaustive=True)
        assert (str(fast), fast.result) == (str(reference), reference.result)
        assert str(fast) == text and len(fast.steps) == steps


BLOTS_ON_18_AND_19 = {7: 1, 6: 1}  # his 7 and 6: my 19 and 18 (Jacquet family)


def test_a_left_out_rest_point_is_never_a_hit_in_murray(murray):
    """R-STEP: a hit on the way is written; 24/13 cannot mean a hit on 18 or 19."""
    position = Position.from_points({24: 15}, {**BLOTS_ON_18_AND_19, 24: 13})
    assert {str(p) for p in legal_plays(position, "65", murray)} == {"24/19*/13", "24/18*/13"}
    with pytest.raises(IllegalPlayError) as info:
        check_play(position, "65", "24/13", murray)
    assert info.value.rule_id == "R-HIT"
    assert "on the way" in info.value.reason and "24/" in info.value.reason


def test_a_left_out_rest_point_takes_the_way_without_a_hit_in_backgammon(backgammon):
    # his blot on his 7 is my 18; my 19 (his 6) is open: 24/13 goes by 19 and hits nothing
    position = Position.from_points({24: 2, 13: 5, 8: 3, 6: 5}, {7: 1, 13: 5, 8: 3, 1: 5, 2: 1})
    play = check_play(position, "65", "24/13", backgammon)
    assert [(s.from_point, s.to_point, s.hit) for s in play.steps] == [(24, 19, False), (19, 13, False)]
    assert play.result.opponent[25] == 0


def test_rest_point_written_resolves_the_hit(murray):
    position = Position.from_points({24: 15}, {**BLOTS_ON_18_AND_19, 24: 13})
    via_18 = check_play(position, "65", "24/18*/13", murray)
    via_19 = check_play(position, "65", "24/19*/13", murray)
    assert via_18.result.points("opponent") == {25: 1, 7: 1, 24: 13}
    assert via_19.result.points("opponent") == {25: 1, 6: 1, 24: 13}
