"""``jacquet record``: the scorer's tool in the terminal. Each turn shows the board and the
legal plays; a play the rules refuse is refused with the rule and the reason. The game is
written to a file (and, with ``--db``, stored in the archive) when it ends, and also when
the scorer quits early, so nothing typed is lost."""

from __future__ import annotations

import random
import re

import click

from archive import import_games, open_archive
from notation.engine.dice import Dice
from notation.engine.rules import NAMES
from notation.engine.state import DOUBLE, DROP, TAKE
from notation.errors import IllegalPlayError, InvalidPlayError, NotationError, listed
from notation.formats import WRITABLE, format_of, write_file
from notation.formats.registry import BY_NAME
from notation.recording import LiveGame, game_from_text, new_game
from notation.render.diagram import diagram

from .archive_options import reports_archive_errors

NUMBER = re.compile(r"[0-9]{1,4}")
HELP = ("Commands: Enter rolls; dice such as 64 enter the dice thrown; a play such as 24/18 13/11, "
        "or its number in the list; undo; comment TEXT; nag N; double, take, drop; resign N; quit.")


@click.command("record")
@click.option("--variant", type=click.Choice(NAMES), default="jacquet", show_default=True)
@click.option("--white", default="", help="White's name.")
@click.option("--black", default="", help="Black's name.")
@click.option("--event", default="", help="The event.")
@click.option("--lead-roll", default="", help="The lead roll, White's die first: 'W5 B3'.")
@click.option("--first", type=click.Choice(["White", "Black"]), help="Who starts, without a lead roll.")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default="recorded.jqn",
              show_default=True, help="Where the record is written (any writable format).")
@click.option("--db", "db_path", type=click.Path(dir_okay=False),
              help="Also store the finished game in this archive.")
@click.option("--seed", type=int, help="Roll the dice from this seed (for rehearsals and tests).")
@reports_archive_errors("write to")
def record_command(variant: str, white: str, black: str, event: str, lead_roll: str,
                   first: str | None, output: str, db_path: str | None, seed: int | None) -> None:
    """Record a game turn by turn in the terminal.

    \b
    Example:
        jacquet record --white Marie --black Jean --lead-roll "W5 B3"
        jacquet record --variant backgammon --first White -o final.jqn --db club.db
    """
    try:
        fmt = format_of(output)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--output") from None
    if fmt not in WRITABLE or not BY_NAME[fmt].holds(variant):
        raise click.BadParameter(f"cannot write a {variant} game as {fmt}", param_hint="--output")
    headers = {"Variant": variant, "White": white, "Black": black, "Event": event,
               "LeadRoll": lead_roll, "Lead": first or ""}
    try:
        live = LiveGame(new_game(headers))
    except NotationError as error:
        raise click.BadParameter(str(error)) from None
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    click.echo(HELP)
    while not live.over:
        click.echo(_board(live))
        try:
            answer = click.prompt(_question(live), default="", show_default=False).strip()
        except click.Abort:
            answer = "quit"
        if answer == "quit":
            break
        try:
            _answer(live, answer, rng)
        except IllegalPlayError as error:
            click.echo(f"refused: [{error.rule_id}] {error.reason}", err=True)
            if error.legal_plays:
                click.echo(f"legal plays: {listed(error.legal_plays)}", err=True)
        except NotationError as error:
            click.echo(f"refused: {error}", err=True)
    _finish(live, output, db_path)


def _board(live: LiveGame) -> str:
    state = live.node.state
    entry = live.entry() if live.dice is not None else None
    position = entry.position_after(live.steps) if entry else state.position
    lines = [diagram(position, live.game.rules), f"X is {state.player.title}."]
    if entry is not None:
        lines += [f"  {number}. {play}" for number, play in enumerate(entry.plays, 1)]
    return "\n".join(lines)


def _question(live: LiveGame) -> str:
    state = live.node.state
    if state.offered:
        return f"{state.player.title}: take or drop"
    if live.dice is not None:
        return f"{state.player.title} plays {live.dice}"
    if live.forced_dice is not None:
        return f"{state.player.title} plays the {live.forced_dice} (Enter)"
    return f"{state.player.title} to roll (Enter, or the dice)"


def _answer(live: LiveGame, answer: str, rng: random.Random) -> None:
    """Carry out one line typed by the scorer."""
    word, _, rest = answer.partition(" ")
    if answer == "":
        if live.dice is None:
            live.set_dice(None, rng)
    elif word == "undo":
        live.undo_turn()
    elif word == "comment":
        live.annotate(rest, None)
    elif word == "nag" and NUMBER.fullmatch(rest):
        live.annotate("", int(rest))
    elif word in (DOUBLE, TAKE, DROP):
        live.cube(word)
    elif word == "resign" and NUMBER.fullmatch(rest):
        live.resign(int(rest))
    elif live.dice is None:
        live.set_dice(Dice.parse(answer))
    elif NUMBER.fullmatch(answer):
        plays = live.entry().plays
        if not 1 <= int(answer) <= len(plays):
            raise InvalidPlayError(f"choose a play from 1 to {len(plays)}")
        live.play_text(str(plays[int(answer) - 1]))
    else:
        live.play_text(answer)


def _finish(live: LiveGame, output: str, db_path: str | None) -> None:
    """Write the record (finished or not) and store a finished game in the archive."""
    game = game_from_text(live.record())
    try:
        write_file([game], output)
    except OSError as error:  # keep what was typed: on the terminal, as text notation
        click.echo(live.record())
        raise click.ClickException(f"cannot write {output}: {error.strerror}; the record is above") from None
    click.echo(f"{'result ' + game.result if live.over else 'unfinished game'} written to {output}")
    if live.over and db_path:
        db = open_archive(db_path)
        try:
            click.echo(str(import_games(db, [game])))
        finally:
            db.close()
