"""What ``train-race`` and ``train-contact`` share: the options of a net fitted to
rolled-out targets, and the set-up of such a run (its output path, its progress lines, the
engine that plays the positions out)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from notation.messages import Message

if TYPE_CHECKING:
    from analysis.network import Network

playouts_option = click.option(
    "--games", "-n", type=click.IntRange(min=1), default=36, show_default=True,
    help="Play-outs per position (the first roll balanced over the 36 outcomes).")
seed_option = click.option(
    "--seed", "-s", type=int, default=1, show_default=True,
    help="Same seed, same machine: same positions, targets and weights.")
quiet_option = click.option("--quiet", "-q", is_flag=True, help="No progress lines.")


def positions_option(kind: str, default: int) -> Callable[[Any], Any]:
    """``--positions``: how many positions of ``kind`` (``Race``, ``Contact``) to roll out."""
    return click.option("--positions", type=click.IntRange(min=10), default=default, show_default=True,
                        help=f"{kind} positions to sample from self-play and roll out.")


def epochs_option(default: int) -> Callable[[Any], Any]:
    """``--epochs``: the passes of the fit."""
    return click.option("--epochs", type=click.IntRange(min=1), default=default, show_default=True,
                        help="Passes of the fit over the positions (a later run may raise it).")


def policy_option(does: str) -> Callable[[Any], Any]:
    """``--policy``: a contact net in a file, used instead of the shipped one; ``does`` says
    what it does in the command (samples the positions and plays them out)."""
    return click.option("--policy", type=click.Path(exists=True, dir_okay=False), default=None,
                        help=f"The contact net that {does} (default: the shipped one; name it "
                             "to repeat or resume a fit after another net is shipped).")


def output_option(net: str) -> Callable[[Any], Any]:
    """``--output``: the fitted net (``net`` says which, and its default name)."""
    return click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
                        help=f"{net}; its work file goes beside it as OUT.work.npz and its "
                             "learning curve as OUT.log.jsonl.")


def net_path(output: str | None, default: str) -> Path:
    """Where the fitted net goes (``default`` without ``--output``), its folder made."""
    path = Path(output or default)
    if path.parent and not path.parent.exists():
        path.parent.mkdir(parents=True)
    return path


def progress(quiet: bool) -> Callable[[Message], None]:
    """The run's progress lines, in the language asked, to standard error (none with ``--quiet``)."""
    def report(line: Message) -> None:
        if not quiet:
            click.echo(str(line), err=True)

    return report


def shipped_net(variant: str, race: bool = True, path: str | None = None) -> Network:
    """The shipped net of ``variant``, or the contact net at ``path`` (the engine a fit
    started from, say, once another is shipped), with the shipped race net beside it where
    ``race`` (:func:`analysis.shipped.playing_net`); a usage error saying what to do where
    there is none."""
    from analysis.shipped import NoNet, load_net, playing_net

    try:
        return playing_net(variant, path) if race else load_net(variant, path, race=False)
    except NoNet as error:
        raise click.UsageError(str(error)) from None
