"""The checker's fast paths against its exhaustive reference.

``check_play`` accepts a play that uses every die as soon as one realization of it gets
through the step rules (in the order written, or with the dice in the search's own
order), and an empty play as soon as no single step is legal, without generating the
legal plays. ``check_play(..., exhaustive=True)`` skips both and judges every play against
the full list of legal plays (R-MAX, R-WASTE, R-HIGH). The two must agree on everything
a caller sees: whether the play is accepted, the position it leads to, how it is written
and (murray) whether a prime stands at some moment of it, or the error's kind and rule id.

Positions are drawn from random games of every rule set, with its options that change
the step rules (the courier's release, the blocking rules); any roll; candidate texts are
the legal plays in several spellings (canonical, step by step, moves in reverse order,
without hit marks) and random texts, legal or not (moves from occupied or empty points,
one die, two dice or a doublet's run, bearing off, marked hits, too many or too few
moves). Derandomized, so every run checks the same examples.
"""

from __future__ import annotations

import functools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation import Dice, legal_plays, rule_set
from notation.engine.board import BAR, OFF, point_name
from notation.engine.checker import check_play
from notation.engine.rules import NAMES, prime_during
from notation.errors import NotationError
from tests.selfplay import play_random_game

RULE_SETS = {name: rule_set(name) for name in NAMES}
RULE_SETS.update({
    "jacquet(courier_release=next-turn)": rule_set("jacquet", courier_release="next-turn"),
    "jacquet(bouchon=last-two)": rule_set("jacquet", bouchon="last-two"),
    "jacquet(bouchon=none)": rule_set("jacquet", bouchon="none"),
    "murray(courier_release=next-turn)": rule_set("murray", courier_release="next-turn"),
    "versailles(bouchon=last-two)": rule_set("versailles", bouchon="last-two"),
})
GAMES = 12          # random games the positions come from, per rule set
RANDOM_TEXTS = 12   # random candidate texts per position and roll
LEGAL_PLAYS = 4     # legal plays written in every spelling per position and roll


@functools.cache
def positions(name: str, seed: int) -> tuple:
    """Every position of one random game at which a player is on roll."""
    rules = RULE_SETS[name]
    game = play_random_game(rules, random.Random(seed * 7919 + len(name)))
    return (rules.start,) + tuple(play.next_position for _, play in game.turns[:-1])


def outcome(position, dice, text, rules, exhaustive):
    """What a caller sees: ("ok", result, notation, steps) or (error class, rule id)."""
    try:
        play = check_play(position, dice, text, rules, exhaustive=exhaustive)
    except NotationError as error:
        return type(error).__name__, getattr(error, "rule_id", None)
    return "ok", (play.result.mover, play.result.opponent), str(play), play.steps


def agree(fast, reference, position, rules) -> bool:
    """The same outcome; for a play, in a rule set that follows primes, whether a prime
    stands at some moment of it too (the order of its steps decides that: R-SCORE-MARCIA)."""
    if fast[0] != "ok" or reference[0] != "ok":
        return fast == reference
    primes = (not rules.tracks_prime
              or prime_during(position.mover, fast[3]) == prime_during(position.mover, reference[3]))
    return fast[:3] == reference[:3] and primes


def spellings(play) -> list[str]:
    """A legal play as written canonically, step by step, in reverse order, unmarked."""
    canonical = str(play)
    stepwise = " ".join(str(step) for step in play.steps) or "-"
    texts = [canonical, stepwise, " ".join(reversed(canonical.split())),
             " ".join(reversed(stepwise.split()))]
    return texts + [text.replace("*", "") for text in texts if "*" in text]


def random_text(rng: random.Random, position, dice: Dice, rules) -> str:
    """A play text made of random moves: from an occupied point most of the time, by one
    die, two or a run of a doublet, ending off the board when it would pass it, sometimes
    marked as a hit."""
    if rng.random() < 0.05:
        return "-"
    faces = list(dice.values) * (2 if dice.is_doublet else 1)
    occupied = [p for p in range(1, BAR + 1) if position.mover[p]] or [24]
    moves = []
    for _ in range(rng.choice((1, 2, 2, 2, 3, 4, 4))):
        start = rng.choice(occupied) if rng.random() < 0.9 else rng.randint(1, 24)
        if start == BAR and not rules.has_bar:
            start = 24
        points, at = [start], start
        for _ in range(rng.choice((1, 1, 1, 2, 2, 3))):
            at = max(at - rng.choice(faces), OFF)
            points.append(at)
            if at == OFF:
                break
        names = [point_name(p) for p in points]
        if rules.hitting and points[-1] != OFF and rng.random() < 0.15:
            names[-1] += "*"
        moves.append("/".join(names))
    return " ".join(moves)


@pytest.mark.parametrize("name", sorted(RULE_SETS))
@settings(max_examples=200, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, GAMES - 1), ply=st.integers(0, 10**6),
       high=st.integers(1, 6), low=st.integers(1, 6), texts=st.randoms(use_true_random=False))
def test_fast_paths_agree_with_the_exhaustive_check(name, seed, ply, high, low, texts):
    rules = RULE_SETS[name]
    game = positions(name, seed)
    position = game[ply % len(game)]
    dice = Dice(high, low)
    plays = legal_plays(position, dice, rules)
    candidates = [text for play in texts.sample(plays, min(LEGAL_PLAYS, len(plays)))
                  for text in spellings(play)]
    candidates += [random_text(texts, position, dice, rules) for _ in range(RANDOM_TEXTS)]
    for text in candidates:
        fast = outcome(position, dice, text, rules, exhaustive=False)
        reference = outcome(position, dice, text, rules, exhaustive=True)
        assert agree(fast, reference, position, rules), (
            f"{name} position {position.position_id()} dice {dice} text {text!r}")
