"""The exact bear-off tables (analysis/bearoff): each bear-off rule's plays against the
rules engine's own move generator, the tables against a plain recursive computation over
``legal_plays``, the issue's hand-built positions ranked by the engine, and no outcome
above 0 that can no longer happen."""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest

from analysis.bearoff import BearOffRule, exact_outputs, pure_bear_off
from analysis.bearoff.moves import ROLL_WEIGHTS, ROLLS, successors
from analysis.bearoff.onesided import build
from analysis.bearoff.positions import Positions, count, key_of
from analysis.bearoff.store import load, quantized, save, table, two_sided
from analysis.bearoff.twosided import build_two_sided
from analysis.outcomes import outcomes_for
from analysis.ranking import Evaluator
from analysis.shipped import load_net
from notation import Position, legal_plays, rule_set
from notation.engine.rules import NAMES

SMALL = 4
"""The men of the small tables checked against the plain recursion."""


def _position(home: tuple[int, ...], his: dict[int, int] | None = None) -> Position:
    """The mover's men on his points 1-6 as ``home``, the rest off; the other side's men
    home too (on his point 1 unless given)."""
    return Position.from_points({p + 1: men for p, men in enumerate(home) if men}, his or {1: 15})


def _results(rules, home: tuple[int, ...], dice: str) -> set[tuple[int, ...]]:
    """The homes the rules engine's legal plays leave."""
    return {tuple(play.result.mover[1:7]) for play in legal_plays(_position(home), dice, rules)}


def test_there_are_54264_positions_of_up_to_15_men():
    positions = Positions.up_to(15)
    assert len(positions) == count(15) == 54264
    assert len(set(positions.keys.tolist())) == 54264
    # every play leads to fewer pips, so to a smaller index
    assert np.all(np.diff(positions.pips) >= 0)


@pytest.mark.parametrize("name", NAMES)
def test_the_plays_of_every_roll_are_the_rules_engines(name):
    """Every position of up to 3 men and 15 random ones of up to 15, every roll: the
    results of the tables' plays are those of ``legal_plays`` (R-BEAROFF or
    R-BEAROFF-REAR, R-MAX, R-WASTE, squared doublets)."""
    rules = rule_set(name)
    rule = BearOffRule.of(rules)
    positions = Positions.up_to(15)
    rng = random.Random(name)
    chosen = [i for i in range(len(positions)) if positions.on_board[i] <= 3]
    chosen += rng.sample(range(len(positions)), 15)
    for a, b in ROLLS:
        origin, result = successors(rule, positions, a, b)
        starts = np.searchsorted(origin, np.arange(len(positions) + 1))
        for i in chosen:
            home = tuple(int(c) for c in positions.counts[i])
            if not any(home):
                continue
            ours = {tuple(int(c) for c in positions.counts[j])
                    for j in result[starts[i]:starts[i + 1]]}
            assert ours == _results(rules, home, f"{a}{b}"), (name, home, a, b)


def _reference(rules):
    """A plain recursion over ``legal_plays``: for a home, the expected rolls to bear off
    every man and their distribution (the play of least expectation; a tie to the
    smallest key, as the tables), and the same for the first man."""

    @cache
    def plays(home: tuple[int, ...]) -> list[list[tuple[int, ...]]]:
        return [sorted(_results(rules, home, f"{a}{b}"), key=key_of) for a, b in ROLLS]

    @cache
    def every(home: tuple[int, ...]) -> tuple[float, tuple[float, ...]]:
        if not any(home):
            return 0.0, (1.0,) + (0.0,) * 47
        mean, dist = 1.0, np.zeros(48)
        for w, results in zip(ROLL_WEIGHTS, plays(home), strict=True):
            best = min(results, key=lambda r: every(r)[0])
            mean += w * every(best)[0]
            dist[1:] += w * np.array(every(best)[1][:-1])
        return mean, tuple(dist)

    @cache
    def first(home: tuple[int, ...]) -> float:
        mean = 1.0
        for w, results in zip(ROLL_WEIGHTS, plays(home), strict=True):
            if all(sum(r) == sum(home) for r in results):
                mean += w * min(first(r) for r in results)
        return mean

    return every, first


@pytest.mark.parametrize("name", ["jacquet", "versailles", "murray"])
def test_the_tables_are_the_plain_recursion(name):
    """Every position of up to 4 men: the distribution of the rolls to bear off every man
    and the expected rolls to bear off the first, as a plain recursion over the rules
    engine's legal plays gives them."""
    rules = rule_set(name)
    small = build(BearOffRule.of(rules), SMALL)
    every, first = _reference(rules)
    firsts = small.first @ np.arange(small.first.shape[1])
    for i in range(1, len(small.positions)):
        home = tuple(int(c) for c in small.positions.counts[i])
        mean, dist = every(home)
        assert small.expected_rolls()[i] == pytest.approx(mean, abs=1e-12), home
        assert np.allclose(small.off[i], dist, atol=1e-12), home
        assert firsts[i] == pytest.approx(first(home), abs=1e-12), home


@pytest.mark.parametrize("name", ["jacquet", "versailles", "murray"])
def test_a_table_file_reads_back_as_built(tmp_path, name):
    rule = BearOffRule.of(rule_set(name))
    built = quantized(build(rule, SMALL))
    path = tmp_path / f"{rule.name}.npz"
    assert save(built, path) > 0
    read = load(rule, path)
    assert read is not None and read.positions.men == SMALL
    for a, b in ((read.off, built.off), (read.first, built.first), (read.left, built.left)):
        assert np.array_equal(a, b)
    assert load(BearOffRule("rear", True), path) is None  # another rule's name: built again


def test_murray_versailles_and_jacquet_bear_off_differently():
    """Men on 6 and 2: in jacquet a 2 bears off the man on 2; in murray not while the
    rear-most man is on 6 (R-BEAROFF-REAR). Four men on 1 in versailles."""
    jacquet, murray = (table(BearOffRule.of(rule_set(n))) for n in ("jacquet", "murray"))
    i = jacquet.positions.index([0, 1, 0, 0, 0, 1])
    assert murray.expected_rolls()[i] > jacquet.expected_rolls()[i]
    one = jacquet.positions.index([1, 0, 0, 0, 0, 0])
    assert jacquet.of("off")[one, 1] == murray.of("off")[one, 1] == 1.0  # any roll bears off a man on 1
    two = jacquet.positions.index([4, 0, 0, 0, 0, 0])
    # four men on 1: only a doublet bears them off in one roll; in versailles a doublet
    # n-n gives n steps, so only 4-4, 5-5 and 6-6
    assert jacquet.of("off")[two, 1] == pytest.approx(6 / 36, abs=1e-4)
    versailles = table(BearOffRule.of(rule_set("versailles")))
    assert versailles.of("off")[two, 1] == pytest.approx(3 / 36, abs=1e-4)


def _ranked(name: str, mine: dict[int, int], his: dict[int, int], dice: str):
    rules = rule_set(name)
    position = Position.from_points(mine, his)
    return Evaluator(load_net(name), rules).rank(legal_plays(position, dice, rules), position)


def test_the_issues_jacquet_bear_off():
    """Men on 2, 3 and 5, roll 3-1, the other side's last men on his 5 and 6: 3/off 2/1
    (or 5/4 3/off: men left on 5 and 1, or 4 and 2, each borne off by 23 rolls of 36)
    wins 0.578, 5/1 (three men left) 0.224, as issue 34 says."""
    ranked = _ranked("jacquet", {2: 1, 3: 1, 5: 1}, {5: 1, 6: 1}, "31")
    by_play = {str(c.play): c for c in ranked}
    assert str(ranked[0].play) in ("3/off 2/1", "5/4 3/off")
    assert by_play["3/off 2/1"].probabilities[0] == pytest.approx(0.578, abs=5e-4)
    assert by_play["5/1"].probabilities[0] == pytest.approx(0.224, abs=5e-4)
    # no 2-point game: both sides have men off
    assert all(c.probabilities[1:] == (0.0, 0.0) for c in ranked)


def test_the_issues_backgammon_race():
    """A pure race with 2-1: 2/off 1/off, not 6/4 6/5 (issue 34; the shipped net alone
    took 6/4 6/5 here)."""
    ranked = _ranked("backgammon", {6: 2, 5: 3, 2: 1, 1: 1}, {6: 2, 4: 4, 3: 3}, "21")
    assert str(ranked[0].play) == "2/off 1/off"
    assert ranked[0].probabilities[2] == ranked[0].probabilities[4] == 0.0  # no backgammon


def _random_bear_off(rng: random.Random, men_off: tuple[bool, bool]) -> Position:
    """A random pure bear-off; each side with men off or not."""
    sides = []
    for off in men_off:
        on = rng.randint(1, 14) if off else 15
        home = [0] * 6
        for _ in range(on):
            home[rng.randrange(6)] += 1
        sides.append({p + 1: men for p, men in enumerate(home) if men})
    return Position.from_points(sides[0], sides[1])


@pytest.mark.parametrize("name", NAMES)
def test_no_impossible_outcome_is_above_0(name):
    """300 random pure bear-offs: a 2-point win (gammon, marcia) only while the loser has
    none off, never a backgammon, per punto never for a winner who has held a prime, and
    hale's penalties no more than the men left can pay."""
    rules = rule_set(name)
    names = outcomes_for(rules).names
    rng = random.Random(f"{name} outcomes")
    positions = [_random_bear_off(rng, (rng.random() < 0.5, rng.random() < 0.5)) for _ in range(300)]
    primes = np.array([[rng.random() < 0.5, rng.random() < 0.5] for _ in positions])
    mask, y = exact_outputs(rules, positions, primes)
    assert mask.all()
    assert np.all(y >= 0.0) and np.all(y[:, 0] <= 1.0)
    for position, held, row in zip(positions, primes, y, strict=True):
        if names[1:] == ("won", "lost"):
            scale = outcomes_for(rules).scale
            # (within the tables' fixed point, 1/65535 a probability)
            assert row[1] * scale <= sum(position.opponent[1:7]) * row[0] + 1e-3
            assert row[2] * scale <= sum(position.mover[1:7]) * (1 - row[0]) + 1e-3
            continue
        wins = len(names) // 2
        if position.opponent[0]:
            assert not row[1:1 + wins].any()
        if position.mover[0]:
            assert not row[1 + wins:].any()
        if wins == 2:  # murray's per punto, backgammon's backgammons
            if held[0] or name == "backgammon":
                assert row[2] == 0.0
            if held[1] or name == "backgammon":
                assert row[4] == 0.0
        assert row[1] <= row[0] + 1e-12 and row[1 + wins] <= 1 - row[0] + 1e-12


def test_hales_penalties_in_a_bear_off():
    """The side on roll has one man left on his 1 and bears it off at once: the mover loses
    every time and pays for each of his men, all home (one point a man)."""
    rules = rule_set("hale")
    position = Position.from_points({6: 5, 3: 5, 1: 5}, {1: 1})
    mask, y = exact_outputs(rules, [position])
    scale = outcomes_for(rules).scale
    assert mask[0] and y[0, 0] == 0.0 and y[0, 1] == 0.0
    assert y[0, 2] * scale == pytest.approx(15, abs=1e-3)


def test_positions_with_a_man_outside_home_are_left_to_the_net():
    rules = rule_set("jacquet")
    inside = Position.from_points({6: 1}, {1: 15})
    outside = Position.from_points({7: 1}, {1: 15})
    his_outside = Position.from_points({6: 1}, {9: 1})
    assert pure_bear_off(inside) and not pure_bear_off(outside) and not pure_bear_off(his_outside)
    mask, y = exact_outputs(rules, [outside, his_outside, inside])
    assert mask.tolist() == [False, False, True] and not y[:2].any()


@pytest.mark.parametrize("name", ["jacquet", "versailles", "murray"])
def test_the_two_sided_table_is_the_plain_recursion(name):
    """Up to 2 men a side: the chance to win of the side on roll, both sides playing for
    it, as a plain recursion over the rules engine's legal plays gives it."""
    rules = rule_set(name)
    positions, wins = build_two_sided(BearOffRule.of(rules), 2)
    homes = [tuple(int(c) for c in positions.counts[i]) for i in range(len(positions))]

    @cache
    def chance(mine: tuple[int, ...], his: tuple[int, ...]) -> float:
        total = 0.0
        for w, (a, b) in zip(ROLL_WEIGHTS, ROLLS, strict=True):
            total += w * max(1.0 if not any(r) else 1.0 - chance(his, r)
                             for r in _results(rules, mine, f"{a}{b}"))
        return total

    for i, mine in enumerate(homes[1:], 1):
        for j, his in enumerate(homes[1:], 1):
            assert wins[i, j] == pytest.approx(chance(mine, his), abs=1e-6), (mine, his)


def test_few_men_take_the_play_that_wins_most_often():
    """Men on 6, 4 (three) and 2 (two) against his 4, 3 and 1 (three), roll 4-3: each side
    playing for the fewest expected rolls, 4/off 4/1 would win 0.1454 and 6/3 4/off 0.1448;
    with the best play of both for the chance to win, 6/3 4/off wins 0.1488, and the
    engine plays it: its P(win) is the two-sided table's."""
    rules = rule_set("jacquet")
    positions, wins = two_sided(BearOffRule.of(rules))
    mine, his = {6: 1, 4: 3, 2: 2}, {4: 1, 3: 1, 1: 3}
    ranked = _ranked("jacquet", mine, his, "43")
    assert str(ranked[0].play) == "6/3 4/off"
    assert ranked[0].probabilities[0] == pytest.approx(0.1488, abs=1e-4)
    his_home = list(Position.from_points(mine, his).opponent[1:7])
    for candidate in ranked:
        after = list(candidate.play.result.mover[1:7])
        expected = 1.0 - wins[positions.index(his_home), positions.index(after)]
        assert candidate.probabilities[0] == pytest.approx(expected, abs=1e-6)


def test_jacquet_bearoff_build_writes_the_tables_the_engine_reads(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from analysis.bearoff import store
    from jacquet_cli import main

    monkeypatch.setenv("JACQUET_CACHE", str(tmp_path))
    result = CliRunner().invoke(main, ["bearoff", "build", "--rules", "versailles"])
    assert result.exit_code == 0, result.output
    assert "highest-squared (versailles): 54,264 positions" in result.output
    rule = BearOffRule.of(rule_set("versailles"))
    assert sorted(p.name for p in (tmp_path / "bearoff").iterdir()) == \
        ["highest-squared-two-sided-6.npz", "highest-squared.npz"]
    read = load(rule, store.table_path(rule))
    assert read is not None and read.positions.men == 15
    # the engine's own table, wherever it came from, is the one written
    assert np.array_equal(read.of("off"), table(rule).of("off"))


@pytest.mark.parametrize(("name", "shut_out"), [("jacquet", 19), ("backgammon", 19),
                                                ("versailles", 20), ("murray", 25)])
def test_a_2_point_win_counted_by_hand(name, shut_out):
    """The mover's last man on his 1; the side on roll has all 15 men on his 6, none off:
    he cannot finish in one roll, so the mover wins at his next roll, by 2 points (win2,
    gammon, marcia) unless that roll bears off a man of his. Any roll with a 6 does (11 of
    36); under R-BEAROFF also 5-1 (6/1/off), 4-2, 3-3 and 2-2 (6/4/2/off), leaving 19; in
    versailles 2-2 is two steps (6/4/2), leaving 20; under R-BEAROFF-REAR (murray) only a
    man on the rear-most point, 6, comes off, leaving 25. murray's per punto (3 points)
    goes with the marcia when the mover has held no prime."""
    rules = rule_set(name)
    position = Position.from_points({1: 1}, {6: 15})
    names = outcomes_for(rules).names
    for held in (False, True):
        mask, y = exact_outputs(rules, [position], np.array([[held, False]]))
        row = dict(zip(names, y[0], strict=True))
        assert mask[0] and row["win"] == pytest.approx(1.0, abs=1e-4)
        two = row.get("win2", row.get("win_marcia", row.get("win_gammon")))
        assert two == pytest.approx(shut_out / 36, abs=1e-4)
        assert all(v == 0.0 for k, v in row.items() if k.startswith("lose"))
        if name == "murray":
            assert row["win_punto"] == (0.0 if held else pytest.approx(shut_out / 36, abs=1e-4))
        if name == "backgammon":
            assert row["win_backgammon"] == 0.0
