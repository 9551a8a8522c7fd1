"""``jacquet bearoff build``: build the exact bear-off tables ahead of their first use."""

from __future__ import annotations

import time

import click

from analysis.bearoff import BearOffRule
from analysis.bearoff.onesided import build, stderr_progress
from analysis.bearoff.store import cache_folder, quantized, save, save_two_sided, table_path, two_sided_path
from analysis.bearoff.twosided import MEN, build_two_sided
from notation.engine.rules import NAMES, rule_set
from notation.messages import Count, say


@click.group("bearoff")
def bearoff_command() -> None:
    """The exact bear-off tables (one per bear-off rule) the engine uses wherever both
    sides are bearing off."""


@bearoff_command.command("build")
@click.option("--rules", "-r", "names", multiple=True,
              type=click.Choice(NAMES, case_sensitive=False),
              help="The tables of these rule sets (repeatable; default: every rule set's).")
def build_command(names: tuple[str, ...]) -> None:
    """Build the bear-off tables (one-sided, and two-sided up to 6 men a side) into the
    cache folder ($JACQUET_CACHE/bearoff, else ~/.cache/jacquet/bearoff), built again if
    they are there: each takes seconds and about 2 MB. Otherwise the engine builds a
    table at its first use.

    \b
    Example:
        jacquet bearoff build
        jacquet bearoff build --rules murray --rules versailles
    """
    rules_of: dict[BearOffRule, list[str]] = {}
    for name in names or NAMES:
        rules_of.setdefault(BearOffRule.of(rule_set(name)), []).append(name)
    click.echo(say("cli.bearoff.into", folder=cache_folder()), err=True)
    for rule, users in rules_of.items():
        began = time.perf_counter()
        built = build(rule, progress=stderr_progress)
        path = table_path(rule)
        size = save(quantized(built), path)
        click.echo(say("cli.bearoff.built", rule=rule.name, variants=", ".join(users),
                       positions=Count(len(built.positions)), seconds=f"{time.perf_counter() - began:.1f}",
                       size=f"{size / 1e6:.2f}", path=path))
        began = time.perf_counter()
        positions, wins = build_two_sided(rule, progress=stderr_progress)
        path = two_sided_path(rule)
        size = save_two_sided(wins, path)
        click.echo(say("cli.bearoff.two-sided", rule=rule.name, men=MEN, pairs=Count(len(positions) ** 2),
                       seconds=f"{time.perf_counter() - began:.1f}", size=f"{size / 1e6:.2f}", path=path))
