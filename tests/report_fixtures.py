"""An archive with real games analysed by the shipped nets, for the game report's pages
(tests/test_viewer_report.py, the printed game's browser test): the first game of a real
backgammon match (tests/data/mat) and the jacquet sample game, each analysed at 0-ply and
stored as ``jacquet analyse --db`` stores it; the match's other games left unanalysed."""

from __future__ import annotations

from pathlib import Path

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
            store_analysis(db, found[key], analysis_json(analyse_game(game, evaluator), evaluator.outcomes.names),
                           net.digest, 0)
    return found
