"""Marks that hold (`jacquet analyse --confirm`): the turns a 0-ply judgement would mark,
and those whose best two plays are close, are judged again by a deeper judge, which keeps,
drops or sets their marks; every turn says which level decided it.

The rule itself is checked on hand-built judgements (a 0-ply ranking and a deeper one,
each set by the case); the judges themselves on real nets: a 1-ply evaluator, and a
rollout on a position whose truth the rules give."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner

from analysis.analyse import analyse_game, mark_for
from analysis.confirm import (
    CLOSE,
    CONFIRMATIONS,
    MARGIN,
    CheckedJudge,
    PlyJudge,
    RolloutJudge,
    check_bound,
    confirmation_for,
    confirmation_level,
    confirmed_limits,
    deeper_judge,
    fallbacks,
    needs_confirming,
)
from analysis.network import Network
from analysis.ranking import Candidate, Evaluator
from analysis.threads import limit_blas_threads
from jacquet_cli import main
from notation import Dice, Play, Position, legal_plays, rule_set
from notation.engine.rules import NAMES
from notation.engine.state import ROLL, Colour, GameState
from notation.formats import read_file
from notation.tree.game import Game

limit_blas_threads(1)

BACKGAMMON = rule_set("backgammon")
DOUBTFUL, BAD, VERY_BAD = BACKGAMMON.marks  # gnubg's 0.030, 0.060, 0.120
BEYOND_DOUBT = check_bound(BACKGAMMON)  # 2-ply's marks from here up are not checked
PLAYED = "8/5 6/5"
OTHER = "24/21 24/23"
"""The opening 3-1: the play made in every hand-built case, and the play a judge may put
above it."""


@dataclass
class Judgement:
    """A hand-built ranking of the opening 3-1: the play made loses ``loss`` against
    ``OTHER`` (or, with ``loss`` 0, is best with ``OTHER`` ``second`` behind it); every
    other play is a point behind."""

    name: str
    loss: float
    second: float = 1.0
    calls: list[str] = field(default_factory=list)

    @property
    def level(self) -> str:
        return self.name.rsplit(", ", 1)[-1]

    def _ranked(self, plays: Sequence[Play]) -> list[Candidate]:
        equity = {PLAYED: -self.loss, OTHER: 0.0 if self.loss else -self.second}
        ranked = [Candidate(play, equity.get(play.notation, -1.0), (0.5,) * 5, 0) for play in plays]
        return sorted(ranked, key=lambda c: -c.equity)

    def rank(self, plays: Sequence[Play], position: Position, primes: tuple[bool, bool] = (False, False),
             also: Play | None = None) -> list[Candidate]:
        self.calls.append("rank")
        return self._ranked(plays)

    def judge(self, plays: Sequence[Play], position: Position, dice: Dice, primes: tuple[bool, bool],
              also: Play) -> list[Candidate]:
        self.calls.append("judge")
        return self._ranked(plays)


def _opening(played: str = PLAYED) -> Game:
    game = Game(BACKGAMMON)
    game.state = GameState(BACKGAMMON, BACKGAMMON.start, Colour.WHITE)
    game.add_turn(ROLL, Dice(3, 1), played)
    return game


def _confirmed(zero: Judgement, deeper: Judgement):
    analysis = analyse_game(_opening(), zero, luck=False, confirm=deeper)  # type: ignore[arg-type]
    (turn,) = analysis.turns
    return analysis, turn


def test_the_hand_built_rankings_mark_what_the_thresholds_say():
    """Without confirmation the 0-ply judgement alone marks: the cases below start from it."""
    for loss, mark in ((0.2, "??"), (0.07, "?"), (0.04, "?!"), (0.01, None)):
        (turn,) = analyse_game(_opening(), Judgement("stub, 0-ply", loss), luck=False).turns  # type: ignore[arg-type]
        assert turn.mark == mark and turn.level == "stub, 0-ply" and not turn.confirmed


def test_a_mark_the_deeper_level_confirms_is_kept_with_its_figures():
    analysis, turn = _confirmed(Judgement("stub, 0-ply", 0.2), Judgement("stub, 2-ply", 0.13))
    assert turn.mark == "??" and turn.loss == pytest.approx(0.13)  # the deeper level's loss
    assert turn.level == "stub, 2-ply" and turn.confirmed
    assert analysis.confirm == "2-ply" and analysis.players[Colour.WHITE].confirmed == 1


def test_a_mark_the_deeper_level_lowers_becomes_its_mark():
    _, turn = _confirmed(Judgement("stub, 0-ply", 0.2), Judgement("stub, 2-ply", 0.09))
    assert turn.mark == "?" and turn.level == "stub, 2-ply"


def test_the_deeper_levels_bad_mark_starts_a_margin_above_the_rule_sets():
    """gnubg's ``?`` is 0.060; a confirmed play losing 0.065 is only doubtful, one losing
    0.075 bad, while 0-ply alone marks both bad; ``?!`` and ``??`` keep their thresholds."""
    doubtful, bad, very_bad = confirmed_limits(BACKGAMMON.marks)
    assert (doubtful, very_bad) == (DOUBTFUL, VERY_BAD) and BAD < bad < VERY_BAD
    assert bad == pytest.approx(MARGIN * BAD)
    for loss, confirmed in ((0.065, "?!"), (0.075, "?"), (0.035, "?!"), (0.125, "??")):
        _, turn = _confirmed(Judgement("stub, 0-ply", 0.2), Judgement("stub, 2-ply", loss))
        assert turn.mark == confirmed and turn.loss == pytest.approx(loss)
        (alone,) = analyse_game(_opening(), Judgement("stub, 0-ply", loss), luck=False).turns  # type: ignore[arg-type]
        assert alone.mark == mark_for(loss, BACKGAMMON.marks)
    assert mark_for(0.065, BACKGAMMON.marks) == "?"


def test_the_margin_never_lifts_bad_above_very_bad():
    assert confirmed_limits((0.03, 0.11, 0.12)) == (0.03, 0.12, 0.12)


def test_a_mark_the_deeper_level_refutes_is_dropped():
    analysis, turn = _confirmed(Judgement("stub, 0-ply", 0.2), Judgement("stub, 2-ply", 0.01))
    assert turn.mark is None and turn.loss == pytest.approx(0.01) and turn.level == "stub, 2-ply"
    assert analysis.players[Colour.WHITE].marks == {"??": 0, "?": 0, "?!": 0}
    assert analysis.players[Colour.WHITE].error_rate == pytest.approx(10.0)  # 0.01 per decision


def test_a_mark_the_deeper_level_gives_on_a_close_turn_is_set():
    """The play made is 0-ply's best, the second within the margin: judged again, it loses
    0.13 there, so it is marked ??."""
    margin = CLOSE * DOUBTFUL
    _, turn = _confirmed(Judgement("stub, 0-ply", 0.0, second=margin / 2), Judgement("stub, 2-ply", 0.13))
    assert turn.mark == "??" and turn.rank == 2 and turn.best.play.notation == OTHER
    assert turn.level == "stub, 2-ply"


def test_a_turn_neither_marked_nor_close_is_not_judged_again():
    deeper = Judgement("stub, 2-ply", 0.3)
    _, turn = _confirmed(Judgement("stub, 0-ply", 0.0, second=2 * CLOSE * DOUBTFUL), deeper)
    assert deeper.calls == [] and turn.mark is None and turn.level == "stub, 0-ply"
    assert not turn.confirmed


def test_forced_plays_are_never_judged_again():
    position = Position.from_points({1: 1}, {6: 15})  # one man on 1: every roll bears it off
    game = Game(BACKGAMMON)
    game.state = GameState(BACKGAMMON, position, Colour.WHITE)
    game.add_turn(ROLL, Dice(6, 5), "1/off")
    net = Network.create("backgammon", 8, seed=3)
    deeper = Judgement("stub, 2-ply", 0.3)
    (turn,) = analyse_game(game, Evaluator(net, BACKGAMMON), luck=False, confirm=deeper).turns  # type: ignore[arg-type]
    assert turn.forced and deeper.calls == [] and turn.mark is None


def test_needs_confirming_follows_the_margin():
    plays = legal_plays(BACKGAMMON.start, Dice(3, 1), BACKGAMMON)
    margin = CLOSE * BACKGAMMON.marks[0]
    near = [Candidate(plays[0], 0.0, (), 0), Candidate(plays[1], -margin * 0.9, (), 0)]
    far = [Candidate(plays[0], 0.0, (), 0), Candidate(plays[1], -margin * 1.1, (), 0)]
    assert needs_confirming(near, None, BACKGAMMON.marks)
    assert not needs_confirming(far, None, BACKGAMMON.marks)
    assert needs_confirming(far, "?!", BACKGAMMON.marks)


@pytest.fixture(scope="module")
def jacquet_net() -> Network:
    return Network.create("jacquet", 12, seed=5)


def test_with_a_one_ply_judge_every_mark_is_its_judgement(jacquet_net):
    """A generated game judged at 0-ply and confirmed at 1-ply: every turn 0-ply would mark
    was judged again; each turn's mark is what its own level's loss earns, and a re-judged
    turn's loss is the 1-ply evaluator's."""
    game = next(iter(read_file("samples/generated/jacquet-10.jqn")))
    rules = game.rules
    zero = Evaluator(jacquet_net, rules)
    one = Evaluator(jacquet_net, rules, ply=1)
    plain = analyse_game(game, zero, luck=False)
    confirmed = analyse_game(game, zero, luck=False, confirm=PlyJudge(one))
    assert confirmed.confirm == "1-ply"
    changed = 0
    for before, turn in zip(plain.turns, confirmed.turns, strict=True):
        if before.mark is not None:
            assert turn.confirmed and turn.level == one.name
        limits = confirmed_limits(rules.marks) if turn.confirmed else rules.marks
        assert turn.mark == (None if turn.forced else mark_for(turn.loss, limits))
        if turn.confirmed:
            state = turn.node.parent.state
            ranked = one.rank(legal_plays(state.position, turn.dice, rules), state.position, also=turn.played)
            chosen = next(c for c in ranked if c.play.result == turn.played.result)
            assert turn.loss == pytest.approx(max(0.0, ranked[0].equity - chosen.equity))
        else:
            assert turn.level == zero.name and turn.loss == before.loss
        changed += turn.loss != pytest.approx(before.loss)
    assert sum(t.confirmed for t in confirmed.turns) > 0
    assert changed > 0  # the 1-ply judge's figures are not 0-ply's


@pytest.mark.parametrize("second", [0, 3])
def test_a_two_ply_judge_measures_the_loss_between_two_two_ply_figures(jacquet_net, second):
    """2-ply's move filter sends only a few plays to 2-ply (its second stage: ``second`` of
    the best at 1-ply), but never leaves out the play made nor the 0-ply best: a confirmed
    loss is the 2-ply best against the play made at 2-ply, never a 1-ply or 0-ply figure,
    even where the second stage keeps nothing of its own."""
    game = next(iter(read_file("samples/generated/jacquet-10.jqn")))
    rules = game.rules
    zero = Evaluator(jacquet_net, rules)
    judge = PlyJudge(Evaluator(jacquet_net, rules, ply=2, second=second))
    judged = 0
    for node in list(game.mainline())[1:12]:
        turn, state = node.turn, node.parent.state
        if turn.kind != ROLL or turn.dice is None:
            continue
        plays = legal_plays(state.position, turn.dice, rules)
        if len(plays) < 2:
            continue
        played = plays[-1]  # the last the generator lists: rarely the best
        ranked = judge.judge(plays, state.position, turn.dice, (False, False), also=played)
        best_at_zero = zero.rank(plays, state.position)[0].play
        depth = {c.play.result: c.depth for c in ranked}
        assert depth[played.result] == 2 and depth[best_at_zero.result] == 2
        assert ranked[0].depth == 2
        judged += 1
    assert judged >= 3


def test_a_rollout_judges_by_what_the_games_give():
    """Backgammon, men on 3 and 1 against one man on the opponent's 1 point, 3-1:
    3/off 1/off wins a single game at once, while 3/2/off leaves a man on 1 and the
    opponent bears his last man off first: every play-out loses. The rollout ranks by
    those outcomes, exactly (a barely made net plays them out)."""
    position = Position.from_points({3: 1, 1: 1}, {1: 1})
    plays = legal_plays(position, Dice(3, 1), BACKGAMMON)
    losing = next(p for p in plays if p.result.mover[0] == 14)
    net = Network.create("backgammon", 8, seed=3)
    judge = RolloutJudge(net, BACKGAMMON, games=36, truncate=4)
    ranked = judge.judge(plays, position, Dice(3, 1), (False, False), losing)
    assert ranked[0].play.result.mover[0] == 15 and ranked[0].equity == 1.0
    worst = next(c for c in ranked if c.play.result == losing.result)
    assert worst.equity == -1.0
    assert judge.level == "rollout of 36 games at 0-ply, truncated after 4 turns, seed 1"


@dataclass
class Rolled:
    """A hand-built rollout of the opening 3-1: the play made loses ``loss`` against
    ``OTHER`` by what its games give; the plays it was given are recorded."""

    loss: float
    candidates: int = 2
    level: str = "rollout of 36 games at 0-ply, truncated after 7 turns, seed 1"
    given: list[list[str]] = field(default_factory=list)

    def roll(self, plays: Sequence[Play], position: Position, dice: Dice,
             chosen: Sequence[Candidate]) -> list[Candidate]:
        self.given.append([c.play.notation for c in chosen])
        equity = {PLAYED: -self.loss, OTHER: 0.0}
        rolled = [Candidate(c.play, equity.get(c.play.notation, -0.5), (0.5,) * 5, 0) for c in chosen]
        return sorted(rolled, key=lambda c: -c.equity)


def _checked(two_ply: float, rollout: float) -> tuple[Rolled, object]:
    """The opening 3-1 marked ?? at 0-ply, confirmed by 2-ply (its loss ``two_ply``) whose
    marks a rollout checks (its loss ``rollout``)."""
    rolled = Rolled(rollout)
    judge = CheckedJudge(Judgement("stub, 2-ply", two_ply), rolled, DOUBTFUL, BEYOND_DOUBT)
    _, turn = _confirmed(Judgement("stub, 0-ply", 0.2), judge)  # type: ignore[arg-type]
    return rolled, turn


def test_a_two_ply_mark_the_rollout_refutes_is_dropped():
    _, turn = _checked(0.09, 0.01)
    assert turn.mark is None and turn.loss == pytest.approx(0.01) and turn.confirmed
    assert turn.level == (f"stub, 2-ply, marks under {BEYOND_DOUBT:g} checked by a rollout of 36 games at "
                          "0-ply, truncated after 7 turns, seed 1")


def test_a_two_ply_mark_the_rollout_confirms_is_kept_with_its_loss():
    _, turn = _checked(0.09, 0.13)
    assert turn.mark == "??" and turn.loss == pytest.approx(0.13) and turn.best.play.notation == OTHER
    _, turn = _checked(0.2, 0.08)
    assert turn.mark == "?" and turn.loss == pytest.approx(0.08)


def test_the_rollout_may_mark_a_play_two_ply_found_only_doubtful():
    _, turn = _checked(0.04, 0.1)
    assert turn.mark == "?"


def test_a_play_two_ply_finds_no_error_is_not_rolled_out():
    rolled, turn = _checked(0.01, 0.3)
    assert rolled.given == [] and turn.mark is None and turn.loss == pytest.approx(0.01)


def test_a_play_two_ply_finds_far_worse_keeps_its_mark_unchecked():
    """From the bound up (twice the very bad threshold in the rule sets), no rollout is
    expected to lift the mark: 2-ply's stands, and the turn says the bound."""
    rolled, turn = _checked(BEYOND_DOUBT, 0.01)
    assert rolled.given == [] and turn.mark == "??" and turn.loss == pytest.approx(BEYOND_DOUBT)
    assert f", marks under {BEYOND_DOUBT:g} checked by a rollout" in turn.level
    rolled, turn = _checked(BEYOND_DOUBT - 0.01, 0.01)
    assert len(rolled.given) == 1 and turn.mark is None


@pytest.mark.parametrize("variant", NAMES)
def test_the_checks_bound_is_twice_the_rule_sets_very_bad_threshold(variant):
    rules = rule_set(variant)
    assert check_bound(rules) == pytest.approx(2 * rules.marks[2])
    assert f"marks under {check_bound(rules):g} checked" in confirmation_level("2ply+rollout", rules)


def test_the_rollout_plays_out_two_plys_best_two_and_the_play_made():
    rolled, _ = _checked(0.09, 0.01)
    (given,) = rolled.given
    assert given[:2] == [OTHER, PLAYED] and len(given) == 2  # the play made is 2-ply's second


def test_a_two_stage_judge_rolls_out_what_the_games_decide():
    """The bear-off of the rollout test above: a 2-ply judge (hand-built) finds the losing
    play nearly as good; the rollout finds it loses every game (2 points), so ??."""
    position = Position.from_points({3: 1, 1: 1}, {1: 1})
    plays = legal_plays(position, Dice(3, 1), BACKGAMMON)
    losing = next(p for p in plays if p.result.mover[0] == 14)
    winning = next(p for p in plays if p.result.mover[0] == 15)

    @dataclass
    class Near:
        name: str = "stub, 2-ply"
        level: str = "2-ply"

        def judge(self, plays: Sequence[Play], position: Position, dice: Dice,
                  primes: tuple[bool, bool], also: Play) -> list[Candidate]:
            return [Candidate(winning, 0.5, (0.5,) * 5, 2), Candidate(losing, 0.45, (0.5,) * 5, 2)]

    net = Network.create("backgammon", 8, seed=3)
    judge = CheckedJudge(Near(), RolloutJudge(net, BACKGAMMON, games=36, truncate=4, candidates=2), DOUBTFUL,
                         BEYOND_DOUBT)
    ranked = judge.judge(plays, position, Dice(3, 1), (False, False), losing)
    assert [c.equity for c in ranked] == [1.0, -1.0]
    assert mark_for(ranked[0].equity - ranked[1].equity, BACKGAMMON.marks) == "??"


def test_deeper_judge_names_its_settings(jacquet_net):
    rules = rule_set("jacquet")
    assert deeper_judge("none", jacquet_net, rules) is None
    assert deeper_judge("1ply", jacquet_net, rules).name == "jacquet-td jacquet v2, 1-ply"
    assert deeper_judge("rollout", jacquet_net, rules).level.startswith("rollout of 144 games")
    with pytest.raises(ValueError):
        deeper_judge("3ply", jacquet_net, rules)


def test_the_level_of_a_setting_is_its_judges_without_making_it(jacquet_net):
    """The archive keys an analysis by its confirming level: the one its judge gives every
    turn, known from the setting alone."""
    rules = rule_set("jacquet")
    for setting in CONFIRMATIONS:
        judge = deeper_judge(setting, jacquet_net, rules)
        assert confirmation_level(setting, rules) == ("" if judge is None else judge.level)
    with pytest.raises(ValueError):
        confirmation_level("3ply", rules)


def test_every_confirmation_has_a_cost_for_sharing_the_work():
    from analysis.analyse_jobs import CONFIRM_COST

    assert set(CONFIRM_COST) == set(CONFIRMATIONS)
    assert [CONFIRM_COST[s] for s in CONFIRMATIONS] == sorted(CONFIRM_COST.values())  # lightest first


@pytest.mark.parametrize("variant", NAMES)
def test_each_rule_set_confirms_by_its_own_setting_unless_told(variant):
    """``--confirm`` unset (``None``) is the rule set's own confirmation, one the engine
    makes; a setting asked is kept whatever the rule set."""
    rules = rule_set(variant)
    assert confirmation_for(None, rules) == rules.confirmation
    assert rules.confirmation in CONFIRMATIONS and confirmation_level(rules.confirmation, rules)
    assert confirmation_for("1ply", rules) == "1ply"
    assert confirmation_for("none", rules) == "none"


def test_analyse_confirms_each_game_as_its_rule_set_does_by_default(two_games):
    """One run over a jacquet game and a backgammon game, no ``--confirm``: each game's
    marks confirmed at 2-ply and checked by a rollout (the setting measured best against
    gnubg 2-ply and against long rollouts, docs/analysis.md) under its own rule set's bound;
    ``--confirm 2ply`` makes both 2-ply."""
    match = Path(__file__).parent / "data" / "mat" / "BoardLord_-_Llabba_7pt_Backgammon_Studio_2023_08_09_18_11_07.mat"
    runs = {}
    for options in ([], ["--confirm", "2ply"]):
        result = CliRunner().invoke(main, ["analyse", two_games[0], str(match), "--json",
                                           "--jobs", "1", "--game", "1", *options])
        assert result.exit_code == 0, result.output
        runs[bool(options)] = [json.loads(line)["confirm"] for line in result.stdout.splitlines()]
    jacquet, backgammon = rule_set("jacquet"), rule_set("backgammon")
    assert runs[False] == [confirmation_level("2ply+rollout", jacquet), confirmation_level("2ply+rollout", backgammon)]
    assert runs[False][0] != runs[False][1]  # the bound: twice each rule set's very bad threshold
    assert runs[True] == [confirmation_level("2ply", jacquet)] * 2


def test_a_bounded_analysis_falls_back_on_lighter_confirmations():
    assert fallbacks("rollout") == ("rollout", "2ply", "1ply", "none")
    assert fallbacks("2ply+rollout") == ("2ply+rollout", "2ply", "1ply", "none")
    assert fallbacks("2ply") == ("2ply", "1ply", "none")
    assert fallbacks("1ply") == ("1ply", "none")
    assert fallbacks("none") == ("none",)


def test_analyse_json_says_the_level_of_every_turn(two_games):
    path, net = two_games
    result = CliRunner().invoke(main, ["analyse", path, "--net", net, "--json", "--confirm", "1ply"])
    assert result.exit_code == 0, result.output
    for line in result.stdout.splitlines():
        game = json.loads(line)
        assert game["engine"] == "jacquet-td jacquet v2, 0-ply" and game["confirm"] == "1-ply"
        levels = {turn["level"] for turn in game["turns"]}
        assert levels <= {"jacquet-td jacquet v2, 0-ply", "jacquet-td jacquet v2, 1-ply"}
        marked = [turn for turn in game["turns"] if turn["mark"]]
        assert marked and all(turn["level"].endswith("1-ply") for turn in marked)
        for colour in ("White", "Black"):
            player = game["players"][colour]
            assert player["confirmed"] == sum(
                turn["level"].endswith("1-ply") for turn in game["turns"] if turn["player"] == colour)
    plain = CliRunner().invoke(main, ["analyse", path, "--net", net, "--json", "--confirm", "none"])
    for line in plain.stdout.splitlines():
        game = json.loads(line)
        assert game["confirm"] is None
        assert {turn["level"] for turn in game["turns"]} == {"jacquet-td jacquet v2, 0-ply"}


def test_an_annotated_record_names_the_confirming_level(two_games, tmp_path):
    path, net = two_games
    out = tmp_path / "annotated.jqn"
    result = CliRunner().invoke(main, ["analyse", path, "--net", net, "--confirm", "1ply", "-o", str(out)])
    assert result.exit_code == 0, result.output
    game = next(iter(read_file(out)))
    assert game.headers["Annotator"] == "jacquet-td jacquet v2, 0-ply, marks confirmed at 1-ply"
    text = out.read_text()
    assert "jacquet-td jacquet v2, 1-ply:" in text


def test_an_unknown_depth_is_refused_before_any_game(two_games, monkeypatch):
    path, net = two_games
    import analysis.ranking

    monkeypatch.setattr(analysis.ranking, "DEPTHS", (0, 1))  # as before the 2-ply evaluator
    result = CliRunner().invoke(main, ["analyse", path, "--net", net, "--confirm", "2ply"])
    assert result.exit_code == 2 and "--confirm" in result.output
