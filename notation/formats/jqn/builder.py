"""The visitor that builds a checked :class:`~notation.tree.game.Game` from a record.

Every turn is played through the rules as it is read; the first problem of a game (a
syntax error or a broken rule) is recorded as a :class:`~notation.errors.RecordError` with
its file, line, column, game, turn, rule id and the legal plays, and the rest of that game
is skipped: reading goes on with the next game. A game holds at most
:data:`~notation.limits.MAX_POSITIONS` positions.
"""

from __future__ import annotations

from collections.abc import Sequence

from notation.engine.dice import Dice
from notation.engine.rules import DEFAULT, rule_set
from notation.engine.state import ROLL, Colour, GameState, TurnKind
from notation.errors import NotationError, RecordError, TagProblem
from notation.formats.jqn.lexer import locator, play_words
from notation.formats.jqn.reader import RawGame
from notation.formats.reading import Budget, culprit, located
from notation.messages import Message
from notation.tree.game import Game, Node
from notation.tree.numbering import turn_label
from notation.tree.tags import RESULT, Setup, setup_from_tags
from notation.tree.walk import SKIP, Origin, Skip, Visitor

RETHROW, RETHROW_MARK = "Rethrow", "rethrow:"
"""How a versailles record says it carries the rethrow clause (docs/notation.md): a tag
``[Rethrow "..."]``, or a comment that begins ``rethrow:``."""


class GameBuilder(Visitor[Game]):
    """Builds and checks one game; ``result()`` is the :class:`Game`, with ``errors``.
    ``default_variant`` is the rule set of a record without a ``Variant`` tag.

    ``canonical=True`` says the records read are canonical text, as the writer makes it
    (an archive's record of a valid game): every play is still checked, but keeps the
    text read as its notation (:meth:`~notation.engine.play.Play.read_as`) instead of having it
    written again when asked for."""

    def __init__(self, default_variant: str = DEFAULT, canonical: bool = False) -> None:
        self.default_variant = default_variant
        self.canonical = canonical

    def begin_game(self, origin: Origin | None = None) -> None:
        """A game begins: read from a record (a :class:`RawGame`, whose text an invalid
        game keeps), from elsewhere in a file, or (``None``) not from a file."""
        if isinstance(origin, RawGame):
            self.raw = origin
        else:
            self.raw = RawGame(origin.index if origin else 0, origin.offset if origin else 0,
                               file=origin.file if origin else "-")
        self.headers: dict[str, str] = {}
        self.header_lines: dict[str, int] = {}
        self.game: Game | None = None
        self.failed = False
        self.errors: list[RecordError] = []
        self.result_token: tuple[str, int, int] | None = None
        self.rethrow_ply: int | None = None
        """The ply of a comment that marks the rethrow clause (see :data:`RETHROW`)."""
        self.budget = Budget()
        self.budget.spend()  # the game's start

    # -- headers ------------------------------------------------------------------------

    def visit_header(self, name: str, value: str, line: int = 0) -> None:
        self.headers[name] = value
        self.header_lines[name] = line

    def end_headers(self) -> Skip | None:
        try:
            setup = setup_from_tags(self.headers, self.default_variant)
        except TagProblem as problem:
            self.error(problem.msg, problem.rule_id, self.header_lines.get(problem.tag, 0), 1)
            setup = Setup(rule_set())
        self.game = Game(setup.rules, setup.first, self.headers, setup.lead_rolls, setup.crawford)
        self.game.source = (self.raw.file, self.raw.offset)
        self.game.tag_lines = self.header_lines
        self.game.errors = self.errors  # type: ignore[assignment]
        self.node: Node = self.game
        self.stack: list[Node] = []
        self.opening: list[str] = []  # comments before the first turn of a variation
        self.explicit_variant = "Variant" in self.headers
        if self.failed:
            return SKIP
        return None

    def _tag_error(self, name: str, message: Message, rule_id: str = "TAG") -> None:
        self.error(message, rule_id, self.header_lines.get(name, 0), 1)

    # -- movetext -------------------------------------------------------------------------

    def error(self, message: Message, rule_id: str, line: int, column: int, turn: str = "",
              legal_plays: Sequence[str] = ()) -> None:
        self.visit_error(RecordError(message, rule_id, file=self.raw.file, line=line,
                                     column=column, game=self.raw.index, turn=turn,
                                     legal_plays=legal_plays))

    def visit_error(self, error: RecordError) -> None:
        """Record the game's first problem; the game is skipped from there."""
        if not self.failed:
            self.errors.append(error)
        self.failed = True

    def visit_comment(self, text: str) -> None:
        if self.failed:
            return
        if self.rethrow_ply is None and text.lstrip().lower().startswith(RETHROW_MARK):
            self.rethrow_ply = self.node.ply
        if self.stack and self.node is self.stack[-1].parent and not self._opened_turn:
            self.opening.append(text)
        else:
            self.node.comments.append(text)

    def visit_nag(self, number: int, line: int = 0, column: int = 0) -> None:
        if self.failed:
            return
        if self.node.turn is None or not self._opened_turn:
            where = "game" if self.node.turn is None else "variation"
            self.error(Message.of(f"reader.jqn.nag-first.{where}"),
                       "SYNTAX", line, column)
            return
        self.node.nags.append(number)

    def begin_variation(self) -> None:
        if self.failed:
            return
        self.stack.append(self.node)
        self.node = self.node.parent if self.node.parent is not None else self.node
        self._opened_turn = False

    def end_variation(self) -> None:
        if self.failed or not self.stack:
            return
        self.node = self.stack.pop()
        self._opened_turn = True

    _opened_turn = True

    def visit_turn(self, kind: TurnKind, dice: Dice | None, play: str | None,
                   line: int = 0, column: int = 0, by: Colour | None = None) -> Skip | None:
        if self.failed:
            return SKIP
        if not self.budget.spend():
            self.visit_error(self.budget.error("one game", file=self.raw.file, line=line,
                                               column=column, game=self.raw.index))
            return SKIP
        node = self.node
        try:
            child = node.add_turn(kind, dice, play, by)
        except NotationError as problem:
            self._turn_error(problem, node, kind, dice, play, line, column,
                             _turn_label(node, kind, dice))
            return SKIP
        written = child.turn.play if child.turn is not None else None
        if self.canonical and play and written is not None:
            written.read_as(play)
        if self.stack and not self._opened_turn:
            child.starting_comments.extend(self.opening)
            self.opening = []
            self._opened_turn = True
        self.node = child
        return None

    def _turn_error(self, problem: NotationError, node: Node, kind: TurnKind, dice: Dice | None,
                    play: str | None, line: int, column: int, label: str) -> None:
        hint = False
        if node.parent is None and not self.explicit_variant and kind == ROLL and dice is not None:
            hint = self._backgammon_hint(dice, play)
        words = play_words(self.raw.movetext, self.raw.movetext_line, line, column) if play else []
        index = culprit(problem, [word.text for word in words]) if words else None
        if index is not None:  # the error's place: the word of the play it is about, not the roll
            line, column = locator(self.raw.movetext, self.raw.movetext_line)(words[index].offset)
        self.visit_error(located(problem, file=self.raw.file, line=line, column=column,
                                 game=self.raw.index, turn=label,
                                 explain=_with_hint if hint else None))

    def _backgammon_hint(self, dice: Dice, play: str | None) -> bool:
        """Section 8 of the rules: whether a record with no Variant tag has a first play
        that only makes sense from the backgammon set-up (its error then says so)."""
        try:
            GameState.start(rule_set("backgammon")).after(ROLL, dice, play)
        except NotationError:
            return False
        return True

    def visit_result(self, text: str, line: int = 0, column: int = 0) -> None:
        self.result_token = (text, line, column)

    # -- end ------------------------------------------------------------------------------

    def end_game(self) -> None:
        if self.game is None:
            self.end_headers()
        self._check_end()
        if self.errors:
            raw = self.raw
            self.result().source_text = "\n".join(text for _, text in raw.headers) + "\n\n" + raw.movetext

    def _check_rethrow(self) -> None:
        """A versailles record that carries the rethrow clause (the tag ``[Rethrow "..."]``
        or a comment that begins ``rethrow:``) gets a warning: the clause is not supported
        (docs/rules.md), so its turns were checked without it."""
        game = self.result()
        where = (Message.of("reader.rethrow.tag") if RETHROW in self.headers else
                 Message.of("reader.rethrow.comment", ply=self.rethrow_ply)
                 if self.rethrow_ply is not None else None)
        if where is None or not game.rules.rethrow_clause:
            return
        game.warnings.append(RecordError(
            where,
            "R-RETHROW", file=self.raw.file, line=self.header_lines.get(RETHROW, 0),
            column=1 if RETHROW in self.headers else 0, game=self.raw.index, severity="warning"))

    def _check_end(self) -> None:
        if self.failed:
            return
        self._check_rethrow()
        tag = self.headers.get("Result")
        token = self.result_token
        if tag is not None and not RESULT.match(tag):
            self._tag_error("Result", Message.of("reader.result.unreadable", text=repr(tag)))
            return
        if tag is not None and token is not None and token[0] != tag:
            self.error(Message.of("reader.result.differs", result=token[0], tag=tag), "SYNTAX",
                       token[1], token[2])
            return
        declared = tag if tag is not None else (token[0] if token else None)
        if declared is None:
            return
        line, column = (token[1], token[2]) if token else (self.header_lines.get("Result", 0), 1)
        self._check_result(declared, line, column)

    def _check_result(self, declared: str, line: int, column: int) -> None:
        problem = self.result().result_problem(declared)
        if problem is not None:
            self.error(problem[1], problem[0], line, column)

    def result(self) -> Game:
        game = self.game
        assert game is not None, "the game is made when its headers end"
        return game


def _with_hint(reason: Message) -> Message:
    """``reason``, and that the play is legal in backgammon."""
    return Message.of("reader.backgammon-hint", reason=reason)


def _turn_label(node: Node, kind: TurnKind, dice: Dice | None) -> str:
    """The turn after ``node`` as the record numbers it (``2. 61``)."""
    return turn_label(node, kind, node.state.player, dice)
