"""``jacquet stats``: results per player, dice fairness, opening plays, and each player's
error rate and luck over his analysed games."""

from __future__ import annotations

import json

import click

from archive import dice_fairness, open_archive, opening_plays, results_per_player
from archive.analyses import player_figures
from notation.engine.rules import NAMES
from notation.messages import say

from .archive_options import db_option, reports_archive_errors


@click.command("stats")
@db_option
@click.option("--variant", type=click.Choice(NAMES, case_sensitive=False))
@click.option("--json", "as_json", is_flag=True)
@reports_archive_errors("read")
def stats_command(db_path: str, variant: str | None, as_json: bool) -> None:
    """Statistics of the archive: results per player, the dice each player rolled with a
    chi-square test of fairness, the most frequent opening plays per roll.

    Then each player's error rate (equity lost per unforced decision, in thousandths of a
    point) with its label on the rule set's scale (gnubg's "World class", "Expert", ...),
    luck and marks over his games analysed by each engine (its name, depth and the level
    that confirmed its marks), as `jacquet analyse --db` or `jacquet import --analyse`
    stored them.

    \b
    Example:
        jacquet stats --variant jacquet
    """
    db = open_archive(db_path, readonly=True)
    results = results_per_player(db, variant)
    dice = dice_fairness(db, variant)
    openings = opening_plays(db, variant)
    analysed = player_figures(db, variant)
    if as_json:
        click.echo(json.dumps({"results": results,
                               "dice": [{"player": d.player, "faces": d.faces, "chi_square": d.chi_square,
                                         "p_value": d.p_value} for d in dice],
                               "openings": openings, "analysed": analysed}, ensure_ascii=False))
        return
    click.echo(say("cli.stats.results"))
    for row in results:
        click.echo("  " + say("cli.stats.results.row", player=f"{row['player']:24}",
                              games=f"{row['games']:>5}", wins=f"{row['wins']:>4}",
                              losses=f"{row['losses']:>4}",
                              won=row["points_won"], lost=row["points_lost"]))
    click.echo(say("cli.stats.dice"))
    for fairness in dice:
        click.echo(f"  {fairness.player:24} {fairness.faces}  chi2 {fairness.chi_square:.2f}  "
                   f"p {fairness.p_value:.3f}")
    click.echo(say("cli.stats.openings"))
    for roll, plays in openings.items():
        click.echo(f"  {roll}: " + ", ".join(f"{play} ({count})" for play, count in plays))
    if analysed:
        click.echo(say("cli.stats.analysed"))
    for row in analysed:
        confirmed = (" " + say("cli.stats.confirmed", count=row["confirmed"], level=row["confirm"])
                     if row["confirm"] else "")
        click.echo("  " + say("cli.stats.analysed.row", player=f"{row['player']:24}", level=row["level"],
                              games=f"{row['games']:>5}", decisions=f"{row['decisions']:>6}",
                              confirmed=confirmed, rate=f"{row['error_rate']:.1f}", skill=row["skill"],
                              luck=f"{row['luck']:+.2f}")
                   + f"  ?! {row['doubtful']}  ? {row['bad']}  ?? {row['very_bad']}")
