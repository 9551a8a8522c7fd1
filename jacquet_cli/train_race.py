"""``jacquet train-race``: the race evaluator of a rule set, trained on rolled-out targets
(:mod:`analysis.race_training`): race positions sampled from the engine's self-play, each
rolled out, the net fitted to the results. Every stage is saved as it goes in
``OUT.work.npz``: the same command run again after a stop goes on where it stopped, and
gives the net one run would have given. The command is registered by ``jacquet_cli`` as
``train-race``.
"""

from __future__ import annotations

from pathlib import Path

import click

from analysis.threads import limit_blas_threads
from notation.messages import say

from .options import variant_option

limit_blas_threads(1)


@click.command("train-race")
@variant_option
@click.option("--positions", type=click.IntRange(min=10), default=2500, show_default=True,
              help="Race positions to sample from self-play and roll out.")
@click.option("--games", "-n", type=click.IntRange(min=1), default=36, show_default=True,
              help="Play-outs per position (the first roll balanced over the 36 outcomes).")
@click.option("--epochs", type=click.IntRange(min=1), default=100, show_default=True,
              help="Passes of the fit over the positions (a later run may raise it).")
@click.option("--hidden", type=click.IntRange(min=1), default=48, show_default=True)
@click.option("--seed", "-s", type=int, default=1, show_default=True,
              help="Same seed, same machine: same positions, targets and weights.")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
              help="The race net (default: VARIANT-race.npz); its work file goes beside it as "
                   "OUT.work.npz and its learning curve as OUT.log.jsonl.")
@click.option("--with-race-net", is_flag=True,
              help="Sample and play out with the shipped race net judging the races (a second "
                   "round, on the first round's net); by default the contact net judges them.")
@click.option("--release", type=click.IntRange(min=1), default=1, show_default=True,
              help="The net's release, the number in its name (race r2): a net fitted again, "
                   "on the same inputs, to a new contact net's play-outs is the next one.")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines.")
def train_race_command(variant: str, positions: int, games: int, epochs: int, hidden: int,
                       seed: int, output: str | None, with_race_net: bool, release: int,
                       quiet: bool) -> None:
    """Train the race evaluator of a rule set on rolled-out targets.

    The positions are sampled from self-play of the shipped engine at 0-ply; each is played
    out --games times by the engine (stopped where both sides are home, the exact bear-off
    tables closing it), and the net is fitted to the mean results by minibatch Adam, one
    position in ten held out. Running the command again resumes it (the settings must be the
    same; --epochs may grow).

    \b
    Example:
        jacquet train-race --variant backgammon -o analysis/nets/backgammon-race.npz
        jacquet train-race --variant backgammon --with-race-net --seed 2 -o backgammon-race2.npz
        jacquet train-race --variant jacquet --release 2 -o analysis/nets/jacquet-race.npz
    """
    from analysis.race_training import RaceRecipe, RaceTrainer
    from analysis.shipped import NoNet, load_net
    from notation import rule_set

    path = Path(output or f"{variant}-race.npz")
    if path.parent and not path.parent.exists():
        path.parent.mkdir(parents=True)
    try:
        net = load_net(variant, race=with_race_net)
    except NoNet as error:
        raise click.UsageError(str(error)) from None
    recipe = RaceRecipe(positions=positions, games=games, epochs=epochs, hidden=hidden, seed=seed,
                        policy=net.name)

    def report(line: str) -> None:
        if not quiet:
            click.echo(line, err=True)

    try:
        trainer = RaceTrainer(path, net, rule_set(variant), recipe, report)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    race = trainer.fit(release)
    click.echo(say("cli.train.race-done", net=race.name, variant=variant, positions=race.meta["positions"],
                   games=games, epochs=race.meta["epochs"], path=path, log=trainer.log), err=True)
