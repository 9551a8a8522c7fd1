"""``jacquet rollout``: the candidate plays of a position and roll played out by the engine
(:mod:`analysis.rollout`)."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from analysis.threads import limit_blas_threads
from notation import Dice, NotationError, Play, Position, RuleSet, legal_plays
from notation.engine.checker import check_play
from notation.messages import Count, Message, say

from .options import rule_option, rules_from, variant_option

limit_blas_threads(1)


@click.command("rollout")
@variant_option
@rule_option
@click.option("--position", "-p", "position_id", metavar="ID",
              help="Position ID (gnubg's 14 characters), the player on roll to make the play; "
                   "default: the rule set's start.")
@click.option("--dice", "-d", metavar="AB", required=True, help="The roll to play, e.g. 31.")
@click.option("--play", "named", multiple=True, metavar="PLAY",
              help="A candidate to roll out, as written in the notation (repeatable; default: "
                   "every legal play).")
@click.option("--games", "-n", type=click.IntRange(min=1), default=1296, show_default=True,
              help="Games per candidate (1,296: every pair of first two rolls once).")
@click.option("--truncate", type=click.IntRange(min=1), default=None,
              help="Close each game after K turns with the engine's judgement (default: play to the end).")
@click.option("--ply", type=click.IntRange(0, 1), default=0, show_default=True,
              help="How far the players (and the judge of truncated games) look: 0 or 1 (some 20× slower).")
@click.option("--reduce-variance", "reduce", is_flag=True,
              help="Take the luck of every roll out of each game (gnubg's variance reduction): "
                   "a much smaller standard error for the same games, each some 15× slower.")
@click.option("--seed", "-s", type=int, default=0, show_default=True,
              help="The dice's seed: the same seed gives the same figures.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Worker processes [default: all cores]; any number gives the same figures.")
@click.option("--net", "net_path", type=click.Path(dir_okay=False, exists=True),
              help="The net file to play with (default: the one shipped for the rule set).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object (see docs/analysis.md).")
def rollout_command(variant: str, options: tuple[str, ...], position_id: str | None, dice: str,
                    named: tuple[str, ...], games: int, truncate: int | None, ply: int, reduce: bool,
                    seed: int, jobs: int | None, net_path: str | None, as_json: bool) -> None:
    """Roll out the plays of a position and roll: each candidate played to the end GAMES
    times by the engine against itself, on the same dice for every candidate (the first
    two rolls balanced over the 36 outcomes), with its outcome probabilities and equity
    (expected points for the player on roll, cubeless) and their standard errors.

    A progress bar shows on standard error; Ctrl-C stops the rollout and prints the
    figures of the games completed so far, saying so (exit 130). Every figure is the named
    engine's, with its settings: engine, net, depth, games, truncation, seed.

    \b
    Example:
        jacquet rollout --variant backgammon --dice 31
        jacquet rollout --variant backgammon --dice 31 --play "8/5 6/5" --play "24/23 13/10"
        jacquet rollout --variant jacquet --position AAQA/z8gACT8Pw --dice 62 --truncate 10 --json
        jacquet rollout --variant backgammon --dice 43 --truncate 6 --reduce-variance
    """
    from analysis.pool import all_cores
    from analysis.rollout import RolloutSpec, candidates_for, run_rollout
    from analysis.shipped import NoNet, load_net

    rules = rules_from(variant, options)
    try:
        position = rules.check_position(rules.start if position_id is None else Position.from_id(position_id))
    except NotationError as error:
        raise click.BadParameter(str(error), param_hint="--position") from None
    try:
        roll = Dice.parse(dice)
        if roll.low is None:
            raise NotationError(Message.of("cli.rollout.two-dice", dice=repr(dice)))
    except NotationError as error:
        raise click.BadParameter(str(error), param_hint="--dice") from None
    plays = legal_plays(position, roll, rules)
    chosen = [_candidate(position, roll, text, rules) for text in named] if named else None
    try:
        net = load_net(rules.name, net_path)
    except NoNet as error:
        raise click.UsageError(str(error)) from None
    spec = RolloutSpec(net, rules.name, dict(rules.options), position.position_id(), str(roll),
                       candidates_for(plays, chosen), ply, truncate, seed, reduce)
    workers = jobs or all_cores()
    with click.progressbar(length=games * len(spec.candidates), file=sys.stderr,
                           label=say("cli.rollout.rolling", count=len(spec.candidates))) as bar:
        result = run_rollout(spec, games, workers,
                             progress=lambda done: bar.update(done * len(spec.candidates)))
    described = {"variant": rules.describe(), "position": position.position_id(), "dice": str(roll)}
    if as_json:
        click.echo(json.dumps(_json(result, described), ensure_ascii=False))
    else:
        _print(result, described, rules)
    if result.interrupted:
        click.echo(say("cli.rollout.stopped", count=Count(result.games), total=Count(games)), err=True)
        raise SystemExit(130)


def _candidate(position: Position, roll: Dice, text: str, rules: RuleSet) -> Play:
    """The legal play ``text`` names, or a usage error naming it and the legal plays."""
    try:
        return check_play(position, roll, text, rules)
    except NotationError as error:
        legal = ", ".join(str(p) for p in legal_plays(position, roll, rules))
        raise click.BadParameter(say("cli.rollout.not-legal", play=repr(text), dice=roll, reason=error,
                                     legal=legal), param_hint="--play") from None


def _json(result: Any, described: dict[str, str]) -> dict[str, Any]:
    settings = result.settings
    label = settings.label
    return {
        **described,
        "settings": {"engine": settings.engine, "net": settings.digest, "ply": settings.ply,
                     "games": settings.games, "truncate": settings.truncate, "seed": settings.seed,
                     "reduce_variance": settings.reduce, "label": label},
        "games": result.games, "interrupted": result.interrupted,
        "candidates": [{"rank": rank, "play": str(c.play), "equity": round(c.equity, 4),
                        "equity_error": round(c.equity_error, 4),
                        "probabilities": {n: round(p, 4) for n, p in zip(result.names, c.probabilities,
                                                                         strict=True)},
                        "errors": {n: round(e, 4) for n, e in zip(result.names, c.probability_errors,
                                                                  strict=True)},
                        "games": c.games, "by": label}
                       for rank, c in enumerate(result.candidates, 1)],
    }


def _print(result: Any, described: dict[str, str], rules: RuleSet) -> None:
    """The rollout as a table, its title, settings and headings in the current language."""
    settings = result.settings
    how = (say("cli.rollout.truncated", count=settings.truncate) if settings.truncate
           else say("cli.rollout.to-the-end"))
    by = say("cli.rollout.by", engine=settings.engine, digest=settings.digest, ply=settings.ply,
             games=Count(settings.games), how=how, seed=settings.seed,
             reduced=say("cli.rollout.luck-adjusted") if settings.reduce else "")
    click.echo(say("cli.rollout.title", variant=described["variant"], position=described["position"],
                   dice=described["dice"], by=by))
    if result.interrupted:
        click.echo(say("cli.rollout.interrupted", games=Count(result.games), total=Count(settings.games)))
    click.echo(say("cli.rollout.figures"))
    if not result.candidates:
        click.echo(say("cli.rollout.no-game"))
        return
    width = max(len(str(c.play)) for c in result.candidates)
    names = "  ".join(f"{n:>16}" for n in _headings(result.names, rules))
    click.echo(f"  #  {say('cli.rollout.play'):<{width}}  {say('cli.analyse.equity'):>16}  {names}")
    for rank, c in enumerate(result.candidates, 1):
        figures = "  ".join(f"{p:7.4f} ± {e:.4f}"
                            for p, e in zip(c.probabilities, c.probability_errors, strict=True))
        click.echo(f"{rank:3}  {c.play!s:<{width}}  {c.equity:+7.4f} ± {c.equity_error:.4f}  {figures}")


def _headings(names: tuple[str, ...], rules: RuleSet) -> list[str]:
    """The engine's outputs (``win``, then each outcome's ``win`` and ``lose`` names) as
    the table heads them: win, win gammon, lose gammon... from the rule set's outcomes."""
    headed = {"win": say("cli.rollout.win")}
    for found in rules.outcomes:
        outcome = Message.of("outcome." + found.name.replace(" ", "-"))
        headed[found.win] = say("cli.rollout.win-outcome", outcome=outcome)
        headed[found.lose] = say("cli.rollout.lose-outcome", outcome=outcome)
    return [headed.get(name, name) for name in names]
