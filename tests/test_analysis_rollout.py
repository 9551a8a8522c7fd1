"""Rollouts: balanced dice, reproducible by seed, the same over any number of processes,
exact where the result is certain, standard errors shrinking as √N, Ctrl-C keeping what is
done, and the command's errors."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest
from click.testing import CliRunner

from analysis import rollout as rollout_module
from analysis.network import Network
from analysis.players import RandomPlayer
from analysis.ranking import Evaluator
from analysis.rollout import Rollout, RolloutSpec, candidates_for, policy_of, run_rollout
from analysis.rollout_dice import OUTCOMES, RolloutDice
from analysis.threads import limit_blas_threads
from jacquet_cli import main
from notation import Dice, Position, legal_plays, rule_set

limit_blas_threads(1)


def _spec(variant: str = "backgammon", dice: str = "31", position: Position | None = None,
          count: int | None = 2, **settings) -> RolloutSpec:
    rules = rule_set(variant)
    start = position or rules.start
    plays = legal_plays(start, Dice.parse(dice), rules)
    candidates = candidates_for(plays, None)[:count]
    return RolloutSpec(Network.create(variant, 8, seed=5), variant, {}, start.position_id(), dice,
                       candidates, **settings)


def test_the_first_roll_is_balanced_over_every_36_games_and_the_first_two_over_1296():
    dice = RolloutDice(seed=7)
    firsts = [dice.game(g)[0] for g in range(1296)]
    seconds = [dice.game(g)[1] for g in range(1296)]
    # a non-doublet is two of the 36 outcomes, so it comes up twice in every 36 games
    for block in range(36):
        assert Counter(firsts[36 * block: 36 * block + 36]) == Counter(OUTCOMES)
        assert Counter(seconds[36 * block: 36 * block + 36]) == Counter(OUTCOMES)
    assert Counter(zip(firsts, seconds, strict=True)) == Counter((a, b) for a in OUTCOMES for b in OUTCOMES)


def test_later_rolls_are_fair_and_each_game_is_its_own():
    dice = RolloutDice(seed=7)
    thirds = Counter(dice.game(g)[2] for g in range(3600))
    assert all(70 <= thirds[Dice(a, a)] <= 130 for a in range(1, 7))  # 100 expected, σ ≈ 10
    assert dice.game(40)[5] == RolloutDice(seed=7).game(40)[5]  # whatever was rolled before
    assert [RolloutDice(seed=8).game(g)[0] for g in range(36)] != [dice.game(g)[0] for g in range(36)]


def test_a_seed_gives_the_same_figures_and_another_seed_others():
    first = run_rollout(_spec(truncate=3, seed=11), games=24)
    again = run_rollout(_spec(truncate=3, seed=11), games=24)
    other = run_rollout(_spec(truncate=3, seed=12), games=24)
    assert first == again
    assert [c.equity for c in first.candidates] != [c.equity for c in other.candidates]
    assert first.games == 24 and not first.interrupted
    assert first.settings.label.endswith("24 games, truncated after 3 turns, seed 11")


def test_two_processes_give_exactly_the_figures_of_one():
    spec = _spec(truncate=4, seed=3, count=3)
    assert run_rollout(spec, games=30, jobs=2) == run_rollout(spec, games=30, jobs=1)


def test_every_candidate_is_played_on_the_same_dice():
    spec = _spec(truncate=2, seed=3, count=3)
    seen: list[tuple[int, Dice]] = []

    def recording(position, dice, primes):
        seen.append(dice)
        return legal_plays(position, dice, rule_set("backgammon"))[0]

    Rollout(spec, policy=recording).game(5)
    per_candidate = [seen[i: i + 2] for i in range(0, 6, 2)]
    assert per_candidate[0] == per_candidate[1] == per_candidate[2]
    assert per_candidate[0] == [RolloutDice(3).game(5)[0], RolloutDice(3).game(5)[1]]


def test_dice_the_candidate_cannot_play_are_passed_and_played_before_the_opponents_roll():
    """versailles, R-PASS: with 4-3 the one legal play, 5/1, leaves the 3 unplayed; the
    opponent plays the 3 first, then throws the rollout's first roll himself."""
    position = Position.from_id("3woYxAJ3TwDwAA")
    spec = _spec("versailles", "43", position, count=None, truncate=3, seed=2)
    rules = rule_set("versailles")
    [candidate] = legal_plays(position, Dice.parse("43"), rules)
    calls: list[tuple[Position, Dice]] = []

    def recording(at, dice, primes):
        calls.append((at, dice))
        return legal_plays(at, dice, rules)[0]

    Rollout(spec, policy=recording).game(0)
    first = RolloutDice(2).game(0)[0]
    assert calls[0] == (candidate.next_position, Dice(3))
    passed_play = legal_plays(candidate.next_position, Dice(3), rules)[0]
    assert calls[1] == (passed_play.result, first)  # the same player, now his own roll
    assert calls[2][1] == RolloutDice(2).game(0)[1]


def test_a_certain_result_comes_out_exactly():
    """Three men on point 1, the opponent's fifteen on his talon: after 1/off 1/off he cannot
    bear a man off before the last one goes, a 2-point win whatever the dice; 1-1 bears all
    three off at once."""
    position = Position.from_points({1: 3}, {24: 15})
    for dice in ("21", "11"):
        result = run_rollout(_spec("jacquet", dice, position, count=None, seed=1), games=40)
        for candidate in result.candidates:
            assert candidate.equity == 2.0 and candidate.equity_error == 0.0
            assert candidate.probabilities == (1.0, 1.0, 0.0)
            assert candidate.probability_errors == (0.0, 0.0, 0.0)


def test_the_standard_error_shrinks_as_the_square_root_of_the_games():
    spec = _spec("jacquet", "62", count=1, truncate=2, seed=2)
    small = run_rollout(spec, games=72).candidates[0].equity_error
    large = run_rollout(spec, games=288).candidates[0].equity_error
    assert small > 0 and 1.6 < small / large < 2.5  # √4 = 2


def test_truncated_after_one_turn_with_the_luck_taken_out_every_game_is_the_1_ply_judgement():
    """After the candidate the opponent rolls once and the net closes the game: less the
    luck of that roll (judged by the same net), every game gives the average over his 36
    rolls, which is the 1-ply equity of the candidate, with no spread at all."""
    spec = _spec(count=1, truncate=1, seed=1, reduce=True)
    rules = rule_set("backgammon")
    result = run_rollout(spec, games=12).candidates[0]
    plays = legal_plays(rules.start, Dice.parse("31"), rules)
    [one_ply] = [c for c in Evaluator(spec.net, rules, ply=1).rank(plays, rules.start)
                 if c.play == plays[spec.candidates[0]]]
    assert result.equity == pytest.approx(one_ply.equity, abs=1e-6)
    assert result.equity_error < 1e-6
    assert run_rollout(_spec(count=1, truncate=1, seed=1), games=12).candidates[0].equity_error > 1e-4


def test_variance_reduction_shrinks_the_error_of_the_same_games():
    from analysis.shipped import load_net

    rules = rule_set("backgammon")
    net, start = load_net("backgammon"), rules.start.position_id()
    plain = run_rollout(RolloutSpec(net, "backgammon", {}, start, "31", (0,), truncate=2, seed=1), games=8)
    reduced = run_rollout(RolloutSpec(net, "backgammon", {}, start, "31", (0,), truncate=2, seed=1,
                                      reduce=True), games=8)
    assert reduced.candidates[0].equity_error < plain.candidates[0].equity_error / 2
    assert reduced.settings.label.endswith("luck-adjusted") and "luck" not in plain.settings.label


def test_ctrl_c_gives_the_games_completed_so_far(monkeypatch):
    spec = _spec(truncate=2, seed=1)
    real = Rollout.games

    def stopping(self, numbers):
        if 5 in numbers:
            raise KeyboardInterrupt
        return real(self, numbers)

    monkeypatch.setattr(Rollout, "games", stopping)
    result = run_rollout(spec, games=20)  # side by side, five games a chunk
    assert result.interrupted and result.games == 5
    assert all(c.games == 5 for c in result.candidates)
    monkeypatch.setattr(Rollout, "games", real)
    assert result.candidates == run_rollout(spec, games=5).candidates


def test_another_policy_plugs_into_the_play_outs():
    spec = _spec(seed=4, count=2)
    rules = rule_set("backgammon")
    result = run_rollout(spec, games=6, rollout=Rollout(spec, policy=policy_of(RandomPlayer(1), rules)))
    assert result.games == 6
    for candidate in result.candidates:  # played to the end: every game a whole result
        assert candidate.probabilities[0] * 6 == pytest.approx(round(candidate.probabilities[0] * 6))


# -- the command ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def net_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("nets") / "backgammon.npz"
    Network.create("backgammon", 8, seed=1).save(path)
    return str(path)


def _run(*args):
    return CliRunner().invoke(main, ["rollout", *args])


def test_the_command_rolls_out_the_named_plays_and_names_its_settings(net_file):
    args = ["--variant", "backgammon", "--dice", "31", "--play", "8/5 6/5", "--play", "13/10 24/23",
            "--games", "8", "--truncate", "2", "--seed", "3", "--jobs", "1", "--net", net_file]
    answer = json.loads(_run(*args, "--json").stdout)
    assert sorted(c["play"] for c in answer["candidates"]) == ["24/23 13/10", "8/5 6/5"]
    assert answer["games"] == 8 and answer["interrupted"] is False
    assert answer["settings"]["truncate"] == 2 and answer["settings"]["seed"] == 3
    assert all(c["by"] == answer["settings"]["label"] for c in answer["candidates"])
    assert "jacquet-td backgammon v" in answer["settings"]["label"]
    text = _run(*args).stdout
    assert answer["settings"]["label"] in text and "8/5 6/5" in text


def test_the_command_stopped_by_ctrl_c_says_so(net_file, monkeypatch):
    real = Rollout.games

    def stopping(self, numbers):
        if 3 in numbers:  # side by side, three games a chunk
            raise KeyboardInterrupt
        return real(self, numbers)

    monkeypatch.setattr(rollout_module.Rollout, "games", stopping)
    result = _run("--variant", "backgammon", "--dice", "31", "--play", "8/5 6/5", "--games", "10",
                  "--truncate", "2", "--jobs", "1", "--net", net_file)
    assert result.exit_code == 130
    assert "INTERRUPTED: 3 of 10 games" in result.output


@pytest.mark.parametrize(("args", "words"), [
    (["--position", "nonsense"], ["--position", "14 characters"]),
    (["--dice", "71"], ["--dice", "1 to 6"]),
    (["--dice", "3"], ["--dice", "two dice"]),
    (["--play", "24/18"], ["--play", "'24/18' is not a legal play", "legal: 24/21 24/23", "8/5 6/5"]),
])
def test_the_command_refuses_bad_input_saying_what_and_where(net_file, args, words):
    base = {"--dice": "31"}
    for flag, value in zip(args[::2], args[1::2], strict=True):
        base[flag] = value
    flat = [part for pair in base.items() for part in pair]
    result = _run("--variant", "backgammon", "--net", net_file, "--jobs", "1", *flat)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    for word in words:
        assert word in result.output


@pytest.mark.parametrize("variant", ["backgammon", "jacquet", "murray", "hale", "narde", "fevga"])
def test_the_play_outs_on_the_fast_core_are_the_reference_games(variant):
    """The default play-outs at 0-ply run on boards (the fast move generator, murray's prime
    flags from it, the choice by ``best_board``) and give, game for game, what the game
    state's play-outs over the reference move generator give with the same choice: the
    same outputs to the last bit, luck included."""
    from analysis.fast.jit import COMPILED
    from analysis.rollout import net_policy
    from analysis.shipped import load_net

    if not COMPILED:
        pytest.skip("numba is not there: the play-outs run on the reference")
    rules = rule_set(variant)
    plays = legal_plays(rules.start, Dice(6, 2), rules)
    spec = RolloutSpec(load_net(variant), variant, {}, rules.start.position_id(), "62",
                       candidates_for(plays, None)[:2], truncate=60, seed=3, reduce=variant == "backgammon")
    fast = Rollout(spec)
    assert fast.kernels is not None
    reference = Rollout(spec, policy=net_policy(fast.evaluator.boards, fast.rules))
    assert reference.kernels is None
    for game in range(3):
        assert fast.game(game).tolist() == reference.game(game).tolist()


@pytest.mark.parametrize("truncate", [None, 6])
def test_versailles_play_outs_on_the_fast_core_pass_dice_as_the_game_state_does(monkeypatch, truncate):
    """R-PASS: a roll that may leave a die to pass is played on the game state, which
    knows the play's steps, and the opponent plays the dice passed before his own roll:
    the fast core's games, side by side and one at a time, are the game state's games to
    the last bit, passes and all."""
    from analysis.fast.jit import COMPILED
    from analysis.rollout import net_policy
    from analysis.shipped import load_net

    if not COMPILED:
        pytest.skip("numba is not there: the play-outs run on the reference")
    passes: list[bool] = []
    real = Rollout.turn_on_state

    def counted(self, *args):
        state, taken = real(self, *args)
        passes.append(taken == 2)
        return state, taken

    monkeypatch.setattr(Rollout, "turn_on_state", counted)
    rules = rule_set("versailles")
    plays = legal_plays(rules.start, Dice(5, 3), rules)
    spec = RolloutSpec(load_net("versailles"), "versailles", {}, rules.start.position_id(), "53",
                       candidates_for(plays, None)[:3], truncate=truncate, seed=9)
    fast = Rollout(spec)
    assert fast.side_by_side
    reference = Rollout(spec, policy=net_policy(fast.evaluator.boards, fast.rules))
    assert reference.kernels is None
    numbers = range(40, 52)
    together = fast.games(numbers).tolist()
    assert together == [fast.game(g).tolist() for g in numbers]
    assert together == [reference.game(g).tolist() for g in numbers]
    assert any(passes)  # the games compared passed dice


def test_a_roll_that_may_pass_a_die_is_told_from_one_that_cannot():
    """``none_passed`` is sure only where no legal play leaves a die (checked against the
    reference move generator on the turns of random versailles games), and sure of most
    turns, so that most play on the fast core."""
    import random

    import numpy as np

    from analysis.rollout_batch import none_passed
    from notation.engine.state import PASSED, ROLL, GameState

    rules, chooser = rule_set("versailles"), random.Random(3)
    sure = unsure = passing = 0
    for _ in range(12):
        state = GameState.start(rules)
        while state.winner is None:
            if state.passed is not None:
                plays = legal_plays(state.position, state.passed, rules)
                state = state.with_play(PASSED, state.passed, chooser.choice(plays))
                continue
            dice = Dice(chooser.randint(1, 6), chooser.randint(1, 6))
            plays = legal_plays(state.position, dice, rules)
            board = np.array([state.position.mover + state.position.opponent], dtype=np.int8)
            every = np.array([p.result.mover + p.result.opponent for p in plays], dtype=np.int8)
            said = bool(none_passed(board, every, np.zeros(1, dtype=np.int64), np.array([dice.high]),
                                    np.array([dice.low]))[0])
            leaves = any(not p.steps or (not dice.is_doublet and len(p.steps) < 2) for p in plays)
            passing += leaves
            assert not (said and leaves), (state.position.position_id(), str(dice))
            sure, unsure = sure + said, unsure + (not said)
            state = state.with_play(ROLL, dice, chooser.choice(plays))
    assert passing > 0 and sure > 3 * unsure


@pytest.mark.parametrize(("variant", "truncate"), [
    ("backgammon", None), ("jacquet", None), ("jacquet", 5), ("murray", None), ("hale", 7), ("narde", None),
    ("fevga", None), ("versailles", None)])
def test_games_played_side_by_side_are_the_games_played_one_by_one(variant, truncate):
    """A chunk's games of every candidate advanced together, every game's plays judged in one
    pass of the net, are the one-game play-outs' games: the same outputs to the last bit."""
    from analysis.fast.jit import COMPILED
    from analysis.shipped import load_net

    if not COMPILED:
        pytest.skip("numba is not there: the play-outs run on the reference")
    rules = rule_set(variant)
    plays = legal_plays(rules.start, Dice(5, 3), rules)
    spec = RolloutSpec(load_net(variant), variant, {}, rules.start.position_id(), "53",
                       candidates_for(plays, None)[:3], truncate=truncate, seed=9)
    rollout = Rollout(spec)
    assert rollout.side_by_side
    numbers = range(40, 52)
    together = rollout.games(numbers)
    assert together.shape == (12, len(spec.candidates), spec.net.outcomes.size)
    assert together.tolist() == [rollout.game(g).tolist() for g in numbers]


@pytest.mark.parametrize("variant", ["jacquet", "murray", "backgammon", "narde"])
def test_games_closed_together_are_closed_as_one_at_a_time(variant):
    """A truncated rollout closes its stopped games together: each game's figures are those
    of its close alone, to the last bit, for contact positions, races and bear-offs (the
    race net's) and murray's prime flags; and they are the net's judgement computed apart,
    position by position."""
    import random

    from analysis.race import by_class, race_rows
    from analysis.shipped import load_net

    rules = rule_set(variant)
    rollout = Rollout(RolloutSpec(load_net(variant), variant, {}, rules.start.position_id(), "53",
                                  candidates_for(legal_plays(rules.start, Dice(5, 3), rules), None)[:1]))
    rng, player, position, positions = random.Random(3), RandomPlayer(3), rules.start, []
    while position.mover[-1] < 15 and position.opponent[-1] < 15 and len(positions) < 400:
        positions.append(position)
        plays = legal_plays(position, Dice(rng.randint(1, 6), rng.randint(1, 6)), rules)
        position = plays[player.choose(plays, position, (False, False))].next_position
    boards = np.array([p.mover + p.opponent for p in positions], dtype=np.int8)
    whites = np.array([k % 2 == 0 for k in range(len(positions))])
    primes = np.array([(k % 3 == 0, k % 4 == 1) for k in range(len(positions))])
    seen = np.concatenate((boards[:, 26:], boards[:, :26]), axis=1)
    assert 0 < len(race_rows(rules, seen)) < len(positions)
    together = rollout.close_boards(boards, whites, primes)
    assert together.tolist() == [rollout.close(p, bool(w), (bool(a), bool(b))).tolist()
                                 for p, w, (a, b) in zip(positions, whites, primes, strict=True)]
    net, outcomes = rollout.spec.net, rollout.spec.net.outcomes

    def apart(position, white, mine, his):
        """The close computed apart, position by position: the position seen by the side
        that has just moved, encoded alone, the contact net's outputs with the race net's
        where the position is a race, turned to White's side."""
        seen = position.swapped()
        board = np.array([seen.mover + seen.opponent], dtype=np.int8)
        flags = np.array([(his, mine)], dtype=np.bool_) if rollout.encoder.prime else None
        x = rollout.encoder.encode_positions([seen], [(his, mine)])
        y = outcomes.mirrored(by_class(net.race, rules, board, flags, net.forward(x)[1])[0])
        return y if white else outcomes.mirrored(y)

    reference = np.array([apart(p, bool(w), bool(a), bool(b))
                          for p, w, (a, b) in zip(positions, whites, primes, strict=True)])
    assert np.abs(together - reference).max() < 1e-6


def test_a_rollout_side_by_side_gives_the_figures_of_one_game_at_a_time():
    spec = _spec("jacquet", dice="53", truncate=6, seed=2, count=3)
    together = run_rollout(spec, games=30)
    one = Rollout(spec, one_at_a_time=True)
    assert Rollout(spec).side_by_side and not one.side_by_side
    assert together == run_rollout(spec, games=30, rollout=one)
