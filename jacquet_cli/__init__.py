"""The ``jacquet`` command: a thin click layer over :mod:`notation` (and, as they land,
:mod:`archive` and :mod:`webviewer`). Each command lives in its own module."""

from __future__ import annotations

import click

from .legal import legal


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="jacquet")
def main() -> None:
    """Record, replay, validate and browse games of Jacquet and its relatives.

    Rule sets: jacquet (default), murray, versailles, hale, backgammon.
    """


main.add_command(legal)
