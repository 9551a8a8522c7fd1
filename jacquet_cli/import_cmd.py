"""``jacquet import``: record files into the archive."""

from __future__ import annotations

import os
import sys

import click
from sqlite_utils import Database

from archive import ImportSummary, import_files, open_archive
from archive.analyses import stored_from
from archive.audit import logging_import, os_user
from archive.store import ensure_sound
from jacquet_cli.collector import reading_many_games
from notation.engine.rules import DEFAULT, NAMES
from notation.messages import render, say
from notation.tree.game import Game

from .analyse import confirm_option
from .archive_options import db_option, import_summary, reports_archive_errors


@click.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@db_option
@click.option("--keep-invalid", is_flag=True,
              help="Store games that break a rule, flagged, with their error.")
@click.option("--variant", "-v", type=click.Choice(NAMES, case_sensitive=False), default=DEFAULT,
              show_default=True, help="Rule set of records without a Variant tag.")
@click.option("--batch", type=click.IntRange(min=1), default=200, show_default=True,
              help="Games per transaction: what an interrupted import has to redo at most.")
@click.option("--analyse", is_flag=True,
              help="Then analyse the games stored from FILES with the engine (as "
                   "jacquet analyse --db does), skipping those it analysed before.")
@click.option("--ply", type=click.IntRange(0, 2), default=0, show_default=True,
              help="With --analyse: how far the engine looks (0, 1 or 2; each level much slower).")
@click.option("--net", "net_path", type=click.Path(dir_okay=False, exists=True),
              help="With --analyse: a net file to judge with (default: the shipped one).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="With --analyse: processes judging games, this one and N - 1 workers "
                   "[default: all cores]; any number gives the same analyses.")
@confirm_option
@reports_archive_errors("write to")
@reading_many_games()
def import_command(files: tuple[str, ...], db_path: str, keep_invalid: bool, variant: str,
                   batch: int, analyse: bool, ply: int, net_path: str | None,
                   jobs: int | None, confirm: str | None) -> None:
    """Import the games of FILES (any supported format) into the archive.

    Each game is stored whole or not at all; games already in the archive are skipped, so
    an interrupted import is completed by running it again. Games that break a rule are
    refused with their errors unless --keep-invalid. A progress bar shows on stderr; a
    summary follows; the games stored are logged in the archive's audit log under the
    name of the user running the command. Exit 0, or 1 if any game was refused, 2 if a file could not be read
    or the archive cannot be written (read-only, disk full: the games committed before
    stay), is damaged (SQLite's quick check, on archives up to 200 MB) or is an SQLite
    file of another program.

    With --analyse, the games stored from FILES (named as here) are then analysed by the
    engine and the analyses stored beside them, with a progress bar; games it analysed
    before at that depth are skipped, so an interrupted analysis (Ctrl-C, exit 130: what
    is stored stays) goes on when the same import is run again. --jobs N shares the
    games among N processes, this one and N - 1 workers (default: all cores), with the
    analyses of --jobs 1.
    --confirm sets the level that confirms the marks, as for jacquet analyse.

    \b
    Example:
        jacquet import samples/*/*.jqn --db club.db
        jacquet import match.mat --keep-invalid
        jacquet import club-night.jqn --analyse --db club.db
        jacquet import season/*.mat --analyse --jobs 2 --db club.db
    """
    if not analyse and (ply or net_path or jobs or confirm is not None):
        raise click.UsageError(say("cli.import.analyse-only"))
    ensure_sound(db_path)
    with open_archive(db_path) as db:
        summary = _import(db, files, keep_invalid, variant, batch)  # each batch logged with it
        for error in summary.errors:
            click.echo(str(error), err=True)
        for problem in summary.unreadable:
            click.echo(render(problem), err=True)
        click.echo(say("cli.import.into", summary=import_summary(summary), path=db_path), err=True)
        if analyse:
            from analysis.pool import all_cores

            from .analyse_archive import analyse_games

            analysed, skipped = analyse_games(db, stored_from(db, files), ply, net_path,
                                              jobs=jobs or all_cores(), confirm=confirm)
            click.echo(say("cli.import.analysed", count=analysed, skipped=skipped), err=True)
    if summary.unreadable:
        raise SystemExit(2)
    if summary.refused:
        raise SystemExit(1)


def _import(db: Database, files: tuple[str, ...], keep_invalid: bool, variant: str,
            batch: int) -> ImportSummary:
    """Import with a progress bar on stderr, by bytes of the files read."""
    sizes = {path: os.path.getsize(path) if os.path.isfile(path) else 0 for path in files}
    done = dict.fromkeys(files, 0)
    with click.progressbar(length=sum(sizes.values()) or 1, label=say("cli.import.importing"),
                           file=sys.stderr) as bar:
        def on_game(path: str, game: Game) -> None:
            offset = game.source[1] if game.source else None
            if offset is not None and offset > done[path]:
                bar.update(offset - done[path])
                done[path] = offset

        summary = import_files(db, files, keep_invalid=keep_invalid, variant=variant,
                               on_game=on_game, batch=batch,
                               on_stored=logging_import(db, os_user()))
        bar.update(sum(sizes.values()) - sum(done.values()))
    return summary
