"""A committee of nets (analysis.committee): one net judging as its members together, each
output the sigmoid of the mean of the members' logits, computed here apart from the
members' own weights; named as a new engine version with its members; refused where the
members cannot judge together; the shipped fevga net is the committee its recipe makes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from analysis.committee import COMMITTEE, NotACommittee, committee
from analysis.encoding import Encoder
from analysis.network import Network
from analysis.players import RandomPlayer
from notation import Dice, legal_plays, rule_set

ROOT = Path(__file__).resolve().parent.parent


def _positions(variant: str, count: int) -> np.ndarray:
    """The inputs of the positions of a random game of ``variant`` (``count`` at most)."""
    rules, player = rule_set(variant), RandomPlayer(5)
    rng, position, seen = np.random.default_rng(5), rules.start, []
    while len(seen) < count and position.mover[-1] < 15 and position.opponent[-1] < 15:
        seen.append(position)
        plays = legal_plays(position, Dice(int(rng.integers(1, 7)), int(rng.integers(1, 7))), rules)
        position = plays[player.choose(plays, position, (False, False))].next_position
    return Encoder.for_rules(rules, 2).encode_positions(seen)


def _logit(p: np.ndarray) -> np.ndarray:
    return np.log(p) - np.log1p(-p)


@pytest.mark.parametrize("sizes", [(6, 9), (5, 7, 4)])
def test_a_committee_judges_as_the_mean_of_its_members_logits(sizes) -> None:
    members = [Network.create("fevga", hidden, seed=seed) for seed, hidden in enumerate(sizes)]
    for seed, member in enumerate(members):  # weights far from the fresh ones' near-zero
        rng = np.random.default_rng(10 + seed)
        member.w1 += rng.normal(0, 0.5, member.w1.shape).astype(np.float32)
        member.w2 += rng.normal(0, 1.0, member.w2.shape).astype(np.float32)
        member.b2 += rng.normal(0, 1.0, member.b2.shape).astype(np.float32)
    x = _positions("fevga", 60)
    together = committee(members).forward(x)[1].astype(np.float64)
    apart = np.mean([_logit(member.forward(x)[1].astype(np.float64)) for member in members], axis=0)
    assert np.abs(together - 1 / (1 + np.exp(-apart))).max() < 1e-5
    # and not simply the mean of the members' outputs: the two differ on these weights
    assert np.abs(together - np.mean([m.forward(x)[1] for m in members], axis=0)).max() > 1e-3


def test_a_committee_is_a_new_engine_version_naming_its_members(tmp_path) -> None:
    one, two = Network.create("narde", 8, seed=1), Network.create("narde", 12, seed=2)
    one.meta["games"], two.meta["games"] = 1000, 3000
    made = committee([one, two])
    assert made.name == f"jacquet-td narde v{COMMITTEE}" and COMMITTEE > 6
    assert made.meta["hidden"] == 20 and made.meta["games"] == 4000
    assert [(m["digest"], m["hidden"], m["games"]) for m in made.meta["members"]] == \
        [(one.digest, 8, 1000), (two.digest, 12, 3000)]
    made.save(tmp_path / "narde.npz")
    back = Network.load(tmp_path / "narde.npz")
    assert back.name == made.name and back.digest == made.digest


@pytest.mark.parametrize(("other", "said"), [
    (lambda: Network.create("narde", 8, seed=2), "cannot judge beside"),
    (lambda: Network.create("fevga", 8, seed=2, version=1), "cannot judge beside"),
    (None, "two nets or more")])
def test_nets_that_cannot_judge_together_are_refused(other, said) -> None:
    first = Network.create("fevga", 8, seed=1)
    with pytest.raises(NotACommittee, match=said):
        committee([first] if other is None else [first, other()])


def test_the_tool_writes_nothing_and_says_why_for_nets_that_do_not_fit(tmp_path) -> None:
    Network.create("fevga", 8, seed=1).save(tmp_path / "a.npz")
    Network.create("narde", 8, seed=1).save(tmp_path / "b.npz")
    Network.create("fevga", 8, seed=2, version=1).save(tmp_path / "older.npz")
    (tmp_path / "cut.npz").write_bytes((tmp_path / "a.npz").read_bytes()[:100])  # a copy cut short
    out = tmp_path / "c.npz"
    for names in (["a.npz", "b.npz"], ["a.npz", "missing.npz"], ["a.npz", "cut.npz"], ["a.npz", "older.npz"]):
        done = subprocess.run([sys.executable, str(ROOT / "tools" / "committee.py"), "--variant", "fevga", "-o", str(out),
                               *(str(tmp_path / name) for name in names)], check=False,
                              capture_output=True, text=True)
        assert done.returncode == 2 and "error:" in done.stderr and "Traceback" not in done.stderr
        assert not out.exists()


def test_the_shipped_fevga_net_is_the_committee_of_its_recipe(tmp_path) -> None:
    """tools/train_nets.sh's fevga-committee step, run again: the same weights as shipped."""
    shipped = Network.load(ROOT / "analysis" / "nets" / "fevga.npz")
    members = ["analysis/nets/history/fevga-275000.npz", "analysis/nets/fevga-v2w160.npz"]
    done = subprocess.run([sys.executable, "tools/committee.py", "--variant", "fevga", "-o", str(tmp_path / "fevga.npz"),
                           *members],
                          check=False, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    again = Network.load(tmp_path / "fevga.npz")
    assert again.digest == shipped.digest and again.meta == shipped.meta
    assert [m["digest"] for m in shipped.meta["members"]] == [Network.load(ROOT / p).digest for p in members]


def test_a_committee_is_not_trained_on(tmp_path) -> None:
    """``jacquet train --resume`` on a committee's file says what to do and leaves it whole."""
    from click.testing import CliRunner

    from jacquet_cli import main

    members = []
    for seed in (1, 2):
        path = tmp_path / f"m{seed}.npz"
        assert CliRunner().invoke(main, ["train", "--variant", "fevga", "--games", "2", "--seed", str(seed),
                                         "--hidden", "4", "-o", str(path)]).exit_code == 0
        members.append(Network.load(path))
    committee(members).save(tmp_path / "fevga.npz")
    before = (tmp_path / "fevga.npz").read_bytes()
    result = CliRunner().invoke(main, ["train", "--variant", "fevga", "--games", "4", "--resume",
                                       "-o", str(tmp_path / "fevga.npz")])
    assert result.exit_code != 0 and (result.exception is None or isinstance(result.exception, SystemExit))
    assert "committee of nets (jacquet-td fevga v7)" in result.output and "tools/committee.py" in result.output
    assert (tmp_path / "fevga.npz").read_bytes() == before
    # a member goes on training as before
    again = CliRunner().invoke(main, ["train", "--variant", "fevga", "--games", "3", "--resume",
                                      "-o", str(tmp_path / "m1.npz")])
    assert again.exit_code == 0, again.output
