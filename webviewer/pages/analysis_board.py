"""The position page's board as an analysis board: the position with the best play of the
roll ranked drawn as arrows, or, for a candidate picked (``show=`` its play, as the
ranking writes it), the board after that candidate with its steps as arrows. The same
board alone is the fragment the page's script swaps in (``/position-board/ID``), drawn by
the server (:mod:`notation.render.svg`, :mod:`notation.render.arrows`).

The plays are found among the roll's legal plays as the rules engine makes them
(:func:`picked_plays`): a doublet's (thousands in versailles) in the worker pool, as
``/api/legal`` does."""

from __future__ import annotations

from typing import NamedTuple

from notation import Dice, Position, legal_plays
from notation.engine.play import Step
from notation.engine.rules import RuleSet, rule_set
from notation.engine.state import Colour
from notation.errors import NotationError
from notation.messages import Message, render
from notation.render.arrows import arrows
from notation.render.svg import board
from webviewer.plumbing.workers import run_work


class Picked(NamedTuple):
    """A legal play found by its text: as the rules engine writes it, its steps (in the
    mover's numbering) and the position it leaves, seen by the next player."""

    notation: str
    steps: tuple[Step, ...]
    after: Position


def picked_plays(variant: str, position_id: str, dice: str, texts: tuple[str, ...]) -> list[Picked | None]:
    """For each of ``texts``, the legal play of ``dice`` from the position so written (as
    the ranking and ``jacquet legal`` write it), or ``None`` when it is none of them:
    :class:`~notation.errors.NotationError` for a position or dice the rules refuse. A
    plain function of picklable arguments, for the worker pool."""
    rules = rule_set(variant)
    position = Position.from_id(position_id)
    found = {play.notation: play for play in legal_plays(position, Dice.parse(dice), rules)}
    plays = [found.get(" ".join(text.split())) for text in texts]
    return [None if play is None else Picked(play.notation, play.steps, play.next_position) for play in plays]


def find_plays(rules: RuleSet, position_id: str, dice: str, *texts: str) -> list[Picked | None]:
    """:func:`picked_plays` in this request, or for a doublet in the worker pool."""
    heavy = Dice.parse(dice).is_doublet
    args = (rules.name, position_id, dice, texts)
    return run_work(picked_plays, *args) if heavy else picked_plays(*args)


def analysis_board(position: Position, position_id: str, rules: RuleSet, white: bool, language: str,
                   dice: str | None = None, show: Picked | None = None, best: Picked | None = None) -> str:
    """The SVG of ``position`` (seen by the player on roll, White if ``white``), numbered
    for him, with ``dice`` drawn: after ``show`` (his play, its steps as arrows), else
    with the ``best`` play on it (if given) as the game page draws the best play of the
    roll to play: dashed arrows in their own colour (``key.best``), apart from the play
    looked at (``key.arrows``)."""
    player = Colour.WHITE if white else Colour.BLACK
    title = render(Message.of("board.title.position", position=position_id, player=player.named), language)
    rolled = Dice.parse(dice) if dice else None
    if show is not None:
        return board(show.after, rules, white_to_move=not white, dice=rolled, dice_of_white=white,
                     black_numbers=not white, title=title, language=language,
                     overlay=arrows(show.steps, white, rules, title=show.notation))
    overlay = arrows(best.steps, white, rules, title=best.notation, best=True) if best is not None else ""
    return board(position, rules, white_to_move=white, dice=rolled, black_numbers=not white,
                 title=title, language=language, overlay=overlay)


def ranked_board(rules: RuleSet, position_id: str, dice: str | None, show: str | None,
                 best: str | None) -> tuple[Picked | None, Picked | None]:
    """The candidate a page asks to see (``show=``) and the best play of the ranking, as
    legal plays of the roll (``None`` for one not asked, or not a legal play: the page then
    shows the position)."""
    if not dice:
        return None, None
    try:
        shown, first = find_plays(rules, position_id, dice, show or "", best or "")
    except NotationError:
        return None, None
    return (shown if show else None), (first if best else None)
