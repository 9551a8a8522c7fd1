"""``jacquet train``: self-play TD(λ) training of a rule set's evaluator, with checkpoints.

BLAS is held to one thread (:func:`analysis.threads.limit_blas_threads`: the environment
variables before numpy is imported, OpenBLAS's own setter after): at this size one thread is
fastest, and one process per rule set then uses one core each. The command is registered
by ``jacquet_cli`` as ``train``.
"""

from __future__ import annotations

import functools
import signal
import sys
from dataclasses import replace
from pathlib import Path
from types import FrameType
from typing import Any

import click

from analysis.threads import limit_blas_threads
from notation.messages import say

from .options import variant_option

limit_blas_threads(1)


@click.command("train")
@variant_option
@click.option("--games", "-n", type=click.IntRange(min=1), required=True,
              help="Games to reach in all (a resumed run continues up to this total).")
@click.option("--seed", "-s", type=int, default=0, show_default=True,
              help="Same seed, same machine: same weights.")
@click.option("--resume", is_flag=True, help="Continue from the checkpoint in -o.")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
              help="Checkpoint and net file (default: VARIANT.npz); the strength log goes beside "
                   "it as VARIANT.log.jsonl.")
@click.option("--hidden", type=click.IntRange(min=1), default=80, show_default=True,
              help="Hidden units (a new run only).")
@click.option("--alpha", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Learning rate [default: 0.1]; with --resume, the rate from the checkpoint's "
                   "game on (the change is saved in the recipe and kept by later resumes).")
@click.option("--encoding", type=click.Choice(["1", "2", "4", "5"]), default=None,
              help="The inputs' version (a new run only) [default: 2]; 4, the threat features "
                   "beside the contact features, and 5, the timing features beside those, are "
                   "for the rule sets with hitting.")
@click.option("--lambda", "lam", type=float, default=0.7, show_default=True,
              help="Trace decay λ (a new run only).")
@click.option("--checkpoint-every", type=click.IntRange(min=1), default=500, show_default=True)
@click.option("--check-every", type=click.IntRange(min=0), default=5000, show_default=True,
              help="Games between strength checks (0: none).")
@click.option("--check-pairs", type=click.IntRange(min=1), default=100, show_default=True,
              help="Dice sequences per strength check, each played twice with the seats swapped.")
@click.option("--snapshot-every", type=click.IntRange(min=0), default=25000, show_default=True,
              help="Games between the copies of the net kept in history/ beside -o (0: none).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def train_command(variant: str, games: int, seed: int, resume: bool, output: str | None,
                  hidden: int, alpha: float, encoding: str | None, lam: float,
                  checkpoint_every: int, check_every: int,
                  check_pairs: int, snapshot_every: int, quiet: bool) -> None:
    """Train the evaluator of a rule set by self-play (TD(λ), TD-Gammon's recipe).

    A checkpoint is written every --checkpoint-every games and at the end (atomically);
    SIGINT or SIGTERM stops after the current game with a checkpoint (exit status 128 + the
    signal's number when short of --games). --resume continues exactly: the weights come out
    as if the run had never stopped.

    \b
    Example:
        jacquet train --variant jacquet --games 100000 --seed 1 -o analysis/nets/jacquet.npz
        jacquet train --variant jacquet --games 100000 --resume -o analysis/nets/jacquet.npz
        jacquet train --variant jacquet --games 150000 --resume --alpha 0.02 -o analysis/nets/jacquet.npz
        jacquet train --variant backgammon --games 100000 --hidden 128 --encoding 4 -o bg-v4.npz
    """
    from analysis.training import Trainer, TrainingConfig, log_path

    if not limit_blas_threads(1) and not quiet:
        click.echo("warning: " + say("cli.train.blas"), err=True)
    path = Path(output or f"{variant}.npz")
    if resume and not path.exists():
        raise click.UsageError(say("cli.train.no-checkpoint", path=path))
    if not resume and path.exists():
        raise click.UsageError(say("cli.train.exists", path=path))
    if path.parent and not path.parent.exists():
        path.parent.mkdir(parents=True)
    config = TrainingConfig(variant=variant, games=games, seed=seed, hidden=hidden,
                            encoding=None if encoding is None else int(encoding),
                            alpha=TrainingConfig.alpha if alpha is None else alpha,
                            lam=lam, checkpoint_every=checkpoint_every, check_every=check_every,
                            check_pairs=check_pairs, snapshot_every=snapshot_every)
    try:
        trainer = Trainer(path, config, resume=resume)
    except (ValueError, KeyError) as error:
        raise click.UsageError(say("record.where", where=path, text=str(error))) from None
    # the cadence may change on resume, and α from here on; the rest of the recipe (λ,
    # hidden, seed, earlier α) may not
    trainer.config = replace(trainer.config, games=games, checkpoint_every=checkpoint_every,
                             check_every=check_every, check_pairs=check_pairs,
                             snapshot_every=snapshot_every)
    if resume and alpha is not None:
        trainer.config = trainer.config.with_alpha_from(trainer.games_done, alpha)

    stopped_by: list[int] = []

    def stop(signum: int, frame: FrameType | None) -> None:
        trainer.stop_requested = True
        stopped_by.append(signum)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)

    def report(rows: list[dict[str, Any]]) -> None:
        if not quiet:
            said = [say("cli.train.against", opponent=r["opponent"], rate=f"{100 * r['win_rate']:.1f}",
                        error=f"{100 * r['standard_error']:.1f}") for r in rows]
            text = functools.reduce(lambda first, then: say("list.then", first=first, then=then), said)
            click.echo("\n" + say("cli.train.checked", games=rows[0]["games"], results=text), err=True)

    if not quiet:
        click.echo(say("cli.train.played-by", core=trainer.core), err=True)
    start = trainer.games_done
    todo = max(games - start, 0)
    meta = trainer.net.meta

    seconds_before = float(meta["seconds"])

    def saved() -> None:
        if not quiet and not sys.stderr.isatty():  # the rate of this run, not of the net's life
            rate = (meta["games"] - start) / max(float(meta["seconds"]) - seconds_before, 1e-9)
            click.echo(say("cli.train.checkpoint", games=meta["games"], rate=f"{rate:.1f}"), err=True)

    if quiet or not sys.stderr.isatty():
        net = trainer.run(report=report, saved=saved)
    else:
        label = say("cli.train.progress", net=trainer.net.name, start=start)
        with click.progressbar(length=todo, label=label, file=sys.stderr, show_pos=True,
                               show_eta=True) as bar:
            net = trainer.run(progress=bar.update, report=report, saved=saved)
    click.echo(say("cli.train.done", net=net.name, games=net.meta["games"],
                   seconds=f"{net.meta['seconds']:.0f}", path=path, log=log_path(path)), err=True)
    if stopped_by and trainer.games_done < games:  # short of --games: say so to the caller
        sys.exit(128 + stopped_by[0])


if __name__ == "__main__":  # until the command is registered: python -m jacquet_cli.train ...
    train_command()
