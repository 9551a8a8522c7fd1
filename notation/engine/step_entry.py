"""Entering a play one step at a time, as a scorer clicks it on the board.

:class:`StepEntry` knows the legal plays of a roll and, after the steps entered so far,
offers exactly the next steps that still lead to one of them (rest points and bearing off
included), so a scorer can never be led into a dead end; a step it does not offer is
refused with the rule it breaks.

>>> from notation import rule_set
>>> entry = StepEntry(rule_set("jacquet").start, Dice.parse("64"), rule_set("jacquet"))
>>> sorted(str(step) for step in entry.next_steps(()))
['24/18', '24/20']
>>> first = entry.next_steps(())[0]
>>> [str(step) for step in entry.next_steps((first,))], entry.is_complete((first,))
(['18/14'], False)
>>> entry.next_steps((Step(13, 7, 6),))
Traceback (most recent call last):
...
notation.errors.IllegalPlayError: [R-EMPTY] ...
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from notation.engine.board import BAR, Position
from notation.engine.dice import Dice
from notation.engine.movegen import Board, TurnRules, allowed, legal_plays, step_sequences
from notation.engine.play import Play, Step
from notation.engine.rules import RuleSet
from notation.errors import IllegalPlayError
from notation.messages import Message

POINTS = tuple(range(BAR, 0, -1))


class StepEntry:
    """The legal ways to enter, step by step, a play of ``dice`` from ``position``."""

    def __init__(self, position: Position, dice: Dice, rules: RuleSet) -> None:
        self.turn = TurnRules(rules, position, dice)
        sequences = step_sequences(self.turn)
        kept = allowed(self.turn, sequences)
        self.length = len(kept[0].steps)
        """How many steps every legal play has (R-MAX)."""
        self.results = {(s.mover, s.opponent) for s in kept}
        self._filtered = ({(s.mover, s.opponent) for s in allowed(self.turn, sequences, False)}
                          - self.results) if self.turn.turn_filters else set()
        """The results R-MAX and R-HIGH allow but a turn filter refuses (R-UNBLOCK)."""
        self._completable: dict[tuple[Board, Board, tuple[int, ...]], bool] = {}
        self._reachable: dict[tuple[Board, Board, tuple[int, ...]], frozenset[tuple[Board, Board]]] = {}

    @property
    def plays(self) -> list[Play]:
        """The legal plays (one per resulting position)."""
        return legal_plays(self.turn.start, self.turn.dice, self.turn.rules)

    def _replay(self, entered: Sequence[Step]) -> tuple[Board, Board, tuple[int, ...]]:
        """The board and the dice left after ``entered``; an :class:`IllegalPlayError`
        for the first step that is not among those offered."""
        mover, opponent = self.turn.start.mover, self.turn.start.opponent
        dice = self.turn.die_sequence
        for index, step in enumerate(entered):
            offered = self._next(mover, opponent, dice, index)
            if step not in offered:
                raise self._refusal(mover, opponent, dice, step, offered)
            _, mover, opponent, _ = self.turn.step(mover, opponent, step.from_point, step.die)
            dice = _without(dice, step.die)
        return mover, opponent, dice

    def position_after(self, entered: Sequence[Step]) -> Position:
        """The board after the steps entered so far (the player on roll still to act)."""
        mover, opponent, _ = self._replay(entered)
        return Position._trusted(mover, opponent)

    def next_steps(self, entered: Sequence[Step]) -> list[Step]:
        """The steps that may follow ``entered`` (empty once a play is complete)."""
        mover, opponent, dice = self._replay(entered)
        return self._next(mover, opponent, dice, len(entered))

    def is_complete(self, entered: Sequence[Step]) -> bool:
        """Whether ``entered`` is a whole legal play."""
        mover, opponent, _ = self._replay(entered)
        return len(entered) == self.length and (mover, opponent) in self.results

    def plays_after(self, entered: Sequence[Step]) -> int:
        """How many of the roll's legal plays (one per board they leave) the steps
        ``entered`` still lead to: the count a scorer is told while entering a play step by
        step (the roll's whole count before the first step)."""
        mover, opponent, dice = self._replay(entered)
        return len(self._results_from(mover, opponent, dice, self.length - len(entered)))

    def _results_from(self, mover: Board, opponent: Board, dice: tuple[int, ...],
                      left: int) -> frozenset[tuple[Board, Board]]:
        """The legal results ``left`` more steps can reach from here."""
        if left == 0:
            return frozenset({(mover, opponent)} & self.results)
        key = (mover, opponent, dice)
        if key not in self._reachable:
            self._reachable[key] = frozenset().union(*(
                self._results_from(after, theirs, _without(dice, die), left - 1)
                for from_point, die in self._tries(mover, dice)
                for broken, after, theirs, _ in (self.turn.step(mover, opponent, from_point, die),)
                if broken is None))
        return self._reachable[key]

    def _next(self, mover: Board, opponent: Board, dice: tuple[int, ...], done: int) -> list[Step]:
        if done >= self.length:
            return []
        found: list[Step] = []
        for from_point, die in self._tries(mover, dice):
            _, after, theirs, step = self.turn.step(mover, opponent, from_point, die)
            if step is not None and self._can_finish(  # (None: broken)
                    after, theirs, _without(dice, die), self.length - done - 1):
                found.append(step)
        return found

    def _can_finish(self, mover: Board, opponent: Board, dice: tuple[int, ...], left: int) -> bool:
        """Whether ``left`` more steps can reach one of the legal results."""
        if left == 0:
            return (mover, opponent) in self.results
        key = (mover, opponent, dice)
        if key not in self._completable:
            self._completable[key] = any(
                broken is None and self._can_finish(after, theirs, _without(dice, die), left - 1)
                for from_point, die in self._tries(mover, dice)
                for broken, after, theirs, _ in (self.turn.step(mover, opponent, from_point, die),))
        return self._completable[key]

    def _reaches(self, mover: Board, opponent: Board, dice: tuple[int, ...]) -> bool:
        """Whether steps from here can end in a result only a turn filter refuses."""
        if len(self.turn.die_sequence) - len(dice) == self.length:
            return (mover, opponent) in self._filtered
        return any(broken is None and self._reaches(after, theirs, _without(dice, die))
                   for from_point, die in self._tries(mover, dice)
                   for broken, after, theirs, _ in (self.turn.step(mover, opponent, from_point, die),))

    def _filter_refusal(self, text: str) -> tuple[str, Message]:
        """The rule id and sentence of the turn filter that refuses the plays a step leads to."""
        turn = self.turn
        rule = next(rule for rule in turn.turn_filters  # (one refused them: _filtered)
                    if any(not rule.keeps(turn.rules, turn.start, mover)
                           for mover, _ in self._filtered))
        return rule.rule_id, rule.explain(turn.rules, turn.start, text)

    @staticmethod
    def _tries(mover: Board, dice: tuple[int, ...]) -> Iterator[tuple[int, int]]:
        sources = (BAR,) if mover[BAR] else POINTS
        for from_point in sources:
            if mover[from_point]:
                for die in sorted(set(dice), reverse=True):
                    yield from_point, die

    def _refusal(self, mover: Board, opponent: Board, dice: tuple[int, ...], step: Step,
                 offered: list[Step]) -> IllegalPlayError:
        """Why a step not offered is refused: the die is not left (R-DICE), the step
        breaks a step rule (named, with its sentence), or it leaves every legal play out
        of reach (R-MAX), or leads only to plays a turn filter refuses (R-UNBLOCK)."""
        choices: str | Message = ", ".join(str(s) for s in offered) or Message.of("step.none")
        reason: Message
        if step.die not in dice:
            rule, reason = "R-DICE", Message.of("step.no-die", die=step.die)
        else:
            broken, after, theirs, _ = self.turn.step(mover, opponent, step.from_point, step.die)
            if broken is not None:
                rule, reason = broken, self.turn.explain(mover, opponent, step.from_point, step.die, broken)
            elif self._filtered and self._reaches(after, theirs, _without(dice, step.die)):
                rule, reason = self._filter_refusal(str(step))
            else:
                rule, reason = "R-MAX", Message.of("step.no-finish", step=str(step))
        return IllegalPlayError(rule, Message.of("step.refused", reason=reason, steps=choices),
                                self.plays)


def _without(dice: tuple[int, ...], die: int) -> tuple[int, ...]:
    index = dice.index(die)
    return dice[:index] + dice[index + 1:]
