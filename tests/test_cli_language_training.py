"""The trainers' progress lines (issue 36): ``analysis/race_training.py`` tells its caller
each step as a message (``training.*``: the positions found, rolled out, the fit's losses),
and ``jacquet train-race`` shows them in the language asked."""

from __future__ import annotations

import re

import pytest

from analysis.network import Network
from analysis.race_training import RaceRecipe, RaceTrainer
from notation import rule_set
from notation.messages import Message
from tests.cli_language_helpers import TRANSLATED, run, said, said_pattern

FIGURE = r"\d+(?:\.\d+)?"


def test_the_race_trainer_tells_each_step_as_a_message(tmp_path):
    rules = rule_set("jacquet")
    recipe = RaceRecipe(positions=12, games=2, keep=0.5, epochs=10, hidden=4, seed=3)
    told: list[Message] = []
    RaceTrainer(tmp_path / "race.npz", Network.create("jacquet", hidden=8, seed=4), rules, recipe,
                report=told.append).fit()
    ids = [message.id for message in told]
    assert ids[0] == "training.positions.race" and told[0].params["count"] == 12
    rolled = [message.params for message in told if message.id == "training.rolled-out"]
    assert rolled and rolled[-1]["done"] == rolled[-1]["total"] == 12
    assert ids[-2:] == ["training.before-fit", "training.epoch"] and told[-1].params["epoch"] == 10


@pytest.mark.parametrize("language", TRANSLATED)
def test_train_race_speaks_the_language_asked(tmp_path, language):
    out = tmp_path / "race.npz"
    answer = run(language, "train-race", "--variant", "jacquet", "--positions", "10",
                 "--games", "1", "--epochs", "10", "--hidden", "2", "-o", str(out))
    assert answer.exit_code == 0, answer.output
    lines = answer.output.splitlines()
    figure = re.compile(FIGURE)
    expected = [said_pattern(language, "training.positions.race", count=10, games=re.compile(r"\d+")),
                said_pattern(language, "training.rolled-out", done=10, total=10, seconds=figure),
                said_pattern(language, "training.before-fit", loss=figure, held_out=figure, equity=figure),
                said_pattern(language, "training.epoch", epoch=10, loss=figure, held_out=figure, equity=figure)]
    assert [pattern.pattern for pattern in expected if not any(pattern.fullmatch(line) for line in lines)] == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_train_refuses_an_encoding_the_rule_set_cannot_have_in_the_language(tmp_path, language):
    out = str(tmp_path / "unused.npz")
    answer = run(language, "train", "--variant", "jacquet", "--games", "1", "--encoding", "4", "-o", out, "--quiet")
    assert answer.exit_code == 2
    refused = said(language, "training.encoding.hitting", version=4, variant="jacquet")
    assert said(language, "record.where", where=out, text=refused) in answer.output  # (French: "FILE : ...")
