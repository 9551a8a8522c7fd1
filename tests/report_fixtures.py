"""An archive with real games analysed by the shipped nets, for the game report's pages
(tests/test_viewer_report.py, the printed game's browser test): the first game of a real
backgammon match (tests/data/mat) and the jacquet sample game, each analysed at 0-ply and
stored as ``jacquet analyse --db`` stores it; the match's other games left unanalysed."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from analysis.analyse import analyse_game
from analysis.ranking import Evaluator
from analysis.report import analysis_json
from analysis.shipped import load_net
from archive import import_files, load_game, open_archive
from archive.analyses import store_analysis

ROOT = Path(__file__).resolve().parents[1]
MATCH = ROOT / "tests" / "data" / "mat" / "BoardLord_-_Llabba_7pt_Backgammon_Studio_2023_08_09_18_11_07.mat"
JACQUET = ROOT / "samples" / "jacquet" / "annotated-game.jqn"


def analysed_archive(path: Path) -> dict[str, int]:
    """Build the archive at ``path``; the ids of its games: ``match`` (analysed),
    ``jacquet`` (analysed), ``plain`` (the match's second game, not analysed)."""
    with open_archive(path) as db:
        import_files(db, [str(MATCH), str(JACQUET)])
        ids = [row[0] for row in db.execute("SELECT id FROM games ORDER BY id")]
        found = {"match": ids[0], "plain": ids[1], "jacquet": ids[-1]}
        for key in ("match", "jacquet"):
            game = load_game(db, found[key])
            assert game is not None
            net = load_net(game.rules.name)
            evaluator = Evaluator(net, game.rules)
            analysis = analyse_game(game, evaluator)
            store_analysis(db, found[key], analysis_json(analysis, evaluator.outcomes.names), net.digest, 0,
                           stopped=analysis.error.msg if analysis.error else None)
    return found


@pytest.fixture(scope="module")
def analysed(tmp_path_factory):
    """An archive whose games are analysed, once a module: its path and the games' ids."""
    path = tmp_path_factory.mktemp("analysed") / "analysed.db"
    return path, analysed_archive(path)


@pytest.fixture
def archive_path(analysed, tmp_path):
    """A copy of the analysed archive for each test (answers write to it)."""
    source, _ = analysed
    target = tmp_path / "club.db"
    with sqlite3.connect(source) as old, sqlite3.connect(target) as new:
        old.backup(new)
    return target


@pytest.fixture
def viewer_config():
    """The viewer without CSRF tokens and with its work in the request's process."""
    return {"WTF_CSRF_ENABLED": False, "WORKERS": 0}
