"""Rule set ``narde`` (long nardy): the worked cases of the rules digest §9, then each rule
of the set (R-HEAD with its ``head_doublets`` reading, R-SIXBLOCK, R-SCORE-MARS, the
``cube`` option) where it fires and where it must not.

Positions are built by hand from the rules: the mover's men in his own numbering (24 = the
head .. 1), the opponent's in *his* own numbering, the mover's ``p - 12 if p > 12 else
p + 12`` (both run the same way, as in Jacquet).
"""

import io
import random
from functools import partial

import pytest
from click.testing import CliRunner

from jacquet_cli import main
from notation import InvalidError, Position, legal_plays, rule_set
from notation.engine.checker import check_play
from notation.engine.dice import Dice
from notation.engine.state import DOUBLE, DROP, ROLL, TAKE, Colour, GameRuleError, GameState
from notation.formats.jqn import GameBuilder, read_games, write_game
from notation.tree.generate import random_game

from .rule_helpers import broken, holds, outcome, outcomes, texts

NARDE = rule_set("narde")
START = Position.from_points({24: 15}, {24: 15})


# -- §9 worked cases (the player's first turn unless said) ------------------------------


def test_case1_opening_66_two_men_off_the_head_other_sixes_lost():
    plays = legal_plays(START, "66", NARDE)
    assert texts(plays) == {"24/18(2)"}
    assert len(plays[0].steps) == 2  # 18/12 lands on his head


def test_case2_opening_44_two_men_to_16():
    assert texts(legal_plays(START, "44", NARDE)) == {"24/16(2)"}


def test_case3_opening_33_two_plays():
    plays = legal_plays(START, "33", NARDE)
    assert outcomes(plays) == {outcome({24: 13, 15: 1, 21: 1}), outcome({24: 13, 18: 2})}
    assert texts(plays) == {"24/21 24/15", "24/18(2)"}
    for written in ("24/15 24/21", "24/18(2)", "24/21/18 24/21/18"):
        check_play(START, "33", written, NARDE)


def test_case4_opening_65_one_man_off_the_head():
    assert [str(p) for p in legal_plays(START, "65", NARDE)] == ["24/13"]
    error = broken(START, "65", "24/18 24/19", NARDE)
    assert error.rule_id == "R-HEAD"
    assert [str(p) for p in error.legal_plays] == ["24/13"]


CASE5 = Position.from_points({24: 13, 15: 1, 10: 1}, {24: 15})  # his men on his head (my 12)


def test_case5_not_the_first_turn_one_man_off_the_head():
    assert texts(legal_plays(CASE5, "66", NARDE)) == {"24/18 15/3 10/4"}
    error = broken(CASE5, "66", "24/18(2) 15/3", NARDE)
    assert error.rule_id == "R-HEAD"
    assert "head_doublets=6-4-3" in error.reason


# mine: 9 on the head, one each on 11, 10, 9, 8, two on 7; his all on his head (my 12)
CASE6 = Position.from_points({24: 9, 11: 1, 10: 1, 9: 1, 8: 1, 7: 2}, {24: 15})
CASE6_PAST = Position.from_points({24: 9, 11: 1, 10: 1, 9: 1, 8: 1, 7: 2},
                                  {24: 14, 17: 1})  # one of his men on my 5: past the block
SIX = (11, 10, 9, 8, 7, 6)


def test_case6_sixblock_in_front_of_all_his_men_is_illegal():
    plays = legal_plays(CASE6, "51", NARDE)
    assert plays and not any(holds(p.result.points(), SIX) for p in plays)
    error = broken(CASE6, "51", "24/19 7/6", NARDE)
    assert error.rule_id == "R-SIXBLOCK"
    assert "11, 10, 9, 8, 7, 6" in error.reason


def test_case6_sixblock_legal_once_one_of_his_men_is_past_it():
    play = check_play(CASE6_PAST, "51", "24/19 7/6", NARDE)
    assert holds(play.result.points(), SIX)


# -- R-HEAD -------------------------------------------------------------------------------


def test_head_first_turn_44_with_my_16_closed_plays_two_men_to_20():
    # his first turn was 5-5: 24/4 (his 4 is my 16); R-MAX makes the second head man play
    position = Position.from_points({24: 15}, {24: 14, 4: 1})
    assert texts(legal_plays(position, "44", NARDE)) == {"24/20(2)"}


def test_head_each_players_own_first_turn_counts():
    # the second player's first turn: the first has moved one man (6-5: 24/13, my 1)
    position = Position.from_points({24: 15}, {24: 14, 13: 1})
    assert texts(legal_plays(position, "66", NARDE)) == {"24/18(2)"}


def test_head_doublets_outside_the_exception_take_one_man():
    for dice in ("55", "22", "11"):
        plays = legal_plays(START, dice, NARDE)
        assert all(p.result.mover[24] == 14 for p in plays), dice


def test_head_quota_counts_the_men_that_left_in_this_turn():
    # 14 on the head: not the first turn, so one man may leave it, even with 6-6
    position = Position.from_points({24: 14, 20: 1}, {24: 15})
    for play in legal_plays(position, "66", NARDE):
        assert play.result.mover[24] == 13
    assert broken(position, "66", "24/18(2) 20/14/8", NARDE).rule_id == "R-HEAD"


def test_head_doublets_option_6_4():
    rules = rule_set("narde", head_doublets="6-4")
    assert texts(legal_plays(START, "33", rules)) == {"24/15"}
    assert texts(legal_plays(START, "66", rules)) == {"24/18(2)"}
    assert texts(legal_plays(START, "44", rules)) == {"24/16(2)"}
    error = broken(START, "33", "24/18(2)", rules)
    assert error.rule_id == "R-HEAD"
    assert "head_doublets=6-4" in error.reason and "3-3" not in error.reason
    assert rules.describe() == "narde(head_doublets=6-4)"


def test_head_third_man_in_the_first_turn_is_named():
    error = broken(START, "33", "24/21(3) 21/18", NARDE)
    assert error.rule_id == "R-HEAD"
    assert "third man" in error.reason


def test_head_doublets_option_refuses_an_unknown_reading():
    with pytest.raises(InvalidError, match="head_doublets"):
        rule_set("narde", head_doublets="6-5")


# -- R-SIXBLOCK ---------------------------------------------------------------------------


def test_sixblock_checked_at_a_rest_point():
    # 7/6/1 would rest on 6, completing 11-6 ahead of all his men: only 7/2/1 is legal
    plays = legal_plays(CASE6, "51", NARDE)
    assert "7/2/1" in texts(plays)
    assert check_play(CASE6, "51", "7/1", NARDE).result.points() == {
        24: 9, 11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 1: 1}
    assert broken(CASE6, "51", "7/6/1", NARDE).rule_id == "R-SIXBLOCK"
    # with a man of his past the block, both orders are legal and the rest point is not written
    assert "7/1" in texts(legal_plays(CASE6_PAST, "51", NARDE))


def test_sixblock_allowed_once_he_has_borne_a_man_off():
    position = Position.from_points({24: 9, 11: 1, 10: 1, 9: 1, 8: 1, 7: 2},
                                    {14: 14})  # his men on my 2, one borne off
    play = check_play(position, "51", "24/19 7/6", NARDE)
    assert holds(play.result.points(), SIX)


def test_sixblock_counts_the_head_while_it_holds_a_man():
    # 24, 23, 22, 21, 20 held: a man to 19 makes six in a row (his 12-7), his men behind it
    position = Position.from_points({24: 9, 23: 1, 22: 1, 21: 1, 20: 1, 10: 1, 3: 1}, {24: 15})
    assert broken(position, "54", "24/19 10/6", NARDE).rule_id == "R-SIXBLOCK"
    emptied = Position.from_points({23: 10, 22: 1, 21: 1, 20: 1, 10: 1, 3: 1}, {24: 15})
    check_play(emptied, "54", "23/18 10/6", NARDE)  # 23-18 held, the head empty: five


def test_sixblock_may_run_across_my_1_24_corner():
    # my 3, 2, 1, 24, 23 held (his 15, 14, 13, 12, 11) and 22 would make six along his route
    position = Position.from_points({24: 10, 23: 1, 3: 1, 2: 1, 1: 1, 9: 1}, {24: 15})
    assert broken(position, "21", "24/22 9/8", NARDE).rule_id == "R-SIXBLOCK"


def test_sixblock_never_across_his_own_1_24_end():
    # my 15, 14, 13 (his 3, 2, 1) and 12, 11, 10 (his 24, 23, 22) are not consecutive for him
    position = Position.from_points({24: 9, 15: 1, 14: 1, 13: 1, 11: 1, 10: 1, 16: 1},
                                    {20: 15})  # his men on his 20 (my 8)
    play = check_play(position, "41", "16/12 24/23", NARDE)
    assert holds(play.result.points(), (15, 14, 13, 12, 11, 10))


# -- R-BEAROFF, R-MAX as jacquet --------------------------------------------------------------


def test_bear_off_with_a_higher_die_from_the_highest_point():
    position = Position.from_points({4: 1, 2: 1}, {1: 8, 2: 7})
    assert texts(legal_plays(position, "65", NARDE)) == {"4/off 2/off"}


def test_no_courier_any_man_moves():
    position = Position.from_points({24: 14, 20: 1}, {24: 15})
    assert "24/18 20/15" in texts(legal_plays(position, "65", NARDE))


# -- R-SCORE-MARS and the cube ------------------------------------------------------------


def test_score_oin_and_mars():
    assert NARDE.score(Position.from_points({}, {6: 14})) == 1
    assert NARDE.score(Position.from_points({}, {6: 15})) == 2
    assert NARDE.score_rule == "R-SCORE-MARS"


def test_no_cube_by_default():
    state = GameState.start(NARDE)
    with pytest.raises(GameRuleError) as refused:
        state.after(DOUBLE)
    assert refused.value.rule_id == "R-CUBE"


def test_cube_option_doubles_takes_drops_and_scores_times_the_cube():
    rules = rule_set("narde", cube="true")
    assert rules.has_cube and rules.options_text == "cube=true"
    assert rule_set("narde", cube=True).options_text == "cube=true"
    assert rules.score(Position.from_points({}, {6: 15}), cube=4) == 8
    state, _ = GameState.start(rules).after(ROLL, Dice.parse("65"), "24/13")
    doubled, _ = state.after(DOUBLE)
    taken, _ = doubled.after(TAKE)
    assert taken.cube == 2 and taken.cube_owner is Colour.WHITE
    with pytest.raises(GameRuleError):  # Black may not redouble: White owns the cube
        taken.after(DOUBLE)
    dropped, _ = state.after(DOUBLE)[0].after(DROP)
    assert dropped.winner is Colour.BLACK and dropped.points == 1
    assert rules.resign_points(2) == [2, 4]


def test_cube_option_refuses_other_values():
    with pytest.raises(InvalidError, match="cube"):
        rule_set("narde", cube="maybe")


def _finished_game(points):
    """A random narde game (the text notation) that the rules score ``points``."""
    for seed in range(200):
        game = random_game(NARDE, random.Random(seed))
        if game.end().state.points == points:
            return write_game(game), game.result
    raise AssertionError(f"no random game scored {points}")  # pragma: no cover


def _read(text):
    [game] = list(read_games(io.BytesIO(text.encode("utf-8")), partial(GameBuilder, "jacquet")))
    return game


def test_a_declared_koks_is_kept_as_written():
    text, result = _finished_game(2)  # a mars
    koks = result[:2] + "3"
    game = _read(text.replace(result, koks))  # the tag and the game's last token
    assert not game.errors
    assert game.end().state.points == 3
    assert f'[Result "{koks}"]' in write_game(game)


def test_a_declared_koks_where_the_rules_score_an_oin_is_an_error():
    text, result = _finished_game(1)
    game = _read(text.replace(result, result[:2] + "3"))
    assert [error.rule_id for error in game.errors] == ["R-SCORE-MARS"]


def test_the_command_line_reads_narde_and_its_option_from_the_registry():
    result = CliRunner().invoke(main, ["legal", "--variant", "narde", "--dice", "33"])
    assert result.exit_code == 0 and sorted(result.output.splitlines()) == ["24/18(2)", "24/21 24/15"]
    option = CliRunner().invoke(main, ["legal", "--variant", "narde", "-O", "head_doublets=6-4",
                                       "--dice", "33"])
    assert option.exit_code == 0 and option.output.splitlines() == ["24/15"]
