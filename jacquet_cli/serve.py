"""``jacquet serve``: the web viewer, under waitress. On an address other machines can
reach, it says what they may do (sign in, or only read) and how to put the server behind
HTTPS (docs/server.md)."""

from __future__ import annotations

import contextlib
import ipaddress
import os
import socket

import click

from archive.accounts import count_users
from archive.schema import migrations
from archive.store import ensure_sound, open_archive
from notation.messages import say

from .archive_options import db_option, import_summary, reports_archive_errors


@click.command("serve")
@db_option
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="The port to listen on; 0 for any free port (the address is printed).")
@click.option("--trusted-host", "trusted_hosts", multiple=True, metavar="NAME",
              help="A host name visitors reach the server by (repeatable; behind a reverse proxy, "
                   "its public name). Requests naming any other host are refused (400).")
@reports_archive_errors("use")
def serve_command(db_path: str, host: str, port: int, trusted_hosts: tuple[str, ...]) -> None:
    """Serve the viewer over the archive; with no archive at --db, build a demo archive
    from the sample records first.

    Visitors browse, search and validate; signed-in scorers record and save games (add
    accounts with `jacquet users add`). Requests must name this machine (localhost,
    127.0.0.1, the --host given, or a --trusted-host).

    \b
    Example:
        jacquet serve
        jacquet serve --db club.db --host 0.0.0.0 --port 8080 --trusted-host club.example.org
    """
    from jacquet_cli.collector import settle_for_serving
    from webviewer import create_app
    from webviewer.demo import build_demo
    from webviewer.plumbing.serving import guarded_server
    from webviewer.plumbing.workers import start_workers

    if not os.path.exists(db_path):
        click.echo(say("cli.serve.demo", path=db_path), err=True)
        summary = build_demo(db_path)
        click.echo(import_summary(summary), err=True)
    accounts = _prepared(db_path)
    ensure_sound(db_path)  # damaged: say so now, not on some page later
    app = create_app({"ARCHIVE": db_path, "TRUSTED_HOSTS": _host_names(host, trusted_hosts)})
    start_workers(app)  # their forking process imports the viewer while waitress starts
    settle_for_serving()
    listening = _listening_socket(host, port)
    bound_host, bound_port = listening.getsockname()[:2]
    if ":" in bound_host:  # IPv6
        bound_host = f"[{bound_host}]"
    click.echo(say("cli.serve.serving", path=db_path, address=f"http://{bound_host}:{bound_port}/"), err=True)
    if not _loopback(listening.getsockname()[0]):
        click.echo(exposure(host, db_path, accounts, app.config["TRUSTED_HOSTS"]), err=True)
    guarded_server(app, listening).run()


def _listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` for waitress; a clear error (exit 2 for a host
    that is no address, 1 for a port it cannot have) instead of a traceback. Bound here,
    not by waitress, which leaves its own socket open when it cannot bind."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except (OSError, UnicodeError):
        raise click.BadParameter(say("cli.serve.bad-host", host=repr(host)),
                                 param_hint="--host") from None
    listening = socket.socket(family, kind, proto)
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as waitress does
        listening.bind(address)
    except OSError as error:
        listening.close()
        raise click.ClickException(say("cli.serve.cannot-listen", host=host, port=port,
                                       reason=error.strerror or error)) from None
    return listening


def _prepared(db_path: str) -> int:
    """Check that ``db_path`` is an archive (nothing written to another file), bring its
    schema up to date (the viewer's readers do not), and count its accounts."""
    db = open_archive(db_path, readonly=True)  # not an archive, unreadable: say so now
    try:
        behind = bool(migrations.pending(db))
    finally:
        db.close()
    db = open_archive(db_path) if behind else open_archive(db_path, readonly=True)
    try:
        return count_users(db)
    finally:
        db.close()


def _loopback(address: str) -> bool:
    """Whether ``address`` is reachable from this machine only."""
    try:
        return ipaddress.ip_address(address.split("%")[0]).is_loopback
    except ValueError:
        return False


def _host_names(host: str, trusted: tuple[str, ...]) -> list[str]:
    """The names a request's Host header may carry: loopback, the host served, the names
    given, and for a server on every address (0.0.0.0, ::) this machine's own names."""
    from webviewer import LOOPBACK_HOSTS

    names = [*LOOPBACK_HOSTS, host, *trusted]
    if host in ("0.0.0.0", "::", ""):
        names += [socket.gethostname(), socket.getfqdn()]
        with contextlib.suppress(OSError):
            names += [str(info[4][0])
                      for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    return sorted({name.lower() for name in names if name and name not in ("0.0.0.0", "::")})


def exposure(host: str, db_path: str, accounts: int, names: list[str]) -> str:
    """What a server on ``host``, reachable from other machines, exposes, and how to put it
    behind HTTPS."""
    who = (say("cli.serve.accounts", count=accounts) if accounts
           else say("cli.serve.no-accounts", path=db_path))
    return "\n".join([
        "warning: " + say("cli.serve.exposed", host=host),  # (the word editors look for stays)
        f"  {who}", "  " + say("cli.serve.in-clear"),
        "  " + say("cli.serve.hosts", names=", ".join(names))])
