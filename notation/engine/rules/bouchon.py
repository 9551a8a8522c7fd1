"""R-BOUCHON, the blocking limits of the Jacquet family: R-POSTILION and R-FIRSTQUARTER
(option ``bouchon="wikipedia"``, the default), or the ``"last-two"`` rule.

A *block* of the mover against the opponent is six consecutive points of the opponent's
route, each holding at least one of the mover's men. It may straddle the mover's 1|24
corner (the opponent's 13|12) but never the opponent's own 1|24 end.
"""

from __future__ import annotations

from notation.engine.board import FIRST_QUARTER, Position, point_name
from notation.engine.rules.base import RuleSet, StepContext, StepRule, courier_phase, courier_point
from notation.errors import InvalidError
from notation.messages import Message, option_error

BLOCK = 6


def find_block(ctx: StepContext, below: int = 25) -> list[int] | None:
    """The first block of the mover lying wholly on the opponent's points below ``below``,
    as the mover's own point numbers, or ``None``."""
    opposite = ctx.rules.opposite
    after = ctx.after
    run: list[int] = []
    for their_point in range(1, below):
        mine = opposite[their_point]
        if after[mine]:
            run.append(mine)
            if len(run) == BLOCK:
                return run
        else:
            run = []
    return None


def _made_a_point(ctx: StepContext) -> bool:
    """Whether the step occupied a point the mover did not hold (only that makes a block)."""
    return 0 < ctx.to_point < 25 and not ctx.before[ctx.to_point]


def _points_text(points: list[int]) -> str:
    return ", ".join(point_name(p) for p in sorted(points, reverse=True))


class PostilionRule:
    """R-POSTILION: no block wholly ahead of the opponent's courier (of his talon when no man
    has left it) while his courier phase lasts."""

    rule_id = "R-POSTILION"
    watches = None

    def applies(self, rules: RuleSet, start: Position) -> bool:
        """Only while the opponent's courier phase lasts (it cannot start again here)."""
        return courier_phase(start.opponent)

    def broken(self, ctx: StepContext) -> bool:
        # (the opponent's phase as it stands after the step is as at the turn's start:
        # without hitting, the mover's steps never touch the opponent's men)
        if not _made_a_point(ctx) or not courier_phase(ctx.opponent):
            return False
        return find_block(ctx, below=courier_point(ctx.opponent)) is not None

    def explain(self, ctx: StepContext, step_text: str | Message) -> Message:
        their_courier = courier_point(ctx.opponent)
        block = find_block(ctx, below=their_courier) or []
        where = ctx.rules.opposite[their_courier]
        what = "rule.bouchon.courier" if their_courier != 24 else "rule.bouchon.talon"
        return Message.of(what, step=step_text, points=_points_text(block), their=their_courier,
                          yours=point_name(where))


class FirstQuarterRule:
    """R-FIRSTQUARTER: never all six points 24-19 held unless point 1 is held too."""

    rule_id = "R-FIRSTQUARTER"
    watches = frozenset(FIRST_QUARTER)

    def applies(self, rules: RuleSet, start: Position) -> bool:
        """Not while point 1 is held (it can only be left by bearing off, never with men
        on 24-19), nor with fewer than six men on 24-19 (no man can come back there)."""
        mover = start.mover
        return not mover[1] and sum(mover[FIRST_QUARTER.start:FIRST_QUARTER.stop]) >= len(FIRST_QUARTER)

    def broken(self, ctx: StepContext) -> bool:
        after = ctx.after
        return not after[1] and all(after[FIRST_QUARTER.start:FIRST_QUARTER.stop])

    def explain(self, ctx: StepContext, step_text: str | Message) -> Message:
        return Message.of("rule.bouchon.first-quarter", step=step_text)


class LastTwoRule:
    """``bouchon="last-two"``: any block needs the mover's points 2 and 1 held."""

    rule_id = "R-BOUCHON"
    watches = None

    def applies(self, rules: RuleSet, start: Position) -> bool:
        return True

    def broken(self, ctx: StepContext) -> bool:
        after = ctx.after
        if after[1] and after[2]:
            return False
        return (_made_a_point(ctx) or ctx.from_point in (1, 2)) and find_block(ctx) is not None

    def explain(self, ctx: StepContext, step_text: str | Message) -> Message:
        block = find_block(ctx) or []
        return Message.of("rule.bouchon.last-two", step=step_text, points=_points_text(block))


def bouchon_rules(option: str) -> tuple[StepRule, ...]:
    """The step rules of a ``bouchon`` option: ``wikipedia``, ``last-two`` or ``none``."""
    if option == "wikipedia":
        return (PostilionRule(), FirstQuarterRule())
    if option == "last-two":
        return (LastTwoRule(),)
    if option == "none":
        return ()
    raise InvalidError(option_error("bouchon", ("wikipedia", "last-two", "none"), option))
