"""Checking a play as written against the rules.

:func:`check_play` accepts any legal play however it is written (rest points left out,
moves in any order, repeats as ``(2)``) and returns the legal :class:`~notation.engine.play.Play`
it means. Otherwise it raises :class:`~notation.errors.InvalidPlayError` for text that
cannot be read, or :class:`~notation.errors.IllegalPlayError` naming the rule the play
breaks, why, and the legal plays.

How: the written moves are *realized*, i.e. turned into single-die steps, each step judged
by the same :class:`~notation.engine.movegen.TurnRules` the generator uses (the step rules of every
rule set: closed points, the bar, bearing off, the courier, the blocking limits...). Every
realization of a text ends in the same position (the written points fix every man's path,
and a rest point left out is never a hit). The fast path plays the hops in the order
written, without generating the legal plays: a realization that plays every die is
maximal, so R-MAX and R-HIGH cannot refuse it, and only where R-WASTE may apply is a
play of every die that bears off more men looked for; one that leaves dice unplayed is
legal unless a line of steps plays more dice (R-MAX), bears off more (R-WASTE) or plays
the higher die alone (R-HIGH), looked for depth first up to the first such line. An
empty play is legal at once when no single step is. Otherwise every realization is
searched (other orders, other choices of dice), and the turn-level rules (R-MAX,
R-WASTE, R-HIGH) decide against the full list of legal plays.
When no realization gets through, the one that went furthest names the broken rule; the
legal plays, for the error, are generated only then.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import suppress
from dataclasses import dataclass
from functools import partial
from operator import mul

from notation.engine.board import BAR, MEN, OFF, Position, point_name
from notation.engine.dice import Dice
from notation.engine.movegen import (
    Board,
    StepSequence,
    TurnRules,
    allowed,
    canonical_order,
    from_the_rear,
    legal_plays,
    plays_of,
    step_sequences,
)
from notation.engine.play import Play, Step
from notation.engine.rules import DEFAULT, RuleSet
from notation.engine.rules import rule_set as get_rule_set
from notation.engine.written import WrittenMove, WrittenPlay, parse_play
from notation.errors import AmbiguousPlayError, IllegalPlayError
from notation.messages import Message, both, either

R_DICE = "R-DICE"
R_HIT = "R-HIT"


class _Found(Exception):
    """Stops a search at the first realization that plays every die."""


Realization = tuple[tuple[Step, ...], Board, Board]
"""A realization of written moves: its steps, and the boards (mover, opponent) they leave."""

Orders = Callable[[list[int], int, bool, bool], Iterable[tuple[int, ...]]]
"""The orders of dice to try for one written hop: ``orders(dice, distance, off, doublet)``."""


@dataclass
class _Failure:
    rank: tuple[int, ...] = (-1,)
    rule_id: str = ""
    reason: Message | None = None
    move: int | None = None
    """The index of the written move whose step failed."""


class _Search:
    """The state of one realization search: the written moves by index (identical moves
    share a ``kind`` so they are tried once), and what was found."""

    def __init__(self, turn: TurnRules, written: WrittenPlay, check_rules: bool,
                 first_full: bool = False) -> None:
        self.turn = turn
        self.first_full = first_full
        self.full = len(turn.die_sequence)
        self.written = written
        self.check_rules = check_rules
        moves = written.moves
        self.points = [move.points for move in moves]
        self.hits = [move.hits for move in moves]
        self.kind = [moves.index(move) for move in moves]
        self.complete: list[Realization] = []
        self.failure = _Failure()
        self.seen: set[tuple[Board, Board, tuple[int, ...], tuple[tuple[int, int], ...]]] = set()

    def run(self) -> _Search:
        start = self.turn.start
        with suppress(_Found):
            self.realize(start.mover, start.opponent, self.turn.die_sequence,
                         tuple((points[0], 1) for points in self.points), (), 0)
        return self

    def fail(self, depth: int, rule_id: str, reason: Callable[[], Message], move: int,
             whole: bool = False) -> None:
        """Keep the failure that went furthest; at the same depth, one that plays a written
        hop with one die (what the writer most likely meant) over a split of it. ``move``
        is the index of the written move whose step failed."""
        rank = (depth, whole)
        if rank > self.failure.rank:
            self.failure = _Failure(rank, rule_id, reason(), move)

    def realize(self, mover: Board, opponent: Board, dice: tuple[int, ...],
                progress: tuple[tuple[int, int], ...], steps: tuple[Step, ...], done: int) -> None:
        """Depth first over every way to turn the written moves into single-die steps.

        ``progress[i]`` is (where the man of move ``i`` stands, index of the next written
        point he must reach); ``done`` counts the moves finished."""
        if done == len(progress):
            self.complete.append((steps, mover, opponent))
            if self.first_full and len(steps) == self.full:
                raise _Found
            return
        if not dice:
            return
        key = (mover, opponent, dice, progress)
        if key in self.seen:
            return
        self.seen.add(key)
        tried: set[tuple[int, int, int]] = set()
        turn = self.turn
        distinct = dice[:1] if dice[0] == dice[-1] else dice
        for i, (at, index) in enumerate(progress):
            points = self.points[i]
            if index == len(points) or (at, index, self.kind[i]) in tried:
                continue
            tried.add((at, index, self.kind[i]))
            goal = points[index]
            for die in distinct:
                landing = BAR - die if at == BAR else at - die
                if landing < goal and not (goal == OFF and landing < OFF):
                    continue
                if landing < OFF:
                    landing = OFF
                reached = landing == goal
                if self.check_rules:
                    broken, after, theirs, step = turn.step(mover, opponent, at, die)
                    # (the reasons bound in a partial: worked out only for a failure kept)
                    if broken is not None:
                        whole = reached and at == (points[index - 1] if index else at)
                        self.fail(len(steps), broken, partial(
                            _broken_reason, turn, mover, opponent, at, die, broken,
                            self.written.moves[i], landing), i, whole)
                        continue
                    assert step is not None  # (not broken: see StepResult)
                    if step.hit and not reached:
                        self.fail(len(steps) + 1, R_HIT, partial(
                            _hit_on_the_way, self.written.moves[i], at, landing), i)
                        continue
                    if reached and self.hits[i][index] and not step.hit:
                        self.fail(len(steps) + 1, R_HIT, partial(
                            _no_hit_there, self.written.moves[i], landing), i)
                        continue
                    new_mover, new_opponent = after, theirs
                else:
                    step = Step(at, landing, die)
                    new_mover, new_opponent = mover, opponent
                rest = list(dice)
                rest.remove(die)
                finished = reached and index + 1 == len(points)
                advanced = progress[:i] + ((landing, index + 1 if reached else index),) + progress[i + 1:]
                self.realize(new_mover, new_opponent, tuple(rest), advanced, steps + (step,),
                             done + finished)


def _broken_reason(turn: TurnRules, mover: Board, opponent: Board, at: int, die: int,
                   broken: str, move: WrittenMove, landing: int) -> Message:
    """The message for a step of a written move that breaks ``broken``."""
    return turn.explain(mover, opponent, at, die, broken, _step_text(move, at, landing))


def _hit_on_the_way(move: WrittenMove, at: int, landing: int) -> Message:
    return Message.of("rule.hit.on-the-way", move=str(move), point=landing, start=point_name(at))


def _no_hit_there(move: WrittenMove, landing: int) -> Message:
    return Message.of("rule.hit.none-there", move=str(move), point=landing)


def check_play(position: Position, dice: Dice | str, play: str | WrittenPlay,
               rules: RuleSet | str | None = None, exhaustive: bool = False) -> Play:
    """The legal play that ``play`` (text or parsed) means, or an error saying why not.

    ``exhaustive=True`` skips the fast paths and judges the play against every legal play
    (slower, with the same outcome: the reference the fast paths are tested against).

    >>> from notation import rule_set
    >>> start = rule_set("jacquet").start
    >>> str(check_play(start, "56", "24/19/13"))
    '24/13'
    >>> check_play(start, "66", "24/18 24/18")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    notation.errors.IllegalPlayError: [R-COURIER] 24/18 moves a second man while the courier, ...
    """
    rules = rules if isinstance(rules, RuleSet) else get_rule_set(rules or DEFAULT)
    dice = Dice.parse(dice) if isinstance(dice, str) else dice
    written = play if isinstance(play, WrittenPlay) else parse_play(play, rules.hitting)
    if written.marked and not rules.hitting:
        index, move = next((i, move) for i, move in enumerate(written.moves) if any(move.hits))
        raise IllegalPlayError("R-OPEN", Message.of("rule.hit.no-hitting", move=str(move), rules=rules.name),
                               legal_plays(position, dice, rules), index)
    turn = TurnRules(rules, position, dice)
    if len(written.hops) > len(turn.die_sequence):
        # More hops than dice: nothing to search (and a search over many moves is slow).
        raise IllegalPlayError(*_dice_mismatch(turn, written), legal_plays(position, dice, rules))
    waste = rules.waste and _waste_possible(turn)
    if not exhaustive:
        if not written.hops:
            fast = _empty_play(turn)
        else:
            fast = _as_written(turn, written)
            if fast is not None and (turn.turn_filters or _better_play_exists(turn, fast, waste)):
                fast = None  # refused, or read otherwise: the full search decides
        if fast is not None:
            return fast
    return _searched(turn, written, shortcut=not (waste or exhaustive or turn.turn_filters))


def _better_play_exists(turn: TurnRules, play: Play, waste: bool) -> bool:
    """Whether the turn-level rules could prefer another sequence of legal steps to
    ``play`` (legal step by step): one that plays more dice (R-MAX); with R-WASTE
    (``waste``: it may apply this turn), one that plays as many and bears off more men;
    when ``play`` plays the lower of two dice alone, one that plays the higher alone
    (R-HIGH). A play of every die is preferred to only under R-WASTE.

    Depth first, as :func:`~notation.engine.movegen.step_sequences` explores, but stopping at
    the first better line, and dropping a line as soon as it cannot become one: a play
    that bears off with every die is kept without a search."""
    if len(play.steps) == len(turn.die_sequence) and not waste:
        return False  # (the common case, kept apart from the search's closure and its cost)
    return _better_line(turn, play, waste)


def _better_line(turn: TurnRules, play: Play, waste: bool) -> bool:
    """The search of :func:`_better_play_exists`."""
    dice_count, played = len(turn.die_sequence), len(play.steps)
    borne_off = play.result.mover[OFF]
    dice = turn.dice
    higher = (dice.high if played == 1 and dice_count == 2 and play.steps[0].die != dice.high
              else None)
    step, order_free = turn.step, turn.order_free
    seen: set[tuple[Board, Board, tuple[int, ...]]] = set()

    def better(mover: Board, opponent: Board, left: tuple[int, ...], highest: int) -> bool:
        depth = dice_count - len(left)
        if depth > played or (waste and depth == played and mover[OFF] > borne_off):
            return True
        if played == dice_count and mover[OFF] + len(left) <= borne_off:
            return False  # only R-WASTE prefers another play of every die
        key = (mover, opponent, left)
        if not left or key in seen:
            return False
        seen.add(key)
        faces = left[:1] if left[0] == left[-1] else left
        # to beat a play of every die from here, every die left must bear a man off
        only_off = played == dice_count and mover[OFF] + len(left) - 1 <= borne_off
        for from_point in (BAR,) if mover[BAR] else range(min(highest, BAR - 1), 0, -1):
            if not mover[from_point]:
                continue
            for die in faces:
                if only_off and from_point > die:
                    continue  # this step bears no man off
                broken, after, theirs, _ = step(mover, opponent, from_point, die)
                if broken is not None:
                    continue
                if die == higher and (not waste or after[OFF] >= borne_off):
                    return True  # R-HIGH (the higher die alone is a maximal play: see above)
                rest = list(left)
                rest.remove(die)
                if better(after, theirs, tuple(rest),
                          from_point if order_free else BAR):
                    return True
        return False

    start = turn.start
    return better(start.mover, start.opponent, turn.die_sequence, BAR)


def _searched(turn: TurnRules, written: WrittenPlay, shortcut: bool) -> Play:
    """Every way to realize the written moves, judged by the turn-level rules; with
    ``shortcut``, the first realization that plays every die is taken as it is (R-MAX
    cannot refuse it)."""
    search = _Search(turn, written, check_rules=True, first_full=shortcut).run()
    if not search.complete:
        _raise_step_error(search)
    if shortcut:
        full_use = len(turn.die_sequence)
        for steps, mover, opponent in search.complete:
            if len(steps) == full_use:
                return _written_play(turn, steps, mover, opponent)
    return _judge_turn(turn, search, written)


def _as_written(turn: TurnRules, written: WrittenPlay) -> Play | None:
    """The common case, without a search: the moves are legal in the order written. Each
    hop between written points is one die where one fits it; otherwise the dice that add
    up to it (``24/13`` with 6-5: the 6 first, else the 5). Failing that, or when dice are
    left, a second pass takes for every hop the dice in the order the full search tries
    them (the higher first, a man borne off by a higher die), so that what it finds is
    the search's own first answer. The play found may leave dice unplayed (the caller
    asks whether the rules prefer another); ``None`` leaves the play to the search (which
    also finds other orders and readings)."""
    partial = None
    for orders in (_exact_orders, _search_orders):
        realized = _first_realization(turn, written, orders)
        if realized is not None:
            if len(realized[0]) == len(turn.die_sequence):
                return _written_play(turn, *realized)
            partial = partial or realized
    return None if partial is None else _written_play(turn, *partial)


def _first_realization(turn: TurnRules, written: WrittenPlay, orders: Orders) -> Realization | None:
    """Play the written hops in order, each with the first of its ``orders`` of dice whose
    steps are legal; (steps, mover, opponent), every die used or not."""
    dice = list(turn.die_sequence)
    start = turn.start
    mover, opponent = start.mover, start.opponent
    steps: list[Step] = []
    step = turn.step
    for origin, goal, marked in written.hops:
        distance = origin - goal
        if orders is _exact_orders and distance in dice:  # the common case: one die
            _, mover, opponent, made = step(mover, opponent, origin, distance)
            if made is None:  # (broken)
                return None
            dice.remove(distance)
            steps.append(made)
        else:
            hop = _hop(turn, mover, opponent, dice, origin,
                       orders(dice, distance, goal == OFF, turn.dice.is_doublet))
            if hop is None:
                return None
            hop_steps, mover, opponent = hop
            made = hop_steps[-1]
            steps.extend(hop_steps)
        if marked and not made.hit:
            return None
    return tuple(steps), mover, opponent


def _written_play(turn: TurnRules, steps: tuple[Step, ...], mover: Board, opponent: Board) -> Play:
    """The play of a realization of the written moves, its steps in the order written
    (legal so). Where their order could decide a prime held for a moment
    (R-SCORE-MARCIA), they are put in the order the generator finds them, the one the
    canonical text stands for: the score never depends on the order a record wrote its
    moves in, which the canonical text does not keep."""
    result = Position._trusted(mover, opponent)
    watch = turn.rules.primes
    if (watch is not None and not from_the_rear(steps)  # (else the generator's order)
            and watch.possible(turn.start.mover, steps)):
        return Play(canonical_order(turn, steps), result, turn.write)
    return Play(steps, result, turn.write_reordered)


def _hop(turn: TurnRules, mover: Board, opponent: Board, dice: list[int], origin: int,
         orders: Iterable[tuple[int, ...]]) -> tuple[list[Step], Board, Board] | None:
    """Play one written hop from ``origin`` with the first of its ``orders`` of dice whose
    steps are all legal, removing the dice used; (steps, mover, opponent) or ``None``. A
    rest point left out is never a hit: a hit on the way is written (``8/2*/1``)."""
    for order in orders:
        at, board, theirs = origin, mover, opponent
        hop_steps: list[Step] = []
        last = len(order) - 1
        for count, die in enumerate(order):
            _, after, their_after, made = turn.step(board, theirs, at, die)
            if made is None or (made.hit and count < last):  # (None: broken)
                break
            hop_steps.append(made)
            at, board, theirs = made.to_point, after, their_after
        else:
            for die in order:
                dice.remove(die)
            return hop_steps, board, theirs
    return None


def _exact_orders(dice: list[int], distance: int, off: bool,
                  doublet: bool) -> tuple[tuple[int, ...], ...]:
    """The dice for a hop of ``distance`` pips as people mean them: one die that fits, else
    a doublet's die as many times as it divides the distance, else two different dice
    adding up to it, either first."""
    if distance in dice:
        return ((distance,),)
    if not dice:
        return ()
    if doublet:
        die = dice[0]
        count = distance // die
        return ((die,) * count,) if not distance % die and count <= len(dice) else ()
    if len(dice) == 2 and dice[0] + dice[1] == distance:
        return ((dice[0], dice[1]), (dice[1], dice[0]))
    return ()


def _search_orders(dice: list[int], distance: int, off: bool,
                   doublet: bool) -> Iterator[tuple[int, ...]]:
    """Every order of dice that plays a hop of ``distance`` pips, in the order the full
    search tries them: the higher die first; a die past the end of the board bears the man
    off when the hop ends off."""
    distinct = dice[:1] if doublet else dice
    for die in distinct:
        if die == distance or (off and die > distance):
            yield (die,)
        elif die < distance and len(dice) > 1:
            rest = list(dice)
            rest.remove(die)
            for tail in _search_orders(rest, distance - die, off, doublet):
                yield (die,) + tail


def _empty_play(turn: TurnRules) -> Play | None:
    """An empty play is legal exactly when no single step is (R-MAX: any legal first step
    starts a longer sequence); ``None`` otherwise, to leave the error to the full search."""
    start = turn.start
    mover, opponent = start.mover, start.opponent
    faces = set(turn.die_sequence)
    for from_point in turn.sources(mover):
        for die in faces:
            if turn.step(mover, opponent, from_point, die)[0] is None:
                return None
    return Play((), start, turn.write)


def _waste_possible(turn: TurnRules) -> bool:
    """Whether R-WASTE can matter this turn: the rule set has it and the dice could bring
    every man home with a pip to spare for a bear-off."""
    if not turn.rules.waste:
        return False
    mover, pips = turn.start.mover, sum(turn.die_sequence)
    if MEN - sum(mover[:7]) >= pips:  # each man outside is a pip or more from home
        return False
    outside: int = sum(map(mul, mover[7:], range(1, BAR - 5)))  # pips to bring them home
    return outside < pips


def _judge_turn(turn: TurnRules, search: _Search, written: WrittenPlay) -> Play:
    """Apply R-MAX, R-WASTE, R-HIGH and the turn filters to the complete realizations."""
    sequences = step_sequences(turn)
    kept = allowed(turn, sequences)
    legal: dict[tuple[Board, Board], StepSequence] = {}
    for sequence in kept:  # the first sequence of a result is its canonical order
        legal.setdefault((sequence.mover, sequence.opponent), sequence)
    matches: dict[tuple[Board, Board], StepSequence] = {}
    for _, mover, opponent in search.complete:
        if (mover, opponent) in legal:
            matches[(mover, opponent)] = legal[(mover, opponent)]
    if len(matches) == 1:
        sequence = next(iter(matches.values()))
        return Play(sequence.steps, Position._trusted(sequence.mover, sequence.opponent),
                    turn.write)
    plays = plays_of(turn, kept)
    if len(matches) > 1:
        meant = [str(p) for p in plays if (p.result.mover, p.result.opponent) in matches]
        raise AmbiguousPlayError("R-STEP", Message.of("rule.ambiguous", play=str(written),
                                                      meanings=either(meant, each=True)), plays)
    steps, mover, _ = max(search.complete, key=lambda c: (len(c[0]), c[1][OFF]))
    example = plays[0]
    most = len(kept[0].steps)
    if len(steps) < most:
        if turn.dice.is_doublet:
            reason = Message.of("rule.max.doublet", play=str(written),
                                played=Message.of("count.steps", count=len(steps)),
                                die=turn.dice.high, most=most, example=str(example))
        else:
            reason = Message.of("rule.max", play=str(written),
                                played=Message.of("count.dice", count=len(steps)),
                                roll=_roll(turn.dice), most=Message.of("count.dice", count=most),
                                example=str(example))
        raise IllegalPlayError("R-MAX", reason, plays)
    if turn.rules.waste and mover[OFF] < kept[0].mover[OFF]:
        borne = mover[OFF] - turn.start.mover[OFF]
        best = kept[0].mover[OFF] - turn.start.mover[OFF]
        raise IllegalPlayError("R-WASTE", Message.of(
            "rule.waste", play=str(written), borne=Message.of("count.men", count=borne),
            best=best, example=str(example)), plays)
    _raise_filter_error(turn, search, written, sequences, plays)
    raise IllegalPlayError("R-HIGH", Message.of(
        "rule.high", play=str(written), die=steps[0].die, high=turn.dice.high,
        example=str(example)), plays)


def _raise_filter_error(turn: TurnRules, search: _Search, written: WrittenPlay,
                        sequences: list[StepSequence], plays: list[Play]) -> None:
    """The error for a play that R-MAX, R-WASTE and R-HIGH allow but a turn filter refuses
    (``fevga``'s R-UNBLOCK); nothing when no filter refused it."""
    if not turn.turn_filters:
        return
    rules, start = turn.rules, turn.start
    written_results = {(mover, opponent) for _, mover, opponent in search.complete}
    kept = allowed(turn, sequences, filtered=False)
    for rule in turn.turn_filters:  # as allowed() applies them, in order
        narrowed = [s for s in kept if rule.keeps(rules, start, s.mover)]
        if not narrowed:
            continue  # the rule lapses for this turn
        if any((s.mover, s.opponent) in written_results for s in kept) and not any(
                (s.mover, s.opponent) in written_results for s in narrowed):
            raise IllegalPlayError(rule.rule_id, rule.explain(rules, start, str(written)), plays)
        kept = narrowed


def _roll(dice: Dice) -> str:
    """A roll as said in messages: ``5-3``."""
    return "-".join(str(v) for v in dice.values)


def _raise_step_error(search: _Search) -> None:
    """No realization got through: a dice mismatch, or the deepest broken step rule."""
    turn = search.turn
    plays = legal_plays(turn.start, turn.dice, turn.rules)
    if not _Search(turn, search.written, check_rules=False).run().complete:
        raise IllegalPlayError(*_dice_mismatch(turn, search.written), plays)
    raise IllegalPlayError(search.failure.rule_id, search.failure.reason or "", plays,
                           search.failure.move)


def _dice_mismatch(turn: TurnRules, written: WrittenPlay) -> tuple[str, Message]:
    dice = turn.dice
    pips = sum(m.points[0] - m.points[-1] for m in written.moves)
    if dice.is_doublet:
        steps = len(turn.die_sequence)
        rule = "R-DOUBLET-SQUARED" if turn.rules.squared_doublets else "R-DOUBLET"
        return rule, Message.of("rule.doublet", play=str(written), roll=_roll(dice), steps=steps,
                                die=dice.high, pips=steps * dice.high, moved=pips)
    faces = [str(v) for v in dice.values]
    return R_DICE, Message.of("rule.dice", play=str(written), roll=_roll(dice), moved=pips,
                              faces=both(faces))


def _step_text(move: WrittenMove, at: int, landing: int) -> str | Message:
    """How to name a failing step in a message: the written move, or the step within it."""
    if at == move.points[0] and landing == move.points[-1]:
        return str(move)
    return Message.of("rule.step-in-move", step=f"{point_name(at)}/{point_name(landing)}",
                      move=str(move))
