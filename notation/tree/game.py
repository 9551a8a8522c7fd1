"""The game tree: a :class:`Game` (headers, rule set, errors) is the root :class:`Node`;
every other node is a :class:`GameNode`, one :class:`~notation.engine.state.Turn` (never
missing) with the comments and NAGs attached to it and its variations.

As in python-chess, ``node.variations[0]`` continues the main line and the others are
alternatives to it. Unlike python-chess, each node keeps the :class:`GameState` after its
turn, so the position at any node is there without replaying the game.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from enum import Enum
from typing import Any, TypeVar, overload

from notation.engine.board import Position
from notation.engine.dice import Dice
from notation.engine.rules import RuleSet, rule_set
from notation.engine.state import RESIGN, Colour, GameRuleError, GameState, Turn, TurnKind
from notation.engine.written import WrittenPlay
from notation.errors import NotationError
from notation.messages import Message
from notation.tree.tags import RESULT, YES, starting_position
from notation.tree.walk import SKIP, Visitor

T = TypeVar("T")
"""What a visitor gives back (:meth:`Game.accept`)."""

STANDARD_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result", "Variant")


class _AnnotationList:
    """A list attribute of a node, made on first use: most nodes have no comments or NAGs,
    and a reader makes one node per turn (fewer objects to make and for the garbage
    collector to visit)."""

    def __init__(self, slot: str) -> None:
        self.slot = slot

    @overload
    def __get__(self, node: None, owner: type | None = None) -> _AnnotationList: ...

    @overload
    def __get__(self, node: Node, owner: type | None = None) -> list[Any]: ...

    def __get__(self, node: Node | None, owner: type | None = None) -> _AnnotationList | list[Any]:
        if node is None:
            return self
        values: list[Any] | None = getattr(node, self.slot)
        if values is None:
            values = []
            setattr(node, self.slot, values)
        return values

    def __set__(self, node: Node, values: list[Any]) -> None:
        setattr(node, self.slot, values)


class Node:
    """A place in the tree: the start of the game (the :class:`Game` itself) or a turn
    (a :class:`GameNode`), with the state after it, what is said about it and the turns
    that may follow (``variations[0]`` continues the main line).

    ``comments`` follow the turn (on the root: the comments before the first turn);
    ``starting_comments`` stand before a turn that opens a variation; ``nags`` are
    numeric annotation glyphs (``$1`` = ``!``). Each is a list. ``turn`` is ``None`` only
    at the root: a :class:`GameNode`'s is never missing."""

    __slots__ = (
        "_comments",
        "_nags",
        "_starting_comments",
        "parent",
        "ply",
        "state",
        "turn",
        "variations",
    )

    parent: Node | None
    turn: Turn | None
    comments = _AnnotationList("_comments")
    starting_comments = _AnnotationList("_starting_comments")
    nags = _AnnotationList("_nags")

    def __init__(self, parent: Node | None, turn: Turn | None, state: GameState) -> None:
        self.parent = parent
        self.ply: int = 0 if parent is None else parent.ply + 1
        """How many turns lead from the start to this node."""
        self.turn = turn
        self.state = state
        self._comments: list[str] | None = None
        self._starting_comments: list[str] | None = None
        self._nags: list[int] | None = None
        self.variations: list[GameNode] = []

    def annotations(self) -> tuple[Sequence[str], Sequence[str], Sequence[int]]:
        """``(starting_comments, comments, nags)`` for reading: an empty one is ``()``, so
        that reading a node makes none of the lists (writers read every node)."""
        return self._starting_comments or (), self._comments or (), self._nags or ()

    @property
    def position(self) -> Position:
        """The position after this node's turn, seen by the player to act next."""
        return self.state.position

    def root(self) -> Game:
        """The game this node belongs to."""
        node: Node = self
        while node.parent is not None:
            node = node.parent
        assert isinstance(node, Game), "a node's chain of parents ends at its game"
        return node

    def add_turn(self, kind: TurnKind, dice: Dice | None = None,
                 play: str | WrittenPlay | None = None, by: Colour | None = None) -> GameNode:
        """Play a turn from this node (checked by the rules) and add it as the next
        variation; :class:`~notation.errors.NotationError` if it breaks a rule. ``by``:
        who resigns, when not the player to act."""
        state, turn = self.state.after(kind, dice, play, by)
        child = GameNode(self, turn, state)
        self.variations.append(child)
        return child

    def add_recorded_turn(self, player: Colour | None, kind: TurnKind, dice: Dice | None = None,
                          play: str | WrittenPlay | None = None) -> GameNode:
        """:meth:`add_turn` for a turn a record says ``player`` made (``None``: it does not
        say): R-TURN if it is not his turn, except a resignation, which either side may make
        at any time."""
        if kind == RESIGN:
            return self.add_turn(kind, dice, play, by=player)
        if player is not None and player is not self.state.player:
            raise GameRuleError("R-TURN", Message.of("game.turn", player=player.named,
                                                     turn=self.state.player.named))
        return self.add_turn(kind, dice, play)

    def comment_before(self, text: str) -> None:
        """Add a comment a record puts before this turn where the text notation keeps it:
        among the turn's starting comments if it opens a variation, else among the comments
        of the turn before (of the game, before its first turn)."""
        parent = self.parent
        if parent is not None and parent.variations and parent.variations[0] is self:
            parent.comments.append(text)
        else:
            self.starting_comments.append(text)

    def next(self) -> GameNode | None:
        """The main-line continuation, if any."""
        return self.variations[0] if self.variations else None

    def mainline(self) -> Iterator[GameNode]:
        """The nodes of the main line after this one."""
        node = self.next()
        while node is not None:
            yield node
            node = node.next()

    def descendants(self) -> Iterator[GameNode]:
        """Every node after this one, variations included (depth first, no recursion)."""
        pending = list(self.variations)
        while pending:
            node = pending.pop()
            yield node
            pending.extend(node.variations)

    def is_mainline(self) -> bool:
        """Whether the node is on the main line (every node above it a first variation)."""
        node: Node = self
        while node.parent is not None:
            if node.parent.variations[0] is not node:
                return False
            node = node.parent
        return True

    def __repr__(self) -> str:
        return f"<{type(self).__name__} ply {self.ply}: {self.turn}>"


class GameNode(Node):
    """A turn in the tree: its ``turn`` is never missing, and its ``parent`` is the node
    it follows (``None`` only once the game is released)."""

    __slots__ = ()
    parent: Node | None
    turn: Turn

    def __init__(self, parent: Node, turn: Turn, state: GameState) -> None:
        super().__init__(parent, turn, state)


class Game(Node):
    """A whole game: headers (``[Tag "value"]`` pairs, in order), the rule set, the tree,
    the errors found while reading it, and its end. It starts from the rule set's position,
    or from the ``Position`` tag's (:func:`~notation.tree.tags.starting_position`)."""

    __slots__ = ("errors", "headers", "rules", "source", "source_text", "tag_lines", "warnings")

    def __init__(self, rules: RuleSet | None = None, first: Colour = Colour.WHITE,
                 headers: dict[str, str] | None = None,
                 lead_rolls: tuple[tuple[int, int], ...] = (), crawford: bool = False) -> None:
        self.rules = rules or rule_set()
        self.headers: dict[str, str] = dict(headers or {})
        start = GameState.start(self.rules, first, lead_rolls, crawford)
        position = starting_position(self.headers, self.rules)
        if position is not None:  # (made anew: a prime standing in it is held, R-SCORE-MARCIA)
            start = GameState(self.rules, position, start.player, forced=start.forced,
                              crawford=start.crawford)
        super().__init__(None, None, start)
        self.headers.setdefault("Variant", self.rules.name)
        self.errors: list[NotationError] = []
        self.warnings: list[NotationError] = []
        self.source_text: str | None = None
        """The record's own text, kept by readers for a game with errors (so that nothing
        after the error is lost)."""
        self.source: tuple[str, int] | None = None
        self.tag_lines: dict[str, int] = {}
        """The line of each tag in the file it was read from (where known), for a problem
        with a tag found after the game is read (R-MATCH)."""

    @property
    def first(self) -> Colour:
        """Who acts first (White first when a Versailles lead doublet is played)."""
        return self.state.player

    def end(self) -> Node:
        """The last node of the main line (the game itself before its first turn)."""
        node: Node = self
        for node in self.mainline():  # noqa: B007 (the loop's last node is the end)
            pass
        return node

    @property
    def result(self) -> str:
        """The result the rules give at the end of the main line: ``W+2``, ``B+1`` or
        ``*`` when the game is not over."""
        state = self.end().state
        if state.winner is None:
            return "*"
        return f"{state.winner.value}+{state.points}"

    def result_problem(self, declared: str) -> tuple[str, Message] | None:
        """Whether the ``declared`` result (``W+2``, ``B+1``, ``*``) is what the rules score
        at the end of the main line: ``None`` if so, else (rule id, message). A game ended
        by a resignation scores what it declares, if the rule set allows it; a game tagged
        ``Adjudicated`` may declare its winner fewer points than the rules give (what a
        match awarded, as some ``.mat`` exporters record it); where the rule set lets a
        record declare a koks (``narde``, ``fevga``), 3 times the cube where the rules score a
        mars is kept as written. Either way the end's state is
        given the declared points (R-SCORE and its kin)."""
        if not RESULT.match(declared):
            return "TAG", Message.of("reader.result.unreadable", text=repr(declared))
        end = self.end()
        state = end.state
        rule = self.rules.score_rule
        winner = state.winner
        if state.ended_by == "resign" and winner is not None:
            if declared == "*" or declared[0] != winner.value:
                return rule, Message.of("result.resigned", loser=winner.other.named,
                                        winner=winner.named, declared=declared)
            try:
                end.state = state.resigned_for(int(declared[2:]))
            except NotationError as problem:
                return problem.rule_id, problem.msg
            return None
        scored = self.result
        if scored == declared:
            return None
        if (self.headers.get("Adjudicated", "").strip().lower() in YES and scored != "*"
                and declared[0] == scored[0] and int(declared[2:]) < int(scored[2:])):
            end.state = state._replace(points=int(declared[2:]))  # what the match awarded
            return None
        if (self.rules.koks_declared and scored != "*" and declared[0] == scored[0]
                and int(scored[2:]) == 2 * state.cube and int(declared[2:]) == 3 * state.cube):
            end.state = state._replace(points=int(declared[2:]))  # a koks, kept as written
            return None
        if scored == "*":
            return rule, Message.of("result.not-over", declared=declared)
        return rule, Message.of("result.differs", declared=declared, scored=scored,
                                how=_how(state, self.rules))

    def accept(self, visitor: Visitor[T]) -> T:
        """Walk the game, driving ``visitor``'s hooks in the order a reader of the text
        notation does (:mod:`notation.tree.walk`): the headers, the comments before the
        first turn, then every turn as :meth:`~notation.tree.walk.Visitor.visit_node` with
        its NAGs and comments and, right after it, its alternatives, then the result.
        :data:`~notation.tree.walk.SKIP` from ``end_headers`` or ``visit_node`` skips the
        rest of the turns. Iterative: no recursion, however long or deeply nested the
        game. Returns ``visitor.result()``."""
        visitor.begin_game(None)
        for name, value in self.headers.items():
            visitor.visit_header(name, value)
        if visitor.end_headers() is not SKIP:
            for text in self._comments or ():
                visitor.visit_comment(text)
            if self.variations:
                _walk(self, self.variations[0], visitor)
        visitor.visit_result(self.headers.get("Result") or self.result)
        visitor.end_game()
        return visitor.result()

    def release(self) -> None:
        """Unlink every node from its parent, for a program done with the game.

        A node and its parent refer to each other, so a game tree no longer used waits for
        the garbage collector's next pass over older objects, which meanwhile visits it
        again and again; unlinked, it is freed as soon as the last reference to the game
        goes. Afterwards ``parent`` is ``None`` everywhere: the game's fields, its result
        and the way down the tree are left, but it is not to be written or stepped through
        any more. See :func:`released`."""
        for node in self.descendants():
            node.parent = None


class _Mark(Enum):
    """Markers on :func:`_walk`'s stack."""

    BEGIN = "a variation begins"
    END = "a variation ends"


def _walk(parent: Node, start: GameNode, visitor: Visitor[object]) -> None:
    """Visit ``start`` (a child of ``parent``), the rest of its line and every variation
    met on the way, in the text notation's order. The stack holds what is left to visit:
    a node with its parent, or a marker; a turn's alternatives are pushed above the rest
    of its line, so that they are visited first."""
    todo: list[tuple[Node, GameNode] | _Mark] = [(parent, start)]
    pop, push = todo.pop, todo.append
    while todo:
        item = pop()
        if item is _Mark.BEGIN:
            visitor.begin_variation()
            continue
        if item is _Mark.END:
            visitor.end_variation()
            continue
        parent, node = item
        starting, comments, nags = node.annotations()
        for text in starting:
            visitor.visit_comment(text)
        if visitor.visit_node(node) is SKIP:
            return
        for nag in nags:
            visitor.visit_nag(nag)
        for text in comments:
            visitor.visit_comment(text)
        if node.variations:
            push((node, node.variations[0]))
        siblings = parent.variations
        if len(siblings) > 1 and siblings[0] is node:
            for alternative in reversed(siblings[1:]):
                push(_Mark.END)
                push((parent, alternative))
                push(_Mark.BEGIN)


def released(games: Iterable[Game]) -> Iterator[Game]:
    """Each of ``games``, released (:meth:`Game.release`) when the next one is asked for:
    for a loop that is done with a game when it moves on, such as validating or importing
    a large file."""
    for game in games:
        yield game
        game.release()


def _how(state: GameState, rules: RuleSet) -> Message:
    """How the game ended, for a message: the cube dropped, or what the loser kept."""
    if state.ended_by == "drop" and state.winner is not None:
        return Message.of("result.dropped", player=state.winner.other.named, cube=state.cube)
    if rules.score_basis:
        return Message.of(rules.score_basis)
    return Message.of("result.borne-off", count=state.position.opponent[0])
