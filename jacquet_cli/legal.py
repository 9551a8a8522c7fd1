"""``jacquet legal``: every legal play of a position and roll."""

from __future__ import annotations

import json
import sys

import click

from notation import Dice, NotationError, Play, Position, legal_plays
from notation.engine.rules import RuleSet, rule_set

from .options import rule_option, rules_from, variant_option


@click.command()
@variant_option
@rule_option
@click.option("--position", "-p", "position_id", metavar="ID",
              help="Position ID (14 characters, gnubg's encoding); default: the rule set's start.")
@click.option("--dice", "-d", metavar="AB", help="The roll, e.g. 65 or 6-5.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of {play, steps, position}.")
@click.option("--batch", is_flag=True,
              help='Answer many queries: one JSON object per line on stdin, '
                   '{"variant": "jacquet", "position": ID, "dice": "65"}; one line '
                   'answers each line, in order.')
def legal(variant: str, options: tuple[str, ...], position_id: str | None, dice: str | None,
          as_json: bool, batch: bool) -> None:
    """Every legal play for the player on roll, one per line, sorted.

    With --json, `position` is the resulting position ID as seen by the next player.

    \b
    Example:
        jacquet legal --variant jacquet --position AACA/z8AAID/Pw --dice 55
        jacquet legal --variant backgammon --dice 31 --json
        echo '{"variant": "backgammon", "position": "4HPwATDgc/ABMA", "dice": "65"}' | jacquet legal --batch
    """
    if batch:
        for line in sys.stdin:  # every line answered, a blank one too: answers pair with lines
            click.echo(json.dumps(_answer(line), separators=(",", ":")))
        return
    if dice is None:
        raise click.UsageError("give the roll with --dice, e.g. --dice 65")
    rules = rules_from(variant, options)
    try:
        plays = _plays(rules, position_id, dice)
    except NotationError as error:
        raise click.BadParameter(str(error)) from None
    if as_json:
        click.echo(json.dumps([play.as_json() for play in plays]))
    else:
        for play in plays:
            click.echo(str(play))


def _plays(rules: RuleSet, position_id: str | None, dice: str) -> list[Play]:
    position = rules.start if position_id is None else Position.from_id(position_id)  # legal_plays checks it
    return legal_plays(position, Dice.parse(dice), rules)


def _answer(line: str) -> object:
    """One batch query answered: the plays as JSON, or ``{"error": ...}``."""
    try:
        if not line.strip():
            raise ValueError("an empty line is no query")
        try:
            query = json.loads(line)
        except RecursionError:
            raise ValueError("the query nests too deeply") from None
        if not isinstance(query, dict):
            raise TypeError("a query is a JSON object")
        dice = query.get("dice")
        if dice is None:
            raise ValueError('a query needs "dice", e.g. "65"')
        if isinstance(dice, list):
            dice = "".join(str(d) for d in dice)
        elif isinstance(dice, int) and not isinstance(dice, bool):
            dice = str(dice)  # 65
        if not isinstance(dice, str):
            raise TypeError('"dice" is a roll: "65", 65 or [6, 5]')
        options = query.get("options") or {}
        if not isinstance(options, dict):
            raise TypeError('"options" is a JSON object')
        rules = rule_set(str(query.get("variant", "jacquet")), **options)
        position = query.get("position")
        if position is not None and not isinstance(position, str):
            raise ValueError('"position" is a position ID string')
        return [play.as_json() for play in _plays(rules, position, dice)]
    except (ValueError, TypeError) as error:
        return {"error": str(error)}
