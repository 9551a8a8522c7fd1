"""A stored game analysed on a scorer's request, in a worker process
(:func:`webviewer.plumbing.workers.run_work`): at 0-ply, with the shipped net of its rule
set, as ``jacquet analyse --db`` does it (:mod:`jacquet_cli.analyse_archive`)."""

from __future__ import annotations

from typing import Any

from analysis.analyse import analyse_game
from analysis.ranking import Evaluator
from analysis.report import analysis_json
from analysis.shipped import load_net
from archive import load_game, open_archive

DEPTH = 0
"""The depth a requested analysis is made at (1-ply takes too long for a request)."""


class GameGone(LookupError):
    """The game was deleted before its analysis started."""


def analyse_stored(archive: str, game_id: int) -> tuple[dict[str, Any], str, int]:
    """The analysis of game ``game_id`` of the archive at ``archive`` (its ``jacquet analyse
    --json`` object), the digest of the net that made it and its depth, for
    :func:`archive.analyses.store_analysis`; :class:`~analysis.shipped.NoNet` if its rule
    set has no shipped net."""
    db = open_archive(archive, readonly=True)
    try:
        game = load_game(db, game_id)
    finally:
        db.close()
    if game is None:
        raise GameGone(f"no game {game_id}")
    net = load_net(game.rules.name)
    evaluator = Evaluator(net, game.rules, ply=DEPTH)
    analysis = analyse_game(game, evaluator)
    return analysis_json(analysis, evaluator.outcomes.names), net.digest, DEPTH
