"""Entering a play step by step (the scorer's tool): the steps offered after any steps
entered lead exactly to the legal plays, and a step not offered is refused with a rule.
The game in progress (:mod:`notation.recording`): rolled dice stand through take-backs and
corrections; turns are numbered in messages as the record writes them."""

import random

import pytest

from notation import rule_set
from notation.engine.board import Position
from notation.engine.dice import Dice
from notation.engine.movegen import legal_plays
from notation.engine.play import Step
from notation.engine.rules import NAMES
from notation.engine.step_entry import StepEntry
from notation.errors import IllegalPlayError
from notation.formats.jqn import write_game
from notation.recording import LiveGame, new_game
from notation.tree.numbering import node_label
from tests.game_samples import sample_games
from tests.selfplay import play_random_game


def complete_entries(entry: StepEntry, entered: tuple = ()) -> set:
    """Every result reachable by clicking only offered steps after ``entered``, checking
    that each path of offered steps ends in a complete play."""
    results = set()
    pending = [entered]
    while pending:
        entered = pending.pop()
        offered = entry.next_steps(entered)
        if not offered:
            assert entry.is_complete(entered), entered
            mover, opponent, _ = entry._replay(entered)
            results.add((mover, opponent))
        pending += [(*entered, step) for step in offered]
    return results


@pytest.mark.parametrize("variant", NAMES)
def test_offered_steps_lead_exactly_to_the_legal_plays(variant):
    rules = rule_set(variant)
    rng = random.Random(variant)
    checked = 0
    for _ in range(3):
        game = play_random_game(rules, rng, max_turns=300)
        position = rules.start
        for index, (dice, play) in enumerate(game.turns):
            if index % 5 == 0:
                entry = StepEntry(position, dice, rules)
                expected = {(p.result.mover, p.result.opponent) for p in legal_plays(position, dice, rules)}
                assert complete_entries(entry) == expected
                checked += 1
            position = play.next_position
    assert checked > 20


@pytest.mark.parametrize("variant", NAMES)
def test_the_count_of_plays_left_follows_the_steps_entered(variant):
    """The recorder's prompt ("3 legal plays") counts the plays the steps entered so far
    still lead to, one per board they leave."""
    rules = rule_set(variant)
    rng = random.Random(f"{variant} left")
    narrowed = 0
    for _ in range(2):
        game = play_random_game(rules, rng, max_turns=300)
        position = rules.start
        for index, (dice, play) in enumerate(game.turns):
            if index % 7 == 0:
                entry = StepEntry(position, dice, rules)
                assert entry.plays_after(()) == len(legal_plays(position, dice, rules))
                for first in entry.next_steps(()):
                    for entered in [(first,), *((first, second) for second in entry.next_steps((first,)))]:
                        count = entry.plays_after(entered)
                        assert count == len(complete_entries(entry, entered)), entered
                        narrowed += count < entry.plays_after(())
            position = play.next_position
    assert narrowed > 10


def test_a_step_not_offered_is_refused_with_its_rule():
    rules = rule_set("jacquet")
    entry = StepEntry(rules.start, Dice.parse("64"), rules)
    with pytest.raises(IllegalPlayError) as refused:
        entry.next_steps((Step(13, 7, 6),))
    assert refused.value.rule_id == "R-EMPTY" and "24/18" in refused.value.reason
    with pytest.raises(IllegalPlayError) as wrong_die:
        entry.next_steps((Step(24, 19, 5),))
    assert wrong_die.value.rule_id == "R-DICE"
    first = Step(24, 18, 6)
    with pytest.raises(IllegalPlayError) as courier:  # a second man may not leave the talon
        entry.next_steps((first, Step(24, 20, 4)))
    assert courier.value.rule_id == "R-COURIER"


def test_a_roll_with_no_legal_step_is_complete_at_once():
    rules = rule_set("backgammon")
    closed = Position.from_points({25: 1, 1: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 3})
    entry = StepEntry(closed, Dice.parse("66"), rules)
    assert entry.length == 0 and entry.next_steps(()) == [] and entry.is_complete(())


# -- the game in progress (notation.recording): dice that stand, take-backs, numbering -------

def _play_first(live) -> None:
    live.play_text(str(live.entry().plays[0]))


def test_rolled_dice_stand_however_the_turns_are_taken_back():
    """The re-roll loophole: roll, take back, roll again until the dice suit. Each roll
    number keeps the dice first rolled for it, through take-backs, corrections and a
    stored game loaded again; typed dice cannot replace them, and they cannot be cleared."""
    rng = random.Random(7)
    live = LiveGame(new_game({"Variant": "backgammon", "Lead": "White"}))
    first = []
    for _ in range(6):
        live.set_dice(None, rng)
        first.append(live.dice)
        _play_first(live)
    for back in range(6):  # turns taken back one way or the other, the game stored between
        if live.dice is not None:
            _play_first(live)
        if back % 2:
            live.undo_turn()
        else:
            live.take_back_to(max(0, live.node.ply - 2))
        live = LiveGame.load(*live.dump())
        assert live.dice == first[live.roll_number - 1]  # the dice of the turn taken back
    live.take_back_to(0)
    assert live.dice == first[0] and live.dice_stand
    with pytest.raises(IllegalPlayError, match="R-DICE"):
        live.clear_dice()
    other = Dice(1, 2) if first[0] != Dice(1, 2) else Dice(3, 4)
    live.dice = None  # as if the scorer typed other dice for this roll
    with pytest.raises(IllegalPlayError) as refused:
        live.set_dice(other)
    assert refused.value.msg.as_json() == {"id": "recorder.dice-stand", "params": {"stood": str(first[0]),
                                                                                  "dice": str(other)}}
    replayed = []
    while live.node.ply < 6:
        if live.dice is None:
            live.set_dice(None, random.Random())  # another source: the same dice all the same
        replayed.append(live.dice)
        _play_first(live)
    assert replayed == first


def test_dice_entered_by_hand_may_be_changed_and_the_cube_moves_no_roll_on():
    live = LiveGame(new_game({"Variant": "backgammon", "Lead": "White"}))
    live.set_dice(Dice(6, 5))
    live.clear_dice()
    live.set_dice(Dice(3, 1))
    _play_first(live)
    live.set_dice(None, random.Random(1))
    rolled = live.dice
    _play_first(live)
    live.undo_turn()  # Black's roll back: a double first, then the same roll
    live.dice = None
    live.cube("double")
    live.cube("take")
    live.set_dice(None, random.Random(2))
    assert live.dice == rolled


def test_a_turn_with_nothing_to_play_is_taken_back_as_its_dice_came():
    """White's man on the bar faces a closed board: no roll plays. Dice typed by hand that
    had nothing to play are taken back to be typed again (a slip); rolled ones stand, so
    their empty turn goes with the turn before it."""
    closed = Position.from_points({25: 1, 1: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 3})
    live = LiveGame(new_game({"Variant": "backgammon", "Lead": "White",
                              "Position": closed.position_id()}))
    live.set_dice(Dice(6, 6))  # nothing to play: played at once as "-"
    assert live.node.ply == 1 and live.dice is None
    live.undo_turn()
    assert live.node.ply == 0 and live.dice is None  # the typed dice to be typed again
    live.set_dice(None, random.Random(3))
    assert live.node.ply == 1 and "-" in live.record()
    live.set_dice(None, random.Random(4))
    rolled = live.dice
    _play_first(live)
    live.undo_turn()  # Black's play back; his dice stay
    assert live.node.ply == 1 and live.dice == rolled
    with pytest.raises(IllegalPlayError, match="had nothing to play, and stand"):
        live.undo_turn()


def test_messages_number_each_turn_as_the_record_writes_it():
    """Each turn's label (``2. 61``, ``2... 53``, ``3. double``) is what the record writes
    before it, once every turn carries a comment (the writer then numbers every turn); in
    every rule set, Black starting or White, with cube actions and a resignation."""
    games = sample_games("json")
    assert {game.first.title for game in games} == {"White", "Black"}
    for game in games:
        nodes = list(game.mainline())
        for node in nodes:
            node.comments.append("c")
        text = write_game(game)
        at = 0
        for node in nodes:
            label = node_label(node)
            found = text.find(label, at)
            assert found >= 0, (label, text[at:at + 200])
            at = found + len(label)
