"""``jacquet train-race``: the race evaluator of a rule set, trained on rolled-out targets
(:mod:`analysis.race_training`): race positions sampled from the engine's self-play, each
rolled out, the net fitted to the results. Every stage is saved as it goes in
``OUT.work.npz``: the same command run again after a stop goes on where it stopped, and
gives the net one run would have given. The command is registered by ``jacquet_cli`` as
``train-race``.
"""

from __future__ import annotations

import click

from analysis.threads import limit_blas_threads
from notation.messages import say

from . import fitting
from .options import variant_option

limit_blas_threads(1)


@click.command("train-race")
@variant_option
@fitting.positions_option("Race", 2500)
@fitting.playouts_option
@fitting.epochs_option(100)
@click.option("--hidden", type=click.IntRange(min=1), default=48, show_default=True)
@fitting.seed_option
@fitting.output_option("The race net (default: VARIANT-race.npz)")
@click.option("--with-race-net", is_flag=True,
              help="Sample and play out with the shipped race net judging the races (a second "
                   "round, on the first round's net); by default the contact net judges them.")
@click.option("--release", type=click.IntRange(min=1), default=1, show_default=True,
              help="The net's release, the number in its name (race r2): a net fitted again, "
                   "on the same inputs, to a new contact net's play-outs is the next one.")
@fitting.policy_option("samples the race positions and plays them out")
@fitting.quiet_option
def train_race_command(variant: str, positions: int, games: int, epochs: int, hidden: int,
                       seed: int, output: str | None, with_race_net: bool, release: int,
                       policy: str | None, quiet: bool) -> None:
    """Train the race evaluator of a rule set on rolled-out targets.

    The positions are sampled from self-play of the shipped engine at 0-ply (of --policy's
    contact net where it is given); each is played out --games times by the engine
    (stopped where both sides are home, the exact bear-off tables closing it), and the net
    is fitted to the mean results by minibatch Adam, one position in ten held out. Running
    the command again resumes it (the settings must be the same; --epochs may grow).

    \b
    Example:
        jacquet train-race --variant backgammon -o analysis/nets/backgammon-race.npz
        jacquet train-race --variant backgammon --with-race-net --seed 2 -o backgammon-race2.npz
        jacquet train-race --variant jacquet --release 2 -o analysis/nets/jacquet-race.npz
        jacquet train-race --variant jacquet --release 3 --policy candidate.npz -o jacquet-race3.npz
    """
    from analysis.race_training import RaceRecipe, RaceTrainer
    from notation import rule_set

    path = fitting.net_path(output, f"{variant}-race.npz")
    net = fitting.shipped_net(variant, race=with_race_net, path=policy)
    recipe = RaceRecipe(positions=positions, games=games, epochs=epochs, hidden=hidden, seed=seed,
                        policy=net.name)
    try:
        trainer = RaceTrainer(path, net, rule_set(variant), recipe, fitting.progress(quiet))
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    race = trainer.fit(release)
    click.echo(say("cli.train.race-done", net=race.name, variant=variant, positions=race.meta["positions"],
                   games=games, epochs=race.meta["epochs"], path=path, log=trainer.log), err=True)
