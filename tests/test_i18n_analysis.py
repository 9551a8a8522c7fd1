"""What the analysis says of a bad net file or a judge it cannot make, in the language asked
(issue 36): a net file of another format, of another encoding or with a first layer that
does not match its metadata is refused with the ``net.file.*`` message inside the
``net.not-a-net`` one (``jacquet --lang fr analyse --net``, ``jacquet analyse --db --net``,
the viewer's and the library's ``load_net``); a depth the engine does not look and a net of
another rule set are ``judge.*`` messages with their parameters."""

from __future__ import annotations

import json

import numpy as np
import pytest

from analysis import VERSION
from analysis.confirm import confirmation_level, deeper_judge
from analysis.network import Network
from analysis.ranking import CannotJudge, Evaluator
from analysis.shipped import NoNet, load_net
from analysis.twolayer import BadNet
from notation import rule_set
from notation.messages import Message, either, render
from tests.cli_language_helpers import TRANSLATED, run, said

SAMPLE = "samples/jacquet/annotated-game.jqn"


def spoiled(tmp_path, name: str, **changes: object) -> str:
    """A small jacquet net's file with its metadata changed (``changes``) or, with
    ``inputs``, its first layer cut to that many rows: the path."""
    path = tmp_path / name
    Network.create("jacquet", hidden=2, seed=1).save(path)
    with np.load(path, allow_pickle=False) as data:
        arrays = {key: data[key] for key in data.files}
    meta = json.loads(str(arrays["meta"]))
    rows = changes.pop("rows", None)
    meta.update(changes)
    arrays["meta"] = np.array(json.dumps(meta))
    if rows is not None:  # cut, or grown by rows of zeros
        w1 = arrays["w1"]
        arrays["w1"] = np.vstack([w1, np.zeros((max(0, rows - len(w1)), w1.shape[1]), w1.dtype)])[:rows]
    np.savez(path, **arrays)
    return str(path)


@pytest.fixture
def nets(tmp_path):
    """Three net files that are not nets the engine can read, each with the message it
    must be refused with."""
    net = Network.create("jacquet", hidden=2, seed=1)
    size = net.w1.shape[0]
    return [
        (spoiled(tmp_path, "old.npz", format=VERSION - 1), Message.of("net.file.format", found=str(VERSION - 1),
                                                                      version=VERSION)),
        (spoiled(tmp_path, "cut.npz", rows=size - 1), Message.of("net.file.shape")),
        (spoiled(tmp_path, "wide.npz", inputs=size + 1, rows=size + 1),
         Message.of("net.file.inputs", inputs=size + 1, variant="jacquet", version=net.version, size=size)),
    ]


def test_a_net_file_of_another_format_or_encoding_is_a_message(nets):
    for path, expected in nets:
        with pytest.raises(BadNet) as raised:
            Network.load(path)
        assert raised.value.msg == expected
        with pytest.raises(NoNet) as refused:
            load_net("jacquet", path)
        assert refused.value.msg == Message.of("net.not-a-net", path=path, error=expected)


@pytest.mark.parametrize("language", TRANSLATED)
def test_analyse_with_a_bad_net_says_why_in_the_language(nets, language):
    for path, _ in nets:
        answer = run(language, "analyse", SAMPLE, "--net", path)
        assert answer.exit_code != 0
        with pytest.raises(NoNet) as refused:
            load_net("jacquet", path)
        assert render(refused.value.msg, language) in answer.output
        assert render(refused.value.msg, "en") not in answer.output


@pytest.mark.parametrize("language", TRANSLATED)
def test_analyse_db_with_a_bad_net_says_why_in_the_language(tmp_path, nets, language):
    db = str(tmp_path / "club.db")
    assert run(language, "import", SAMPLE, "--db", db).exit_code == 0
    path, _ = nets[0]
    answer = run(language, "analyse", "--db", db, "--net", path)
    assert answer.exit_code != 0
    with pytest.raises(BadNet) as raised:
        Network.load(path)
    assert said(language, "cli.analyse.not-a-net", path=path, reason=raised.value.msg) in answer.output


def test_a_judge_the_engine_cannot_make_is_a_message():
    net = Network.create("jacquet", hidden=2, seed=1)
    with pytest.raises(CannotJudge) as deep:
        Evaluator(net, rule_set("jacquet"), ply=3)
    assert deep.value.msg == Message.of("judge.depth", ply=3, depths=either(["0", "1", "2"]))
    assert "0, 1 or 2" in str(deep.value)
    with pytest.raises(CannotJudge) as other:
        Evaluator(net, rule_set("narde"))
    assert other.value.msg == Message.of("judge.net-variant", net="jacquet", variant="narde")
    for refused in (lambda: confirmation_level("3ply+", rule_set("jacquet")), lambda: deeper_judge("3ply+", net, rule_set("jacquet"))):
        with pytest.raises(CannotJudge) as unknown:
            refused()
        assert unknown.value.msg.id == "judge.confirmation" and unknown.value.msg.params["setting"] == "3ply+"
    for language in TRANSLATED:  # said in the language, the setting as it was given
        assert "3ply+" in render(unknown.value.msg, language) != render(unknown.value.msg, "en")


@pytest.mark.parametrize("setting", ["1ply", "2ply", "2ply+rollout", "rollout"])
def test_every_confirming_level_is_said_in_the_page_s_language(setting):
    """The level that confirmed an analysis's marks is kept in English (the archive's key);
    a page and ``jacquet stats`` say it in their language: a rollout's settings in words
    of the catalog, the same English where the language is English."""
    from archive.levels import level_label

    kept = confirmation_level(setting, rule_set("jacquet"))
    english = level_label("jacquet-td jacquet v2", 0, kept, "en")
    assert english == f"jacquet-td jacquet v2, 0-ply, marks confirmed at {kept}"
    for language in ("fr", "ru"):
        said_there = level_label("jacquet-td jacquet v2", 0, kept, language)
        assert "marks confirmed" not in said_there
        if "rollout" in setting:
            assert "games at 0-ply" not in said_there and "truncated after" not in said_there
            assert "648" in said_there if setting == "2ply+rollout" else "144" in said_there
    # a turn's level names the net before it (the judge's name), kept as it is
    from archive.levels import level_words

    turn = f"jacquet-td jacquet v2, {kept}"
    assert level_words(turn, "en") == turn
    assert level_words(turn, "fr").startswith("jacquet-td jacquet v2, ")
    assert ("truncated after" in level_words(turn, "fr")) is False


def test_a_checked_level_keeps_its_bound_and_an_older_one_still_reads():
    """The bound a check's level names is said in every language; a level kept by an
    archive analysed before the check had a bound (no ``under``) is said there too."""
    from archive.levels import level_words

    rollout = "rollout of 648 games at 0-ply, truncated after 7 turns, seed 1"
    for level, bound in ((f"2-ply, marks under 0.32 checked by a {rollout}", "0.32"),
                         (f"2-ply, marks checked by a {rollout}", None)):
        assert level_words(level, "en") == level
        for language in ("fr", "ru"):
            said_there = level_words(level, language)
            assert "checked by" not in said_there and "truncated after" not in said_there
            assert "648" in said_there and said_there.startswith("2-ply")
            assert ("0.32" in said_there) == (bound is not None)
