"""The one move generator shared by every rule set.

A turn is a sequence of single-die steps. :class:`TurnRules` judges one step against the
shared rules (R-OPEN, R-HIT, R-BAR, R-BEAROFF / R-BEAROFF-REAR) and then the rule set's
own step rules (the courier, the blocking limits...). :func:`legal_plays` explores every
sequence of steps depth first, remembering the states already seen, then keeps the
sequences the turn-level rules allow (R-MAX, R-WASTE, R-HIGH) and returns one
:class:`~notation.engine.play.Play` per distinct resulting position.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from notation.engine.board import BAR, MEN, OFF, POINT_NAMES, Position, point_name
from notation.engine.dice import Dice
from notation.engine.play import Play, Step
from notation.engine.rules import RuleSet, StepContext
from notation.engine.rules import rule_set as get_rule_set
from notation.errors import InvalidDiceError
from notation.messages import Message

Board = tuple[int, ...]

R_EMPTY = "R-EMPTY"
R_BAR = "R-BAR"
R_OPEN = "R-OPEN"
R_BEAROFF = "R-BEAROFF"
R_BEAROFF_REAR = "R-BEAROFF-REAR"


StepResult = tuple[str | None, Board, Board, Step | None]
"""The outcome of one step, ``(broken, mover, opponent, step)``: ``broken`` is ``None`` when
it is legal, else the rule id; then the boards after it (before it, when broken) and the
step (``None`` when broken). A plain tuple: the engine makes one for every step it tries,
and a named tuple costs several times as much to make."""


def _landing(from_point: int, die: int) -> int:
    """Where a die takes a man, before any rule: 0 for off, the entry point from the bar."""
    return BAR - die if from_point == BAR else max(from_point - die, OFF)


_STEPS: tuple[tuple[tuple[Step, Step], ...], ...] = tuple(
    tuple((Step(from_point, _landing(from_point, die), die, False),
           Step(from_point, _landing(from_point, die), die, True)) for die in range(7))
    for from_point in range(BAR + 1))
"""Every step there can be, as ``_STEPS[from_point][die][hit]`` (point 0 and die 0 only
fill the indices): a step is fixed by where it starts, its die, and whether it hits. The
engine takes more steps than anything else, and looking one up costs a fraction of making
a named tuple."""


def die_sequence(dice: Dice, rules: RuleSet) -> tuple[int, ...]:
    """The steps the dice give: both dice (a die passed alone: itself), or a doublet's
    four (or n, squared) steps."""
    high, low = dice.high, dice.low
    if low != high:
        return (high,) if low is None else (high, low)
    return rules.doublet_sequences[high]


class TurnRules:
    """The rules for the steps of one turn: a rule set, the position at the start of the
    turn, and the dice."""

    __slots__ = (
        "closes_at",
        "dice",
        "die_sequence",
        "hitting",
        "opposite",
        "order_free",
        "rear_bear_off",
        "rules",
        "start",
        "step_rules",
        "turn_filters",
    )

    def __init__(self, rules: RuleSet, position: Position, dice: Dice) -> None:
        self.rules = rules
        self.start = position
        self.dice = dice
        self.opposite = rules.opposite
        self.hitting = rules.hitting
        self.closes_at = rules.closes_at
        self.rear_bear_off = rules.bear_off == "rear"
        step_rules = rules.step_rules
        if step_rules:
            step_rules = tuple([rule for rule, applies in rules.step_filters
                                if applies(rules, position)])
        self.step_rules = step_rules
        self.order_free = not step_rules
        self.turn_filters = tuple([rule for rule in rules.turn_filters
                                   if rule.applies(rules, position)])
        self.die_sequence = die_sequence(dice, rules)

    def step(self, mover: Board, opponent: Board, from_point: int, die: int) -> StepResult:
        """Play one die with one man from ``from_point``; say which rule it breaks, if any
        (see :data:`StepResult`)."""
        if not mover[from_point]:
            return R_EMPTY, mover, opponent, None
        if mover[BAR] and from_point != BAR:
            return R_BAR, mover, opponent, None
        to_point = BAR - die if from_point == BAR else from_point - die
        hit = False
        if to_point <= 0:
            if any(mover[7:26]):
                return R_BEAROFF, mover, opponent, None
            if self.rear_bear_off:
                if any(mover[from_point + 1:7]):
                    return R_BEAROFF_REAR, mover, opponent, None
            elif to_point < 0 and any(mover[from_point + 1:7]):
                return R_BEAROFF, mover, opponent, None
            to_point = OFF
        else:
            their_point = self.opposite[to_point]
            there = opponent[their_point]
            if there >= self.closes_at:
                return R_OPEN, mover, opponent, None
            if there and self.hitting:
                hit = True
                board = list(opponent)
                board[their_point] -= 1
                board[BAR] += 1
                opponent = tuple(board)
        board = list(mover)
        board[from_point] -= 1
        board[to_point] += 1
        after = tuple(board)
        ctx = None
        for rule in self.step_rules:
            if rule.watches is None or to_point in rule.watches:
                ctx = ctx or StepContext(self.rules, self.start, mover, after, opponent,
                                         from_point, to_point, self.dice)
                if rule.broken(ctx):
                    return rule.rule_id, mover, opponent, None
        return None, after, opponent, _STEPS[from_point][die][hit]

    def explain(self, mover: Board, opponent: Board, from_point: int, die: int,
                broken: str, written: str | Message | None = None) -> Message:
        """The message for a step that breaks ``broken``."""
        to_point = _landing(from_point, die)
        text = written or f"{point_name(from_point)}/{point_name(to_point)}"
        if broken == R_EMPTY:
            return Message.of("rule.empty", step=text, point=point_name(from_point))
        if broken == R_BAR:
            return Message.of("rule.bar", step=text)
        if broken == R_OPEN:
            men = opponent[self.opposite[to_point]]
            return Message.of("rule.open", step=text, point=to_point, count=men)
        if broken == R_BEAROFF:
            outside = [p for p in range(BAR, 6, -1) if mover[p]]
            if outside:
                return Message.of("rule.bearoff.outside", step=text, point=point_name(outside[0]))
            higher = max(p for p in range(1, 7) if mover[p])
            return Message.of("rule.bearoff.higher", step=text, die=die, point=from_point,
                              higher=higher)
        if broken == R_BEAROFF_REAR:
            rear = max(p for p in range(1, 7) if mover[p])
            return Message.of("rule.bearoff.rear", step=text, point=from_point, rear=rear)
        board = list(mover)
        board[from_point] -= 1
        board[to_point] += 1
        ctx = StepContext(self.rules, self.start, mover, tuple(board), opponent,
                          from_point, to_point, self.dice)
        for rule in self.rules.step_rules:
            if rule.rule_id == broken:
                return rule.explain(ctx, text)
        # (every id is explained above)
        return Message.of("rule.broken", step=text, rule=broken)  # pragma: no cover

    def write(self, play: Play) -> str:
        """The canonical notation of a legal play of this turn."""
        return notation_of(self, play.steps, play.result)

    def write_reordered(self, play: Play) -> str:
        """The canonical notation of a legal play whose steps are in the order they were
        written: first put in the order the generator would find them."""
        return notation_of(self, canonical_order(self, play.steps), play.result)

    def sources(self, mover: Board) -> Iterator[int]:
        """Points a step may start from, bar first, then from the rear."""
        if mover[BAR]:
            yield BAR
            return
        for point in range(24, 0, -1):
            if mover[point]:
                yield point


class StepSequence(NamedTuple):
    """A sequence of legal steps, and the boards (mover, opponent) it leaves."""

    steps: tuple[Step, ...]
    mover: Board
    opponent: Board


def step_sequences(turn: TurnRules) -> list[StepSequence]:
    """Every maximal sequence of legal steps (no further die can be played), one per
    distinct (result, dice used), found depth first from the rear so that the first
    sequence found for a result is its canonical order.

    When no step rule can fire in this turn (always in backgammon) the order of the steps
    cannot matter, so only orders whose starting points never rise are explored; the
    results are the same."""
    found: list[StepSequence] = []
    seen: set[tuple[Board, Board, tuple[int, ...]]] = set()
    order_free = turn.order_free
    step = turn.step
    points = tuple(range(BAR, 0, -1))

    def explore(mover: Board, opponent: Board, dice: tuple[int, ...], steps: tuple[Step, ...],
                highest: int) -> None:
        key = (mover, opponent, dice)
        if key in seen:
            return
        seen.add(key)
        moved = False
        distinct = dice[:1] if dice[0] == dice[-1] else dice
        sources = (BAR,) if mover[BAR] else points
        for from_point in sources:
            if not mover[from_point] or from_point > highest:
                continue
            for die in distinct:
                _, after, theirs, made = step(mover, opponent, from_point, die)
                if made is not None:  # (legal: see StepResult)
                    moved = True
                    if len(dice) > 1:
                        rest = list(dice)
                        rest.remove(die)
                        explore(after, theirs, tuple(rest), steps + (made,),
                                from_point if order_free else BAR)
                    else:
                        found.append(StepSequence(steps + (made,), after, theirs))
        if not moved:
            found.append(StepSequence(steps, mover, opponent))

    start = turn.start
    explore(start.mover, start.opponent, turn.die_sequence, (), BAR)
    return found


def allowed(turn: TurnRules, sequences: list[StepSequence],
            filtered: bool = True) -> list[StepSequence]:
    """The sequences the turn-level rules keep: R-MAX (most dice), then R-WASTE (most men
    borne off, where the rule set has it), then R-HIGH (the higher die when only one of a
    non-doublet can be played), then (unless ``filtered`` is false) the rule set's turn
    filters, each keeping the sequences whose result it allows where there are some
    (``fevga``'s R-UNBLOCK)."""
    most = max(len(s.steps) for s in sequences)
    kept = [s for s in sequences if len(s.steps) == most]
    if turn.rules.waste:
        best = max(s.mover[OFF] for s in kept)
        kept = [s for s in kept if s.mover[OFF] == best]
    dice = turn.dice
    if most == 1 and not dice.is_doublet and dice.low is not None:
        high = [s for s in kept if s.steps[0].die == dice.high]
        kept = high or kept
    if filtered:
        rules, start = turn.rules, turn.start
        for rule in turn.turn_filters:
            kept = [s for s in kept if rule.keeps(rules, start, s.mover)] or kept
    return kept


def legal_plays(position: Position, dice: Dice | str, rules: RuleSet | str | None = None) -> list[Play]:
    """Every legal play for the player on roll, one per distinct resulting position,
    sorted, each with its single-die steps and canonical notation;
    :class:`~notation.errors.InvalidPositionError` for a position the rule set does not
    allow (men on a bar it has not, both sides on one point).

    >>> from notation.engine.board import Position
    >>> [str(p) for p in legal_plays(Position.from_points({24: 15}, {24: 15}), "55")]
    ['24/19/14/9/4']
    """
    rules = _rules(rules)
    dice = Dice.parse(dice) if isinstance(dice, str) else dice
    if dice.low is None and not rules.passes_dice:
        raise InvalidDiceError(Message.of("rule.one-die", dice=str(dice), rules=rules.name))
    turn = TurnRules(rules, rules.check_position(position), dice)
    return plays_of(turn, allowed(turn, step_sequences(turn)))


def plays_of(turn: TurnRules, sequences: list[StepSequence]) -> list[Play]:
    """One play per distinct result of the allowed ``sequences`` (the first found, which
    is in canonical order), sorted."""
    plays: dict[tuple[Board, Board], Play] = {}
    writer = turn.write
    for sequence in sequences:
        key = (sequence.mover, sequence.opponent)
        if key not in plays:
            plays[key] = Play(sequence.steps, Position._trusted(*key), writer)
    return sorted(plays.values(), key=Play.sort_key)


def _rules(rules: RuleSet | str | None) -> RuleSet:
    if rules is None:
        return get_rule_set()
    if isinstance(rules, str):
        return get_rule_set(rules)
    return rules


# -- canonical notation ---------------------------------------------------------------


def canonical_order(turn: TurnRules, steps: tuple[Step, ...]) -> tuple[Step, ...]:
    """The same steps in the order the generator would find them: at each point the legal
    step from the rear-most point (higher die first) comes first.

    ``steps`` must be legal in the order given. When that order already goes from the rear
    (starting points never rise, and the higher die first from one point) it is the one
    the generator finds first, so it is kept as it is: the common case, checked without
    playing a step. When no step rule can fire (see :func:`step_sequences`) and no step
    hits, the steps sorted so are that order too (no order makes a hit where the one
    given made none), again without playing a step."""
    if from_the_rear(steps):
        return steps
    if turn.order_free and not any(step.hit for step in steps):
        return tuple(sorted(steps, key=_rear_first))
    return _generator_order(turn, turn.start.mover, turn.start.opponent, steps) or steps


def from_the_rear(steps: tuple[Step, ...]) -> bool:
    """Whether ``steps`` go from the rear: starting points never rise, and the higher die
    comes first from one point."""
    earlier = None
    for step in steps:
        if earlier is not None and (step.from_point > earlier.from_point or (
                step.from_point == earlier.from_point and step.die > earlier.die)):
            return False
        earlier = step
    return True


def _rear_first(step: Step) -> tuple[int, int]:
    """The sort key of steps from the rear: the rear-most point first, the higher die first."""
    return -step.from_point, -step.die


def _generator_order(turn: TurnRules, mover: Board, opponent: Board,
                     left: tuple[Step, ...]) -> tuple[Step, ...] | None:
    """``left`` in the order the generator finds them from ``mover``/``opponent``; ``None``
    if no order of them is legal from there."""
    if not left:
        return ()
    tried: set[tuple[int, int]] = set()
    for step in sorted(left, key=_rear_first):
        if (step.from_point, step.die) in tried:
            continue
        tried.add((step.from_point, step.die))
        _, after, theirs, made = turn.step(mover, opponent, step.from_point, step.die)
        if made is not None:  # (legal: see StepResult)
            rest = list(left)
            rest.remove(step)
            tail = _generator_order(turn, after, theirs, tuple(rest))
            if tail is not None:
                return (made,) + tail
    return None



def moves_of(steps: tuple[Step, ...]) -> list[list[Step]]:
    """Group steps into the moves of single men: a step that starts where a man of this
    turn stopped continues that man's move (``24/18`` then ``18/13`` is ``24/18/13``)."""
    moves: list[list[Step]] = []
    for step in steps:
        for move in reversed(moves):
            if move[-1].to_point == step.from_point and step.from_point != OFF:
                move.append(step)
                break
        else:
            moves.append([step])
    return moves


def _rest_point_needed(turn: TurnRules, move: list[Step], steps: tuple[Step, ...],
                       result: Position) -> bool:
    """For a man moved by both dice of a non-doublet: whether the other order of the dice
    is illegal or ends elsewhere, or (a rule set that scores primes) holds a prime where
    this order does not or the other way round, so the rest point must be written."""
    first, second = move
    start = turn.start
    _, mover, opponent, second_first = turn.step(start.mover, start.opponent,
                                                      first.from_point, second.die)
    if second_first is None or second_first.to_point == OFF:  # (None: broken)
        return True
    _, mover, opponent, first_second = turn.step(mover, opponent, second_first.to_point,
                                                      first.die)
    if first_second is None or (mover, opponent) != (result.mover, result.opponent):
        return True
    primes = turn.rules.primes
    if primes is None:
        return False
    swapped = tuple(second_first if step is first else first_second if step is second else step
                    for step in steps)
    return primes.during(start.mover, steps) != primes.during(start.mover, swapped)


def notation_of(turn: TurnRules, steps: tuple[Step, ...], result: Position) -> str:
    """The canonical text of a legal play (see :class:`~notation.engine.play.Play`)."""
    if not steps:
        return "-"
    doublet = turn.dice.is_doublet
    every_rest_point = doublet and turn.rules.shows_doublet_rest_points
    texts: list[str] = []
    for move in moves_of(steps):
        if len(move) == 1:
            step = move[0]
            texts.append(f"{POINT_NAMES[step.from_point]}/{POINT_NAMES[step.to_point]}"
                         f"{'*' if step.hit else ''}")
            continue
        parts = [POINT_NAMES[move[0].from_point]]
        last = move[-1]
        for step in move:
            if step is last or step.hit or every_rest_point or (
                    not doublet and len(move) == 2 and _rest_point_needed(turn, move, steps, result)):
                parts.append(POINT_NAMES[step.to_point] + ("*" if step.hit else ""))
        texts.append("/".join(parts))
    if len(texts) == len(set(texts)):
        return " ".join(texts)
    counted: dict[str, int] = {}
    for text in texts:
        counted[text] = counted.get(text, 0) + 1
    return " ".join(text if n == 1 else f"{text}({n})" for text, n in counted.items())


__all__ = [
    "MEN",
    "StepSequence",
    "TurnRules",
    "allowed",
    "legal_plays",
    "moves_of",
    "notation_of",
    "plays_of",
    "step_sequences",
]
