"""The ``jacquet`` command: a thin click layer over :mod:`notation` (and, as they land,
:mod:`archive` and :mod:`webviewer`). Each command lives in its own module."""

from __future__ import annotations

import click

from .convert import convert
from .generate import generate
from .import_cmd import import_command
from .legal import legal
from .record import record_command
from .search import export_command, search_command
from .serve import serve_command
from .show import show
from .stats import stats_command
from .validate import validate


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="jacquet")
def main() -> None:
    """Record, replay, validate and browse games of Jacquet and its relatives.

    Rule sets: jacquet (default), murray, versailles, hale, backgammon.
    """


for command in (legal, validate, show, convert, generate, import_command, search_command,
                export_command, stats_command, serve_command, record_command):
    main.add_command(command)
