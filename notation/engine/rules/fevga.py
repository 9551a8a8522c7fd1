"""Rule set ``fevga`` (Φεύγα), one of the three games of Greek tavli.

Jacquet's geometry and start (15 men on the own point 24, the head; both sides run the same
way), a single man holds a point, no hitting. Its own rules: the runner goes first until it
has passed the opponent's head (R-RUNNER); never all six points of the own starting quarter
(R-HOMEQUARTER); a player whose men are all shut in behind six points of the mover's must
be let out where a play does it (R-UNBLOCK, option ``prime="unblock"``), or, in the older
reading (``prime="sixblock"``), narde's R-SIXBLOCK; 1 point, or 2 for a mars (R-SCORE-MARS).
"""

from __future__ import annotations

from notation.engine.board import FIRST_QUARTER, MEN, OFF, TALON, Position, point_name
from notation.engine.rules.base import (
    Phase,
    RuleSet,
    StepContext,
    StepRule,
    TurnFilter,
    double_still_possible,
)
from notation.engine.rules.bouchon import BLOCK
from notation.engine.rules.jacquet import jacquet_family
from notation.engine.rules.narde import MARS, mars
from notation.engine.rules.sixblock import SixBlockRule
from notation.errors import InvalidError
from notation.messages import Message, option_error

HEAD = TALON
PASSED = range(1, 12)
"""The mover's points past the opponent's head (his 12): a man there ends the runner's phase."""
HOME_QUARTER = FIRST_QUARTER
"""The mover's own starting quarter (R-HOMEQUARTER)."""


def runner_phase(board: tuple[int, ...]) -> bool:
    """R-RUNNER, from the position alone: no man of the mover has passed the opponent's
    head (none on points 11-1, none borne off)."""
    return not board[OFF] and not any(board[PASSED.start:PASSED.stop])


RUNNER = Phase("runner", "R-RUNNER", runner_phase, {OFF: 1, **dict.fromkeys(PASSED, 1)}, 0)
"""The runner's phase (:func:`runner_phase`) as a phase: no man off or on points 11-1,
i.e. the sum of those counts is at most 0."""


class RunnerRule:
    """R-RUNNER: while no man has passed the opponent's head, only one man leaves the head
    (the runner) and only it moves. Judged again before every single step, so the dice
    left after the runner passes may be played by any man."""

    rule_id = "R-RUNNER"
    watches = frozenset(range(HEAD - 6, HEAD))  # where a step from the head lands

    def applies(self, rules: RuleSet, start: Position) -> bool:
        return runner_phase(start.mover)

    def broken(self, ctx: StepContext) -> bool:
        return (ctx.from_point == HEAD and MEN - ctx.after[HEAD] > 1
                and runner_phase(ctx.before))

    def explain(self, ctx: StepContext, step_text: str | Message) -> Message:
        runner = next(p for p in range(HEAD - 1, 0, -1) if ctx.before[p])
        return Message.of("rule.fevga.runner", step=step_text, point=point_name(runner))


class HomeQuarterRule:
    """R-HOMEQUARTER: never all six points 24-19 held (the head counts while it holds a
    man); no exception."""

    rule_id = "R-HOMEQUARTER"
    watches = frozenset(HOME_QUARTER)

    def applies(self, rules: RuleSet, start: Position) -> bool:
        """Not with fewer than six men on 24-19 (no man comes back there)."""
        return sum(start.mover[HOME_QUARTER.start:HOME_QUARTER.stop]) >= BLOCK

    def broken(self, ctx: StepContext) -> bool:
        return all(ctx.after[HOME_QUARTER.start:HOME_QUARTER.stop])

    def explain(self, ctx: StepContext, step_text: str | Message) -> Message:
        return Message.of("rule.fevga.home-quarter", step=step_text)


def shut_in(rules: RuleSet, start: Position) -> int:
    """The point ``s`` (his numbering) where all the opponent's men on the board stand,
    ``s`` >= 7, with the mover holding the six points in front of it (his ``s-1`` ..
    ``s-6``) at the start of the turn; 0 when he is not shut in so."""
    theirs = start.opponent
    occupied = [point for point in range(1, 25) if theirs[point]]
    if len(occupied) != 1 or occupied[0] < BLOCK + 1:
        return 0
    point = occupied[0]
    return point if all(start.mover[p] for p in wall(rules, point)) else 0


def wall(rules: RuleSet, point: int) -> list[int]:
    """The mover's numbers of the six points in front of the opponent's ``point``."""
    return [rules.opposite[point - k] for k in range(1, BLOCK + 1)]


class UnblockRule:
    """R-UNBLOCK (``prime="unblock"``): when every opposing man on the board stands on one
    point of his 24-7 behind six points the mover holds, of the plays R-MAX and R-HIGH
    allow only those that leave one of the six open are legal, where there is one."""

    rule_id = "R-UNBLOCK"

    def applies(self, rules: RuleSet, start: Position) -> bool:
        return shut_in(rules, start) != 0

    def keeps(self, rules: RuleSet, start: Position, mover: tuple[int, ...]) -> bool:
        return not all(mover[p] for p in wall(rules, shut_in(rules, start)))

    def explain(self, rules: RuleSet, start: Position, play_text: str) -> Message:
        point = shut_in(rules, start)
        points = ", ".join(point_name(p) for p in wall(rules, point))
        return Message.of("rule.fevga.unblock", play=play_text, points=points, their=point,
                          yours=rules.opposite[point])


PRIMES = ("unblock", "sixblock")


def fevga(prime: str = "unblock") -> RuleSet:
    """The ``fevga`` rule set; ``prime`` names the reading of the six-in-a-row rule:
    ``"unblock"`` (R-UNBLOCK, the default) or ``"sixblock"`` (narde's R-SIXBLOCK)."""
    if prime not in PRIMES:
        raise InvalidError(option_error("prime", PRIMES, prime))
    step_rules: tuple[StepRule, ...] = (RunnerRule(), HomeQuarterRule())
    turn_filters: tuple[TurnFilter, ...] = ()
    if prime == "sixblock":
        step_rules += (SixBlockRule(f"prime={prime}"),)
    else:
        turn_filters = (UnblockRule(),)
    return jacquet_family(
        "fevga",
        title="rules.title.fevga",
        outcomes=(MARS,),
        ceiling=double_still_possible,
        phases=(RUNNER,),
        step_rules=step_rules,
        turn_filters=turn_filters,
        score_rule="R-SCORE-MARS",
        scorer=mars,
        koks_declared=True,
        shows_doublet_rest_points=False,
        score_range=(1, 2),
        options={"prime": prime} if prime != "unblock" else {},
    )
