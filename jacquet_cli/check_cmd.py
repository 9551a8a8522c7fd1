"""``jacquet check``: SQLite's full integrity check of an archive."""

from __future__ import annotations

import click

from archive.store import check_archive
from notation.messages import say

from .archive_options import db_option, reports_archive_errors


@click.command("check")
@db_option
@reports_archive_errors("read")
def check_command(db_path: str) -> None:
    """Check that the archive is sound (SQLite's integrity_check, read only).

    Every page, index and constraint of the file is read: on a large archive it takes a
    while. Exit 0 if the archive is sound; 1, with each problem SQLite reports, if it is
    damaged (restore it from a backup); 2 if it cannot be opened or is no archive.

    \b
    Example:
        jacquet check --db club.db
    """
    problems = check_archive(db_path, full=True)
    for problem in problems:
        click.echo(say("archive.problem", path=db_path, problem=problem), err=True)
    if problems:
        click.echo(say("cli.check.damaged", path=db_path, count=len(problems)), err=True)
        raise SystemExit(1)
    click.echo(say("cli.check.ok", path=db_path), err=True)
