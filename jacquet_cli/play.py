"""``jacquet play``: a person plays the engine in the terminal, with the recorder's game
(:class:`~notation.recording.LiveGame`): every play checked by the rules, hints on
request, the record written at the end."""

from __future__ import annotations

import datetime
import random
import re

import click

from analysis.bearoff import exact_outputs
from analysis.ranking import Candidate, Evaluator
from analysis.shipped import NoNet, load_net
from analysis.threads import limit_blas_threads
from notation.engine.rules import DEFAULT, NAMES
from notation.engine.state import DOUBLE, DROP, TAKE, Colour
from notation.errors import InvalidPlayError, NotationError
from notation.formats import write_file
from notation.messages import Message, say
from notation.recording import LiveGame, game_from_text, new_game, record_date, roll_lead

from .options import rule_option, rules_from
from .record import ask, board_text, check_output, enter_play, redraw, say_refused

limit_blas_threads(1)

NUMBER = re.compile(r"[0-9]{1,4}")
TAKE_POINT = 0.25
"""The engine takes a double when its cubeless winning chance is at least this (the take
point of a money game with no gammons); it never doubles."""


@click.command("play")
@click.option("--variant", "-v", type=click.Choice(NAMES), default=DEFAULT, show_default=True)
@rule_option
@click.option("--side", type=click.Choice(["White", "Black"]), default="White", show_default=True,
              help="Your side.")
@click.option("--ply", type=click.IntRange(0, 2), default=0, show_default=True,
              help="How far the engine looks (1 and 2 are stronger and slower).")
@click.option("--seed", type=int, help="Roll the dice from this seed (the same game again).")
@click.option("--name", default="", help="Your name, for the record.")
@click.option("--net", "net_path", type=click.Path(dir_okay=False, exists=True),
              help="A net file (default: the one shipped for the rule set).")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
              help="Where the record is written at the end (default: played-DATE-TIME.jqn); "
                   "an existing file is never overwritten.")
def play_command(variant: str, options: tuple[str, ...], side: str, ply: int, seed: int | None, name: str,
                 net_path: str | None, output: str | None) -> None:
    """Play a game against the engine in the terminal.

    \b
    Example:
        jacquet play
        jacquet play --variant backgammon --side Black --ply 1 -o match.jqn
        jacquet play --variant fevga -O prime=sixblock
    """
    output = output or datetime.datetime.now().strftime("played-%Y%m%d-%H%M%S.jqn")
    check_output(output, variant)
    try:
        net = load_net(variant, net_path)
    except NoNet as error:
        raise click.ClickException(str(error)) from None
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    you = Colour.WHITE if side == "White" else Colour.BLACK
    live = LiveGame(new_game({"Variant": variant, "Options": rules_from(variant, options).options_text,
                              "Event": say("cli.play.event"),
                              "Date": record_date(),
                              "LeadRoll": roll_lead(variant, rng)}))
    evaluator = Evaluator(net, live.game.rules, ply=ply)
    live.game.headers[you.title] = name or say("cli.play.you")
    live.game.headers[you.other.title] = evaluator.name
    click.echo(say("cli.play.you-are", player=you.named, letter=you.value, engine=evaluator.name,
                   help=say("cli.play.help")))
    drawn = ""
    while not live.over:
        state = live.node.state
        if state.player is not you:
            _engine_turn(live, evaluator, rng)
            continue
        drawn = redraw(live, drawn)
        answer = ask(_question(live))
        if answer == "quit":
            break
        try:
            _answer(live, evaluator, answer, rng)
        except NotationError as error:
            say_refused(error)
    _finish(live, output, you)


def _question(live: LiveGame) -> str:
    if live.dice is not None:
        return say("cli.play.you-play", dice=str(live.dice))
    return say("cli.play.your-roll")


def _answer(live: LiveGame, evaluator: Evaluator, answer: str, rng: random.Random) -> None:
    """Carry out one line typed by the player."""
    word, _, rest = answer.partition(" ")
    if answer in ("", "roll") and live.dice is None:
        live.set_dice(None, rng)
    elif word == "help":
        click.echo(say("cli.play.help"))
    elif word == "board":
        click.echo(board_text(live))
    elif word == "hint":
        if live.dice is None:
            raise InvalidPlayError(Message.of("cli.play.hint-first"))
        for rank, candidate in enumerate(_ranked(live, evaluator)[:5], 1):
            click.echo(f"  {rank}. {candidate.play.notation:<24} {candidate.equity:+.3f}")
        click.echo("  " + say("cli.play.equities-by", engine=evaluator.name))
    elif word == DOUBLE:
        live.cube(DOUBLE)
        _engine_answers_double(live, evaluator)
    elif word == "resign" and NUMBER.fullmatch(rest):
        live.resign(int(rest))
    elif live.dice is None:
        raise InvalidPlayError(Message.of("cli.play.roll-first"))
    else:
        enter_play(live, answer)


def _ranked(live: LiveGame, evaluator: Evaluator) -> list[Candidate]:
    state = live.node.state
    player = state.player
    primes = (state.prime_held[player.index], state.prime_held[player.other.index])
    return evaluator.rank(live.entry().plays, state.position, primes)


def _engine_turn(live: LiveGame, evaluator: Evaluator, rng: random.Random) -> None:
    """The engine rolls and plays its best play, and says so."""
    live.set_dice(None, rng)
    if live.dice is None:  # no play for the roll: the turn was played at once
        click.echo(say("cli.play.no-play", engine=evaluator.name,
                       dice=str(live.node.turn.dice) if live.node.turn else ""))
        return
    dice = live.dice
    best = _ranked(live, evaluator)[0]
    live.play_text(best.play.notation)
    click.echo(say("cli.play.engine-plays", engine=evaluator.name, dice=str(dice), play=best.play.notation,
                   equity=f"{best.equity:+.3f}"))


def _engine_answers_double(live: LiveGame, evaluator: Evaluator) -> None:
    """Take when the engine's cubeless winning chance reaches :data:`TAKE_POINT`."""
    position = live.node.state.position  # seen by the engine, who must answer
    seen = [position.swapped()]
    exact, outputs = exact_outputs(evaluator.rules, seen)  # a pure bear-off: the tables
    y = outputs if exact[0] else evaluator.net.evaluate(evaluator.encoder.encode_positions(seen))
    chance = 1.0 - float(y[0, 0])  # the net judges for the side that has just moved: you
    answer = TAKE if chance >= TAKE_POINT else DROP
    live.cube(answer)
    click.echo(say("cli.play.takes" if answer == TAKE else "cli.play.drops", engine=evaluator.name,
                   chance=f"{100 * chance:.0f}"))


def _finish(live: LiveGame, output: str, you: Colour) -> None:
    game = game_from_text(live.record())
    write_file([game], output)
    if live.over:
        state = live.node.state
        click.echo(say("cli.play.you-win" if state.winner is you else "cli.play.engine-wins",
                       count=state.points))
    click.echo(say("cli.play.written" if live.over else "cli.play.unfinished", path=output))
