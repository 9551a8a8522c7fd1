"""The ``jacquet`` command: a thin click layer over :mod:`notation` (and, as they land,
:mod:`archive` and :mod:`webviewer`). Each command lives in its own module."""

from __future__ import annotations

import click

from .convert import convert
from .generate import generate
from .legal import legal
from .show import show
from .validate import validate


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="jacquet")
def main() -> None:
    """Record, replay, validate and browse games of Jacquet and its relatives.

    Rule sets: jacquet (default), murray, versailles, hale, backgammon.
    """


for command in (legal, validate, show, convert, generate):
    main.add_command(command)
