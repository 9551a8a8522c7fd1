"""The fast core (analysis/fast/) against the reference: the same legal plays (resulting
positions) on random positions of every rule set, the same inputs as the encoder, the
same training games for a seed; and without numba, the plain Python kernels give the same.

The quick samples run here; the million positions per rule set are the long run."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from analysis import training
from analysis.board_judge import named_play
from analysis.encoding import Encoder
from analysis.fast import board_of, covers, fast_rules, legal_positions
from analysis.fast.movegen import (
    _KEYS,
    legal_results,
    legal_results_paths,
    legal_results_primes,
)
from analysis.fast.outcomes import ceiling_code, ceilings, most_steps, penalty_rates, race_table
from analysis.fast.paths import path_steps, reference_order
from analysis.fast.selfplay import FastGames, trains
from analysis.network import Network
from analysis.outcomes import outcomes_for
from analysis.players import judge
from analysis.shipped import load_net
from analysis.training import self_play_game
from notation import Dice, Position, legal_plays, rule_set
from notation.engine.movegen import TurnRules
from notation.engine.rules import NAMES, prime_during
from tests.fast_positions import both_kinds, encodings, random_boards, random_primes, reference_results

ROOT = Path(__file__).resolve().parents[1]
COVERED = NAMES
"""Every rule set's legal plays are made by the fast move generator."""


def _mismatches(variant: str, seed: int, count: int) -> list[str]:
    rules = rule_set(variant)
    fast = fast_rules(rules)
    assert fast is not None
    rng = random.Random(seed)
    wrong = []
    for position, dice, expected in both_kinds(rules, rng, count):
        # compared as the 52 counts' bytes: a Position made per result would cost more
        # than the fast generator itself
        got = legal_results(board_of(position), dice.high, dice.low, fast.params,
                            fast.opposite, _KEYS)
        if len(got) != len(expected) or {row.tobytes() for row in got} != {
                bytes(p.mover + p.opponent) for p in expected}:
            wrong.append(f"{position.position_id()} {dice}: {len(expected)} legal plays, "
                         f"fast {len(got)}")
    return wrong


@pytest.mark.parametrize("variant", NAMES)
def test_every_rule_set_is_covered(variant):
    assert covers(rule_set(variant))


class _UnknownRule:
    """A rule the kernels cannot know (a step rule and a turn filter at once)."""

    rule_id = "R-UNKNOWN"
    watches = None

    def applies(self, rules, start):
        return True

    def broken(self, ctx):
        return False

    def keeps(self, rules, start, mover):
        return True


def test_an_unknown_turn_filter_or_step_rule_leaves_a_rule_set_to_the_reference():
    """Each alone is enough: jacquet with a turn filter, or a step rule, of no known id."""
    jacquet = rule_set("jacquet")
    filtered = dataclasses.replace(jacquet, turn_filters=(_UnknownRule(),))
    stepped = dataclasses.replace(jacquet, step_rules=(*jacquet.step_rules, _UnknownRule()))
    assert covers(jacquet) and trains(jacquet)
    for rules in (filtered, stepped):
        assert fast_rules(rules) is None and not trains(rules)


def test_the_relatives_rules_are_read_in_any_rule_set():
    """The kernels take the rules by their ids, not by the rule set's name: jacquet with
    fevga's R-UNBLOCK, or with narde's R-HEAD, is covered and plays as the reference."""
    jacquet = rule_set("jacquet")
    filtered = dataclasses.replace(jacquet, turn_filters=rule_set("fevga").turn_filters)
    headed = dataclasses.replace(jacquet, step_rules=(*jacquet.step_rules,
                                                      *rule_set("narde").step_rules[:1]))
    for rules in (filtered, headed):
        assert covers(rules)
        assert _mismatches_with(rules, 4, 100) == []


@pytest.mark.parametrize("options", [{"courier_release": "next-turn"}, {"bouchon": "last-two"},
                                     {"bouchon": "none"}])
def test_the_options_of_the_jacquet_family_are_covered(options):
    assert _mismatches_with(rule_set("jacquet", **options), 1, 150) == []


@pytest.mark.parametrize(("variant", "options"), [("narde", {"head_doublets": "6-4"}),
                                                  ("narde", {"cube": "true"}),
                                                  ("fevga", {"prime": "sixblock"})])
def test_the_options_of_narde_and_fevga_are_covered(variant, options):
    assert _mismatches_with(rule_set(variant, **options), 1, 150) == []


def _corner(mover, opponent):
    return Position.from_points(mover, opponent)


CORNERS = {
    "narde": [
        _corner({24: 15}, {24: 15}),  # the first turn: R-HEAD's doublets
        _corner({24: 14, 10: 1}, {24: 15}),  # the first turn over for me, not for him
        _corner({24: 13, 15: 1, 10: 1}, {24: 15}),  # §9 case 5
        _corner({24: 9, 11: 1, 10: 1, 9: 1, 8: 1, 7: 2}, {24: 15}),  # §9 case 6
        _corner({24: 9, 11: 1, 10: 1, 9: 1, 8: 1, 7: 2}, {24: 14, 17: 1}),  # his man past it
        _corner({24: 9, 11: 1, 10: 1, 9: 1, 8: 1, 7: 2}, {24: 14}),  # one of his off
        _corner({24: 15}, {24: 14, 8: 1}),  # my 16 closed: 4-4 plays 24/20(2)
    ],
    "fevga": [
        _corner({24: 15}, {24: 15}),
        _corner({24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 5: 1}, {24: 15}),  # §10 case 4
        _corner({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}, {19: 15}),  # R-UNBLOCK binds
        _corner({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}, {19: 12}),  # the same, men off
        _corner({6: 1, 5: 1, 4: 1, 3: 1, 2: 1, 1: 1}, {19: 15}),  # no play opens it
        _corner({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}, {19: 14, 20: 1}),  # two of his points
        _corner({24: 14, 14: 1}, {24: 15}),  # the runner on its way
        _corner({24: 14, 13: 1}, {24: 14, 13: 1}),
    ],
}
"""Positions built by hand where R-HEAD, R-SIXBLOCK, R-RUNNER, R-HOMEQUARTER and R-UNBLOCK
bind or just fail to (the worked cases of rules.md §9 and §10 among them)."""


@pytest.mark.parametrize(("variant", "options"), [("narde", {}), ("narde", {"head_doublets": "6-4"}),
                                                  ("fevga", {}), ("fevga", {"prime": "sixblock"})])
def test_the_relatives_corners_give_the_reference_plays_with_every_roll(variant, options):
    rules = rule_set(variant, **options)
    fast = fast_rules(rules)
    assert fast is not None
    wrong = []
    for position in CORNERS[variant]:
        for high in range(1, 7):
            for low in range(1, high + 1):
                dice = Dice(high, low)
                if set(legal_positions(position, dice, fast)) != reference_results(
                        position, dice, rules):
                    wrong.append(f"{position.position_id()} {dice}")
    assert wrong == []


def _mismatches_with(rules, seed, count):
    fast = fast_rules(rules)
    rng = random.Random(seed)
    return [f"{p.position_id()} {d}" for p, d, expected in both_kinds(rules, rng, count)
            if set(legal_positions(p, d, fast)) != expected]


@pytest.mark.parametrize("variant", COVERED)
def test_fast_legal_plays_equal_the_reference_on_random_positions(variant):
    assert _mismatches(variant, 11, 400) == []


CHUNKS = 20
LONG_POSITIONS = int(os.environ.get("JACQUET_FAST_POSITIONS", "100000"))
"""Positions per rule set in the long run (half from random games, half scattered): 100,000
by default, sized for CI (the reference's results cost about 0.3 to 0.6 ms of CPU a position,
so about a minute of CPU per rule set, all seven covered); ``JACQUET_FAST_POSITIONS=1000000``
for the million per rule set, run by hand (ten times that)."""


@pytest.mark.long
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("variant", COVERED)
def test_fast_legal_plays_equal_the_reference_on_many_positions(variant, chunk):
    per_source = LONG_POSITIONS // (2 * CHUNKS)
    assert _mismatches(variant, 1000 + chunk, per_source) == []


@pytest.mark.parametrize("variant", NAMES)
def test_the_fast_plays_steps_name_the_reference_plays_in_its_order(variant):
    """What `jacquet analyse` shows of a turn judged on the fast core: each result's path,
    replayed by the reference's step rules, is the reference's play (the same canonical
    steps, so the same notation), and the plays come in the reference's order (which
    ranks plays of one equity)."""
    rules = rule_set(variant)
    fast = fast_rules(rules)
    assert fast is not None
    rng = random.Random(7)
    wrong, doublets = [], 0
    for position, dice, _ in both_kinds(rules, rng, 150):
        boards, _, paths = legal_results_paths(board_of(position), dice.high, dice.low, fast.params,
                                               fast.opposite, _KEYS, False)
        turn = TurnRules(rules, position, dice)
        named = [named_play(turn, path_steps(int(paths[i]))) for i in reference_order(paths)]
        expected = legal_plays(position, dice, rules)
        doublets += dice.is_doublet and len(expected) > 1
        if named != expected or [p.notation for p in named] != [p.notation for p in expected] \
                or {bytes(p.result.mover + p.result.opponent) for p in named} != {b.tobytes() for b in boards}:
            wrong.append(f"{position.position_id()} {dice}")
    assert wrong == [] and doublets > 10


@pytest.mark.parametrize("variant", NAMES)
def test_the_fast_encoding_equals_the_encoder(variant):
    rules = rule_set(variant)
    boards, primes = random_boards(rules, 5, 300)
    for version in (1, 2):
        np.testing.assert_array_equal(*encodings(rules, boards, primes, version))


TRAINED = NAMES


@pytest.mark.parametrize("variant", TRAINED)
def test_the_kernels_ceilings_are_the_rule_sets_on_random_positions(variant):
    """The most points a win can still bring to either side, or 0 where a race is lost by
    the count of turns, as ``RuleSet.most_points`` and analysis.lost_races say
    (``Outcomes.ceilings``), on the results of every legal play of random positions, each
    side having held a prime or not at random (murray's marcia per punto)."""
    rules = rule_set(variant)
    code = ceiling_code(rules)
    assert code is not None
    races, steps, rates = race_table(rules), most_steps(rules), penalty_rates(rules)
    rng = random.Random(17)
    results = [result for _position, _dice, plays in both_kinds(rules, rng, 600)
               for result in sorted(plays, key=lambda p: p.mover + p.opponent)]
    primes = random_primes(rng, len(results))
    expected = outcomes_for(rules).ceilings(results, primes)
    got = np.array([ceilings(board_of(result), code, races, steps, mine, his, rates)
                    for result, (mine, his) in zip(results, primes, strict=True)])
    np.testing.assert_array_equal(got, expected)
    met = set(np.unique(expected))
    if rules.penalties:  # what the loser's men can still pay, from 0 (a lost race) up
        assert 0 in met and len(met) > 20
    else:  # every ceiling the rule set has is met, a lost race among them
        assert met == set(range(max(o.points for o in rules.outcomes) + 1))


@pytest.mark.parametrize("variant", TRAINED)
def test_a_fast_training_game_is_the_reference_game_for_the_same_seed(variant):
    """Same dice (the same generator state after each game), same plays, same result; the
    weights agree to float32 rounding (the sums are added in another order)."""
    rules = rule_set(variant)
    reference = Network.create(variant, 40, seed=3)
    fast_net = Network.create(variant, 40, seed=3)
    encoder = Encoder.for_rules(rules, reference.version)
    games = FastGames.for_net(fast_net, rules, encoder, fast_net.outcomes)
    assert games is not None
    one, two = random.Random(8), random.Random(8)
    for _ in range(2):
        assert games.play(two, 0.1, 0.7, 5000) == self_play_game(reference, rules, encoder, one,
                                                                  0.1, 0.7)
        assert one.getstate() == two.getstate()
    for name in ("w1", "b1", "w2", "b2"):
        np.testing.assert_allclose(getattr(fast_net, name), getattr(reference, name), atol=1e-6)
    assert not np.array_equal(fast_net.w1, Network.create(variant, 40, seed=3).w1)


def test_murrays_training_game_follows_each_sides_prime_as_the_reference(monkeypatch):
    """With the shipped murray net (which makes primes, unlike a fresh one) a game of the
    same seed is the same game, the prime flags (encoding, marcia per punto's mask and
    score) included: the reference judged turns in it with a prime held."""
    rules = rule_set("murray")
    # the contact net alone, as training has it (the shipped race net beside it is not trained)
    reference, fast_net = load_net("murray", race=False), load_net("murray", race=False)
    encoder = Encoder.for_rules(rules, reference.version)
    games = FastGames.for_net(fast_net, rules, encoder, fast_net.outcomes)
    assert games is not None
    judged_with_prime = []

    def spy(*args, **kwargs):
        judgement = judge(*args, **kwargs)
        judged_with_prime.append(bool(judgement.primes[:, 0].any()))
        return judgement

    monkeypatch.setattr(training, "judge", spy)
    one, two = random.Random(0), random.Random(0)
    assert games.play(two, 0.1, 0.7, 5000) == self_play_game(reference, rules, encoder, one,
                                                              0.1, 0.7)
    assert one.getstate() == two.getstate()
    assert sum(judged_with_prime) > 10
    for name in ("w1", "b1", "w2", "b2"):
        np.testing.assert_allclose(getattr(fast_net, name), getattr(reference, name), atol=1e-6)


def _prime_position(rules, rng):
    """A murray position with most of the mover's men on seven points in a row (a prime
    near), the opponent's anywhere else."""
    mover, opponent = [0] * 26, [0] * 26
    top = rng.randint(7, 24)
    for _ in range(15):
        near = rng.random() < 0.8
        mover[rng.randint(max(1, top - 7), top) if near else rng.randint(1, 24)] += 1
    mine = {rules.opposite[p] for p in range(1, 25) if mover[p]}
    free = [q for q in range(1, 25) if q not in mine]
    for _ in range(15):
        opponent[0 if rng.random() < 0.2 else rng.choice(free)] += 1
    return Position(tuple(mover), tuple(opponent))


def test_each_results_prime_flag_is_the_reference_plays():
    """Whether the mover holds a prime after some step of a play, in the canonical order of
    its steps (the reference's ``prime_during`` of ``Play.steps``), for every result."""
    rules = rule_set("murray")
    fast = fast_rules(rules)
    assert fast is not None
    rng = random.Random(1)
    wrong, with_prime = [], 0
    for _ in range(400):
        position = _prime_position(rules, rng)
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        expected = {p.result.mover + p.result.opponent: prime_during(position.mover, p.steps)
                    for p in legal_plays(position, dice, rules)}
        boards, flags = legal_results_primes(board_of(position), dice.high, dice.low,
                                             fast.params, fast.opposite, _KEYS, True)
        got = {tuple(int(c) for c in board): bool(flag)
               for board, flag in zip(boards, flags, strict=True)}
        with_prime += sum(expected.values())
        if got != expected:
            wrong.append(f"{position.position_id()} {dice}")
    assert wrong == [] and with_prime > 50


@pytest.mark.parametrize("variant", NAMES)
def test_the_kernel_trains_every_rule_set(variant):
    assert trains(rule_set(variant))


def test_a_scorer_ceiling_or_prime_watch_the_kernel_does_not_know_leaves_training_to_the_reference():
    murray = rule_set("murray")
    for changed in (dataclasses.replace(murray, scorer=lambda rules, final, held, cube: 1),
                    dataclasses.replace(murray, ceiling=lambda rules, w, lo, held: 3),
                    dataclasses.replace(murray, primes=type(murray.primes)())):
        assert covers(changed) and not trains(changed)


_PLAIN = """
import json, random, sys
from analysis.fast import COMPILED, fast_rules, legal_positions, board_of
from analysis.fast.encode import encode, layout, table
from analysis.fast.movegen import _KEYS, legal_results
from analysis.encoding import Encoder
from notation import rule_set
from tests.fast_positions import both_kinds
import numpy as np
wrong = 0
for variant in ("jacquet", "murray", "backgammon", "narde", "fevga"):
    rules = rule_set(variant)
    rng = random.Random(2)
    positions = list(both_kinds(rules, rng, 25))
    for position, dice, expected in positions:
        wrong += set(legal_positions(position, dice, fast_rules(rules))) != expected
    encoder = Encoder.for_rules(rules)
    boards = np.array([board_of(p) for p, _dice, _results in positions])
    primes = np.zeros((len(boards), 2), dtype=bool)
    got = encode(boards, primes, layout(encoder, rules.closes_at), table(),
                 np.array(rules.opposite, dtype=np.int64), encoder.size)
    wrong += not np.array_equal(got, encoder.encode_boards(boards, primes))
print(json.dumps({"compiled": COMPILED, "wrong": wrong, "numba": "numba" in sys.modules}))
"""


def test_without_numba_the_plain_kernels_give_the_same_results():
    env = {**os.environ, "JACQUET_NO_NUMBA": "1"}
    done = subprocess.run([sys.executable, "-c", _PLAIN], cwd=ROOT, env=env, capture_output=True,
                          text=True, check=True)
    assert json.loads(done.stdout) == {"compiled": False, "wrong": 0, "numba": False}
