"""The visitor protocol: one set of hooks for reading a record and for walking a tree.

A reader drives a :class:`Visitor` while it reads a record (the text notation's
:func:`~notation.formats.jqn.read_games`), and :meth:`notation.tree.game.Game.accept`
drives the same hooks while it walks a game tree, as python-chess does with
``read_game`` and ``Game.accept``. So :class:`~notation.formats.jqn.GameBuilder` builds a
tree from either, and a writer is a visitor of a tree. The hooks come in the order of the
text notation: headers; comments before the first turn; then each turn (as
:meth:`Visitor.visit_node` from a tree, :meth:`Visitor.visit_turn` from a record) with its
NAGs and comments, the alternatives to a turn in ``begin_variation`` /
``end_variation`` right after it; the result.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

if TYPE_CHECKING:  # pragma: no cover
    from notation.engine.dice import Dice
    from notation.engine.state import Colour, TurnKind
    from notation.errors import RecordError
    from notation.tree.game import GameNode



class Skip(Enum):
    """The signal a hook returns to skip the rest of the game's turns: :data:`SKIP`."""

    SKIP = "skip"


SKIP = Skip.SKIP
"""Returned by ``end_headers``, ``visit_turn`` or ``visit_node`` to skip the rest of the
game's turns (any other return, ``None`` by default, goes on)."""

T = TypeVar("T", covariant=True)
"""What a visitor gives back for a game (:meth:`Visitor.result`)."""


class Origin(Protocol):
    """Where a game comes from: its file, its 1-based index there and its byte offset."""

    file: str
    index: int
    offset: int


class Visitor(Generic[T]):
    """The hooks of a walk over one game, typed by what it gives back: a ``Visitor[Game]``
    builds a game, a ``Visitor[str]`` writes one. Override what you need; return
    :data:`SKIP` from ``end_headers``, ``visit_turn`` or ``visit_node`` to skip the rest of
    the game's turns. ``result()`` is what the walk gives back for the game."""

    def begin_game(self, origin: Origin | None = None) -> None:
        """A game begins; ``origin`` is where it was read (``None``: not from a file)."""

    def visit_header(self, name: str, value: str, line: int = 0) -> None:
        """A tag, with the line it was read on (0 from a tree)."""

    def end_headers(self) -> Skip | None:
        """The tags are done."""
        return None

    def visit_comment(self, text: str) -> None:
        """A comment, after the turn it follows (before the first turn of a variation:
        one of that turn's starting comments)."""

    def visit_nag(self, number: int, line: int = 0, column: int = 0) -> None:
        """A numeric annotation glyph of the turn just visited."""

    def visit_turn(self, kind: TurnKind, dice: Dice | None, play: str | None,
                   line: int = 0, column: int = 0, by: Colour | None = None) -> Skip | None:
        """A turn as a record writes it: its kind, dice and play text; ``by`` names who
        resigns when it is not the player to act."""
        return None

    def visit_node(self, node: GameNode) -> Skip | None:
        """A turn of a tree, with its node. By default it is visited as
        :meth:`visit_turn` would see it read from the text notation."""
        turn = node.turn
        parent = node.parent
        by = turn.player if parent is not None and parent.state.player is not turn.player else None
        play = turn.play.notation if turn.play is not None else None
        return self.visit_turn(turn.kind, turn.dice, play, by=by)

    def begin_variation(self) -> None:
        """An alternative to the turn just visited begins."""

    def end_variation(self) -> None:
        """The alternative ends; the walk goes back to the line it left."""

    def visit_result(self, text: str, line: int = 0, column: int = 0) -> None:
        """The result written at the end of the movetext (``W+2``, ``*``...)."""

    def visit_error(self, error: RecordError) -> None:
        """A problem found while reading (never called by a tree walk)."""

    def end_game(self) -> None:
        """The game is done."""

    def result(self) -> T:
        """What the walk gives back."""
        raise NotImplementedError(f"{type(self).__name__} gives nothing back")
