"""``bench/rollout_marks.py``: the 0-ply marks against rollouts. Its scoring on hand-built
judgements, and a tiny run: each position's rollout is ``jacquet rollout``'s, its 0-ply
loss the ranking's, and a run stopped and started again goes on from its cache."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from analysis.confirm import CHECK_GAMES, CHECK_TRUNCATE, CheckedJudge, RolloutJudge, deeper_judge
from analysis.ranking import Evaluator
from analysis.rollout import RolloutSpec, run_rollout
from analysis.shipped import load_net, playing_net
from notation import Dice, Position, legal_plays, rule_set

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

import rollout_marks  # noqa: E402

OTHER = BENCH.parent / "analysis" / "nets" / "history" / "hale-020000.npz"
"""A net other than the shipped one: an early snapshot of hale's line."""


def _row(index: int, mark0: str | None, mark: str | None, loss0: float, loss: float) -> dict:
    return {"index": index, "mark0": mark0, "mark": mark, "loss0": loss0, "loss": loss,
            "loss_error": 0.01 * (index + 1), "best_rank0": 1 if mark is None else 2}


def test_precision_and_recall_count_the_bad_and_very_bad_marks_only():
    rows = [_row(0, "??", "?", 0.3, 0.1),    # both
            _row(1, "?", None, 0.1, 0.0),    # marked, no error
            _row(2, "?!", "??", 0.05, 0.2),  # an error the 0-ply mark calls doubtful only
            _row(3, None, None, 0.0, 0.01),
            _row(4, "?", "?!", 0.09, 0.05)]  # a doubtful play is no bad one
    figures = rollout_marks.score(rows)
    assert (figures["marked"], figures["errors"], figures["both"]) == (3, 2, 1)
    assert figures["precision"] == pytest.approx(1 / 3) and figures["recall"] == pytest.approx(1 / 2)
    assert figures["marks"][("?!", "??")] == 1 and figures["marks"][("-", "-")] == 1
    assert figures["largest_error"] == pytest.approx(0.05) and figures["median_error"] == pytest.approx(0.03)
    # a play made that is the rollout's best has no error of its loss: left out of the median
    # (0.025 with it)
    assert rollout_marks.score([*rows, _row(5, None, None, 0.0, 0.0) | {"loss_error": 0.0}])["median_error"] \
        == pytest.approx(0.03)
    # how far the judged losses stand from the rollout's: 0.2, 0.1, -0.15, -0.01, 0.04
    assert figures["loss_miss"] == pytest.approx(np.std([0.2, 0.1, -0.15, -0.01, 0.04]))
    # ranks 5 4 2 1 3 against 4 1 5 2 3: sum of d squared 20, 1 - 6 * 20 / (5 * 24) = 0
    assert figures["spearman"] == pytest.approx(0.0)
    # losses 0.01 and 0.05 lie within two standard errors (0.08, 0.10) of a 0.08 threshold
    assert rollout_marks.score(rows, 0.08)["unsettled"] == 2
    reordered = [dict(r, loss=r["loss0"] * 2) for r in rows]
    assert rollout_marks.score(reordered)["spearman"] == pytest.approx(1.0)


def test_another_margin_marks_the_turns_judged_again_anew_and_leaves_0_ply_s_alone():
    level = "jacquet-td jacquet v2 + race r2, 2-ply, marks under 0.32 checked by a rollout of 648 games"
    marks = [{"index": 0, "mark": "?!", "loss": 0.085, "level": level},   # under 7/6 of 0.08
             {"index": 1, "mark": None, "loss": 0.09, "level": "jacquet-td jacquet v2 + race r2, 0-ply"},
             {"index": 2, "mark": "??", "loss": 0.2, "level": level},
             {"index": 3, "mark": None, "loss": 0.03, "level": level}]
    limits = rule_set("jacquet").marks
    assert [m["mark"] for m in rollout_marks.remarked(marks, limits, 1.0)] == ["?", None, "??", None]
    assert [m["mark"] for m in rollout_marks.remarked(marks, limits, 1.1)] == ["?!", None, "??", None]
    # a margin past the very bad threshold stops there
    assert rollout_marks.remarked(marks, limits, 10.0)[2]["mark"] == "??"
    assert marks[0]["mark"] == "?!"  # the cache's lines are not changed


def test_no_mark_on_either_side_gives_no_share():
    figures = rollout_marks.score([_row(0, None, None, 0.0, 0.0)])
    assert figures["marked"] == figures["errors"] == 0
    assert figures["precision"] != figures["precision"]  # NaN: nothing to divide by


def test_a_tiny_run_rolls_out_as_jacquet_rollout_and_resumes_from_its_cache(tmp_path, monkeypatch):
    args = ["--variant", "hale", "--positions", "3", "--games", "36", "--truncate", "3", "--keep", "0.3",
            "--cache", str(tmp_path)]
    figures = rollout_marks.main(args)
    assert figures["positions"] == 3
    (results,) = tmp_path.glob("*.jsonl")
    rows = [json.loads(line) for line in results.read_text().splitlines()]
    assert sorted(r["index"] for r in rows) == [0, 1, 2]
    rules, net = rule_set("hale"), load_net("hale")
    for row in rows:
        position, dice = Position.from_id(row["position"]), Dice.parse(row["dice"])
        plays = legal_plays(position, dice, rules)
        ranked = Evaluator(net, rules).rank(plays, position)
        made = plays[row["made"]]
        assert len(plays) > 1 and row["made"] in row["candidates"]
        assert row["loss0"] == pytest.approx(ranked[0].equity - next(c.equity for c in ranked if c.play == made))
        spec = RolloutSpec(net, "hale", {}, row["position"], row["dice"], tuple(row["candidates"]), 0, 3,
                           1 + row["index"])
        rolled = run_rollout(spec, games=36)
        by_play = {c.play.result: c.equity for c in rolled.candidates}
        assert row["loss"] == pytest.approx(rolled.candidates[0].equity - by_play[made.result])
    # the net's errors against the rollouts (step 4b), recomputed apart from the rows
    errors = figures["equity_errors"]
    level, relative = [], []
    for row in rows:
        position, dice = Position.from_id(row["position"]), Dice.parse(row["dice"])
        plays = legal_plays(position, dice, rules)
        by_result = {c.play.result: c.equity for c in Evaluator(net, rules).rank(plays, position)}
        own = [by_result[plays[c].result] - e for c, e in zip(row["candidates"], row["equities"], strict=True)]
        best = row["equities"].index(max(row["equities"]))
        level += own
        relative += [e - own[best] for k, e in enumerate(own) if k != best]
    assert errors["level"] == pytest.approx(np.std(level)) and errors["relative"] == pytest.approx(np.std(relative))
    assert errors["bias"] == pytest.approx(np.mean(relative))
    # a rollout that found the net's own equities, shifted alike, leaves no error of a loss
    shifted = [{**row, "equities": [by + 0.5 for by in rollout_marks.judged_at_0ply(net, "hale", row)[1].values()]}
               for row in rows]
    shifted = [{**row, "candidates": list(rollout_marks.judged_at_0ply(net, "hale", row)[1])} for row in shifted]
    same = rollout_marks.equity_errors(net, "hale", shifted)
    assert same["relative"] == pytest.approx(0.0, abs=1e-9) and same["level"] == pytest.approx(0.0, abs=1e-9)
    # a line cut short by a kill is skipped; the positions done are not rolled out again
    with results.open("a") as out:
        out.write('{"index": 2, "cut')
    monkeypatch.setattr(rollout_marks, "judge_position", lambda *a: pytest.fail("rolled out again"))
    assert rollout_marks.main(args)["positions"] == 3
    assert rollout_marks.main([*args, "--positions", "5", "--report"])["positions"] == 3


def test_a_judge_that_knew_every_loss_scores_perfectly_only_against_a_rollout_without_noise():
    sure = [_row(0, None, "?", 0.0, 0.2) | {"loss_error": 0.0}, _row(1, None, None, 0.0, 0.0) | {"loss_error": 0.0}]
    assert rollout_marks.ceiling(sure, (0.04, 0.08, 0.16)) == (1.0, 1.0)
    # a loss on the threshold falls either side of it in half the second rollouts; a loss just
    # under it with a large error is marked in about half of them
    edge = _row(2, None, "?", 0.0, 0.08) | {"loss_error": 0.01}
    precision, recall = rollout_marks.ceiling([*sure, edge], (0.04, 0.08, 0.16))
    assert precision == 1.0 and recall == pytest.approx(0.75, abs=0.02)
    wide = _row(3, None, None, 0.0, 0.079) | {"loss_error": 1.0}
    precision, recall = rollout_marks.ceiling([*sure, wide], (0.04, 0.08, 0.16))
    assert precision == pytest.approx(0.75, abs=0.02) and recall == 1.0


def test_the_confirmed_marks_are_the_0_ply_ones_or_the_deeper_level_s(tmp_path, monkeypatch):
    args = ["--variant", "hale", "--positions", "3", "--games", "36", "--truncate", "3", "--keep", "0.3",
            "--cache", str(tmp_path), "--confirm", "2ply"]
    figures = rollout_marks.main(args)
    rules, net = rule_set("hale"), load_net("hale")
    (cache,) = tmp_path.glob("*-default-2ply.jsonl")
    marks = [json.loads(line) for line in cache.read_text().splitlines()]
    (results,) = (path for path in tmp_path.glob("*.jsonl") if path != cache)
    rows = {r["index"]: r for r in map(json.loads, results.read_text().splitlines())}
    assert sorted(m["index"] for m in marks) == [0, 1, 2]
    deep = Evaluator(net, rules, ply=2)
    for mark in marks:
        row = rows[mark["index"]]
        if mark["level"].endswith("0-ply"):
            assert mark["loss"] == pytest.approx(row["loss0"]) and mark["mark"] == row["mark0"]
            continue
        assert mark["level"].endswith("2-ply")
        position, dice = Position.from_id(row["position"]), Dice.parse(row["dice"])
        plays = legal_plays(position, dice, rules)
        made = plays[row["made"]]
        ranked = deep.rank(plays, position, also=made)
        assert mark["loss"] == pytest.approx(ranked[0].equity - next(c.equity for c in ranked if c.play == made))
    assert figures["confirmed"]["2ply"]["positions"] == 3
    # kept: a second run judges none again
    monkeypatch.setattr(rollout_marks, "judge_turns", lambda *a: pytest.fail("judged again"))
    assert rollout_marks.main(args)["confirmed"]["2ply"]["marked"] == figures["confirmed"]["2ply"]["marked"]


def test_another_confirmation_is_measured_in_a_cache_of_its_own(tmp_path):
    args = ["--variant", "hale", "--positions", "3", "--games", "36", "--truncate", "3", "--keep", "0.3",
            "--cache", str(tmp_path), "--confirm", "1ply"]
    figures = rollout_marks.main(args)
    (cache,) = tmp_path.glob("*-default-*.jsonl")
    assert cache.name.endswith("-default-1ply.jsonl") and list(figures["confirmed"]) == ["1ply"]
    assert figures["confirmed"]["1ply"]["positions"] == 3
    (results,) = (path for path in tmp_path.glob("*.jsonl") if path != cache)
    rows = {r["index"]: r for r in map(json.loads, results.read_text().splitlines())}
    rules = rule_set("hale")
    shallow = Evaluator(load_net("hale"), rules, ply=1)
    marks = [json.loads(line) for line in cache.read_text().splitlines()]
    assert any(mark["level"].endswith("1-ply") for mark in marks)  # the setting asked, not the default
    for mark in marks:
        row = rows[mark["index"]]
        if mark["level"].endswith("0-ply"):
            assert mark["loss"] == pytest.approx(row["loss0"])
            continue
        assert mark["level"].endswith("1-ply")
        position, dice = Position.from_id(row["position"]), Dice.parse(row["dice"])
        plays = legal_plays(position, dice, rules)
        ranked = shallow.rank(plays, position, also=plays[row["made"]])
        assert mark["loss"] == pytest.approx(ranked[0].equity - next(
            c.equity for c in ranked if c.play == plays[row["made"]]))


def test_a_position_whose_judge_has_changed_is_judged_again(tmp_path, monkeypatch):
    """A setting's judge may change (a bound, a margin): the cache lines another judge
    decided are judged again, those at 0-ply kept."""
    args = ["--variant", "hale", "--positions", "3", "--games", "36", "--truncate", "3", "--keep", "0.3",
            "--cache", str(tmp_path), "--confirm", "1ply"]
    rollout_marks.main(args)
    (cache,) = tmp_path.glob("*-default-*.jsonl")
    lines = [json.loads(line) for line in cache.read_text().splitlines()]
    stale = [line["index"] for line in lines if line["level"].endswith("1-ply")]
    assert stale
    cache.write_text("".join(json.dumps({**line, "level": line["level"].replace("1-ply", "1-ply, an older judge")})
                             + "\n" for line in lines))
    judged = []
    real = rollout_marks.judge_turns

    def counted(rules, turns, *rest):
        judged.extend(turns)
        return real(rules, turns, *rest)

    monkeypatch.setattr(rollout_marks, "judge_turns", counted)
    again = rollout_marks.main(args)["confirmed"]["1ply"]
    assert len(judged) == len(stale)
    assert again["positions"] == 3
    last = {line["index"]: line for line in map(json.loads, cache.read_text().splitlines())}
    assert all(line["level"].endswith(("0-ply", "1-ply")) for line in last.values())


def test_several_confirmations_are_printed_side_by_side_in_one_run(tmp_path, capsys):
    args = ["--variant", "hale", "--positions", "3", "--games", "36", "--truncate", "3", "--keep", "0.3",
            "--cache", str(tmp_path), "--default", "--confirm", "1ply"]
    own = rule_set("hale").confirmation
    figures = rollout_marks.main([*args, "--confirm", own])
    assert list(figures["confirmed"]) == [own, "1ply"]  # the default once, first
    assert len(list(tmp_path.glob("*-default-*.jsonl"))) == 2
    table = capsys.readouterr().out.split("| 3 positions |")[-1].splitlines()
    assert [line.split(" | ")[0] for line in table[2:5]] == ["| 0-ply", f"| {own} (default)", "| 1ply"]
    assert table[5].startswith("| a judge that knew every loss")
    # another margin: one more line a confirmation, from the caches alone
    figures = rollout_marks.main([*args, "--report", "--margin", "1"])
    assert list(figures["confirmed"]) == [own, f"{own}, margin 1", "1ply", "1ply, margin 1"]
    assert figures["confirmed"][f"{own}, margin 1"]["errors"] == figures["confirmed"][own]["errors"]


def test_another_check_is_played_to_the_end_from_the_share_asked():
    """Step 11: the check of 2ply+rollout changed as asked, and nothing else."""
    rules = rule_set("jacquet")
    own = deeper_judge("2ply+rollout", load_net("jacquet"), rules)
    assert isinstance(own, CheckedJudge) and isinstance(own.rollout, RolloutJudge)
    judge = rollout_marks.Check(None, 1296, 0.5).applied(own)
    assert isinstance(judge, CheckedJudge) and isinstance(judge.rollout, RolloutJudge)
    assert judge.low == pytest.approx(0.5 * rules.marks[0]) and judge.high == own.high
    assert judge.rollout.truncate is None and own.rollout.truncate == CHECK_TRUNCATE
    assert judge.rollout.games == 1296 and own.rollout.games == CHECK_GAMES and judge.first is own.first
    assert "1,296 games" in judge.level and "played to the end" in judge.level
    assert "played to the end" not in own.level
    same = rollout_marks.Check().applied(own)
    assert same is not None and same.level == own.level and same.low == own.low
    shallow = deeper_judge("2ply", load_net("jacquet"), rules)
    assert rollout_marks.Check(None, 1296, 0.5).applied(shallow) is shallow
    assert rollout_marks.Check(None, None, 0.5).suffix == "-checkend-from0.5"
    assert rollout_marks.Check(14).suffix == "-check14" and rollout_marks.Check().suffix == ""
    assert rollout_marks.Check(games=1296).suffix == "-checkgames1296"
    assert rollout_marks.Check().words == ""


def test_another_check_is_measured_in_a_cache_of_its_own(tmp_path):
    args = ["--variant", "hale", "--positions", "3", "--games", "36", "--truncate", "3", "--keep", "0.3",
            "--cache", str(tmp_path), "--confirm", "2ply+rollout", "--check-truncate", "end"]
    figures = rollout_marks.main(args)
    (cache,) = tmp_path.glob("*-default-*.jsonl")
    assert cache.name.endswith("-default-2ply+rollout-checkend.jsonl")
    assert list(figures["confirmed"]) == ["2ply+rollout, its check played to the end"]
    levels = {json.loads(line)["level"] for line in cache.read_text().splitlines()}
    deeper = [level for level in levels if not level.endswith("0-ply")]
    assert deeper and all("played to the end" in level for level in deeper)
    with pytest.raises(SystemExit):  # nothing to change without the check's marks asked
        rollout_marks.main([*args[:-4], "--confirm", "2ply", "--check-truncate", "end"])


def test_another_net_is_judged_against_the_same_rollouts(tmp_path, monkeypatch):
    args = ["--variant", "hale", "--positions", "3", "--games", "36", "--truncate", "3", "--keep", "0.3",
            "--cache", str(tmp_path)]
    rollout_marks.main(args)
    (results,) = tmp_path.glob("*.jsonl")
    rows = [json.loads(line) for line in results.read_text().splitlines()]
    rules, net = rule_set("hale"), playing_net("hale", OTHER)
    losses = []
    for row in rows:
        position, dice = Position.from_id(row["position"]), Dice.parse(row["dice"])
        plays = legal_plays(position, dice, rules)
        ranked = Evaluator(net, rules).rank(plays, position)
        losses.append(ranked[0].equity - next(c.equity for c in ranked if c.play == plays[row["made"]]))
    monkeypatch.setattr(rollout_marks, "judge_position", lambda *a: pytest.fail("rolled out again"))
    figures = rollout_marks.main([*args, "--judge", str(OTHER)])
    expected = rollout_marks.score([dict(r, loss0=loss, mark0=rollout_marks.mark_for(loss, rules.marks))
                                    for r, loss in zip(rows, losses, strict=True)])
    assert figures["marked"] == expected["marked"] and figures["spearman"] == pytest.approx(expected["spearman"])
    assert [r["loss"] for r in rows] == [json.loads(line)["loss"] for line in results.read_text().splitlines()]


def test_the_rollouts_may_be_another_nets_in_a_results_file_of_their_own(tmp_path, monkeypatch):
    """``--player NET``: the same positions played out by another net, which also chooses the
    candidates; the shipped net's marks are judged against them, the shipped net's rollouts
    are left as they were."""
    args = ["--variant", "hale", "--positions", "3", "--games", "36", "--truncate", "3", "--keep", "0.3",
            "--cache", str(tmp_path)]
    rollout_marks.main(args)
    (shipped_file,) = tmp_path.glob("*.jsonl")
    shipped_rows = shipped_file.read_text()
    player = playing_net("hale", OTHER)
    scored: list[list[dict]] = []
    score = rollout_marks.score
    monkeypatch.setattr(rollout_marks, "score", lambda rows, *a: scored.append(rows) or score(rows, *a))
    rollout_marks.main([*args, "--player", str(OTHER)])
    assert shipped_file.read_text() == shipped_rows
    (played,) = tmp_path.glob(f"*-player{player.digest}.jsonl")
    rows = [json.loads(line) for line in played.read_text().splitlines()]
    rules, shipped = rule_set("hale"), load_net("hale")
    losses: list[float] = []
    ranks: list[int] = []
    for row in rows:
        position, dice = Position.from_id(row["position"]), Dice.parse(row["dice"])
        plays = legal_plays(position, dice, rules)
        theirs = Evaluator(player, rules).rank(plays, position)
        places = {play.result: i for i, play in enumerate(plays)}
        assert row["candidates"][:3] == [places[c.play.result] for c in theirs[:3]]  # the player's best
        spec = RolloutSpec(player, "hale", {}, row["position"], row["dice"], tuple(row["candidates"]), 0, 3,
                           1 + row["index"])
        by_play = {c.play.result: c.equity for c in run_rollout(spec, games=36).candidates}
        assert row["loss"] == pytest.approx(max(by_play.values()) - by_play[plays[row["made"]].result])
        ours = Evaluator(shipped, rules).rank(plays, position)
        losses.append(ours[0].equity - next(c.equity for c in ours if c.play == plays[row["made"]]))
        rolled_best = plays[row["candidates"][row["equities"].index(max(row["equities"]))]]
        ranks.append(next(i for i, c in enumerate(ours, 1) if c.play == rolled_best))
    assert [r["loss0"] for r in rows] != pytest.approx(losses)  # the two nets judge them apart
    # the marks scored are the shipped net's (not the player's), against the player's rollouts
    assert [r["loss0"] for r in scored[0]] == pytest.approx(losses)
    assert [r["loss"] for r in scored[0]] == [r["loss"] for r in rows]
    assert [r["best_rank0"] for r in rows] != ranks  # the player ranks the rollout's best elsewhere
    assert [r["best_rank0"] for r in scored[0]] == ranks  # where the rollout's best stands in the judge's eyes


def test_a_measure_stays_readable_once_another_net_is_shipped(tmp_path, monkeypatch):
    """``--positions-from NET``: once another net is shipped, the positions, rollouts and
    default marks measured with the one before are found in the cache by the engine whose
    games gave them, none rolled out or sampled again, the same figures."""
    import shutil

    import analysis.shipped

    args = ["--variant", "hale", "--positions", "3", "--games", "36", "--truncate", "3", "--keep", "0.3",
            "--cache", str(tmp_path / "cache")]
    scored: list[list[dict]] = []
    score = rollout_marks.score
    monkeypatch.setattr(rollout_marks, "score", lambda rows, *a: scored.append(rows) or score(rows, *a))
    before = rollout_marks.main([*args, "--default"])
    old = tmp_path / "hale-before.npz"
    shutil.copy(analysis.shipped.shipped_path("hale"), old)
    files = sorted(p.name for p in (tmp_path / "cache").iterdir())
    monkeypatch.setattr(analysis.shipped, "shipped_path", lambda variant: OTHER)  # another net shipped
    assert load_net("hale").digest != playing_net("hale", old).digest
    monkeypatch.setattr(rollout_marks, "judge_position", lambda *a: pytest.fail("rolled out again"))
    monkeypatch.setattr(rollout_marks, "sample_positions", lambda *a: pytest.fail("sampled again"))
    after = rollout_marks.main([*args, "--default", "--positions-from", str(old), "--player", str(old),
                                "--judge", str(old)])
    # the same rows scored, 0-ply and default: the same rollouts' equities, the same judgements
    assert len(scored) == 4 and scored[2:] == scored[:2]
    assert any(row["loss"] > 0 for row in scored[0]) and len({row["position"] for row in scored[0]}) == 3
    assert repr(after) == repr(before)  # the figures (NaN where no play is marked: equal to itself)
    assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == files
    with pytest.raises(pytest.fail.Exception, match="sampled again"):  # the new net's own positions
        rollout_marks.main([*args, "--report"])
