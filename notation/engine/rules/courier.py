"""R-COURIER: while the courier phase lasts, only one man leaves the talon and only it moves."""

from __future__ import annotations

from notation.engine.board import BAR, MEN, OFF, TALON, Position, point_name
from notation.engine.rules.base import Phase, RuleSet, StepContext, courier_phase, courier_point
from notation.errors import InvalidError
from notation.messages import Message, option_error

COURIER = Phase("courier", "R-COURIER", courier_phase,
                {OFF: 2, **dict.fromkeys(range(1, 7), 2), TALON: -1}, -(MEN - 1))
"""The courier phase (:func:`~notation.engine.rules.base.courier_phase`) as a phase. As one
inequality: with ``k`` men off or home and ``t`` on the talon, the phase holds iff ``k = 0``
and ``t >= 14``, i.e. iff ``2k - t <= -14`` (``t`` is at most 15)."""


class CourierRule:
    """The courier rule, with its one option.

    ``release="die"`` (default): the phase is judged again before every single step, so the
    dice left after the courier lands on a point 6-1 may be played by any man.
    ``release="next-turn"``: the phase is judged once, at the start of the turn, so the rest
    of that turn still belongs to the courier.
    """

    rule_id = "R-COURIER"
    watches = None

    def __init__(self, release: str = "die") -> None:
        if release not in ("die", "next-turn"):
            raise InvalidError(option_error("courier_release", ("die", "next-turn"), release))
        self.release = release

    def applies(self, rules: RuleSet, start: Position) -> bool:
        """Whether the phase can hold during a turn from ``start``: it does at the start, or
        (with hitting) a man on the bar may enter on the talon and bring it back."""
        mover = start.mover
        return courier_phase(mover) or (
            mover[BAR] > 0 and mover[OFF] == 0 and not any(mover[1:7]))

    def in_phase(self, ctx: StepContext) -> bool:
        judged = ctx.before if self.release == "die" else ctx.turn_start.mover
        return courier_phase(judged)

    def broken(self, ctx: StepContext) -> bool:
        return MEN - ctx.after[TALON] > 1 and self.in_phase(ctx)

    def explain(self, ctx: StepContext, step_text: str | Message) -> Message:
        courier = courier_point(ctx.before)
        if self.release == "next-turn" and not courier_phase(ctx.before):
            return Message.of("rule.courier.next-turn", step=step_text)
        return Message.of("rule.courier.not-passed", step=step_text, point=point_name(courier))
