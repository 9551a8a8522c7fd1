"""``jacquet analyse``: the engine's judgement of every turn of recorded games."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import click

from analysis.confirm import CONFIRMATIONS
from analysis.threads import limit_blas_threads
from jacquet_cli.archive_options import filter_options, pop_filters, query_from, reports_archive_errors
from jacquet_cli.collector import reading_many_games
from jacquet_cli.reading import Unreadable, load_games
from notation.engine.rules import DEFAULT
from notation.messages import say
from notation.tree.game import Game

if TYPE_CHECKING:
    from analysis.network import Network

limit_blas_threads(1)


def confirm_option(function: Any) -> Any:
    """``--confirm none|1ply|2ply|2ply+rollout|rollout``, shared by ``analyse`` and ``import --analyse``."""
    return click.option(
        "--confirm", type=click.Choice(CONFIRMATIONS), default=None,
        help="Judge again, at this level, every turn that would be marked and every turn whose best "
             f"two plays are close, and mark only what it confirms (default: the rule set's own, "
             f"{_own_confirmations()}; docs/analysis.md: the cost of each).")(function)


def _own_confirmations() -> str:
    """Each rule set's own confirmation (``RuleSet.confirmation``), for ``--confirm``'s
    help: ``2ply+rollout in backgammon, 2ply in the others``, or ``2ply+rollout in every
    rule set``."""
    from collections import Counter

    from notation.engine.rules import NAMES, rule_set

    own = {name: rule_set(name).confirmation for name in NAMES}
    usual = Counter(own.values()).most_common(1)[0][0]
    apart = [f"{setting} in {name}" for name, setting in own.items() if setting != usual]
    return ", ".join([*apart, f"{usual} in the others"]) if apart else f"{usual} in every rule set"


def check_confirmation(confirm: str | None) -> None:
    """Refuse a confirmation the engine cannot make (a depth it does not have), before
    any game is analysed: from the setting alone, no net loaded and no judge made
    (:func:`analysis.confirm.check_setting`); ``None`` (each rule set's own) is one it
    makes."""
    from analysis.confirm import check_setting

    if confirm is None:
        return
    try:
        check_setting(confirm)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--confirm") from None


def _limits(ctx: click.Context, param: click.Parameter, value: str | None
            ) -> tuple[float, float, float] | None:
    if value is None:
        return None
    try:
        limits = tuple(float(part) for part in value.split(","))
    except ValueError:
        limits = ()
    if len(limits) != 3 or not 0 < limits[0] <= limits[1] <= limits[2]:
        raise click.BadParameter(say("cli.analyse.marks-option"))
    return limits[0], limits[1], limits[2]


@click.command("analyse")
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False))
@click.option("--db", "db_path", type=click.Path(dir_okay=False, exists=True),
              help="Analyse the archive's games instead (those the filters select), storing "
                   "each analysis beside its game; games analysed by the same engine are skipped.")
@click.option("--game", "-g", "game_number", type=click.IntRange(min=1),
              help="Only the Nth game of each file (default: every game).")
@click.option("--ply", type=click.IntRange(0, 2), default=0, show_default=True,
              help="How far the engine looks: 0 (its judgement of each play's result), 1 "
                   "(after each of the opponent's 21 rolls and his best reply) or 2 (gnubg's "
                   "2-ply: each reply's position judged at 1-ply); each level much slower.")
@click.option("--output", "-o", type=click.Path(dir_okay=False),
              help="Write the games back annotated (the engine's comments, its marks as NAGs, "
                   "an Annotator tag); the format from the extension.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per game (see docs/analysis.md).")
@click.option("--net", "net_path", type=click.Path(dir_okay=False, exists=True),
              help="A net file to judge with (default: the one shipped for the game's rule set).")
@click.option("--marks", callback=_limits, metavar="A,B,C",
              help="Equity lost for ?!, ? and ?? in the rule set's points (default: "
                   "0.04,0.08,0.16; hale eight times that).")
@click.option("--candidates", type=click.IntRange(min=1), default=5, show_default=True,
              help="Plays listed per turn (best first; the play made is always listed).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Processes judging games, this one and N - 1 workers [default: all cores, or fewer when "
                   "the games are too few to pay for starting them]; any number gives the same "
                   "analyses.")
@confirm_option
@filter_options
@reports_archive_errors("write to")
@reading_many_games()
def analyse_command(files: tuple[str, ...], db_path: str | None, game_number: int | None, ply: int,
                    output: str | None, as_json: bool, net_path: str | None,
                    marks: tuple[float, float, float] | None, candidates: int, jobs: int | None,
                    confirm: str | None, **filters: Any) -> None:
    """Judge every turn of the games of FILES: the plays ranked by equity, the equity the
    play made lost and its mark (?! ? ??), the luck of the roll, and per player the error
    rate (equity lost per unforced decision, in thousandths of a point) and luck.

    Every figure is the named engine's ("jacquet-td jacquet v2, 0-ply"): a net trained by
    self-play, not an oracle. Forced plays are shown but not counted; a game with an
    error is analysed up to it.

    --confirm judges again, at a deeper level, the turns whose mark could be wrong (every
    marked turn, and those whose best two plays are close): their figures and marks are
    that level's, and each turn names the level that decided it.

    With --db, the archive's games (those the search filters select; --variant is then a
    filter, else the rule set of records without a Variant tag) are analysed and the
    analyses stored beside them, with a progress bar; games analysed already by the same
    engine and depth are skipped, so an interrupted run goes on when run again.

    With --jobs N the games are shared among N processes, this one and N - 1 workers
    (default: all cores, or fewer for a few games, whose analysis costs less than starting
    a worker); the analyses, and their order, are those of --jobs 1.

    \b
    Example:
        jacquet analyse samples/jacquet/annotated-game.jqn
        jacquet analyse game.jqn --ply 1 -o game-analysed.jqn
        jacquet analyse game.jqn --confirm 2ply
        jacquet analyse match.mat --json
        jacquet analyse --db club.db --player Marie --ply 1 --jobs 2
    """
    from analysis.analyse_jobs import AnalysisJob, analyse_all, start_method, workers_for
    from analysis.pool import all_cores
    from analysis.report import analysis_json, annotate
    from analysis.shipped import NoNet, load_net

    from .analysis_table import print_analysis
    from .writing import target_format, write_games

    variant = filters["variant"] or DEFAULT
    if db_path is not None:
        if files or output or as_json or game_number:
            raise click.UsageError(say("cli.analyse.db-alone"))
        _analyse_db(db_path, pop_filters(filters), ply, net_path, marks, candidates, jobs or all_cores(),
                    confirm)
        return
    if not files:
        raise click.UsageError(say("cli.analyse.no-files"))
    out_format = target_format(output, None) if output else None
    nets: dict[str, Network] = {}
    written: list[Game] = []
    failed = False
    selected = list(_selected(files, game_number, variant))
    show_progress = not as_json and sys.stderr.isatty() and (ply >= 1 or confirm != "none")
    for _, _, game in selected:
        name = game.rules.name
        if name not in nets:
            try:
                nets[name] = load_net(name, net_path)
            except NoNet as error:
                raise Unreadable(str(error)) from None
    check_confirmation(confirm)
    job = AnalysisJob(nets, ply, marks, candidates, confirm)
    games = [game for _, _, game in selected]
    method = start_method()  # with the nets loaded: whether this process still runs one thread
    workers = min(jobs, len(selected)) if jobs else workers_for(games, ply, all_cores(), confirm, method)
    analyses = analyse_all(games, job, workers, method)
    for index, ((path, number, _), analysis) in enumerate(zip(selected, analyses, strict=True), 1):
        if show_progress:
            click.echo(say("cli.analyse.progress", index=index, total=len(selected), path=path, game=number),
                       err=True)
        failed = failed or analysis.stopped is not None
        if as_json:
            names = nets[analysis.game.rules.name].outcomes.names
            record = {"file": path, "game": number, **analysis_json(analysis, names)}
            click.echo(json.dumps(record, ensure_ascii=False))
        else:
            print_analysis(path, number, analysis, marks)
        if output:
            annotate(analysis)
            written.append(analysis.game)  # (its own copy when a worker analysed it)
    if output and out_format:
        write_games(written, output, out_format)
    if failed:
        raise SystemExit(1)


def _analyse_db(db_path: str, filters: dict[str, Any], ply: int, net_path: str | None,
                marks: tuple[float, float, float] | None, candidates: int, jobs: int,
                confirm: str | None) -> None:
    from archive import open_archive

    from .analyse_archive import analyse_archive

    with open_archive(db_path) as db:
        analysed, skipped = analyse_archive(db, query_from(filters, limit=-1), ply, net_path, marks,
                                            candidates, jobs, confirm)
    click.echo(say("cli.analyse.stored", count=analysed, skipped=skipped, path=db_path), err=True)


def _selected(files: tuple[str, ...], game_number: int | None, variant: str
              ) -> Iterator[tuple[str, int, Game]]:
    for path in files:
        games = load_games(path, variant=variant)
        if game_number is not None:
            if game_number > len(games):
                raise Unreadable(say("cli.analyse.no-game", path=path, count=len(games), number=game_number))
            yield path, game_number, games[game_number - 1]
            continue
        for number, game in enumerate(games, 1):
            yield path, number, game
