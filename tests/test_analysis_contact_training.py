"""The contact net fitted to rolled-out targets (issue 35's "a supervised fit reduces its
loss on a fixed set"): the positions are contact ones, from self-play and from recorded
games; a play-out is closed where the game leaves contact or at the truncation; the fit
lowers the loss on the positions it saw and on those held out; the work file resumes to the
same net; the fitted net is engine version 3."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from analysis.board_judge import BoardJudge
from analysis.contact_training import ROLLED_OUT, ContactRecipe, ContactTrainer, real_positions
from analysis.encoding import Encoder
from analysis.network import Network
from analysis.race import CONTACT, classes, load_race
from analysis.race_training import rollout_targets
from analysis.rolls import WEIGHTS
from analysis.shipped import load_net
from analysis.supervised import loss
from jacquet_cli import main
from notation import rule_set
from notation.messages import Message

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def _quiet(_: Message) -> None:
    pass


def test_the_positions_are_contact_ones_from_self_play_and_recorded_games(tmp_path: Path) -> None:
    rules = rule_set("backgammon")
    policy = Network.create("backgammon", hidden=8, seed=2)
    records = sorted((SAMPLES / "backgammon").glob("*.jqn"))
    assert records
    recipe = ContactRecipe(positions=15, games=2, keep=0.3, real=10, seed=5, epochs=1)
    trainer = ContactTrainer(tmp_path / "bg.npz", policy, rules, recipe, policy, records, _quiet)
    boards = trainer.positions()
    assert len(boards) == 25
    assert (classes(rules, boards) == CONTACT).all()
    real, problems = real_positions(records, rules, 10, 0.3, 5)
    assert not problems and np.array_equal(boards[15:], real)
    # every one a position some recorded play left: the side that has just moved has 15 men
    assert (real[:, :26].sum(axis=1) == 15).all() and (real[:, 26:].sum(axis=1) == 15).all()


def test_a_grown_recipe_keeps_every_target_rolled_out(tmp_path: Path) -> None:
    """The recorded games' positions come after the self-play ones: more self-play
    positions asked, each position keeps the target it was given (none rolled out again)."""
    rules = rule_set("backgammon")
    policy = Network.create("backgammon", hidden=8, seed=2)
    records = sorted((SAMPLES / "backgammon").glob("*.jqn"))
    small = ContactRecipe(positions=8, games=2, keep=0.3, real=4, truncate=3, seed=5)
    first = ContactTrainer(tmp_path / "bg.npz", policy, rules, small, policy, records, _quiet)
    boards, targets = first.positions(), first.targets()
    grown = ContactRecipe(**{**small.__dict__, "positions": 12})
    lines: list[Message] = []
    again = ContactTrainer(tmp_path / "bg.npz", policy, rules, grown, policy, records, lines.append)
    more_boards, more = again.positions(), again.targets()
    assert np.array_equal(more_boards[:8], boards[:8]) and np.array_equal(more_boards[12:], boards[8:])
    assert np.array_equal(more[:8], targets[:8]) and np.array_equal(more[12:], targets[8:])
    rolled = [line.params for line in lines if line.id == "training.rolled-out"]
    assert len(rolled) == 1 and (rolled[0]["done"], rolled[0]["total"]) == (16, 16)  # the 4 new ones
    assert len(np.load(tmp_path / "bg.work.npz")["targets"]) == 16


def test_a_truncated_play_out_is_closed_by_the_judge() -> None:
    rules = rule_set("backgammon")
    judge = BoardJudge(Network.create("backgammon", hidden=8, seed=1), rules)
    start = np.array([rules.start.mover + rules.start.opponent], np.int8)
    # closed after one ply: the mean over the 36 first rolls of the judge's outputs after
    # the best play of the player to act, seen from the side that has just moved
    once = rollout_targets(judge, start, 36, seed=1, first=0, kind=CONTACT, truncate=1)
    to_act = start[:, [*range(26, 52), *range(26)]]
    best = judge.best_per_roll(to_act, None)[1][0]  # (21 rolls, outputs), for the player to act
    mean = (best * WEIGHTS[:, None]).sum(axis=0) / 36
    assert np.allclose(once[0], judge.outcomes.mirrored(mean), atol=1e-6)
    # played on, the play-outs go further and judge otherwise
    on = rollout_targets(judge, start, 36, seed=1, first=0, kind=CONTACT)
    assert not np.allclose(on[0], once[0], atol=1e-3)


def _excess(net: Network, x: np.ndarray, t: np.ndarray) -> float:
    """The cross-entropy above the targets' own entropy (0 for a net that gives them)."""
    p = np.clip(t, 1e-7, 1 - 1e-7)
    floor = float(-(p * np.log(p) + (1 - p) * np.log(1 - p)).sum(axis=1).mean())
    return loss(net, x, t) - floor


def test_a_supervised_fit_reduces_its_loss_on_a_fixed_set(tmp_path: Path) -> None:
    rules = rule_set("backgammon")
    policy = load_net("backgammon")  # the shipped engine plays the positions out
    start = Network.create("backgammon", hidden=12, seed=4)
    recipe = ContactRecipe(positions=80, games=4, keep=0.2, truncate=4, epochs=20, rate=0.01,
                           batch=16, hidden=12, seed=7)
    trainer = ContactTrainer(tmp_path / "bg.npz", policy, rules, recipe, start, (), _quiet)
    boards, targets = trainer.positions(), trainer.targets()
    x = Encoder.for_rules(rules, start.version).encode_boards(boards, None)
    held = np.arange(len(x)) % 10 == 0
    before = _excess(start, x[~held], targets[~held]), _excess(start, x[held], targets[held])
    fitted = trainer.fit()
    after = _excess(fitted, x[~held], targets[~held]), _excess(fitted, x[held], targets[held])
    assert after[0] < 0.5 * before[0] and after[1] < 0.5 * before[1]
    assert fitted.name == f"jacquet-td backgammon v{ROLLED_OUT}" and ROLLED_OUT == 6
    assert fitted.meta["rollouts"] == 4 and fitted.meta["positions"] == 80
    # the log says how far the held-out equities stand from the targets', in points: the
    # figure of the epoch kept is the written net's, and it fell from the start's
    curve = [json.loads(line) for line in (tmp_path / "bg.log.jsonl").read_text().splitlines()]
    kept = next(line for line in curve if line["epoch"] == fitted.meta["epochs"])
    equity = fitted.outcomes.equity
    off = equity(fitted.evaluate(x[held])) - equity(targets[held])
    assert kept["held_out_equity"] == pytest.approx(float(np.sqrt(np.mean(off ** 2))), rel=1e-4)
    start_off = equity(start.evaluate(x[held])) - equity(targets[held])
    assert kept["held_out_equity"] < float(np.sqrt(np.mean(start_off ** 2)))
    # the start net is left as it was
    assert start.digest == Network.create("backgammon", hidden=12, seed=4).digest


def test_train_contact_goes_on_where_it_stopped(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from jacquet_cli.train_contact import train_contact_command

    out = tmp_path / "jacquet-v3.npz"
    args = ["--variant", "jacquet", "--positions", "20", "--games", "2", "--truncate", "6",
            "-o", str(out), "-q"]
    first = CliRunner().invoke(train_contact_command, [*args, "--epochs", "2"])
    assert first.exit_code == 0, first.output
    again = CliRunner().invoke(train_contact_command, [*args, "--epochs", "3"])
    assert again.exit_code == 0, again.output
    curve = [json.loads(line) for line in (tmp_path / "jacquet-v3.log.jsonl").read_text().splitlines()]
    assert [row["epoch"] for row in curve] == [1, 2, 3]
    net = Network.load(out)
    assert net.meta["epochs"] == min(curve, key=lambda row: row["held_out"])["epoch"]
    assert net.name == "jacquet-td jacquet v6"
    # more positions asked: they are sampled and rolled out after the first, the fit anew
    more = CliRunner().invoke(train_contact_command, [*args[:3], "30", *args[4:], "--epochs", "1"])
    assert more.exit_code == 0, more.output
    assert Network.load(out).meta["positions"] == 30


def test_a_named_policy_samples_plays_out_and_is_fitted_on(tmp_path: Path) -> None:
    """``--policy FILE``: the fit of a net that is no longer the shipped one (a round begun
    before another net was shipped) resumes with the net it began with, the shipped race
    net beside it; a file that is not there is a usage error before anything is written."""
    from click.testing import CliRunner

    from jacquet_cli.train_contact import train_contact_command

    policy = Network.create("jacquet", hidden=5, seed=2)
    policy.save(tmp_path / "policy.npz")
    out = tmp_path / "fitted.npz"
    args = ["--variant", "jacquet", "--positions", "12", "--games", "2", "--truncate", "4",
            "--epochs", "1", "-o", str(out), "-q"]
    done = CliRunner().invoke(train_contact_command, [*args, "--policy", str(tmp_path / "policy.npz")])
    assert done.exit_code == 0, done.output
    fitted = Network.load(out)
    assert fitted.w1.shape == (policy.w1.shape[0], 5)  # fitted on the policy's weights
    assert fitted.meta["recipe"]["policy"] == f"{policy.name} + {load_race('jacquet').name}"
    missing = CliRunner().invoke(train_contact_command, [*args[:-3], "-o", str(tmp_path / "x.npz"),
                                                         "--policy", str(tmp_path / "none.npz")])
    assert missing.exit_code == 2 and "--policy" in missing.output
    assert not (tmp_path / "x.npz").exists()


def test_a_work_file_resumes_only_with_the_engine_that_began_it(tmp_path: Path) -> None:
    """The work file keeps the digest of the engine that sampled and played out its
    positions: resumed with another (the shipped net changed since, no ``--policy``), the
    run stops naming both instead of mixing two engines' targets; with the first, it goes on."""
    from jacquet_cli.train_contact import train_contact_command

    first, other = Network.create("jacquet", hidden=5, seed=2), Network.create("jacquet", hidden=5, seed=3)
    first.save(tmp_path / "first.npz")
    other.save(tmp_path / "other.npz")
    out = tmp_path / "fitted.npz"
    args = ["--variant", "jacquet", "--positions", "12", "--games", "2", "--truncate", "4",
            "-o", str(out), "-q"]
    begun = CliRunner().invoke(train_contact_command, [*args, "--epochs", "1", "--policy", str(tmp_path / "first.npz")])
    assert begun.exit_code == 0, begun.output
    refused = CliRunner().invoke(train_contact_command, [*args, "--epochs", "2", "--policy", str(tmp_path / "other.npz")])
    assert refused.exit_code == 2
    race = load_race("jacquet")
    engine = Network.load(tmp_path / "first.npz")
    engine.race = race
    assert engine.digest in refused.output
    assert Network.load(out).meta["epochs"] == 1  # nothing written by the refused run
    again = CliRunner().invoke(train_contact_command, [*args, "--epochs", "2", "--policy", str(tmp_path / "first.npz")])
    assert again.exit_code == 0, again.output
    assert Network.load(out).meta["epochs"] in (1, 2)


def test_real_needs_records(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from jacquet_cli.train_contact import train_contact_command

    result = CliRunner().invoke(train_contact_command, ["--real", "5", "-o", str(tmp_path / "x.npz")])
    assert result.exit_code == 2 and "--records" in result.output


def test_murray_is_refused_with_its_reason(tmp_path: Path) -> None:
    """murray's contact positions would need each side's prime flag, which this trainer does
    not follow: it says so rather than fit a net to targets scored without them."""
    rules = rule_set("murray")
    policy = Network.create("murray", hidden=4, seed=1)
    with pytest.raises(ValueError, match="prime"):
        ContactTrainer(tmp_path / "m.npz", policy, rules, ContactRecipe(positions=10), policy)


def test_the_matches_gnubg_judges_the_engine_on_are_left_out(tmp_path: Path) -> None:
    """The 40 matches of ``bench/gnubg_judge.py``'s two sets are the yardstick: with
    ``--exclude`` naming them (as ``gnubg_judge.py --list`` prints them, the recipe's way),
    none of their files is read for positions, whatever the path they are named by."""
    from bench.gnubg_judge import MATCHES, SECOND, YARDSTICK
    from jacquet_cli.train_contact import record_files

    assert set(YARDSTICK) == set(MATCHES) | set(SECOND) and len(set(YARDSTICK)) == 40
    real = tmp_path / "real-mat"
    for name in [*YARDSTICK, "galaxy/match1.mat", "backgammon-studio/Other_7pt.mat"]:
        (real / name).parent.mkdir(parents=True, exist_ok=True)
        (real / name).write_text("")
    kept = record_files((str(real),), tuple(str(tmp_path / "." / "real-mat" / name) for name in YARDSTICK))
    assert [path.relative_to(real).as_posix() for path in kept] == \
        ["backgammon-studio/Other_7pt.mat", "galaxy/match1.mat"]
    assert len(record_files((str(real),), ())) == 42
    # a path to leave out that is not there (a moved corpus, a failed --list) stops the
    # command before anything is trained on the yardstick
    refused = CliRunner().invoke(main, ["train-contact", "--variant", "backgammon", "--records", str(real),
                                        "--exclude", str(tmp_path / "moved" / YARDSTICK[0]),
                                        "-o", str(tmp_path / "bg.npz")])
    assert refused.exit_code == 2 and "--exclude" in refused.output
    assert not (tmp_path / "bg.npz").exists()


def test_fresh_weights_take_the_start_nets_inputs(tmp_path: Path) -> None:
    """``--start fresh`` fits new weights of the recipe's size on the inputs of the net it
    would otherwise start from (the shipped one's threat features, v4), not a newer
    net's default encoding."""
    rules = rule_set("backgammon")
    start = Network.create("backgammon", hidden=4, seed=2, version=4)
    recipe = ContactRecipe(positions=10, games=2, keep=0.3, truncate=2, epochs=1, hidden=6,
                           seed=3, start="fresh")
    fitted = ContactTrainer(tmp_path / "bg.npz", start, rules, recipe, start, (), _quiet).fit()
    assert fitted.version == 4 and fitted.w1.shape == (start.w1.shape[0], 6)


def test_siblings_keep_the_engines_next_best_plays_beside_its_own(tmp_path: Path) -> None:
    """With ``siblings``, each turn kept gives the position the engine played and those of
    up to that many of its next best plays, best first, all of the class; the games are the
    ones played without them (the engine's own positions are a plain run's)."""
    rules = rule_set("jacquet")
    policy = Network.create("jacquet", hidden=8, seed=2)
    judge = BoardJudge(policy, rules)
    plain = ContactTrainer(tmp_path / "plain.npz", policy, rules,
                           ContactRecipe(positions=6, games=2, keep=0.2, seed=5), policy, (), _quiet).positions()
    boards = ContactTrainer(tmp_path / "siblings.npz", policy, rules,
                            ContactRecipe(positions=18, games=2, keep=0.2, seed=5, siblings=2),
                            policy, (), _quiet).positions()
    assert len(boards) == 18 and (classes(rules, boards) == CONTACT).all()
    rows = [board.tobytes() for board in boards]
    starts = [rows.index(board.tobytes()) for board in plain]
    assert starts[0] == 0 and starts == sorted(starts)  # the engine's plays, in the plain run's order
    groups = [boards[a:b] for a, b in zip(starts, [*starts[1:], 18], strict=True)][:-1]
    assert sum(len(group) > 1 for group in groups) >= 3  # siblings there, at most two a turn
    for played, *next_best in groups:
        assert len(next_best) <= 2
        equities = judge.judge(np.array([played, *next_best]), None).equity
        assert all(equities[:-1] >= equities[1:])
        # one turn's results: jacquet's men are never hit, so the opponent's stand as they were
        assert all(np.array_equal(sibling[26:], played[26:]) and sibling.tobytes() != played.tobytes()
                   for sibling in next_best)


def test_a_position_is_held_out_of_the_fit_with_its_siblings(tmp_path: Path) -> None:
    """The fit's held-out positions are whole turns, a position with its siblings, so that
    no held-out position has a near twin in the fit; without siblings, one in ten as always."""
    from analysis.race_training import HOLD_OUT

    rules = rule_set("jacquet")
    policy = Network.create("jacquet", hidden=8, seed=2)
    trainer = ContactTrainer(tmp_path / "siblings.npz", policy, rules,
                             ContactRecipe(positions=60, games=2, keep=0.2, seed=5, siblings=2),
                             policy, (), _quiet)
    boards = trainer.positions()
    turns = np.load(tmp_path / "siblings.work.npz")["turns"]
    held = trainer.held_out(len(boards))
    assert len(turns) == 60 and held.any() and not held.all()
    for turn in set(turns.tolist()):
        mine = held[turns == turn]
        assert mine.all() or not mine.any()  # a turn is held out whole
        # the turn's positions: one played, then its siblings, never two turns' at once
        assert (turns == turn).sum() <= 3
    assert set(turns[held].tolist()) == {t for t in turns.tolist() if t % HOLD_OUT == 0}
    plain = ContactTrainer(tmp_path / "plain.npz", policy, rules,
                           ContactRecipe(positions=30, games=2, keep=0.2, seed=5), policy, (), _quiet)
    plain.positions()
    assert np.array_equal(plain.held_out(35), np.arange(35) % HOLD_OUT == 0)  # 5 recorded ones after


def test_a_work_file_resumes_only_with_the_siblings_it_began_with(tmp_path: Path) -> None:
    rules = rule_set("jacquet")
    policy = Network.create("jacquet", hidden=5, seed=2)
    recipe = ContactRecipe(positions=6, games=2, keep=0.2, seed=5, siblings=1)
    ContactTrainer(tmp_path / "fit.npz", policy, rules, recipe, policy, (), _quiet).positions()
    with pytest.raises(ValueError, match="--siblings 1, not 0"):
        ContactTrainer(tmp_path / "fit.npz", policy, rules, ContactRecipe(**{**recipe.__dict__, "siblings": 0}),
                       policy, (), _quiet)
    grown = ContactRecipe(**{**recipe.__dict__, "positions": 8})
    assert len(ContactTrainer(tmp_path / "fit.npz", policy, rules, grown, policy, (), _quiet).positions()) == 8


def test_train_contact_refuses_other_siblings_for_a_work_file_and_says_which(tmp_path: Path) -> None:
    from jacquet_cli.train_contact import train_contact_command

    Network.create("jacquet", hidden=5, seed=2).save(tmp_path / "policy.npz")
    args = ["--variant", "jacquet", "--positions", "12", "--games", "2", "--truncate", "3", "--epochs", "1",
            "--policy", str(tmp_path / "policy.npz"), "-o", str(tmp_path / "fit.npz"), "-q"]
    begun = CliRunner().invoke(train_contact_command, [*args, "--siblings", "2"])
    assert begun.exit_code == 0, begun.output
    refused = CliRunner().invoke(train_contact_command, [*args, "--siblings", "0"])
    assert refused.exit_code == 2 and "--siblings 2, not 0" in refused.output
    assert "Traceback" not in refused.output
