"""Training: one seed gives one net, a resumed run equals an uninterrupted one, the
strength log, the command, a smoke training per rule set."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from click.testing import CliRunner

from analysis.match import DiceStream, play_game
from analysis.network import Network
from analysis.players import NetPlayer, RandomPlayer
from analysis.threads import limit_blas_threads
from analysis.training import Trainer, TrainingConfig, log_path
from jacquet_cli.train import train_command
from notation import rule_set

limit_blas_threads(1)
WEIGHTS = ("w1", "b1", "w2", "b2")


def _same_weights(a: Network, b: Network) -> bool:
    return all(np.array_equal(getattr(a, n), getattr(b, n)) for n in WEIGHTS)


def _config(**changes: object) -> TrainingConfig:
    base = {"variant": "jacquet", "games": 6, "seed": 5, "hidden": 16, "checkpoint_every": 3,
            "check_every": 0}
    return TrainingConfig(**{**base, **changes})  # type: ignore[arg-type]


def test_one_seed_one_net(tmp_path):
    first = Trainer(tmp_path / "a.npz", _config()).run()
    second = Trainer(tmp_path / "b.npz", _config()).run()
    assert _same_weights(first, second)
    other = Trainer(tmp_path / "c.npz", _config(seed=6)).run()
    assert not _same_weights(first, other)
    assert first.meta["games"] == 6


def test_resumed_training_equals_uninterrupted(tmp_path):
    whole = Trainer(tmp_path / "whole.npz", _config()).run()
    path = tmp_path / "parts.npz"
    Trainer(path, _config(games=3)).run()  # stops after the checkpoint at game 3
    assert Network.load(path).meta["games"] == 3
    resumed = Trainer(path, _config(games=6), resume=True).run()
    assert resumed.meta["games"] == 6
    assert _same_weights(whole, resumed)
    assert _same_weights(whole, Network.load(path))


def test_stop_request_checkpoints_between_games(tmp_path):
    path = tmp_path / "stop.npz"
    trainer = Trainer(path, _config(games=50))
    trainer.run(progress=lambda n: setattr(trainer, "stop_requested", True))
    assert Network.load(path).meta["games"] == 1


def test_snapshots_keep_the_earlier_nets(tmp_path):
    """The learning curve's nets: a copy every ``snapshot_every`` games, each the net as it
    stood then (the one an uninterrupted run had at that game)."""
    path = tmp_path / "curve.npz"
    final = Trainer(path, _config(games=4, snapshot_every=2)).run()
    kept = sorted((tmp_path / "history").iterdir())
    assert [p.name for p in kept] == ["curve-000002.npz", "curve-000004.npz"]
    assert [Network.load(p).meta["games"] for p in kept] == [2, 4]
    assert _same_weights(Network.load(kept[1]), final)
    early = Trainer(tmp_path / "early.npz", _config(games=2)).run()
    assert _same_weights(Network.load(kept[0]), early)


def test_a_snapshot_resumes_as_the_run_went_on(tmp_path):
    """A snapshot copied over the net file (the checkpoint lost, as on a new machine) goes on
    exactly as the run did; one without the dice state (kept before they were saved) resumes
    the same way every time."""
    whole = Trainer(tmp_path / "whole.npz", _config(snapshot_every=3)).run()
    path = tmp_path / "again.npz"
    path.write_bytes((tmp_path / "history" / "whole-000003.npz").read_bytes())
    assert _same_weights(whole, Trainer(path, _config(), resume=True).run())
    with np.load(tmp_path / "history" / "whole-000003.npz") as data:
        old = {name: data[name] for name in data.files if name != "rng"}
    runs = []
    for name in ("old1.npz", "old2.npz"):
        np.savez(tmp_path / name, **old)
        runs.append(Trainer(tmp_path / name, _config(), resume=True).run())
    assert runs[0].meta["games"] == 6 and _same_weights(runs[0], runs[1])
    assert not _same_weights(runs[0], whole)


def test_strength_log(tmp_path):
    path = tmp_path / "log.npz"
    Trainer(path, _config(games=2, check_every=2, check_pairs=2)).run()
    rows = [json.loads(line) for line in log_path(path).read_text().splitlines()]
    assert [r["opponent"] for r in rows] == ["random", "heuristic"]
    for row in rows:
        assert row["games"] == 2 and row["match_games"] == 4
        assert 0 <= row["win_rate"] <= 1 and row["standard_error"] >= 0
        assert row["engine"] == "jacquet-td jacquet v2" and row["seconds"] >= 0


def test_command_trains_refuses_overwrite_and_resumes(tmp_path):
    runner = CliRunner()
    out = str(tmp_path / "net.npz")
    args = ["--variant", "versailles", "--seed", "2", "-o", out, "--hidden", "8",
            "--checkpoint-every", "2", "--check-every", "0", "-q"]
    result = runner.invoke(train_command, ["--games", "2", *args])
    assert result.exit_code == 0, result.output
    assert runner.invoke(train_command, ["--games", "3", *args]).exit_code == 2
    result = runner.invoke(train_command, ["--games", "3", "--resume", *args])
    assert result.exit_code == 0, result.output
    net = Network.load(out)
    assert net.meta["games"] == 3 and net.meta["rule_set"] == "versailles"
    assert net.meta["training"]["hidden"] == 8


def test_lowering_alpha_on_resume_is_saved_and_kept(tmp_path):
    """``--resume --alpha``: the games after the change learn at the new rate; the change is
    part of the recipe, so a later resume without ``--alpha`` keeps it, and the whole
    sequence of commands gives one net."""
    runner = CliRunner()

    def train(out: str, *args: str) -> None:
        result = runner.invoke(train_command, ["--seed", "3", "-o", out, "--hidden", "8",
                                               "--checkpoint-every", "2", "--check-every", "0",
                                               "-q", *args])
        assert result.exit_code == 0, result.output

    lowered, kept, unchanged = (str(tmp_path / name) for name in ("a.npz", "b.npz", "c.npz"))
    for out in (lowered, kept, unchanged):
        train(out, "--games", "2")
    train(lowered, "--games", "4", "--resume", "--alpha", "0.02")
    train(kept, "--games", "3", "--resume", "--alpha", "0.02")
    train(kept, "--games", "4", "--resume")  # no --alpha: the lowered rate goes on
    train(unchanged, "--games", "4", "--resume")
    net = Network.load(lowered)
    assert net.meta["training"]["alpha"] == 0.1
    assert net.meta["training"]["alpha_steps"] == [[2, 0.02]]
    assert _same_weights(net, Network.load(kept))
    assert not _same_weights(net, Network.load(unchanged))
    assert Network.load(unchanged).meta["training"]["alpha_steps"] == []
    # the script run again: lines already done (and their --alpha) leave the net as it is
    before = (tmp_path / "a.npz").read_bytes()
    train(lowered, "--games", "3", "--resume", "--alpha", "0.005")
    train(lowered, "--games", "4", "--resume", "--alpha", "0.02")
    assert (tmp_path / "a.npz").read_bytes() == before
    # a step at game 2 leaves games 1 and 2 at α 0.1 and plays game 3 at the new rate
    plain = Trainer(tmp_path / "plain.npz", _config(games=2)).run()
    stepped = Trainer(tmp_path / "step2.npz", _config(games=2, alpha_steps=((2, 0.02),))).run()
    assert _same_weights(plain, stepped)
    plain = Trainer(tmp_path / "plain.npz", _config(games=3), resume=True).run()
    stepped = Trainer(tmp_path / "step2.npz", _config(games=3), resume=True).run()
    assert not _same_weights(plain, stepped)
    assert _same_weights(stepped, Trainer(tmp_path / "step.npz", _config(
        games=3, alpha_steps=((2, 0.02),))).run())
    config = TrainingConfig(alpha_steps=((2, 0.02), (5, 0.01)))
    assert [config.alpha_at(g) for g in (0, 1, 2, 4, 5, 9)] == [0.1, 0.1, 0.02, 0.02, 0.01, 0.01]



def test_a_stopped_training_exits_non_zero_with_its_checkpoint(tmp_path):
    """SIGTERM short of ``--games``: a checkpoint, and exit status 128 + 15, so that a
    script's next line (``&&``) does not start as if the target were reached."""
    out = tmp_path / "stopped.npz"
    # the reference engine: on a machine whose numba cache is cold the fast core would
    # first compile its kernels (a minute or two), longer than this test waits
    process = subprocess.Popen([sys.executable, "-m", "jacquet_cli.train", "--games", "100000",
                                "--hidden", "8", "--checkpoint-every", "1", "--check-every", "0",
                                "-q", "-o", str(out)], env={**os.environ, "JACQUET_NO_NUMBA": "1"})
    deadline = time.monotonic() + 600  # a bound, not a pace: the first checkpoint is awaited
    while not out.exists() and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    assert out.exists(), "no checkpoint written"
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=600) == 128 + signal.SIGTERM
    assert 1 <= Network.load(out).meta["games"] < 100000


SMOKE = [("jacquet", 30), ("versailles", 30), ("hale", 30), ("backgammon", 30),
         ("murray", 6)]  # murray: a few hundred turns a game while the net is new (~1 s each)


@pytest.mark.parametrize(("variant", "games"), SMOKE)
def test_smoke_training(tmp_path, variant, games):
    """A few dozen games run, move the weights, keep them finite, and the net then
    finishes a game against random play (no claim of strength at this size)."""
    config = TrainingConfig(variant=variant, games=games, seed=1, hidden=10,
                            checkpoint_every=games, check_every=0)
    fresh = Network.create(variant, 10, 1)
    net = Trainer(tmp_path / f"{variant}.npz", config).run()
    assert net.meta["games"] == games
    assert not _same_weights(fresh, net)
    assert all(np.isfinite(getattr(net, n)).all() for n in WEIGHTS)
    result = play_game(rule_set(variant), NetPlayer(net), RandomPlayer(0), DiceStream(3))
    assert result.winner in (0, 1) and result.points >= 1
