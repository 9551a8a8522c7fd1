"""``jacquet users``: the viewer's accounts, kept in the archive (see docs/server.md)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click
from sqlite_utils import Database

from archive import open_archive
from archive.accounts import ROLES, AccountError, add_user, find_user, list_users, remove_user, set_password
from notation.messages import Message, say

from .archive_options import ArchiveFailure, db_option, reports_archive_errors

password_stdin = click.option("--password-stdin", is_flag=True,
                              help="Read the password from the first line of standard input "
                                   "instead of asking for it twice.")


@contextmanager
def _archive(db_path: str) -> Iterator[Database]:
    """The archive at ``db_path`` for writing: it must exist and be an archive (checked
    before anything is written to the file)."""
    if not Path(db_path).exists():
        raise ArchiveFailure(say("cli.users.no-archive", path=db_path))
    open_archive(db_path, readonly=True).close()
    db = open_archive(db_path)
    try:
        yield db
    finally:
        db.close()


def _password(from_stdin: bool) -> str:
    if from_stdin:
        line = sys.stdin.readline()
        return line[:-1] if line.endswith("\n") else line
    return str(click.prompt(say("cli.prompt", question=say("cli.users.password")), prompt_suffix=" ",
                            hide_input=True, default="", show_default=False,
                            confirmation_prompt=say("cli.prompt", question=say("cli.users.password.again"))))


@click.group("users")
def users_command() -> None:
    """Manage the viewer's accounts: scorers record and save games, admins also hide and
    delete stored games and read the audit log. Visitors need no account.

    \b
    Example:
        jacquet users add Marie --role scorer --db club.db
        printf 'secret\\n' | jacquet users add Paul --role admin --password-stdin
        jacquet users list
    """


@users_command.command("add")
@click.argument("name")
@click.option("--role", type=click.Choice(ROLES), required=True, help="What the account may do.")
@password_stdin
@db_option
@reports_archive_errors("write to")
def add(name: str, role: str, password_stdin: bool, db_path: str) -> None:
    """Add the account NAME with a password (asked twice, or read from standard input).

    \b
    Example:
        jacquet users add Marie --role scorer --db club.db
    """
    with _archive(db_path) as db:
        if find_user(db, name) is not None:  # before asking for a password
            raise click.ClickException(say("account.taken", name=repr(name)))
        try:
            user = add_user(db, name, role, _password(password_stdin))
        except AccountError as error:
            raise click.ClickException(str(error)) from None
    click.echo(say("cli.users.added", name=user.name, role=Message.of(f"account.role.{user.role}")))


@users_command.command("list")
@db_option
@reports_archive_errors("read")
def list_command(db_path: str) -> None:
    """Every account: name, role and since when, one per line.

    \b
    Example:
        jacquet users list --db club.db
    """
    with _archive(db_path) as db:
        accounts = list_users(db)
    if not accounts:
        click.echo(say("cli.users.none"), err=True)
    for user in accounts:
        click.echo(f"{user.name}\t{user.role}\t{user.created}")


@users_command.command("remove")
@click.argument("name")
@db_option
@reports_archive_errors("write to")
def remove(name: str, db_path: str) -> None:
    """Remove the account NAME (its sessions end at once).

    \b
    Example:
        jacquet users remove Marie --db club.db
    """
    with _archive(db_path) as db:
        try:
            user = remove_user(db, name)
        except AccountError as error:
            raise click.ClickException(str(error)) from None
    click.echo(say("cli.users.removed", name=user.name))


@users_command.command("passwd")
@click.argument("name")
@password_stdin
@db_option
@reports_archive_errors("write to")
def passwd(name: str, password_stdin: bool, db_path: str) -> None:
    """Give the account NAME a new password (its sessions end at once).

    \b
    Example:
        jacquet users passwd Marie --db club.db
    """
    with _archive(db_path) as db:
        if find_user(db, name) is None:
            raise click.ClickException(say("account.unknown", name=repr(name)))
        try:
            user = set_password(db, name, _password(password_stdin))
        except AccountError as error:
            raise click.ClickException(str(error)) from None
    click.echo(say("cli.users.new-password", name=user.name))
