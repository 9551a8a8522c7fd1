"""``jacquet legal``: every legal play of a position and roll."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import click

from notation import Dice, NotationError, Play, Position, legal_plays
from notation.engine.rules import DEFAULT, RuleSet, rule_set
from notation.messages import Message, say

from .options import rule_option, rules_from, variant_option

Ranker = Callable[[RuleSet, Position, list[Play]], list[dict[str, Any]]]


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
@click.option("--rank", is_flag=True,
              help="Best first by the engine's equity (the shipped net of the rule set, or --net), "
                   "each play with its equity; with --json also its outcome probabilities.")
@click.option("--ply", type=click.IntRange(0, 2), default=0, show_default=True,
              help="With --rank: how far the engine looks (0, 1 or 2).")
@click.option("--net", "net_path", type=click.Path(dir_okay=False, exists=True),
              help="With --rank: the net file to judge with.")
def legal(variant: str, options: tuple[str, ...], position_id: str | None, dice: str | None,
          as_json: bool, batch: bool, rank: bool, ply: int, net_path: str | None) -> None:
    """Every legal play for the player on roll, one per line, sorted.

    With --json, `position` is the resulting position ID as seen by the next player.
    With --rank, the plays come best first with the engine's equity for the player on
    roll (expected points, cubeless), and the engine is named on standard error.

    \b
    Example:
        jacquet legal --variant jacquet --position AACA/z8AAID/Pw --dice 55
        jacquet legal --variant backgammon --dice 31 --json
        jacquet legal --variant jacquet --dice 62 --rank
        echo '{"variant": "backgammon", "position": "4HPwATDgc/ABMA", "dice": "65"}' | jacquet legal --batch
    """
    ranker = _ranker(ply, net_path) if rank else None
    if batch:
        for line in sys.stdin:  # every line answered, a blank one too: answers pair with lines
            click.echo(json.dumps(_answer(line, ranker), separators=(",", ":")))
            sys.stdout.flush()  # another program may be waiting for this answer
        return
    if dice is None:
        raise click.UsageError(say("cli.legal.no-dice"))
    rules = rules_from(variant, options)
    try:
        position = _position(rules, position_id)
        plays = legal_plays(position, Dice.parse(dice), rules)
        answer = ranker(rules, position, plays) if ranker else [play.as_json() for play in plays]
    except NotationError as error:
        raise click.BadParameter(str(error)) from None
    except ValueError as error:  # no net for the rule set
        raise click.UsageError(str(error)) from None
    if as_json:
        click.echo(json.dumps(answer))
    elif ranker:
        width = max(len(entry["play"]) for entry in answer)
        for entry in answer:
            click.echo(f"{entry['play']:<{width}}  {entry['equity']:+.3f}")
    else:
        for play in plays:
            click.echo(str(play))


def _ranker(ply: int, net_path: str | None) -> Ranker:
    """A function ranking a turn's plays with the engine, its nets loaded once per rule
    set; the engine named on standard error the first time each is used."""
    from analysis.network import Network
    from analysis.ranking import Evaluator
    from analysis.shipped import load_net
    from analysis.threads import limit_blas_threads

    limit_blas_threads(1)
    nets: dict[str, Network] = {}

    def rank(rules: RuleSet, position: Position, plays: list[Play]) -> list[dict[str, Any]]:
        if rules.name not in nets:
            nets[rules.name] = load_net(rules.name, net_path)
            engine = Evaluator(nets[rules.name], rules, ply=ply).name
            click.echo(say("cli.legal.equities-by", engine=engine), err=True)
        evaluator = Evaluator(nets[rules.name], rules, ply=ply)
        names = evaluator.outcomes.names
        return [{**c.play.as_json(), "equity": round(c.equity, 4),
                 "probabilities": {n: round(p, 4) for n, p in zip(names, c.probabilities, strict=True)}}
                for c in evaluator.rank(plays, position)]

    return rank


def _position(rules: RuleSet, position_id: str | None) -> Position:
    return rules.start if position_id is None else Position.from_id(position_id)  # legal_plays checks it


def _answer(line: str, ranker: Ranker | None = None) -> object:
    """One batch query answered: the plays as JSON (ranked by ``ranker`` if given), or
    ``{"error": ...}``."""
    try:
        if not line.strip():
            raise NotationError(Message.of("cli.legal.empty"))
        try:
            query = json.loads(line)
        except RecursionError:
            raise NotationError(Message.of("cli.legal.too-deep")) from None
        if not isinstance(query, dict):
            raise NotationError(Message.of("cli.legal.not-object"))
        dice = query.get("dice")
        if dice is None:
            raise NotationError(Message.of("cli.legal.needs-dice"))
        if isinstance(dice, list):
            dice = "".join(str(d) for d in dice)
        elif isinstance(dice, int) and not isinstance(dice, bool):
            dice = str(dice)  # 65
        if not isinstance(dice, str):
            raise NotationError(Message.of("cli.legal.dice"))
        options = query.get("options") or {}
        if not isinstance(options, dict):
            raise NotationError(Message.of("cli.legal.options"))
        rules = rule_set(str(query.get("variant", DEFAULT)), **options)
        position = query.get("position")
        if position is not None and not isinstance(position, str):
            raise NotationError(Message.of("cli.legal.position"))
        start = _position(rules, position)
        plays = legal_plays(start, Dice.parse(dice), rules)
        return ranker(rules, start, plays) if ranker else [play.as_json() for play in plays]
    except NotationError as error:  # the message as data too, for programs (as validate --json)
        return {"error": str(error), **error.msg.as_json()}
    except (ValueError, TypeError) as error:
        return {"error": str(error)}
