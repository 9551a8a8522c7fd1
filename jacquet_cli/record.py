"""``jacquet record``: the scorer's tool in the terminal. The board is drawn with one letter
per side for the whole game (``W`` White, ``B`` Black), numbered for the player on roll, and
drawn again only when it changes; the legal plays are listed; a play the rules refuse is
refused with the rule and the reason. The game is written to a file (and, with ``--db``,
stored in the archive) when it ends, and also when the scorer quits early, so nothing typed
is lost. The file is never written over: ``--append`` adds the game to an existing record
(the natural file for a match)."""

from __future__ import annotations

import os
import random
import re

import click

from archive import import_games, open_archive
from notation.engine.dice import Dice
from notation.engine.rules import DEFAULT, NAMES
from notation.engine.state import DOUBLE, DROP, TAKE
from notation.errors import IllegalPlayError, InvalidPlayError, NotationError, listed
from notation.formats import WRITABLE, format_of, read_file, render, write_file
from notation.formats.jqn import write_game
from notation.formats.jqn.lexer import GLYPHS
from notation.formats.registry import BY_NAME
from notation.messages import Message, say
from notation.recording import LiveGame, game_from_text, new_game, record_date
from notation.render.diagram import diagram
from notation.tree.game import Game, Node
from notation.tree.numbering import node_label

from .archive_options import import_summary, reports_archive_errors
from .options import rule_option, rules_from
from .reading import Unreadable, file_format

NUMBER = re.compile(r"[0-9]{1,4}")


@click.command("record")
@click.option("--variant", type=click.Choice(NAMES), default=DEFAULT, show_default=True)
@rule_option
@click.option("--white", default="", help="White's name.")
@click.option("--black", default="", help="Black's name.")
@click.option("--event", default="", help="The event.")
@click.option("--date", default="", help="The day the game is played, as records write it "
              "(2026.12.05; 2026.12 or ???? where not known): by default, today.")
@click.option("--lead-roll", default="", help="The lead roll, White's die first: 'W5 B3'.")
@click.option("--first", type=click.Choice(["White", "Black"]), help="Who starts, without a lead roll.")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default="recorded.jqn",
              show_default=True, help="Where the record is written (any writable format); "
              "never written over.")
@click.option("--append", is_flag=True, help="Add the game to the record in --output (a match's file).")
@click.option("--db", "db_path", type=click.Path(dir_okay=False),
              help="Also store the finished game in this archive.")
@click.option("--seed", type=int, help="Roll the dice from this seed (for rehearsals and tests).")
@reports_archive_errors("write to")
def record_command(variant: str, options: tuple[str, ...], white: str, black: str, event: str, date: str,
                   lead_roll: str,
                   first: str | None, output: str, append: bool, db_path: str | None,
                   seed: int | None) -> None:
    """Record a game turn by turn in the terminal.

    \b
    Example:
        jacquet record --white Marie --black Jean --lead-roll "W5 B3"
        jacquet record --variant backgammon --first White -o final.jqn --append --db club.db
        jacquet record --variant narde -O cube=true --lead-roll "W6 B2"
    """
    check_output(output, variant, append)
    headers = {"Variant": variant, "Options": rules_from(variant, options).options_text,
               "White": white, "Black": black, "Event": event,
               "Date": date or record_date(), "LeadRoll": lead_roll, "Lead": first or ""}
    try:
        live = LiveGame(new_game(headers))
    except NotationError as error:
        raise click.BadParameter(str(error)) from None
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    click.echo(_commands(live))
    drawn = ""
    while not live.over:
        drawn = redraw(live, drawn)
        answer = ask(_question(live))
        if answer == "quit":
            break
        if answer in ("help", "?"):
            click.echo(_commands(live))
            continue
        if answer == "board":
            drawn = ""
            continue
        try:
            said = _answer(live, answer, rng)
        except NotationError as error:
            say_refused(error)
        else:
            if said:
                click.echo(said)
    _finish(live, output, append, db_path)


def redraw(live: LiveGame, drawn: str) -> str:
    """Print the board (:func:`board_text`) if it is not the one ``drawn`` last; the board
    now drawn."""
    board = board_text(live)
    if board != drawn:
        click.echo(board)
    return board


def ask(question: str) -> str:
    """One line typed at the prompt (``quit`` on Ctrl-C or the end of the input)."""
    try:
        return str(click.prompt(say("cli.prompt", question=question), prompt_suffix=" ", default="",
                                show_default=False)).strip()
    except click.Abort:
        return "quit"


def say_refused(error: NotationError) -> None:
    """Why an action was refused, on stderr: the rule and the reason, and for a play the
    rules refuse, the legal ones."""
    if isinstance(error, IllegalPlayError):
        click.echo(say("cli.refused.rule", rule=error.rule_id, reason=error.reason), err=True)
        if error.legal_plays:
            click.echo(say("cli.legal-plays", plays=listed(error.legal_plays)), err=True)
    else:
        click.echo(say("cli.refused", reason=str(error)), err=True)


def check_output(output: str, variant: str, append: bool = False) -> None:
    """Refuse, before the game starts, a file whose format cannot hold a ``variant`` game,
    a file that would be written over, or a record to append to that cannot be read back
    whole."""
    try:
        fmt = file_format(output)
    except Unreadable as problem:
        raise click.BadParameter(problem.message, param_hint="--output") from None
    if fmt not in WRITABLE or not BY_NAME[fmt].holds(variant):
        raise click.BadParameter(say("cli.output.format", variant=variant, format=fmt), param_hint="--output")
    if not os.path.exists(output):
        return
    if not append:
        raise click.BadParameter(say("cli.output.exists", path=output), param_hint="--output")
    try:
        errors = [error for game in read_file(output) for error in game.errors]
    except (OSError, NotationError) as error:
        raise click.BadParameter(say("cli.output.cannot-append", path=output, reason=str(error)),
                                 param_hint="--output") from None
    if errors:
        raise click.BadParameter(say("cli.output.invalid", path=output, error=str(errors[0])),
                                 param_hint="--output")


def board_text(live: LiveGame) -> str:
    """The board (each side's letter the game long, numbered for the player on roll) and,
    with the dice known, the legal plays."""
    state = live.node.state
    entry = live.entry() if live.dice is not None else None
    position = entry.position_after(live.steps) if entry else state.position
    owner = None if state.cube_owner is None else state.cube_owner.value
    lines = [diagram(position, live.game.rules, state.cube, owner,
                     sides=(state.player.value, state.player.other.value)),
             say("cli.board.legend", player=state.player.named)]
    if entry is not None:
        lines += [f"  {number}. {play}" for number, play in enumerate(entry.plays, 1)]
    return "\n".join(lines)


def _commands(live: LiveGame) -> str:
    """The commands the scorer may type, the cube's among them only where the rules have one."""
    return say("cli.record.help.cube" if live.game.rules.has_cube else "cli.record.help")


def _question(live: LiveGame) -> str:
    state = live.node.state
    if state.offered:
        return say("cli.record.take-or-drop", player=state.player.named)
    if live.dice is not None:
        return say("cli.record.plays", player=state.player.named, dice=str(live.dice))
    if live.forced_dice is not None:
        return say("cli.record.forced", player=state.player.named, dice=str(live.forced_dice))
    return say("cli.record.to-roll", player=state.player.named)


def _annotated(node: Node) -> str:
    """What a comment or mark was added to, in the record's words."""
    return say("cli.record.the-game") if node.turn is None else node_label(node)


def _answer(live: LiveGame, answer: str, rng: random.Random) -> str:
    """Carry out one line typed by the scorer; what to tell him (may be empty)."""
    word, _, rest = answer.partition(" ")
    rest = rest.strip()
    if answer == "":
        if live.dice is None:
            live.set_dice(None, rng)
    elif word == "undo":
        live.undo_turn()
        if live.dice is None:
            return say("cli.record.taken-back")
        return say("cli.record.taken-back.again", player=live.node.state.player.named, dice=str(live.dice))
    elif word == "comment":
        if not rest:
            raise InvalidPlayError(Message.of("cli.record.comment-after"))
        live.annotate(rest, None)
        return say("cli.record.comment-added", node=_annotated(live.node),
                   comment="{" + " ".join(rest.split()) + "}")
    elif word == "nag":
        if not NUMBER.fullmatch(rest) or int(rest) not in GLYPHS:
            raise InvalidPlayError(Message.of("cli.record.no-mark", mark=repr(rest), marks=", ".join(
                f"{number} {glyph}" for number, glyph in GLYPHS.items())))
        live.annotate("", int(rest))
        return say("cli.record.mark-added", glyph=GLYPHS[int(rest)], number=rest, node=_annotated(live.node))
    elif word in (DOUBLE, TAKE, DROP):
        live.cube(word)
    elif word == "resign" and NUMBER.fullmatch(rest):
        live.resign(int(rest))
    elif live.dice is None:
        live.set_dice(Dice.parse(answer))
    else:
        enter_play(live, answer)
    return ""


def enter_play(live: LiveGame, answer: str) -> None:
    """The play typed, or its number in the list of legal plays shown."""
    if NUMBER.fullmatch(answer):
        plays = live.entry().plays
        if not 1 <= int(answer) <= len(plays):
            raise InvalidPlayError(Message.of("cli.record.choose", most=len(plays)))
        live.play_text(str(plays[int(answer) - 1]))
    else:
        live.play_text(answer)


def _finish(live: LiveGame, output: str, append: bool, db_path: str | None) -> None:
    """Write the record (finished or not), never over a file (with ``append``, added to
    it), and store a finished game in the archive."""
    game = game_from_text(live.record())
    try:
        done = _write(game, output, append)
    except (OSError, NotationError, click.ClickException) as error:  # keep what was typed
        click.echo(live.record())
        reason = error.strerror if isinstance(error, OSError) else (
            error.message if isinstance(error, click.ClickException) else str(error))
        raise click.ClickException(say("cli.output.cannot-write", path=output, reason=reason)) from None
    click.echo(say(f"cli.record.{'' if live.over else 'unfinished-'}{done}", result=game.result, path=output))
    if live.over and db_path:
        db = open_archive(db_path)
        try:
            click.echo(import_summary(import_games(db, [game])))
        finally:
            db.close()


def _write(game: Game, output: str, append: bool) -> str:
    """Write ``game`` to a new file ``output``, or add it to the record there (text notation:
    the file's own text kept as it is; a format read whole: written again with it); how
    (``written``, ``appended``)."""
    if not os.path.exists(output):
        with open(output, "x", encoding="utf-8", newline="\n") as out:
            out.write(render([game], format_of(output)))
        return "written"
    if not append:
        raise click.ClickException(say("cli.output.appeared"))
    if BY_NAME[format_of(output)].whole:
        write_file([*read_file(output, strict=True), game], output)
        return "appended"
    with open(output, "rb") as existing:
        existing.seek(max(0, os.path.getsize(output) - 1))
        ends_a_line = existing.read() in (b"\n", b"")
    with open(output, "a", encoding="utf-8", newline="\n") as out:
        out.write(("\n" if ends_a_line else "\n\n") + write_game(game))
    return "appended"
