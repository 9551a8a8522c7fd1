"""``jacquet serve``: the web viewer, under waitress."""

from __future__ import annotations

import os
import socket

import click

from archive.store import ensure_sound, open_archive

from .archive_options import db_option, reports_archive_errors


@click.command("serve")
@db_option
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@reports_archive_errors("use")
def serve_command(db_path: str, host: str, port: int) -> None:
    """Serve the viewer over the archive; with no archive at --db, build a demo archive
    from the sample records first.

    \b
    Example:
        jacquet serve
        jacquet serve --db club.db --host 0.0.0.0 --port 8080
    """
    from waitress import create_server

    from jacquet_cli.collector import settle_for_serving
    from webviewer import create_app
    from webviewer.demo import build_demo
    from webviewer.plumbing.serving import waitress_options

    if not os.path.exists(db_path):
        click.echo(f"no archive at {db_path}: building a demo archive from the samples", err=True)
        summary = build_demo(db_path)
        click.echo(f"{summary}", err=True)
    open_archive(db_path, readonly=True).close()  # not an archive, unreadable: say so now
    ensure_sound(db_path)  # damaged: say so now, not on some page later
    app = create_app({"ARCHIVE": db_path})
    settle_for_serving()
    listening = _listening_socket(host, port)
    bound_host, bound_port = listening.getsockname()[:2]
    if ":" in bound_host:  # IPv6
        bound_host = f"[{bound_host}]"
    click.echo(f"serving {db_path} on http://{bound_host}:{bound_port}/", err=True)
    create_server(app, sockets=[listening], **waitress_options(app)).run()


def _listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` for waitress; a clear error (exit 2 for a host
    that is no address, 1 for a port it cannot have) instead of a traceback. Bound here,
    not by waitress, which leaves its own socket open when it cannot bind."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except (OSError, UnicodeError):
        raise click.BadParameter(f"{host!r} is not an address or a known host name",
                                 param_hint="--host") from None
    listening = socket.socket(family, kind, proto)
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as waitress does
        listening.bind(address)
    except OSError as error:
        listening.close()
        raise click.ClickException(f"cannot listen on {host}:{port}: "
                                   f"{error.strerror or error}") from None
    return listening
