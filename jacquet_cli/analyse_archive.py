"""``jacquet analyse --db`` and ``jacquet import --analyse``: analyse archived games,
storing each analysis beside its game; games analysed already by the same engine (name,
net digest and depth) are skipped, so an interrupted run is completed by running it again.

With ``jobs`` above 1 the games are judged by worker processes
(:mod:`analysis.analyse_jobs`); this process alone reads and writes the archive, a batch of
games at a time, and stores the analyses in the games' order: the archive ends as with one
process."""

from __future__ import annotations

import sys

import click
from sqlite_utils import Database

from analysis.analyse_jobs import AnalysisJob, analyser
from analysis.ctrl_c import CTRL_C, ctrl_c_held, is_ctrl_c
from analysis.network import Network
from analysis.report import analysis_json
from analysis.shipped import NoNet, load_net
from archive import Query, game_ids, load_game
from archive.analyses import analysed_ids, game_variants, store_analysis
from notation import rule_set
from notation.messages import say

from .reading import Unreadable

CANDIDATES = 5
"""Plays stored per turn unless told otherwise (``jacquet analyse --candidates``)."""


BATCH = 4
"""Games read from the archive per worker before their analyses are stored."""


def analyse_archive(db: Database, query: Query, ply: int, net_path: str | None,
                    marks: tuple[float, float, float] | None, candidates: int,
                    jobs: int = 1, confirm: str | None = "none") -> tuple[int, int]:
    """Analyse the games ``query`` selects that are not analysed yet (:func:`analyse_games`)."""
    return analyse_games(db, game_ids(db, query), ply, net_path, marks, candidates, jobs, confirm)


def analyse_games(db: Database, ids: list[int], ply: int, net_path: str | None = None,
                  marks: tuple[float, float, float] | None = None,
                  candidates: int = CANDIDATES, jobs: int = 1, confirm: str | None = "none"
                  ) -> tuple[int, int]:
    """Analyse the games ``ids`` not analysed yet (by the same engine, depth and
    confirmation) over ``jobs`` processes, with a progress bar on stderr; (games analysed
    now, games skipped). Ctrl-C stops after the game being stored (exit 130)."""
    variants = game_variants(db, ids)
    nets: dict[str, Network] = {}
    try:
        given = Network.load(net_path).variant if net_path else None
    except (OSError, ValueError, KeyError) as error:
        raise Unreadable(say("cli.analyse.not-a-net", path=net_path, reason=error)) from None
    for variant in sorted(set(variants.values())):
        try:  # the net given for its rule set, the shipped ones for the others
            nets[variant] = load_net(variant, net_path if variant == given else None)
        except NoNet as error:
            raise Unreadable(str(error)) from None
    job = AnalysisJob(nets, ply, marks, candidates, confirm)
    try:
        engines = {v: (net.name, net.digest, job.level(rule_set(v))) for v, net in nets.items()}
    except ValueError as error:  # a depth the engine does not have
        raise click.BadParameter(str(error), param_hint="--confirm") from None
    done = analysed_ids(db, ids, engines, ply)
    todo = [game_id for game_id in ids if game_id not in done]
    analysed = 0
    workers = max(1, min(jobs, len(todo)))
    try:
        with ctrl_c_held() as ctrl_c, analyser(job, workers) as analyse, click.progressbar(
                length=len(todo), label=say("cli.analyse.analysing", count=len(todo)), file=sys.stderr,
                show_pos=True) as bar:
            for start in range(0, len(todo), BATCH * workers):
                batch = todo[start:start + BATCH * workers]
                loaded = [(game_id, load_game(db, game_id)) for game_id in batch]
                present = [(game_id, game) for game_id, game in loaded if game is not None]
                bar.update(len(batch) - len(present))  # deleted since the search
                analyses = analyse([game for _, game in present])
                for (game_id, _), analysis in zip(present, analyses, strict=True):
                    net = nets[variants[game_id]]
                    store_analysis(db, game_id, analysis_json(analysis, net.outcomes.names),
                                   net.digest, ply, stopped=analysis.error.msg if analysis.error else None)
                    analysed += 1
                    bar.update(1)
                    ctrl_c.check()
    except CTRL_C as error:
        if not is_ctrl_c(error):
            raise
        click.echo("\n" + say("cli.analyse.stopped", count=analysed), err=True)
        raise SystemExit(130) from None
    return analysed, len(done)
