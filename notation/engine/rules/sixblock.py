"""R-SIXBLOCK (``narde``; ``fevga`` with ``prime="sixblock"``): six points in a row only
once an opposing man is past them.

The six points run along the opponent's route, each holding at least one of the mover's
men (his head too, while it holds a man), as a Jacquet block does
(:func:`~notation.engine.rules.bouchon.find_block`). Such a block is allowed once at least
one of the opponent's men has passed it on his route (stands on a lower point of his own
numbering, or is borne off), never before.
"""

from __future__ import annotations

from notation.engine.board import OFF, POINTS, Position, point_name
from notation.engine.rules.base import RuleSet, StepContext
from notation.engine.rules.bouchon import BLOCK, find_block
from notation.messages import Message


def lowest_man(opponent: tuple[int, ...]) -> int:
    """The lowest point of his own numbering holding one of the opponent's men: a block
    wholly below it has none of his men past it (0 when he has borne a man off: that man
    is past every block)."""
    if opponent[OFF]:
        return OFF
    return next((point for point in range(1, POINTS + 1) if opponent[point]), OFF)


class SixBlockRule:
    """R-SIXBLOCK: no step may leave the mover with six points in a row none of the
    opponent's men has passed. Checked after every step, rest points of a combined move
    included. Only a step that occupies a new point can make a block; one standing at the
    start of a turn was allowed when it was made, and stays so (the opponent's men never
    go back, nor come back from off). ``reading``: the option that chose this rule where
    the rule set has another (``prime=sixblock``), named when a step is refused."""

    rule_id = "R-SIXBLOCK"
    watches = None

    def __init__(self, reading: str = "") -> None:
        self.reading = reading

    def applies(self, rules: RuleSet, start: Position) -> bool:
        """Not once an opposing man is borne off (he is past every block), nor with fewer
        than six men on the board."""
        return not start.opponent[OFF] and sum(start.mover[1:25]) >= BLOCK

    def broken(self, ctx: StepContext) -> bool:
        if not 0 < ctx.to_point < 25 or ctx.before[ctx.to_point]:
            return False  # no new point held: no new block
        return find_block(ctx, below=lowest_man(ctx.opponent)) is not None

    def explain(self, ctx: StepContext, step_text: str | Message) -> Message:
        lowest = lowest_man(ctx.opponent)
        block = find_block(ctx, below=lowest) or []
        points = ", ".join(point_name(p) for p in reversed(block))  # along his route
        return Message.of("rule.sixblock.option" if self.reading else "rule.sixblock",
                          step=step_text, points=points, their=lowest,
                          yours=ctx.rules.opposite[lowest], option=self.reading)
