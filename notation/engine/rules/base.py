"""What a rule set is: data plus a few hooks over the one shared move generator.

The generator (:mod:`notation.engine.movegen`) knows the rules every relative shares: single-die
steps, closed points, entering from the bar, hitting, bearing off, R-MAX and R-HIGH. A
:class:`RuleSet` says how they are tuned (who closes a point, how doublets count, how men
are borne off) and adds its own *step rules*: checks run after every single step, rest
points of a combined move included (the courier, the blocking limits, ...).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, NamedTuple, Protocol

from notation.engine.board import BAR, HOME, MEN, OFF, TALON, Position
from notation.engine.dice import Dice
from notation.engine.play import Step
from notation.errors import InvalidPositionError
from notation.messages import Message, render


class StepContext(NamedTuple):
    """What a step rule may look at: the rule set, the position the turn started from,
    the mover's board just before and just after the step, the opponent's board after it
    (each side in its own numbering), where the step went from and to, and the turn's
    dice (R-HEAD's first-turn doublets). A named tuple: one is made for every step a step
    rule judges."""

    rules: RuleSet
    turn_start: Position
    before: tuple[int, ...]
    after: tuple[int, ...]
    opponent: tuple[int, ...]
    from_point: int
    to_point: int
    dice: Dice | None = None


class StepRule(Protocol):
    """A check run after every step. ``broken`` says whether the step breaks the rule (on
    its own: the filters below only spare asking it); ``explain`` gives the message for
    the error message (called only on failure).

    Two cheap filters keep the generator fast: ``applies(rules, start)`` says whether the
    rule can fire at all in a turn from ``start`` (a turn none of whose rules can is free of
    the order of its steps: see :class:`~notation.engine.movegen.TurnRules`); ``watches`` is the
    set of points a step must land on for the rule to fire (``None``: any step)."""

    @property
    def rule_id(self) -> str: ...  # pragma: no cover

    @property
    def watches(self) -> frozenset[int] | None: ...  # pragma: no cover

    def applies(self, rules: RuleSet, start: Position) -> bool: ...  # pragma: no cover

    def broken(self, ctx: StepContext) -> bool: ...  # pragma: no cover

    def explain(self, ctx: StepContext, step_text: str | Message) -> Message: ...  # pragma: no cover


class PrimeWatch(Protocol):
    """How a rule set that scores a prime held at any moment (R-SCORE-MARCIA) sees one:
    the engine asks it, and knows nothing of primes itself. Boards are a side's counts in
    its own numbering; ``steps`` a turn's single steps in order."""

    def holds(self, board: Sequence[int]) -> bool:
        """Whether the side holds a prime on ``board``."""
        ...  # pragma: no cover

    def during(self, start: tuple[int, ...], steps: Sequence[Step]) -> bool:
        """Whether the mover holds one at any moment of a turn of ``steps`` from ``start``."""
        ...  # pragma: no cover

    def made(self, start: Sequence[int], steps: Sequence[Step]) -> bool:
        """Whether a step of the turn completes one (``start`` holding none)."""
        ...  # pragma: no cover

    def possible(self, start: tuple[int, ...], steps: Sequence[Step]) -> bool:
        """Whether the turn's steps, in any order, could make one for a moment."""
        ...  # pragma: no cover


BearOff = Literal["highest", "rear"]
"""How men are borne off: a higher die from the highest point (R-BEAROFF), or from the
rear-most point only (R-BEAROFF-REAR)."""

class TurnFilter(Protocol):
    """A turn-level rule applied after R-MAX, R-WASTE and R-HIGH (``fevga``'s R-UNBLOCK):
    of the plays they allow, only those whose result it ``keeps`` are legal, where there is
    such a play (otherwise it lapses for the turn). ``applies(rules, start)`` says whether
    it can bind in a turn from ``start`` at all; ``keeps`` judges a play by the mover's
    board it leaves; ``explain`` gives the message for a play it refuses (its text)."""

    @property
    def rule_id(self) -> str: ...  # pragma: no cover

    def applies(self, rules: RuleSet, start: Position) -> bool: ...  # pragma: no cover

    def keeps(self, rules: RuleSet, start: Position, mover: tuple[int, ...]) -> bool:
        ...  # pragma: no cover

    def explain(self, rules: RuleSet, start: Position, play_text: str) -> Message:
        ...  # pragma: no cover


class HeadLimit(Protocol):
    """A rule that limits how many men leave one point in a turn (``narde``'s R-HEAD), as
    the board shows it: the ``point`` (the side's own number), whether the rule ``limits``
    a side on its ``board`` (its own numbering), and its ``legend``, the rule in a few
    words for the board's readers."""

    @property
    def rule_id(self) -> str: ...  # pragma: no cover

    @property
    def point(self) -> int: ...  # pragma: no cover

    @property
    def legend(self) -> Message: ...  # pragma: no cover

    def limits(self, board: tuple[int, ...]) -> bool: ...  # pragma: no cover


@dataclass(frozen=True)
class PositionClass:
    """A kind of position the engine judges with an evaluator of its own (issue 35): its
    ``name`` (``bearoff``, ``race``, ``contact``) and the test ``holds(rules, position)``.
    A rule set lists its classes in order (:attr:`RuleSet.position_classes`); the first
    whose test holds is the position's class (:meth:`RuleSet.position_class`)."""

    name: str
    holds: Callable[[RuleSet, Position], bool]


def all_home(rules: RuleSet, position: Position) -> bool:
    """Both sides in a pure bear-off: every man of each side on its home points or off."""
    return all(not any(board[point] for point in range(HOME.stop, BAR + 1))
               for board in (position.mover, position.opponent))


def rearmost(board: Sequence[int]) -> int:
    """A side's rearmost man, on its own route (25: on the bar; 0: all borne off)."""
    return next((point for point in range(BAR, 0, -1) if board[point]), 0)


def frontmost_on(rules: RuleSet, board: Sequence[int]) -> int:
    """Where, on the other side's route, the man of ``board`` lies that is furthest ahead
    of it (``RuleSet.opposite`` maps the points; a man on the bar counts as on the entry
    point furthest ahead); 25 when no man is left."""
    entry = min(rules.opposite[point] for point in range(BAR - 6, BAR))
    places = [rules.opposite[point] for point in range(1, BAR) if board[point]]
    if board[BAR]:
        places.append(entry)
    return min(places, default=BAR)


def no_contact(rules: RuleSet, position: Position) -> bool:
    """A race: no man of either side has still to pass a man of the other (each side's
    rearmost man is behind, on its own route, every man of the other side), so no play of
    one can block or hit the other. Without hitting, every man of each side has passed
    every man of the other; with it, contact is over."""
    mover, opponent = position.mover, position.opponent
    return (rearmost(mover) <= frontmost_on(rules, opponent)
            and rearmost(opponent) <= frontmost_on(rules, mover))


BEAROFF_CLASS = PositionClass("bearoff", all_home)
"""Both sides in a pure bear-off: the exact bear-off tables judge it."""
RACE_CLASS = PositionClass("race", no_contact)
"""No contact left: the race evaluator judges it."""
def any_position(rules: RuleSet, position: Position) -> bool:
    """Every position (the last class's test)."""
    return True


CONTACT_CLASS = PositionClass("contact", any_position)
"""The rest: the contact net judges it."""
POSITION_CLASSES = (BEAROFF_CLASS, RACE_CLASS, CONTACT_CLASS)
"""The classes every rule set of the project has, in the order they are tried."""
STAGES = ("opening", "middle", "race", "bearoff")
"""The stages of a game, in the order a game goes through them (:meth:`RuleSet.stage`)."""


Scorer = Callable[["RuleSet", Position, bool, int], int]
"""Points won: ``(rules, final position seen by the winner, winner held a prime, cube)``."""

Ceiling = Callable[["RuleSet", tuple[int, ...], tuple[int, ...], bool], int]
"""The most points a win can still bring, cubeless: ``(rules, winner's board, loser's board,
winner has held a prime)``, each board in its own numbering (see :meth:`RuleSet.most_points`)."""


@dataclass(frozen=True)
class Outcome:
    """A win worth more than the single game (a double game, a gammon, marcia...): its name
    in the game's own words, the points it is worth at least (cubeless), and the names of
    the engine's two outputs for it (this side wins so, the other side does)."""

    name: str
    points: int
    win: str
    lose: str


@dataclass(frozen=True)
class Phase:
    """A phase a side is in or out of, judged from its own board alone (the courier's run,
    R-COURIER; a runner's or a head's rule fits the same way): its name, its rule, and the
    test. ``holds(board)`` is the test; ``weights`` and ``bound`` say the same test as one
    linear inequality, ``Σ weights[p] · board[p] <= bound``, for whoever judges many boards
    at once (the engine's encoder)."""

    name: str
    rule_id: str
    holds: Callable[[tuple[int, ...]], bool]
    weights: Mapping[int, int]
    bound: int


GNUBG_SKILL: tuple[tuple[float, str], ...] = (
    (2.0, "skill.supernatural"), (5.0, "skill.world-class"), (8.0, "skill.expert"),
    (12.0, "skill.advanced"), (18.0, "skill.intermediate"), (26.0, "skill.casual"),
    (35.0, "skill.beginner"), (float("inf"), "skill.awful"))
"""GNU Backgammon's rating of a player by his error rate (equity lost per decision, in
thousandths of a point): each label (a message id: ``skill.world-class``, "World class")
holds below its bound. gnubg counts cube decisions too; the engine here judges plays only."""


def scaled_skill(times: float) -> tuple[tuple[float, str], ...]:
    """gnubg's scale with its bounds ``times`` larger (a rule set whose games are worth that
    much more)."""
    return tuple((bound * times, label) for bound, label in GNUBG_SKILL)


@dataclass(frozen=True)
class RuleSet:
    """One rule set: its name, its data and its hooks. Everything that differs between the
    games is said here, once; nothing outside ``notation/engine/rules/`` asks a rule set's
    name what it is (``tests/test_rule_set_names.py``).

    ``title`` is the message id of the name shown to people (``rules.title.versailles``,
    ``Jacquet de Versailles``; :meth:`titled` says it in a language).

    ``opposite[p]`` is the opponent's number for the mover's point ``p`` (1-24).
    ``closes_at`` is how many opposing men close a point (1 without hitting, 2 with).
    ``bear_off`` is ``"highest"`` (R-BEAROFF) or ``"rear"`` (R-BEAROFF-REAR).
    ``score`` maps the final position, seen by the winner, to the points won;
    ``primes`` (a :class:`PrimeWatch`) is there when it needs to know whether the winner
    ever held a prime (:attr:`tracks_prime`).
    ``outcomes`` are the wins worth more than one point, cheapest first (empty where the
    loser pays ``penalties`` by the men he has left, as in hale); ``ceiling`` says what a
    win can still bring from a position (:meth:`most_points`), so which outcomes can
    still happen. ``penalty_rates`` (with ``penalties``) are the points each of the loser's
    men left on a point costs him, by point (0-25). ``marks`` are the equity losses, in the
    rule set's own points, from which the analysis marks a play doubtful, bad, very bad
    (``docs/analysis.md``), and ``skill`` the scale an error rate is labelled on (bounds in
    thousandths of its points per decision, each label below its bound: :meth:`skill_label`);
    ``confirmation`` is how the analysis confirms those marks unless told (a setting of
    ``jacquet analyse --confirm``, :data:`analysis.confirm.CONFIRMATIONS`): ``2ply+rollout``,
    2-ply's marks checked by a rollout, measured better than ``2ply`` against GNU Backgammon
    2-ply in backgammon and against 1,296-game rollouts in jacquet, hale, narde and fevga, at
    about twice its cost on a club's game (``docs/analysis.md``, "Marks that hold").
    ``phases`` are the phases a side goes through (the courier's run): the engine's encoder
    gives each its input and the heuristic player values leaving them.
    ``position_classes`` are the kinds of position the engine judges each with its own
    evaluator, in order (:class:`PositionClass`: bear-off tables, race, contact), the tests
    read from the rule set's own facts (its ``opposite``, its bar).
    ``head`` is the rule that limits the men leaving the head in a turn (R-HEAD, a
    :class:`HeadLimit`; also among the ``step_rules``), for the board to mark the head
    while it binds.
    ``rethrow_clause``: some sources of the rule set know a rethrow clause the engine does
    not support (R-RETHROW), so a record that uses it is warned.
    ``turn_filters`` are its turn-level rules after R-HIGH (:class:`TurnFilter`).
    ``opening_turns``: where the rule set has no ``phases``, how many of a side's first
    turns are his opening (the game report's stages: :meth:`stage`); with phases, his
    opening is while he is in one of them (the courier's run, the runner's).

    The game-level rules, which the game state applies between turns
    (:mod:`notation.engine.state`), are data here too: ``courier`` (a courier runs first:
    R-COURIER), ``passes_dice`` (unplayable dice go to the opponent: R-PASS), ``has_cube``
    (the doubling cube, and the Crawford game: R-CUBE), ``lead_is_first_roll`` (the lead
    dice are the starter's first roll), ``doublet_leads`` (a tied lead is played, by White
    then Black: R-LEADDICE), ``resign_multiples`` (a resignation scores these times the
    cube; empty: any score of ``score_range``) and ``score_basis`` (the id of the
    message that says how the points were counted; empty: by the men the loser has borne
    off). ``koks_declared``:
    a record may declare 3 times the cube where the rules score a mars (2), the *koks*
    some clubs count, and that result is kept as written (R-SCORE-MARS).
    """

    name: str
    opposite: tuple[int, ...]
    start: Position
    hitting: bool
    title: str = ""
    squared_doublets: bool = False
    bear_off: BearOff = "highest"
    waste: bool = False
    step_rules: tuple[StepRule, ...] = ()
    turn_filters: tuple[TurnFilter, ...] = ()
    score_rule: str = "R-SCORE"
    scorer: Scorer | None = None
    shows_doublet_rest_points: bool = True
    score_range: tuple[int, int] = (1, 2)
    primes: PrimeWatch | None = None
    outcomes: tuple[Outcome, ...] = ()
    penalties: bool = False
    penalty_rates: tuple[int, ...] = ()
    ceiling: Ceiling | None = None
    marks: tuple[float, float, float] = (0.04, 0.08, 0.16)
    skill: tuple[tuple[float, str], ...] = GNUBG_SKILL
    confirmation: str = "2ply+rollout"
    phases: tuple[Phase, ...] = ()
    head: HeadLimit | None = None
    rethrow_clause: bool = False
    passes_dice: bool = False
    has_cube: bool = False
    lead_is_first_roll: bool = False
    doublet_leads: bool = False
    resign_multiples: tuple[int, ...] = ()
    score_basis: str = ""
    koks_declared: bool = False
    options: Mapping[str, object] = field(default_factory=dict)
    position_classes: tuple[PositionClass, ...] = POSITION_CLASSES
    opening_turns: int = 3
    step_filters: tuple[tuple[StepRule, Callable[[RuleSet, Position], bool]], ...] = field(
        init=False, repr=False, compare=False)
    """Each step rule with its ``applies`` filter, in order: looked up once, as every turn
    asks them."""

    doublet_sequences: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    """The steps of each doublet, as ``doublet_sequences[die]`` (see :meth:`doublet_steps`)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "step_filters",
                           tuple((rule, rule.applies) for rule in self.step_rules))
        object.__setattr__(self, "doublet_sequences",
                           tuple((die,) * self.doublet_steps(die) for die in range(7)))

    def position_class(self, position: Position) -> str:
        """The name of the first of :attr:`position_classes` that ``position`` is in
        (``bearoff``, ``race`` or ``contact``): the evaluator that judges it."""
        return next(kind.name for kind in self.position_classes if kind.holds(self, position))

    def stage(self, position: Position, turn: int) -> str:
        """The stage of the game a side's ``turn``-th turn (from 1) from ``position`` (seen
        by him) belongs to, for the game report: ``bearoff`` or ``race`` by the position's
        class (:meth:`position_class`); else ``opening`` while he is in one of
        :attr:`phases` (a rule set without phases: during his first :attr:`opening_turns`
        turns); else ``middle`` (the middle game)."""
        kind = self.position_class(position)
        if kind != "contact":
            return kind
        if self.phases:
            opening = any(phase.holds(position.mover) for phase in self.phases)
        else:
            opening = turn <= self.opening_turns
        return "opening" if opening else "middle"

    def skill_id(self, error_rate: float) -> str:
        """The message id of the label of ``error_rate`` (thousandths of a point per
        decision) on :attr:`skill`: ``skill.world-class`` for 4.0 in backgammon."""
        return next(label for bound, label in self.skill if error_rate < bound)

    def skill_label(self, error_rate: float, language: str | None = None) -> str:
        """The label of ``error_rate`` (thousandths of a point per decision) on
        :attr:`skill`, in ``language`` (default: the current one): ``World class`` for
        4.0 in backgammon."""
        return render(Message.of(self.skill_id(error_rate)), language)

    @property
    def tracks_prime(self) -> bool:
        """Whether the score depends on a prime held at any moment (it has a prime watch)."""
        return self.primes is not None

    @property
    def courier(self) -> bool:
        """Whether a courier runs first (R-COURIER is one of its phases)."""
        return any(phase.rule_id == "R-COURIER" for phase in self.phases)

    def most_points(self, winner: tuple[int, ...], loser: tuple[int, ...],
                    winner_held_prime: bool = False) -> int:
        """The most points a win by ``winner`` over ``loser`` (each board in its own
        numbering) can still bring, cubeless, from the position they stand in: a win worth
        more can no longer happen. ``winner_held_prime``: he has held a prime so far."""
        assert self.ceiling is not None
        return self.ceiling(self, winner, loser, winner_held_prime)

    @property
    def closes_at(self) -> int:
        """How many opposing men close a point: 2 with hitting (one is hit), else 1."""
        return 2 if self.hitting else 1

    @property
    def has_bar(self) -> bool:
        """Whether men can stand on the bar (only where there is hitting)."""
        return self.hitting

    @property
    def lead_rule(self) -> str:
        """The rule a lead roll that cannot be breaks: R-LEADDICE where a tied lead is
        played, else R-LEAD."""
        return "R-LEADDICE" if self.doublet_leads else "R-LEAD"

    def resign_points(self, cube: int = 1) -> list[int]:
        """The points a resignation may give with the cube at ``cube``."""
        if self.resign_multiples:
            return [cube * times for times in self.resign_multiples]
        low, high = self.score_range
        return list(range(low, high + 1))

    def check_position(self, position: Position) -> Position:
        """``position`` itself if this rule set allows it, else :class:`InvalidPositionError`:
        no man on the bar without hitting, never both sides' men on one point."""
        if not self.has_bar and (position.mover[BAR] or position.opponent[BAR]):
            raise InvalidPositionError(Message.of("position.no-bar", rules=self.name))
        for point in range(1, 25):
            if position.mover[point] and position.opponent[self.opposite[point]]:
                raise InvalidPositionError(Message.of("position.shared-point", point=point))
        return position

    def doublet_steps(self, die: int) -> int:
        """How many steps a doublet of ``die`` gives (R-DOUBLET, R-DOUBLET-SQUARED)."""
        return die if self.squared_doublets else 4

    def score(self, final: Position, winner_held_prime: bool = False, cube: int = 1) -> int:
        """Points won, ``final`` being the end position seen by the winner (all 15 off)."""
        if final.mover[OFF] != MEN:
            raise InvalidPositionError(Message.of("position.not-over"))
        assert self.scorer is not None
        return self.scorer(self, final, winner_held_prime, cube)

    @property
    def option_words(self) -> tuple[str, ...]:
        """The non-default options as ``NAME=VALUE`` words, in order."""
        return tuple(f"{name}={value}" for name, value in self.options.items())

    @property
    def options_text(self) -> str:
        """The non-default options as the ``Options`` tag writes them:
        ``courier_release=next-turn bouchon=none`` (empty when there are none)."""
        return " ".join(self.option_words)

    def describe(self) -> str:
        """The name with its non-default options, e.g. ``jacquet(courier_release=next-turn)``."""
        if not self.options:
            return self.name
        return f"{self.name}({', '.join(self.option_words)})"


def jacquet_opposite() -> tuple[int, ...]:
    """The Jacquet family: both sides run the same way; my ``p`` is his ``p ± 12``."""
    return (0,) + tuple(p - 12 if p > 12 else p + 12 for p in range(1, 25)) + (0,)


def backgammon_opposite() -> tuple[int, ...]:
    """Backgammon: the sides run opposite ways; my ``p`` is his ``25 - p``."""
    return (0,) + tuple(25 - p for p in range(1, 25)) + (0,)


def courier_phase(board: tuple[int, ...]) -> bool:
    """R-COURIER, derived from the position alone: no man home (points 6-1), none borne
    off, and at most one man away from the talon (a man on the bar counts as away)."""
    return (board[TALON] >= MEN - 1 and board[OFF] == 0
            and not (board[1] or board[2] or board[3] or board[4] or board[5] or board[6]))


def courier_point(board: tuple[int, ...]) -> int:
    """Where the courier stands: the one man away from the talon (25 if on the bar), or
    the talon itself when no man has left it."""
    for point in range(BAR, 0, -1):
        if point != TALON and board[point]:
            return point
    return TALON


def single_or_double_game(rules: RuleSet, final: Position, held_prime: bool, cube: int) -> int:
    """R-SCORE: 1 point, or 2 when the loser has borne off no man."""
    return 2 if final.opponent[OFF] == 0 else 1


def double_still_possible(rules: RuleSet, winner: tuple[int, ...], loser: tuple[int, ...],
                          held_prime: bool) -> int:
    """R-SCORE's ceiling: 2 while the loser has borne off no man, then 1 (a man borne off
    never comes back)."""
    return 2 if loser[OFF] == 0 else 1


DOUBLE_GAME = Outcome("double game", 2, "win2", "lose2")
"""R-SCORE's 2 points (the loser has borne off none), the Jacquet family's one outcome
above the single game."""
