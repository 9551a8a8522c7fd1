"""The board editor's positions (lichess's board editor): a position set up man by man, kept
in the page's address as the position page takes it (its ID seen by the player on roll,
who is on roll, the rule set). The editor works on the board as White sees it (White's
numbers, as the board is drawn) and checks every position it makes with the rule set's
own :meth:`~notation.engine.rules.base.RuleSet.check_position`; a man added comes from
his side's borne-off men, a man removed goes there (a side always has fifteen)."""

from __future__ import annotations

from notation import Position
from notation.engine.board import BAR, MEN, OFF
from notation.engine.rules import RuleSet
from notation.engine.state import Colour
from notation.errors import InvalidPositionError
from notation.messages import Message

SIDES = ("W", "B")
"""The colours, as the forms send them."""
ACTIONS = ("add", "remove", "clear", "start")
"""What a click or a button of the editor does: add a man, remove one, take every man off,
set the rule set's starting position."""


def white_view(position_id: str, player: str) -> Position:
    """The position of ``position_id`` (seen by ``player``, on roll) as White sees it:
    :class:`~notation.errors.NotationError` for an ID that does not read."""
    seen = Position.from_id(position_id.strip())
    return seen if player == "W" else seen.swapped()


def seen_by(white: Position, player: str) -> Position:
    """The position seen by ``player`` (on roll), from White's view ``white``."""
    return white if player == "W" else white.swapped()


def edited(white: Position, rules: RuleSet, action: str, point: str = "", side: str = "W") -> Position:
    """``white`` after ``action`` (one of :data:`ACTIONS`) on White's point ``point``
    (``1``-``24``, or ``bar``) for ``side``'s man, checked by the rule set:
    :class:`~notation.errors.NotationError` (in the catalog's words) for a position it
    refuses, or a side with no man left to add. A man removed from a point is one of the
    side whose men are on it (``side`` only says which on the bar); removing from a point
    without one changes nothing.

    >>> from notation import rule_set
    >>> jacquet = rule_set("jacquet")
    >>> empty = edited(jacquet.start, jacquet, "clear")
    >>> edited(empty, jacquet, "add", "12", "B").opponent[24]  # White's 12 is Black's talon
    1
    """
    if action == "start":
        return rules.start
    if action == "clear":
        return rules.check_position(Position.from_points({}, {}))
    if action not in ("add", "remove"):
        raise ValueError(action)
    sides = [list(white.mover), list(white.opponent)]
    black = side == "B"
    if action == "remove" and point != "bar":  # a point holds one side's men: those are taken
        black = not white.mover[int(point)] and bool(white.opponent[rules.opposite[int(point)]])
    counts = sides[black]
    index = BAR if point == "bar" else int(point)
    if not 1 <= index <= BAR:
        raise ValueError(point)
    if black and index != BAR:
        index = rules.opposite[index]
    if action == "add":
        if not counts[OFF]:
            colour = Colour.BLACK if black else Colour.WHITE
            raise InvalidPositionError(Message.of("position.none-off", side=colour.named, most=MEN))
        counts[index] += 1
        counts[OFF] -= 1
    elif counts[index]:
        counts[index] -= 1
        counts[OFF] += 1
    return rules.check_position(Position(tuple(sides[0]), tuple(sides[1])))


def point_list(rules: RuleSet, player: str) -> list[tuple[int, int]]:
    """The points of the editor's form, as the board numbers them for ``player`` (on roll):
    (White's number, the one sent; his number, the one shown) each, from his 24 down to
    his 1.

    >>> from notation import rule_set
    >>> point_list(rule_set("backgammon"), "B")[:2]
    [(1, 24), (2, 23)]
    """
    black = player == "B"
    return [(rules.opposite[point] if black else point, point) for point in range(24, 0, -1)]


def point_choice(text: str, rules: RuleSet) -> str:
    """A point as a form sends it (``1``-``24``, ``bar`` where the rule set has one), else
    :class:`ValueError`."""
    if text == "bar" and rules.has_bar:
        return text
    if text.isdigit() and 1 <= int(text) <= 24:
        return text
    raise ValueError(text)

