"""``jacquet show``: the position at a ply of a game, as text, SVG or JSON."""

from __future__ import annotations

import json

import click

from notation.formats.json_format import turn_dict
from notation.messages import language, say
from notation.render.captions import next_up
from notation.render.diagram import diagram
from notation.render.svg import board
from notation.tree.game import GameNode

from .reading import load_games


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--game", "-g", "number", type=click.IntRange(min=1), default=1, show_default=True,
              help="Which game of the file (from 1).")
@click.option("--ply", "-k", type=click.IntRange(min=0),
              help="Turns played from the start along the main line (default: the end).")
@click.option("--format", "-f", "output", type=click.Choice(["text", "svg", "json"]), default="text",
              show_default=True)
def show(file: str, number: int, ply: int | None, output: str) -> None:
    """The position at a ply of a game.

    Exits 1 if the game has errors (the position shown is then the last one read).

    \b
    Example:
        jacquet show samples/openings/jacquet-opening-5-5.jqn --ply 1
        jacquet show match.jqn --game 2 --format svg > board.svg
    """
    games = load_games(file)
    if number > len(games):
        raise click.BadParameter(say("cli.show.games", file=file, count=len(games), number=number),
                                 param_hint="--game")
    game = games[number - 1]
    nodes = [game, *game.mainline()]
    if ply is not None and ply >= len(nodes):
        raise click.BadParameter(say("cli.show.turns", game=number, turns=len(nodes) - 1), param_hint="--ply")
    node = nodes[-1 if ply is None else ply]
    state = node.state
    position, seen_by = state.seen_next()  # at the end of a game: as the loser sees it
    owner = state.cube_owner
    if output == "text":
        doing = (str(next_up(state)).rstrip(".") if state.over
                 else say("cli.show.to-play", player=seen_by.named))
        click.echo(say("cli.show.header", file=file, game=number, ply=node.ply, doing=doing,
                       rules=game.rules.describe(), position=position.position_id()))
        mover, other = seen_by.value, seen_by.other.value  # W and B, as record and play
        click.echo(diagram(position, game.rules, state.cube, None if owner is None else owner.value,
                           (mover, other), on_roll=not state.over, named=str(seen_by.named)))
    elif output == "svg":
        steps = node.turn.play.steps if node.turn is not None and node.turn.play else ()
        click.echo(board(position, game.rules, white_to_move=seen_by.value == "W",
                         last_steps=() if node.turn is None or node.turn.player is seen_by else steps,
                         dice=node.turn.dice if node.turn is not None else None,
                         dice_of_white=None if node.turn is None else node.turn.player.value == "W",
                         cube=state.cube, cube_owner=None if owner is None else owner.value,
                         language=language()))
    else:
        data = turn_dict(node) if isinstance(node, GameNode) else {
            "ply": 0, "position": position.position_id(),
            "pips": list(state.pips())}
        data.update({"to_play": seen_by.value, "variant": game.rules.name,
                     "over": state.over, "result": game.result if state.over else "*"})
        click.echo(json.dumps(data, ensure_ascii=False))
    for error in game.errors:
        click.echo(str(error), err=True)
    if game.errors:
        raise SystemExit(1)
