"""Rule set ``murray``: Jacquet after H.J.R. Murray (1951) and Mark Driver.

Hitting and the bar (R-HIT, R-BAR), the courier, at most two closed points in the starting
table (R-CLOSE2), at most two men on point 13 (R-MID2), bearing off from the rear-most point
only (R-BEAROFF-REAR) without wasting pips (R-WASTE), marcia scoring (R-SCORE-MARCIA).
"""

from __future__ import annotations

from collections.abc import Sequence

from notation.engine.board import BAR, FIRST_QUARTER, OFF, Position
from notation.engine.play import Step
from notation.engine.rules.base import Outcome, RuleSet, StepContext
from notation.engine.rules.courier import COURIER, CourierRule
from notation.engine.rules.jacquet import jacquet_family
from notation.messages import Message

STARTING_TABLE = FIRST_QUARTER
MIDPOINT = 13
PRIME = 6


class CloseTwoRule:
    """R-CLOSE2: at no time two or more men on more than two of the points 24-19."""

    rule_id = "R-CLOSE2"
    watches = frozenset(STARTING_TABLE)

    def applies(self, rules: RuleSet, start: Position) -> bool:
        """Three closed points need six men there or able to get there (from the bar)."""
        return sum(start.mover[STARTING_TABLE.start:BAR + 1]) >= 6

    def broken(self, ctx: StepContext) -> bool:
        return len([men for men in ctx.after[STARTING_TABLE.start:STARTING_TABLE.stop] if men >= 2]) > 2

    def explain(self, ctx: StepContext, step_text: str | Message) -> Message:
        closed = [p for p in sorted(STARTING_TABLE, reverse=True) if ctx.after[p] >= 2]
        return Message.of("rule.murray.starting-table", step=step_text,
                          points=", ".join(map(str, closed)))


class MidpointRule:
    """R-MID2: at no time more than two men on point 13."""

    rule_id = "R-MID2"
    watches = frozenset({MIDPOINT})

    def applies(self, rules: RuleSet, start: Position) -> bool:
        """A third man on 13 needs three men on 13 or behind it."""
        return sum(start.mover[MIDPOINT:]) >= 3

    def broken(self, ctx: StepContext) -> bool:
        return ctx.after[MIDPOINT] > 2

    def explain(self, ctx: StepContext, step_text: str | Message) -> Message:
        return Message.of("rule.murray.midpoint", step=step_text)


_MADE = bytes(b"x"[0] if men >= 2 else b"."[0] for men in range(256))
"""A ``bytes.translate`` table: a point's count of men to ``x`` when it holds two or more."""
_PRIME_RUN = b"x" * PRIME


def holds_prime(board: Sequence[int]) -> bool:
    """Six consecutive points of the side's own route, each with two or more of its men
    (points 1-24 as one string of made and open points, searched for a run of six)."""
    return _PRIME_RUN in bytes(board[1:BAR]).translate(_MADE)


def prime_during(start: tuple[int, ...], steps: Sequence[Step]) -> bool:
    """Whether the mover holds a prime at any moment of a turn: after any of its single
    steps (rest points of a combined move included), starting from his board ``start``.
    After the first step the whole board is looked at; after a later one as
    :func:`prime_made` does (no prime held before it, only a point it makes can complete
    one)."""
    if not steps:
        return False
    board = list(start)
    board[steps[0].from_point] -= 1
    board[steps[0].to_point] += 1
    return holds_prime(board) or prime_made(board, steps[1:])


def prime_possible(start: tuple[int, ...], steps: Sequence[Step]) -> bool:
    """Whether the mover could hold a prime at some moment of a turn of ``steps`` from his
    board ``start``, whatever their order: a point is made at a moment only if it was at
    the start or a step lands on it, so not unless those points together hold one."""
    board = list(start)
    for step in steps:
        if board[step.to_point] < 2:
            board[step.to_point] = 2
    return holds_prime(board)


def prime_made(start: Sequence[int], steps: Sequence[Step]) -> bool:
    """Whether one of a turn's single steps, played from the mover's board ``start``, makes
    a point of two men that completes a prime: the only way a prime can appear when
    ``start`` holds none (a point is made only by its owner's steps, and a made point
    cannot be hit)."""
    board = list(start)
    for step in steps:
        board[step.from_point] -= 1
        to_point = step.to_point
        board[to_point] += 1
        # a prime this step completes holds its point, so a made neighbour of it too
        if (board[to_point] == 2
                and ((to_point > 1 and board[to_point - 1] >= 2)
                     or (to_point < BAR - 1 and board[to_point + 1] >= 2))
                and holds_prime(board)):
            return True
    return False


def marcia(rules: RuleSet, final: Position, held_prime: bool, cube: int) -> int:
    """R-SCORE-MARCIA: 1; marcia 2 if the loser bore off none; marcia per punto 3 if marcia
    and the winner never held a prime during the game."""
    if final.opponent[OFF]:
        return 1
    return 2 if held_prime else 3


def marcia_still_possible(rules: RuleSet, winner: tuple[int, ...], loser: tuple[int, ...],
                          held_prime: bool) -> int:
    """R-SCORE-MARCIA's ceiling: 1 once the loser has a man off (it never comes back),
    2 once the winner has held a prime (he has for good), else 3."""
    if loser[OFF]:
        return 1
    return 2 if held_prime else 3


class MarciaPrimes:
    """R-SCORE-MARCIA's prime watch (:class:`~notation.engine.rules.base.PrimeWatch`): the
    functions above, for the engine to ask."""

    holds = staticmethod(holds_prime)
    during = staticmethod(prime_during)
    made = staticmethod(prime_made)
    possible = staticmethod(prime_possible)


MARCIA_PRIMES = MarciaPrimes()


MARCIA = Outcome("marcia", 2, "win_marcia", "lose_marcia")
PER_PUNTO = Outcome("marcia per punto", 3, "win_punto", "lose_punto")


def murray(courier_release: str = "die") -> RuleSet:
    """The ``murray`` rule set."""
    options = {"courier_release": courier_release} if courier_release != "die" else {}
    return jacquet_family(
        "murray",
        hitting=True,
        title="rules.title.murray",
        phases=(COURIER,),
        bear_off="rear",
        waste=True,
        step_rules=(CourierRule(courier_release), CloseTwoRule(), MidpointRule()),
        score_rule="R-SCORE-MARCIA",
        scorer=marcia,
        score_range=(1, 3),
        outcomes=(MARCIA, PER_PUNTO),
        ceiling=marcia_still_possible,
        primes=MARCIA_PRIMES,
        options=options,
    )
