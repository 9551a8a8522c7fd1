"""The state of a game between turns, and the game-level rules that move it on.

A :class:`GameState` is everything the next turn depends on: the position (seen by the
player to act), who acts, the doubling cube, dice passed under R-PASS, whether each side
has held a prime (R-SCORE-MARCIA), and how the game ended. :meth:`GameState.after` applies
one turn and returns the next state, or raises an error naming the broken rule:

* a roll and its play (checked by :func:`notation.engine.checker.check_play`);
* ``versailles``: dice passed to the opponent (R-PASS), played before his own roll;
* ``backgammon``: cube actions (double, take, drop: R-CUBE);
* a resignation.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Final, Literal, NamedTuple

from notation.engine.board import BAR, MEN, OFF, Position
from notation.engine.checker import check_play
from notation.engine.dice import Dice
from notation.engine.play import Play
from notation.engine.rules import RuleSet
from notation.engine.written import WrittenPlay
from notation.errors import IllegalPlayError, InvalidDiceError, InvalidError
from notation.limits import LIMIT, MAX_CUBE
from notation.messages import Message, either

TurnKind = Literal["roll", "passed", "double", "take", "drop", "resign"]
"""What a turn is: a roll played, dice passed played (R-PASS), a cube action, a resignation."""
ROLL: Final = "roll"
PASSED: Final = "passed"
DOUBLE: Final = "double"
TAKE: Final = "take"
DROP: Final = "drop"
RESIGN: Final = "resign"
CubeAction = Literal["double", "take", "drop"]
CUBE_ACTIONS: tuple[CubeAction, ...] = (DOUBLE, TAKE, DROP)


def cube_action(word: str) -> CubeAction | None:
    """``word`` as the cube action it names (``double``, ``take``, ``drop``), or ``None``."""
    return next((action for action in CUBE_ACTIONS if action == word), None)
_new_tuple = tuple.__new__  # makes a named tuple from its values without a Python call


class Colour(str, Enum):
    """The two players. White's talon is top right on the drawn board.

    Each has ``other`` (the other player), ``title`` (``"White"``) and ``index`` (0 for
    White, 1 for Black)."""

    WHITE = "W"
    BLACK = "B"

    @property
    def other(self) -> Colour:
        """The other player."""
        return Colour.BLACK if self is Colour.WHITE else Colour.WHITE

    @property
    def title(self) -> str:  # type: ignore[override]  # the player's name, not str.title()
        """``"White"`` or ``"Black"``."""
        return "White" if self is Colour.WHITE else "Black"

    @property
    def named(self) -> Message:
        """The player's name as a message gives it (``colour.white``, ``colour.black``)."""
        return Message.of("colour.white" if self is Colour.WHITE else "colour.black")

    @property
    def index(self) -> int:  # type: ignore[override]  # 0 or 1, not str.index()
        """0 for White, 1 for Black: the player's place in a (White, Black) pair."""
        return 0 if self is Colour.WHITE else 1


class Turn(NamedTuple):
    """What one player did: ``kind`` is ``roll`` (dice and play), ``passed`` (dice handed
    over by the opponent, R-PASS), ``double``/``take``/``drop`` (the cube) or ``resign``.
    ``player`` is who did it. An immutable value."""

    kind: TurnKind
    player: Colour
    dice: Dice | None = None
    play: Play | None = None

    def __str__(self) -> str:
        """As the notation writes it: ``53: 24/16``, ``>3: 13/10``, ``double``."""
        kind = self.kind
        if kind in (ROLL, PASSED):
            assert self.play is not None  # (dice played always have their play)
            return f"{'>' if kind == PASSED else ''}{self.dice}: {self.play.notation}"
        return kind


class GameRuleError(IllegalPlayError):
    """A turn that breaks a game-level rule (R-PASS, R-CUBE, R-END, ...)."""


class _StateFields(NamedTuple):
    """The fields of a :class:`GameState`, in order (a copy made by ``_replace`` does not
    look for a prime again)."""

    rules: RuleSet
    position: Position
    player: Colour
    cube: int = 1
    cube_owner: Colour | None = None
    offered: bool = False
    passed: Dice | None = None
    prime_held: tuple[bool, bool] = (False, False)
    winner: Colour | None = None
    points: int = 0
    ended_by: str | None = None
    forced: tuple[tuple[Colour, Dice], ...] = ()
    crawford: bool = False


class GameState(_StateFields):
    """Everything the next turn depends on. ``position`` is seen by ``player``, who acts
    next; ``passed`` holds dice he must play before his own roll (``versailles``).

    An immutable value, a named tuple: the reader makes one a turn, and a tuple is made in
    about half the time of a frozen dataclass's copy, and is smaller."""

    __slots__ = ()

    def __new__(cls, rules: RuleSet, position: Position, player: Colour, *fields: Any,
                **named: Any) -> GameState:
        state = super().__new__(cls, rules, position, player, *fields, **named)
        # R-SCORE-MARCIA counts a prime held at any moment: one standing in the position a
        # state is made with is held. From then on only a step can make one (_played).
        if rules.primes is not None:
            held = list(state.prime_held)
            for side, board in ((player, position.mover), (player.other, position.opponent)):
                held[side.index] = held[side.index] or rules.primes.holds(board)
            state = state._replace(prime_held=(held[0], held[1]))
        return state

    @classmethod
    def start(cls, rules: RuleSet, first: Colour = Colour.WHITE,
              lead_rolls: tuple[tuple[int, int], ...] = (), crawford: bool = False) -> GameState:
        """The state before the first turn. ``first`` starts, unless ``lead_rolls``
        (White's die, Black's die; the last one not a tie) say otherwise: the higher die
        starts (R-LEAD). In ``backgammon`` and ``versailles`` the lead dice are the
        starter's first roll, and in ``versailles`` a doublet lead is first played by
        White, then by Black (R-LEADDICE). ``crawford``: the Crawford game of a match,
        where no one may double."""
        forced: list[tuple[Colour, Dice]] = []
        if lead_rolls:
            white, black = lead_rolls[-1]
            first = Colour.WHITE if white > black else Colour.BLACK
            if rules.doublet_leads:
                for die, _ in lead_rolls[:-1]:
                    forced += [(Colour.WHITE, Dice(die, die)), (Colour.BLACK, Dice(die, die))]
            if rules.lead_is_first_roll:
                forced.append((first, Dice(white, black)))
        player = forced[0][0] if forced else first
        return cls(rules, rules.start if player is Colour.WHITE else rules.start.swapped(),
                   player, forced=tuple(forced), crawford=crawford)

    def _moved_on(self, position: Position, player: Colour, passed: Dice | None,
                  prime_held: tuple[bool, bool], forced: tuple[tuple[Colour, Dice], ...]) -> GameState:
        """The state after a turn played, the game going on: ``_replace`` of the fields a
        turn changes, without its cost (the reader makes one a turn).

        Kept as a speed trick: ``self._replace(...)`` here costs 4,100 -> 13,100
        instructions a turn (callgrind), 6.7% of reading and validating 20 generated games
        of every rule set (1.60G -> 1.70G besides the import; 11,962 turns) and 8.3% of
        validating 119 files of the .mat corpus."""
        rules, _, _, cube, owner, offered, _, _, winner, points, ended_by, _, crawford = self
        return _new_tuple(GameState, (rules, position, player, cube, owner, offered, passed,
                                      prime_held, winner, points, ended_by, forced, crawford))

    @property
    def over(self) -> bool:
        return self.winner is not None

    def white_view(self) -> Position:
        """The position seen by White, whoever is to act."""
        return self.position if self.player is Colour.WHITE else self.position.swapped()

    def seen_next(self) -> tuple[Position, Colour]:
        """The position and who sees it next: the player to act, or at the end of a game
        the loser (as ``jacquet legal --json`` and gnubg give a finished game's last
        position).

        >>> from notation import rule_set
        >>> start = GameState.start(rule_set("jacquet"))
        >>> start.seen_next()[1].title
        'White'
        >>> won = start._replace(winner=Colour.WHITE, points=2, ended_by="bear-off")
        >>> won.seen_next()[1].title, won.seen_next()[0] == start.position.swapped()
        ('Black', True)
        """
        if self.winner is not None and self.player is self.winner:
            return self.position.swapped(), self.player.other
        return self.position, self.player

    def pips(self) -> tuple[int, int]:
        """(White, Black) pip counts, whoever is to act."""
        mover, opponent = self.position.pip_counts()
        return (mover, opponent) if self.player is Colour.WHITE else (opponent, mover)

    def after(self, kind: TurnKind, dice: Dice | None = None,
              written: str | WrittenPlay | None = None,
              by: Colour | None = None) -> tuple[GameState, Turn]:
        """Apply one turn; return the next state and the turn as played. ``by`` names the
        player who resigns when it is not the one to act."""
        if self.winner is not None:  # (self.over, without a property's call)
            raise GameRuleError("R-END", Message.of("game.over", winner=self.winner.named,
                                                    points=self.points,
                                                    ended=Message.of(f"ended.{self.ended_by}")))
        if not (kind == ROLL and dice is not None and self.passed is None and not self.offered
                and not self.forced):  # (the common case, which the checks below let through)
            if kind in CUBE_ACTIONS:
                return self._cube(kind)
            if kind == RESIGN:
                return self._resign(by or self.player)
            dice = self._dice_to_play(kind, dice)
        play = check_play(self.position, dice, written if written is not None else "-", self.rules)
        return self.with_play(kind, dice, play), Turn(kind, self.player, dice, play)

    def _dice_to_play(self, kind: TurnKind, dice: Dice | None) -> Dice:
        """The dice of a roll or of passed dice (R-PASS), or the game-level rule it breaks."""
        if kind not in (ROLL, PASSED):
            raise InvalidError(Message.of("game.turn-kind", kind=repr(kind)))
        if self.offered:
            raise GameRuleError("R-CUBE", Message.of("cube.take-or-drop", player=self.player.named))
        if kind == ROLL and self.passed is not None:
            raise GameRuleError("R-PASS", Message.of("pass.play-first", dice=_dice_words(self.passed),
                                                     player=self.player.named, passed=str(self.passed)))
        if kind == PASSED:
            if self.passed is None:
                raise GameRuleError("R-PASS", Message.of("pass.none", player=self.player.named))
            if dice is not None and dice != self.passed:
                raise GameRuleError("R-PASS", Message.of("pass.other", dice=_dice_words(self.passed),
                                                         player=self.player.named, written=str(dice)))
            dice = self.passed
        if dice is None:
            raise InvalidDiceError(Message.of("dice.needed"))
        if self.forced and kind == ROLL and self.forced[0][1] != dice:
            raise GameRuleError(self.rules.lead_rule, Message.of("lead.dice", lead=str(self.forced[0][1]),
                                                                 dice=str(dice)))
        return dice

    def with_play(self, kind: TurnKind, dice: Dice, play: Play) -> GameState:
        """The state after ``play``, one of the legal plays of this state's position and
        ``dice``, without checking it again (a play-out's turns come from the move generator;
        :meth:`after` checks a written play)."""
        prime_held = self.prime_held
        # Until a player's first prime is seen, none stands at the start of his turn (one
        # in the position a state is made with is seen then), so only a step can make one.
        watch = self.rules.primes
        if (watch is not None and not prime_held[self.player.index]
                and watch.made(self.position.mover, play.steps)):
            primes = list(prime_held)
            primes[self.player.index] = True
            prime_held = (primes[0], primes[1])
        if play.result.mover[OFF] == MEN:
            points = self.rules.score(play.result, prime_held[self.player.index], self.cube)
            return self._replace(position=play.result, passed=None, prime_held=prime_held,
                           winner=self.player, points=points, ended_by="bear-off")
        passed = self._dice_to_pass(dice, play) if kind == ROLL and self.rules.passes_dice else None
        forced = self.forced[1:] if kind == ROLL else self.forced
        if kind == PASSED:
            following = self.player  # the passed dice are played; he now rolls his own
        elif forced and passed is None:
            following = forced[0][0]
        else:
            following = self.player.other
        position = play.result if following is self.player else play.next_position
        return self._moved_on(position, following, passed, prime_held, forced)

    def _dice_to_pass(self, dice: Dice, play: Play) -> Dice | None:
        """R-PASS (``versailles``): of a non-doublet roll, the die or dice the mover could not
        play go to the opponent; dice passed once are never passed back (so only a roll's
        are). A doublet none of whose steps can be played passes whole; a partly played
        doublet loses the rest."""
        if not play.steps:
            return dice
        if dice.is_doublet or len(play.steps) == 2:
            return None
        used = play.steps[0].die
        # (low is None for a roll of one die, which versailles accepts: played whole, it
        # passes Dice(None), a value no reader makes; left as it was)
        return Dice(dice.low if used == dice.high else dice.high)  # type: ignore[arg-type]

    def _cube(self, kind: TurnKind) -> tuple[GameState, Turn]:
        if not self.rules.has_cube:
            raise GameRuleError("R-CUBE", Message.of("cube.none", rules=self.rules.name))
        if kind == DOUBLE:
            if self.crawford:
                raise GameRuleError("R-CUBE", Message.of("cube.crawford"))
            if self.offered:
                raise GameRuleError("R-CUBE", Message.of("cube.offered"))
            if self.cube_owner is not None and self.cube_owner is not self.player:
                raise GameRuleError("R-CUBE", Message.of("cube.owned", player=self.player.named,
                                                         owner=self.cube_owner.named, cube=self.cube))
            if self.passed is not None:
                raise GameRuleError("R-CUBE", Message.of("cube.before-roll"))
            if self.forced:
                raise GameRuleError("R-CUBE", Message.of("cube.before-opening"))
            offered = self._replace(offered=True, player=self.player.other,
                              position=self.position.swapped())
            return offered, Turn(DOUBLE, self.player)
        if not self.offered:
            raise GameRuleError("R-CUBE", Message.of("cube.not-offered", player=self.player.named,
                                                     kind=kind))
        doubler = self.player.other
        if kind == TAKE:
            if self.cube * 2 > MAX_CUBE:
                raise GameRuleError(LIMIT, Message.of("cube.limit", most=MAX_CUBE))
            taken = self._replace(offered=False, cube=self.cube * 2, cube_owner=self.player,
                            player=doubler, position=self.position.swapped())
            return taken, Turn(TAKE, self.player)
        dropped = self._replace(offered=False, winner=doubler, points=self.cube, ended_by="drop")
        return dropped, Turn(DROP, self.player)

    def _resign(self, by: Colour) -> tuple[GameState, Turn]:
        # The points of a resignation are those the record declares; see resigned_for.
        ended = self._replace(winner=by.other, offered=False, ended_by="resign")
        return ended, Turn(RESIGN, by)

    def resigned_for(self, points: int) -> GameState:
        """A resigned game's state with the points the record gives it, if the rule set
        allows them (backgammon: 1-3 times the cube; otherwise the rule set's range)."""
        allowed = self.resign_points()
        if points not in allowed:
            raise GameRuleError(self.rules.score_rule, Message.of(
                "resign.points", rules=self.rules.name, allowed=_range_words(allowed), points=points))
        return self._replace(points=points)

    def resign_points(self) -> list[int]:
        """The points a resignation may give now (:meth:`RuleSet.resign_points` with the
        cube as it stands)."""
        return self.rules.resign_points(self.cube)



def pips_after(pips: tuple[int, int], turn: Turn, opposite: tuple[int, ...]) -> tuple[int, int]:
    """The (White, Black) pip counts after ``turn``, ``pips`` before it (``opposite``: the
    rule set's): the next state's :meth:`GameState.pips`, worked out from the turn's steps.
    Each step takes its man ``from_point - to_point`` pips on (a man borne off is at 0,
    one on the bar at 25), and a hit sends an opposing man from his point
    ``opposite[to_point]`` back to the bar. A cube action or a resignation moves no man."""
    play = turn.play
    if play is None:
        return pips
    moved = sent_back = 0
    for from_point, to_point, _, hit in play.steps:
        moved += from_point - to_point
        if hit:
            sent_back += BAR - opposite[to_point]
    if turn.player.index:
        return pips[0] + sent_back, pips[1] - moved
    return pips[0] - moved, pips[1] + sent_back


def _dice_words(dice: Dice) -> Message:
    """``die 3 was`` / ``dice 5-3 were``, for messages."""
    if dice.low is None:
        return Message.of("pass.die-was", dice=str(dice))
    return Message.of("pass.dice-were", high=dice.high, low=dice.low)


def _range_words(values: list[int]) -> str | Message:
    if len(values) > 3 and values == list(range(values[0], values[-1] + 1)):
        return Message.of("range.to", low=values[0], high=values[-1])
    return either([str(v) for v in values], each=True)
