"""Reading the text notation: lenient spelling, strict meaning, errors with their place."""

import io
from functools import partial

import pytest

from notation.engine.state import Colour
from notation.errors import RecordError
from notation.formats import read_file
from notation.formats.jqn import SKIP, GameBuilder, Visitor, index_games, read_games, read_headers, write_game


def read(text: str, variant: str = "jacquet"):
    return list(read_games(io.BytesIO(text.encode("utf-8")), partial(GameBuilder, variant), file="t.jqn"))


def only_game(text: str, variant: str = "jacquet"):
    [game] = read(text, variant)
    return game


def plays(game):
    return [str(node.turn) for node in game.mainline()]


def test_spellings_of_the_same_roll_and_play_give_the_same_game():
    canonical = only_game("1. 65: 24/13 21: 24/21 *")
    for text in ("65: 24/18/13 12: 24/22/21 *", "1. 6-5: 24/19/13 1...2-1: 24/23/21 *",
                 "5 6: 24/18 18/13 1 2: 24/22 22/21 *"):
        game = only_game(text)
        assert not game.errors, game.errors
        assert plays(game) == plays(canonical) == ["65: 24/13", "21: 24/21"]


def test_bear_off_and_bar_spellings(tmp_path):
    text = '[Variant "backgammon"]\n\n1. 61: 13/7 8/7 64: 24/14 2. 62: 13/7 13/11 *'
    game = only_game(text)
    assert not game.errors, game.errors
    # White hits on his 5 point (Black's 20); Black enters with 25/22 as well as bar/22.
    for bar in ("bar/22", "25/22", "b/22"):
        entered = only_game('[Variant "backgammon"]\n\n1. 64: 24/18 13/9 41: 13/9 6/5 '
                            f'2. 44: 24/20* 13/9(2) 6/2 31: {bar} 8/7 *')
        assert not entered.errors, entered.errors
        assert entered.end().position.opponent[25] == 0


def test_comments_nags_and_nested_variations_attach_to_turns():
    game = only_game("{before} 1. 55: 24/19/14/9/4 ! {courier home} {second} 66: 24/18 $4 "
                     "(66: 24/18 {same} ({deeper} 66: 24/18 ?)) 2. 21: 4/2/1 *")
    assert game.comments == ["before"]
    first, second, third = list(game.mainline())
    assert first.nags == [1] and first.comments == ["courier home", "second"]
    assert second.nags == [4]
    assert len(first.variations) == 3
    assert first.variations[1].comments == ["same"]
    assert first.variations[2].starting_comments == ["deeper"]
    assert first.variations[2].nags == [2]
    assert str(third.turn) == "21: 4/1"  # both rest points open: canonical form omits it


def test_comment_with_escaped_braces_and_backslash():
    game = only_game(r"{a \{b\} c \\ d} 55: 24/4 *")
    assert game.comments == [r"a {b} c \ d"]


def test_lead_and_lead_roll_decide_who_starts():
    game = only_game('[LeadRoll "W2 B6"]\n\n1... 55: 24/4 *')
    assert game.first is Colour.BLACK
    wrong = only_game('[Lead "White"]\n[LeadRoll "W2 B6"]\n\n55: 24/4 *')
    assert wrong.errors[0].rule_id == "R-LEAD"


def test_backgammon_first_roll_must_be_the_lead_dice():
    game = only_game('[Variant "backgammon"]\n[LeadRoll "W3 B1"]\n\n1. 64: 24/18 13/9 *')
    [error] = game.errors
    assert error.rule_id == "R-LEAD" and "lead dice 31" in error.message


def test_versailles_lead_doublet_is_played_by_both_then_the_lead_is_rolled_again():
    game = only_game('[Variant "versailles"]\n[LeadRoll "W1 B1, W6 B4"]\n\n'
                     "1. 11: 24/23 1... 11: 24/23 2. 64: 23/13 *")
    assert not game.errors, game.errors
    players = [node.turn.player for node in game.mainline()]
    assert players == [Colour.WHITE, Colour.BLACK, Colour.WHITE]
    wrong = only_game('[Variant "versailles"]\n[LeadRoll "W1 B1, W6 B4"]\n\n1. 64: 24/14 *')
    assert wrong.errors[0].rule_id == "R-LEADDICE"


@pytest.mark.parametrize("variant, rule", [("versailles", "R-LEADDICE"), ("jacquet", "R-LEAD"),
                                           ("backgammon", "R-LEAD")])
def test_only_the_last_lead_roll_may_be_no_tie(variant, rule):
    """A lead roll that is no tie decides who starts: nothing is rolled after it."""
    game = only_game(f'[Variant "{variant}"]\n[LeadRoll "W3 B5, W4 B2"]\n\n*')
    [error] = game.errors
    assert (error.rule_id, error.line) == (rule, 2) and "W3 B5 is not a tie" in error.message


def test_versailles_passed_die_is_played_by_the_opponent_before_his_roll():
    import random

    from notation import rule_set
    from notation.formats.jqn import write_game
    from notation.tree.generate import random_game

    for seed in range(50):
        generated = random_game(rule_set("versailles"), random.Random(seed))
        passed = [n for n in generated.mainline() if n.turn.kind == "passed"]
        if passed:
            break
    text = write_game(generated)
    game = only_game(text)
    assert not game.errors
    node = next(n for n in game.mainline() if n.turn.kind == "passed")
    previous = node.parent.turn
    assert previous.player is not node.turn.player
    assert len(previous.play.steps) < 2  # the passer could not play both dice
    marker = f">{node.turn.dice}:"
    assert marker in text
    other = 1 if str(node.turn.dice) != "1" else 2
    wrong = only_game(text.replace(marker, f">{other}:", 1))
    assert wrong.errors[0].rule_id == "R-PASS"


def test_unknown_token_is_an_error_with_line_and_column():
    game = only_game("[Event \"x\"]\n\n1. 55: 24/4\n2. 66: 24/18 hello 21: 4/2/1 *")
    [error] = game.errors
    assert (error.line, error.column, error.rule_id) == (4, 14, "SYNTAX")
    assert "hello" in error.message


def test_rule_error_names_rule_turn_and_legal_plays():
    game = only_game("1. 55: 24/4 66: 24/18 2. 63: 4/1 *")
    [error] = game.errors
    assert error.rule_id == "R-MAX"
    assert error.game == 1 and error.turn == "2. 63"  # numbered as the record writes it
    assert "24/18 4/1" in error.legal_plays
    assert str(error).startswith("t.jqn:1:30: error: [R-MAX] game 1, turn 2. 63: 4/1 plays 1 die")


@pytest.mark.parametrize("movetext, line, column, rule", [
    ("1. 64: 24/18 24/20 32: 24/19 *", 3, 14, "R-COURIER"),  # the second man's move, not the roll
    ("1. 66: 24/18   24/18 *", 3, 16, "R-COURIER"),  # the same move twice: the second
    ("1. 66: 24/18(2) *", 3, 8, "R-COURIER"),  # both men in one word
    ("1. 53: 24/19\n   24/21 *", 4, 4, "R-COURIER"),  # a play going on on the next line
    ("1. 64: 24/14 1... 53: 24/16 2. 64: 24/18 24/20 *", 3, 36, "R-COURIER"),  # (on 14)
    ("1. 64: 24/20 20/14* *", 3, 14, "R-OPEN"),  # a hit marked: jacquet has none
    ("1. 53: 24/19 *", 3, 8, "R-MAX"),  # the play as a whole: its first move
    ("1. 53: 24/20 *", 3, 8, "R-DICE"),
])
def test_a_rule_error_points_at_the_move_that_breaks_it(movetext, line, column, rule):
    [error] = only_game(f'[Event "x"]\n\n{movetext}').errors
    assert (error.line, error.column, error.rule_id) == (line, column, rule)


def test_reader_recovers_at_the_next_game():
    games = read('[Event "one"]\n\n1. 63: 24/18 24/21 *\n\n[Event "two"]\n\n1. 55: 24/4 *\n')
    assert len(games) == 2
    assert games[0].errors and not games[1].errors
    assert plays(games[1]) == ["55: 24/19/14/9/4"]


def test_a_comment_left_open_ends_at_the_next_tag_line():
    """An unclosed comment is an error of its game, not the end of the file: the reader
    goes on with the next game (a tag line)."""
    games = read('[White "A"]\n\n1. 53: 24/16 {never closed\nstill the comment *\n\n'
                 '[White "B"]\n\n1. 53: 24/20 *\n\n[White "C"]\n\n1. 55: 24/4 *\n')
    assert [game.headers["White"] for game in games] == ["A", "B", "C"]
    [unclosed], [dice], [] = (game.errors for game in games)
    assert (unclosed.rule_id, unclosed.line, unclosed.column) == ("SYNTAX", 3, 14)
    assert "never closed" in unclosed.message
    assert (dice.rule_id, dice.line, dice.column) == ("R-DICE", 8, 8)  # at the play
    assert plays(games[2]) == ["55: 24/19/14/9/4"]


def test_strict_mode_raises(tmp_path):
    path = tmp_path / "bad.jqn"
    path.write_text("1. 63: 24/18 24/21 *\n", encoding="utf-8")
    with pytest.raises(RecordError) as caught:
        list(read_file(path, strict=True))
    assert caught.value.rule_id == "R-COURIER"


def test_result_must_match_the_rules_score():
    game = only_game('[Result "W+1"]\n\n1. 55: 24/4 *')
    assert game.errors[0].rule_id == "SYNTAX"  # the result token differs from the tag
    game = only_game('[Result "W+1"]\n\n1. 55: 24/4 W+1')
    assert game.errors[0].rule_id == "R-SCORE"
    assert "not over" in game.errors[0].message


def test_utf8_bom_is_tolerated():
    [game] = list(read_games(io.BytesIO("\ufeff[Event \"é\"]\n\n55: 24/4 *".encode("utf-8")), GameBuilder))
    assert game.headers["Event"] == "é" and not game.errors


def test_invalid_utf8_is_an_error_not_a_crash():
    [game] = list(read_games(io.BytesIO(b'[Event "\xff"]\n\n55: 24/4 *'), GameBuilder))
    assert game.errors and game.errors[0].rule_id == "SYNTAX"


def test_headers_only_fast_path_does_not_read_movetext():
    text = b'[Event "a"]\n\n1. 63: 24/18 24/21 *\n\n[Event "b"]\n\nnot even movetext\n'
    assert [h["Event"] for h in read_headers(io.BytesIO(text))] == ["a", "b"]


def test_skip_from_end_headers_skips_the_game():
    class CountTurns(Visitor):
        def begin_game(self, raw):
            self.turns = 0
            self.event = None

        def visit_header(self, name, value, line):
            self.event = value

        def end_headers(self):
            return SKIP if self.event == "skip" else None

        def visit_turn(self, *args):
            self.turns += 1

        def result(self):
            return self.turns

    text = b'[Event "skip"]\n\n55: 24/4 66: 24/18 *\n\n[Event "keep"]\n\n55: 24/4 *\n'
    assert list(read_games(io.BytesIO(text), CountTurns)) == [0, 1]


def test_index_gives_byte_offsets_of_each_game():
    text = '[Event "a"]\n\n55: 24/4 *\n\n[Event "ü"]\n\n66: 24/18 *\n'.encode()
    offsets = index_games(io.BytesIO(text))
    assert len(offsets) == 2
    second = text[offsets[1][0]:offsets[1][1]].decode("utf-8")
    assert second.startswith('[Event "ü"]') and "66: 24/18" in second


def test_bracket_inside_a_multiline_comment_does_not_start_a_game():
    text = b'[Event "a"]\n\n55: 24/4 {a comment\n[not a tag]\n} 66: 24/18 *\n'
    games = list(read_games(io.BytesIO(text), GameBuilder))
    assert len(games) == 1 and not games[0].errors
    assert games[0].next().comments == ["a comment\n[not a tag]\n"]


@pytest.mark.parametrize("movetext, message", [
    ("55: 24/4 {never closed", {"id": "reader.jqn.comment", "params": {}}),
    ("55: 24/4 )", {"id": "reader.jqn.close", "params": {}}),
    ("55: 24/4 (66: 24/18", {"id": "reader.jqn.unclosed", "params": {"count": 1}}),
    ("55: 66: 24/18", {"id": "reader.jqn.no-play", "params": {"dice": "55"}}),
    ("24/18 *", {"id": "reader.jqn.no-roll", "params": {"text": "'24/18'"}}),
    ("55: 24/4 * 66: 24/18", {"id": "reader.jqn.after-result", "params": {"text": "'66:'"}}),
    ("75: 24/12", {"id": "dice.face", "params": {"value": "7"}}),
])
def test_syntax_errors(movetext, message):
    game = only_game(movetext)
    assert game.errors and game.errors[0].rule_id == "SYNTAX"
    assert game.errors[0].msg.as_json() == message


def test_a_roll_that_cannot_be_read_is_an_error_in_every_game_it_stands_in():
    text = '[Result "*"]\n\n1. 75: 24/12 *\n\n[Result "*"]\n\n1. 75: 24/12 *\n'
    games = list(read_games(io.StringIO(text), GameBuilder))
    face = {"id": "dice.face", "params": {"value": "7"}}
    assert [(e.line, e.column, e.msg.as_json()) for game in games for e in game.errors] == [
        (3, 4, face), (7, 4, face)]


def test_a_record_that_is_backgammon_gets_a_hint():
    game = only_game("1. 31: 8/5 6/5 *")
    assert 'Variant "backgammon"' in game.errors[0].message


def test_the_side_not_to_act_may_resign():
    [game] = read('[Variant "backgammon"]\n[LeadRoll "W3 B1"]\n\n1. 31: 8/5 6/5 Black resigns W+1\n')
    assert not game.errors, game.errors
    end = game.end()
    assert end.turn.player is Colour.BLACK and end.parent.state.player is Colour.BLACK
    assert end.state.winner is Colour.WHITE and end.state.points == 1
    [white_to_act] = read('[Variant "backgammon"]\n[LeadRoll "W3 B1"]\n\n1. 31: 8/5 6/5 White resigns B+2\n')
    assert not white_to_act.errors and white_to_act.end().state.winner is Colour.BLACK
    written = write_game(white_to_act)  # "resign" would be Black, the player to act
    assert "8/5 6/5 White resigns B+2" in written and read(written)[0].end().state.winner is Colour.BLACK
    assert "6/5 resign W+1" in write_game(game)


@pytest.mark.parametrize("tag, rule", [('[MatchLength "abc"]', "TAG"), ('[Game "x"]', "TAG"),
                                       ('[Score "3:1"]', "TAG"), ('[Score "3"]', "TAG"),
                                       ('[Score "1234567890123456789-0"]', "LIMIT")])
def test_match_tags_are_numbers(tag, rule):
    [error] = only_game(f'{tag}\n\n*').errors
    assert (error.rule_id, error.line) == (rule, 1)
    assert not only_game('[MatchLength "7"]\n[Game "2"]\n[Score "3-1"]\n\n*').errors


@pytest.mark.parametrize("text, column", [("{start} $7 1. 31: 24/21/20 *", 9),
                                          ("1. 31: 24/21/20 13: 24/21/20 ( $2 {alt} 64: 24/14 ) *", 32)])
def test_a_nag_before_any_turn_it_could_mark_is_an_error(text, column):
    [error] = only_game(text).errors
    assert (error.rule_id, error.line, error.column) == ("SYNTAX", 1, column)
    assert "a NAG marks the turn before it" in error.message


def test_an_adjudicated_game_may_award_its_winner_fewer_points_than_the_rules():
    """A .mat exporter may record a gammon as 1 point (the reader warns and keeps it):
    the Adjudicated tag carries that into the other formats."""
    import random

    from notation import rule_set
    from notation.tree.generate import random_game
    rng = random.Random(5)
    game = next(g for g in (random_game(rule_set("backgammon"), rng) for _ in range(200))
                if g.end().state.points == 2 and g.end().state.cube == 1)
    winner = game.result[0]
    for tag, declared, valid in (("", f"{winner}+1", False), ('[Adjudicated "yes"]\n', f"{winner}+1", True),
                                 ('[Adjudicated "yes"]\n', f"{winner}+3", False),
                                 ('[Adjudicated "yes"]\n', f"{'B' if winner == 'W' else 'W'}+1", False)):
        game.headers["Result"] = declared
        text = write_game(game)
        [back] = read(tag + text)
        assert (not back.errors) is valid, (tag, declared, back.errors)
        if valid:
            assert back.result == declared and write_game(back).endswith(f" {declared}\n")


def test_dice_without_their_colon_get_a_hint_in_every_language():
    from notation.messages import render

    for text, token, column in (("1. 64 24/14 *", "64", 4), ("1. 6-4 24/14 *", "6-4", 4),
                                ("1. 64: 24/14 2. 53 13/8 *", "53", 17)):
        [error] = only_game(text).errors
        assert (error.line, error.column) == (1, column)
        assert error.msg.as_json() == {"id": "reader.jqn.roll-colon", "params": {"token": f"'{token}'", "roll": token}}
    [error] = only_game("1. 64 24/14 *").errors
    assert render(error.msg, "fr") == "élément inconnu '64' : les dés sont suivis de « : », comme 64: 24/18"
    assert render(error.msg, "ru") == "неизвестный элемент '64': после костей ставится «:», как 64: 24/18"
    for text in ("1. 77 24/14 *", "1. 64;24/14 *"):  # no dice: no hint of a colon
        [error] = only_game(text).errors
        assert error.msg.id == "reader.jqn.unknown-token"
