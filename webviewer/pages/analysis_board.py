"""The position page's board as an analysis board: the position with the best play of the
roll ranked drawn as arrows, or, for a candidate picked (``show=`` its play, as the
ranking writes it), the board after that candidate with its steps as arrows. The same
board alone is the fragment the page's script swaps in (``/position-board/ID``), drawn by
the server (:mod:`notation.render.svg`, :mod:`notation.render.arrows`)."""

from __future__ import annotations

from notation import Dice, Position, legal_plays
from notation.engine.play import Play
from notation.engine.rules import RuleSet
from notation.engine.state import Colour
from notation.errors import NotationError
from notation.messages import Message, render
from notation.render.arrows import arrows
from notation.render.svg import board


def find_play(position: Position, rules: RuleSet, dice: str, text: str) -> Play:
    """The legal play of ``dice`` from ``position`` written ``text`` (as the ranking and
    ``jacquet legal`` write it): :class:`~notation.errors.NotationError` for dice that
    cannot be read, :class:`ValueError` for a play that is not one of them."""
    wanted = " ".join(text.split())
    for play in legal_plays(position, Dice.parse(dice), rules):
        if play.notation == wanted:
            return play
    raise ValueError(wanted)


def analysis_board(position: Position, position_id: str, rules: RuleSet, white: bool, language: str,
                   dice: str | None = None, show: Play | None = None, best: Play | None = None) -> str:
    """The SVG of ``position`` (seen by the player on roll, White if ``white``), numbered
    for him, with ``dice`` drawn: after ``show`` (his play, its steps as arrows), else
    with the ``best`` play's arrows on it (if given)."""
    player = Colour.WHITE if white else Colour.BLACK
    title = render(Message.of("board.title.position", position=position_id, player=player.named), language)
    rolled = Dice.parse(dice) if dice else None
    if show is not None:
        return board(show.next_position, rules, white_to_move=not white, dice=rolled, dice_of_white=white,
                     black_numbers=not white, title=title, language=language,
                     overlay=arrows(show.steps, white, rules, title=show.notation))
    overlay = arrows(best.steps, white, rules, title=best.notation) if best is not None else ""
    return board(position, rules, white_to_move=white, dice=rolled, black_numbers=not white,
                 title=title, language=language, overlay=overlay)


def picked(position: Position, rules: RuleSet, dice: str | None, show: str | None) -> Play | None:
    """The candidate a page asks to see (``show=``), or ``None`` when none is asked or it
    is not a legal play of the roll (the page then shows the position)."""
    if not dice or not show:
        return None
    try:
        return find_play(position, rules, dice, show)
    except (NotationError, ValueError):
        return None
