"""``jacquet train-contact``: the contact net of a rule set fitted to rolled-out targets
(:mod:`analysis.contact_training`, wildbg's method): contact positions sampled from the
engine's self-play (and from recorded games), each rolled out by the engine, the net fitted
to the results. Every stage is saved as it goes in ``OUT.work.npz``: the same command run
again after a stop goes on where it stopped, and gives the net one run would have given
(the lead may raise ``--positions`` to go on rolling out more). Registered by
``jacquet_cli`` as ``train-contact``.
"""

from __future__ import annotations

from pathlib import Path

import click

from analysis.threads import limit_blas_threads
from notation.messages import say

from . import fitting
from .options import variant_option

limit_blas_threads(1)


def _files(paths: tuple[str, ...]) -> list[Path]:
    """The record files of ``paths`` (files, or directories searched recursively), sorted."""
    from notation.formats.registry import EXTENSIONS

    out: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            out += sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in EXTENSIONS)
        else:
            out.append(path)
    return out


def record_files(records: tuple[str, ...], exclude: tuple[str, ...]) -> list[Path]:
    """The record files of ``records`` (:func:`_files`) but those of ``exclude`` (the same
    file however named: a benchmark's yardstick must not be fitted to)."""
    left_out = {path.resolve() for path in _files(exclude)}
    return [path for path in _files(records) if path.resolve() not in left_out]


@click.command("train-contact")
@variant_option
@fitting.positions_option("Contact", 2000)
@fitting.playouts_option
@click.option("--truncate", type=click.IntRange(min=0), default=0, show_default=True,
              help="Plies after which a play-out is closed by the engine's judgement (0: played "
                   "on until the race, where the race net and the bear-off tables close it).")
@click.option("--real", type=click.IntRange(min=0), default=0, show_default=True,
              help="Contact positions to add from the recorded games of --records.")
@click.option("--records", multiple=True, type=click.Path(exists=True),
              help="Record files or directories of the rule set's games (repeatable).")
@click.option("--exclude", multiple=True, type=click.Path(exists=True),
              help="Record files or directories of --records to leave out (repeatable): "
                   "the matches a benchmark judges the engine on.")
@click.option("--siblings", type=click.IntRange(min=0), default=0, show_default=True,
              help="At each turn a position is kept from, also keep the positions of the engine's next "
                   "best plays, this many (the plays a mark weighs the play made against).")
@fitting.epochs_option(60)
@click.option("--rate", type=click.FloatRange(min=0, min_open=True), default=0.0005,
              show_default=True, help="Adam's step size.")
@click.option("--start", type=click.Choice(["shipped", "fresh"]), default="shipped",
              show_default=True, help="Fit the shipped contact net on, or fresh weights.")
@click.option("--hidden", type=click.IntRange(min=1), default=80, show_default=True,
              help="Hidden units of fresh weights (--start fresh).")
@fitting.policy_option("samples the positions, plays them out (the shipped race net beside it) "
                       "and, with --start shipped, is fitted on")
@fitting.seed_option
@fitting.output_option("The fitted net (default: VARIANT-v6.npz)")
@fitting.quiet_option
def train_contact_command(variant: str, positions: int, games: int, truncate: int, real: int,
                          records: tuple[str, ...], exclude: tuple[str, ...], siblings: int, epochs: int,
                          rate: float, start: str, hidden: int, policy: str | None, seed: int,
                          output: str | None, quiet: bool) -> None:
    """Fit the contact net of a rule set to rolled-out targets.

    Contact positions are sampled from self-play of the shipped engine at 0-ply (with
    --siblings, those of its next best plays beside; and, with --real, from the recorded
    games of --records but those of --exclude); each is played
    out --games times by the engine until the race (the race net and the exact bear-off
    tables close it) or for --truncate plies, and the net is fitted to the mean results by
    minibatch Adam, one turn in ten held out (a position with its siblings), the best
    held-out epoch kept. Running the command again resumes it (the settings must be the
    same; --epochs may grow).

    \b
    Example:
        jacquet train-contact --variant backgammon --positions 2000 --truncate 10 -o backgammon-v6.npz
    """
    from analysis.contact_training import ROLLED_OUT, ContactRecipe, ContactTrainer
    from notation import rule_set

    path = fitting.net_path(output, f"{variant}-v{ROLLED_OUT}.npz")
    if real and not records:
        raise click.UsageError(say("cli.train.needs-records"))
    engine = fitting.shipped_net(variant, path=policy)
    shipped = fitting.shipped_net(variant, race=False, path=policy)
    recipe = ContactRecipe(positions=positions, games=games, epochs=epochs, rate=rate,
                           hidden=hidden if start == "fresh" else shipped.w1.shape[1], seed=seed,
                           policy=engine.name, truncate=truncate, real=real, start=start,
                           siblings=siblings)
    try:
        trainer = ContactTrainer(path, engine, rule_set(variant), recipe, shipped,
                                 record_files(records, exclude),
                                 fitting.progress(quiet))
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    net = trainer.fit()
    truncated = say("cli.train.truncated", count=truncate) if truncate else ""
    click.echo(say("cli.train.contact-done", net=net.name, variant=variant, positions=net.meta["positions"],
                   games=games, truncated=truncated, epochs=net.meta["epochs"], path=path, log=trainer.log),
               err=True)
