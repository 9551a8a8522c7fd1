"""``jacquet serve``: the web viewer, under waitress."""

from __future__ import annotations

import os

import click

from archive import open_archive

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
    from waitress import serve

    from webviewer import create_app
    from notation.collector import settle_for_serving
    from webviewer.demo import build_demo

    if not os.path.exists(db_path):
        click.echo(f"no archive at {db_path}: building a demo archive from the samples", err=True)
        summary = build_demo(db_path)
        click.echo(f"{summary}", err=True)
    open_archive(db_path, readonly=True).close()  # not an archive, unreadable: say so now
    app = create_app({"ARCHIVE": db_path})
    settle_for_serving()
    click.echo(f"serving {db_path} on http://{host}:{port}/", err=True)
    serve(app, host=host, port=port, threads=8)
