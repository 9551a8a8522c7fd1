"""Property tests of the rules engine, for every rule set, on positions drawn from random
games (the invariants over many whole random games are in ``tests/test_properties.py``;
what both share in ``tests/property_checks.py``).

Expensive properties, on positions drawn by hypothesis (a game seed and a ply of that game)
with any roll, ``derandomize=True`` so that every run checks the same examples:

2. Every play from ``legal_plays`` is accepted by ``check_play`` written as ``str(play)``
   and as its single steps one by one (``24/18 18/13``), with the same result (and, hitting
   rule sets, with its hit marks left out), and the play returned is written as the listed
   one. Positions with more than ``MAX_PLAYS`` legal plays check a fixed sample of them.
3. Every other combination of single-die steps is refused. Every multiset of geometric steps
   (from any point holding a man of the mover, any die, ``to = from - die``, off when that
   is <= 0, the bar entering at ``25 - die``; no rule applied) is written as a play text, and
   what the text may mean is worked out independently of the checker:

   * Doublets: one move per step. With a single die value the mover's board fixes the
     multiset of steps, so the hits too: the text is legal exactly when its result, computed
     here, is the result of a legal play.
   * Other rolls: one move per step, and also, where the two steps chain, the man's move
     without its rest point (``24/16``). Comparing results alone is not enough here: the
     same board may come from ``24/19 19/16`` (a closed rest point, illegal) and from
     ``24/21/16`` (legal), or from one man ``16/9`` (a third man resting on 13, R-MID2) and
     from two, ``13/9 16/13``. So every ordered sequence of steps is judged by the step
     judge that generator and checker share (``TurnRules.step``), and a text means the
     results, among the legal plays' results, of the sequences that realize it; a rest
     point left out is never a hit (the checker's convention since commit a1bbf92: a hit on
     the way is written, ``5/3*/2``). Only the turn-level work of the checker (realizing
     texts, R-MAX, R-WASTE, R-HIGH) is tested this way, not the step rules themselves.

   No meaning: refused (``IllegalPlayError``/``InvalidPlayError``); one: accepted with that
   result; several (none with the convention above): ``AmbiguousPlayError`` or one of them.
   Enumerations larger than ``MAX_TEXTS`` are sampled, every text with a meaning first.
4. ``legal_plays`` never lists two plays with the same result; all its plays use the same
   number of dice (R-MAX) and only dice rolled; their steps replay to their results.
5. The step rules a turn leaves out (their ``applies`` is false at its start) cannot fire:
   every step of every sequence of the turn is judged alike with every step rule asked.

Engine bugs these properties found are pinned at the end of the file by their smallest
example (a suspected bug still open would be a strict xfail there).
"""

from __future__ import annotations

import functools
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from notation import (
    AmbiguousPlayError,
    Dice,
    IllegalPlayError,
    InvalidPlayError,
    Position,
    legal_plays,
    rule_set,
)
from notation.engine.board import BAR, OFF, point_name
from notation.engine.checker import check_play
from notation.engine.movegen import TurnRules
from notation.engine.rules import NAMES
from tests.property_checks import (
    HITTING,
    RULES,
    SEED_OFFSET,
    board_problems,
    geometric_step,
    id_round_trips,
    replay_steps,
)
from tests.selfplay import play_random_game

POSITION_SEEDS = 24         # games the hypothesis-drawn positions come from, per rule set
MAX_TEXTS = 250             # play texts checked per position and roll in property 3
MAX_PLAYS = 40              # legal plays checked per position and roll in property 2


# When a hypothesis test fails (an xfail one too), its pytest plugin imports
# hypothesis.extra._patching; where libcst is installed that import warns about
# mypy_extensions, and filterwarnings = error turns the warning into an INTERNALERROR.
pytestmark = pytest.mark.filterwarnings(
    "ignore:mypy_extensions.TypedDict is deprecated:DeprecationWarning")


# -- drawn positions for properties 2-4 ---------------------------------------------------


@functools.cache
def game_positions(name, seed):
    """Every position of one random game at which a player is on roll."""
    rules = RULES[name]
    game = play_random_game(rules, random.Random(SEED_OFFSET[name] + seed))
    return (rules.start,) + tuple(play.next_position for _, play in game.turns[:-1])


@st.composite
def situations(draw):
    """(game seed, ply, dice): the position on roll at that ply of that random game (the
    ply taken modulo the game's length) and any roll."""
    seed = draw(st.integers(0, POSITION_SEEDS - 1))
    ply = draw(st.integers(0, 10**6))
    dice = Dice(draw(st.integers(1, 6)), draw(st.integers(1, 6)))
    return seed, ply, dice


class Pinned(dict):
    """An explicit example: {rule set: (position ID, dice)}; other rule sets get their
    start position and a 2-1."""


def situation(name, drawn):
    if isinstance(drawn, Pinned):
        position_id, dice = drawn.get(name, (RULES[name].start.position_id(), "21"))
        return Position.from_id(position_id), Dice.parse(dice)
    seed, ply, dice = drawn
    positions = game_positions(name, seed)
    return positions[ply % len(positions)], dice


# The smallest examples found of engine bugs (fixed since), also pinned at the end.
MARKED_TWINS = Pinned(backgammon=("xGfwQSDgc/ABMA", "11"), murray=("YIQ9CjwImHobFA", "55"))
WASTE_NOTATION = Pinned(murray=("F1UN6AD/qxgAAA", "43"))


def where(name, position, dice, text=None):
    return (f"{name} position {position.position_id()} dice {dice}"
            + (f" text {text!r}" if text is not None else ""))


PROPERTY = {"derandomize": True, "deadline": None, "database": None,
            "suppress_health_check": [HealthCheck.too_slow]}


def result_of(play):
    return play.result.mover, play.result.opponent


# -- property 2 ----------------------------------------------------------------------------

def some_plays(name, position, dice):
    """The legal plays, or a fixed sample of ``MAX_PLAYS`` of them (under R-WASTE every
    ``check_play`` runs the generator again, so big doublet lists are costly)."""
    plays = legal_plays(position, dice, RULES[name])
    if len(plays) <= MAX_PLAYS:
        return plays
    return random.Random(where(name, position, dice)).sample(plays, MAX_PLAYS)


def written_forms(play, marks=True):
    """The play's canonical text and its single steps written one by one."""
    stepwise = " ".join(str(step) for step in play.steps) or "-"
    forms = (str(play), stepwise)
    return forms if marks else tuple(text.replace("*", "") for text in forms)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=60, **PROPERTY)
@given(drawn=situations())
@example(drawn=MARKED_TWINS)
def test_every_legal_play_is_accepted_as_written(name, drawn):
    rules = RULES[name]
    position, dice = situation(name, drawn)
    for play in some_plays(name, position, dice):
        for text in written_forms(play):
            checked = check_play(position, dice, text, rules)
            assert result_of(checked) == result_of(play), where(name, position, dice, text)


@pytest.mark.parametrize("name", HITTING)
@settings(max_examples=60, **PROPERTY)
@given(drawn=situations())
def test_every_legal_play_is_accepted_without_its_hit_marks(name, drawn):
    rules = RULES[name]
    position, dice = situation(name, drawn)
    for play in some_plays(name, position, dice):
        for text in written_forms(play, marks=False):
            checked = check_play(position, dice, text, rules)
            assert result_of(checked) == result_of(play), where(name, position, dice, text)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=30, **PROPERTY)
@given(drawn=situations())
@example(drawn=WASTE_NOTATION)
def test_check_play_returns_the_listed_play_with_its_notation(name, drawn):
    rules = RULES[name]
    position, dice = situation(name, drawn)
    for play in some_plays(name, position, dice):
        for text in written_forms(play):
            checked = check_play(position, dice, text, rules)
            assert str(checked) == str(play), where(name, position, dice, text)


# -- property 3 ----------------------------------------------------------------------------


def faces_of(rules, dice):
    if dice.is_doublet:
        return (dice.high,) * rules.doublet_steps(dice.high)
    return dice.values


def text_of(moves):
    return " ".join(f"{point_name(a)}/{point_name(b)}" for a, b in moves) or "-"


def key_of(moves):
    return tuple(sorted(moves))


def step_texts(rules, position, dice):
    """Every multiset of geometric steps written as play texts: {key: (text, mover after)}.

    Doublets: one move per step. Other rolls: one move per step, and also, when the two
    steps chain, the one man's move without its rest point."""
    texts = {(): ("-", position.mover)}
    layer = {((), tuple(sorted(faces_of(rules, dice)))): (position.mover, position.opponent, ())}
    while layer:
        following = {}
        for (steps, left), (mover, opponent, order) in layer.items():
            for die in sorted(set(left), reverse=True):
                rest = list(left)
                rest.remove(die)
                for from_point in range(BAR, 0, -1):
                    if not mover[from_point]:
                        continue
                    after, opponent_after, to_point = geometric_step(rules, mover, opponent,
                                                                from_point, die)
                    key = (tuple(sorted(steps + ((from_point, to_point, die),))), tuple(rest))
                    if key in following:
                        continue
                    moves = order + ((from_point, to_point),)
                    following[key] = (after, opponent_after, moves)
                    texts.setdefault(key_of(moves), (text_of(moves), after))
                    if not dice.is_doublet and len(moves) == 2:
                        merged = merge(moves)
                        if merged:
                            texts.setdefault(key_of(merged), (text_of(merged), after))
        layer = following
    return texts


def merge(moves):
    """Two chained steps as one man's move without the rest point, else ``None``."""
    (a, b), (c, d) = moves
    if b == c and b != OFF:
        return ((a, d),)
    if d == a:
        return ((c, b),)
    return None


def realized_results(rules, position, dice, legal_results):
    """Rolls other than doublets: {text key: legal results of the texts' realizations}.

    Every ordered sequence of steps that the shared step judge (``TurnRules.step``, used by
    the generator and the checker alike) allows, whose result is a legal play's result,
    realizes its one-move-per-step text; when its two steps chain (the second starts where
    the first ended) and the first hits nothing, also the one man's move without the rest
    point (a rest point left out is never a hit: a hit there is written, ``8/5*/3``)."""
    turn = TurnRules(rules, position, dice)
    found = {}

    def explore(mover, opponent, left, steps):
        if (mover, opponent) in legal_results:
            keys = [key_of((s.from_point, s.to_point) for s in steps)]
            if (len(steps) == 2 and steps[0].to_point == steps[1].from_point != OFF
                    and not steps[0].hit):
                keys.append(key_of([(steps[0].from_point, steps[1].to_point)]))
            for key in keys:
                found.setdefault(key, set()).add((mover, opponent))
        for die in set(left):
            rest = list(left)
            rest.remove(die)
            for from_point in range(BAR, 0, -1):
                if mover[from_point]:
                    broken, after, theirs, step = turn.step(mover, opponent, from_point, die)
                    if broken is None:
                        explore(after, theirs, tuple(rest), steps + (step,))

    explore(position.mover, position.opponent, faces_of(rules, dice), ())
    return found


def expected_meanings(rules, position, dice):
    """[(text, legal results the text can mean)] for the texts checked at one situation."""
    plays = legal_plays(position, dice, rules)
    legal_results = {result_of(play) for play in plays}
    by_mover = {}
    for result in legal_results:
        by_mover.setdefault(result[0], set()).add(result)
    texts = step_texts(rules, position, dice)
    if dice.is_doublet:
        # One die value: the mover's board fixes the multiset of steps, and so the hits.
        meanings = {key: by_mover.get(mover, set()) for key, (_, mover) in texts.items()}
    else:
        found = realized_results(rules, position, dice, legal_results)
        meanings = {key: found.get(key, set()) for key in texts}
    keys = sorted(texts)
    if len(keys) > MAX_TEXTS:
        good = [k for k in keys if meanings[k]][:MAX_TEXTS // 2]
        rest = [k for k in keys if not meanings[k]]
        sample = random.Random(where(rules.name, position, dice)).sample(
            rest, min(len(rest), MAX_TEXTS - len(good)))
        keys = good + sample
    return [(texts[key][0], meanings[key]) for key in keys]


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=25, **PROPERTY)
@given(drawn=situations())
def test_exactly_the_legal_step_combinations_are_accepted(name, drawn):
    rules = RULES[name]
    position, dice = situation(name, drawn)
    for text, meanings in expected_meanings(rules, position, dice):
        context = where(name, position, dice, text)
        try:
            checked = check_play(position, dice, text, rules)
        except AmbiguousPlayError:
            assert len(meanings) > 1, f"ambiguous, but it fits one legal play or none: {context}"
            continue
        except (IllegalPlayError, InvalidPlayError) as error:
            assert not meanings, f"refused ({error}), but a legal play fits it: {context}"
            continue
        assert result_of(checked) in meanings, f"accepted as {checked}: {context}"


# -- property 4 ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=150, **PROPERTY)
@given(drawn=situations())
def test_legal_plays_are_distinct_and_use_the_most_dice(name, drawn):
    rules = RULES[name]
    position, dice = situation(name, drawn)
    context = where(name, position, dice)
    plays = legal_plays(position, dice, rules)
    assert plays, context
    results = [result_of(play) for play in plays]
    assert len(set(results)) == len(results), context
    assert len({len(play.steps) for play in plays}) == 1, context
    for play in plays:
        assert not Counter(play.dice_used) - Counter(faces_of(rules, dice)), f"{context} {play}"
        assert replay_steps(rules, position, play)[0] is None, f"{context} play {play}"
        assert not board_problems(rules, play.result), f"{context} play {play}"
        assert id_round_trips(play.result) and id_round_trips(play.next_position), context
    assert id_round_trips(position), context


# -- property 5: the step rules' filters ------------------------------------------------------


# Where a filter is barely true: six men on 24-19 and point 1 empty, 24/19 fills the six
# points (R-FIRSTQUARTER; the opponent's courier phase is over, so no R-POSTILION); three
# men on 13 or behind it, 17/13 puts a third on 13 (murray, R-MID2).
FILTERS_BARELY_TRUE = Pinned(jacquet=("EAAC/j/AfwBQNQ", "51"), versailles=("EAAC/j/AfwBQNQ", "51"),
                             hale=("EAAC/j/AfwBQNQ", "51"), murray=("AACA/z/g/wFDAA", "41"))
FILTERED_RULE_SETS = [(name, {}) for name in NAMES if RULES[name].step_rules] + [
    ("jacquet", {"courier_release": "next-turn"}), ("jacquet", {"bouchon": "last-two"}),
    ("versailles", {"bouchon": "none"}), ("murray", {"courier_release": "next-turn"}),
    ("narde", {"head_doublets": "6-4"}), ("fevga", {"prime": "sixblock"})]


@pytest.mark.parametrize("name, options", FILTERED_RULE_SETS,
                         ids=[f"{name}{options or ''}" for name, options in FILTERED_RULE_SETS])
@settings(max_examples=120, **PROPERTY)
@given(drawn=situations())
@example(drawn=FILTERS_BARELY_TRUE)
def test_step_rule_filters_leave_out_only_rules_that_cannot_fire(name, options, drawn):
    """A turn judges only the step rules whose ``applies`` holds at its start: every step of
    every sequence of the turn is judged alike when every step rule is asked (rule sets
    with options judge the positions of their default's games)."""
    rules = rule_set(name, **options)
    position, dice = situation(name, drawn)
    filtered = TurnRules(rules, position, dice)
    every_rule = TurnRules(rules, position, dice)
    every_rule.step_rules, every_rule.order_free = rules.step_rules, False
    boards = {(position.mover, position.opponent, filtered.die_sequence)}
    while boards:
        after = set()
        for mover, opponent, left in boards:
            for from_point in range(BAR, 0, -1):
                for die in set(left):
                    outcome = filtered.step(mover, opponent, from_point, die)
                    context = f"{where(name, position, dice)} step {from_point}/{die}"
                    assert outcome == every_rule.step(mover, opponent, from_point, die), context
                    if outcome[0] is None:
                        rest = list(left)
                        rest.remove(die)
                        after.add((outcome[1], outcome[2], tuple(rest)))
        boards = after


# -- the smallest examples found of engine bugs, fixed since: regression tests ----------------


# Until caf02cd, _realize's memo key sorted the moves' progress and so confused a move
# marked as a hit with its unmarked twin, refusing these canonical texts with R-HIT.
@pytest.mark.parametrize("name, position_id, dice, text", [
    ("backgammon", "xGfwQSDgc/ABMA", "11", "24/22 24/22*"),
    ("murray", "YIQ9CjwImHobFA", "55", "16/11/6 16/11/6*"),
])
def test_canonical_text_with_a_marked_and_an_unmarked_twin_is_accepted(name, position_id,
                                                                       dice, text):
    rules = RULES[name]
    position = Position.from_id(position_id)
    assert text in [str(play) for play in legal_plays(position, dice, rules)]
    assert str(check_play(position, dice, text, rules)) == text


# Until 54ce5da, check_play under R-WASTE returned the last step order the generator found
# for a result, legal_plays the first: '7/4 7/3' instead of the listed '7/3 7/4'.
def test_check_play_under_waste_writes_the_listed_notation():
    rules = RULES["murray"]
    position = Position.from_id("F1UN6AD/qxgAAA")
    assert "7/3 7/4" in [str(p) for p in legal_plays(position, "43", rules)]
    assert str(check_play(position, "43", "7/3 7/4", rules)) == "7/3 7/4"
