"""``jacquet generate``: random legal games, reproducible by seed."""

from __future__ import annotations

import random

import click

from notation.formats import render, write_file
from notation.tree.generate import random_game

from .options import rule_option, rules_from, variant_option


@click.command()
@variant_option
@rule_option
@click.option("--games", "-n", "count", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Same seed, same games.")
@click.option("--annotate", is_flag=True, help="Add random comments, NAGs and variations.")
@click.option("--output", "-o", type=click.Path(dir_okay=False),
              help="File to write (default: stdout, text).")
def generate(variant: str, options: tuple[str, ...], count: int, seed: int, annotate: bool,
             output: str | None) -> None:
    """Random legal games from a simple policy (a random legal play each turn).

    \b
    Example:
        jacquet generate --variant murray --games 10 --seed 1 -o murray.jqn
        jacquet generate --variant backgammon --games 2 --seed 7 --annotate
    """
    rules = rules_from(variant, options)
    rng = random.Random(seed)
    games = []
    for number in range(1, count + 1):
        headers = {"Event": f"Generated {rules.name} games, seed {seed}", "Round": str(number),
                   "White": "Random White", "Black": "Random Black"}
        if rules.options:
            headers["Options"] = rules.options_text
        games.append(random_game(rules, rng, annotate=annotate, headers=headers))
    if output:
        write_file(games, output)
    else:
        click.echo(render(games, "jqn"), nl=False)
