"""Rule set ``narde``: long nardy (длинные нарды), as played in Russia, the Caucasus and
Central Asia.

Jacquet's geometry and start (15 men on the own point 24, the *head*; both sides run the
same way), a single man holds a point, no courier and no blocking limits of the Jacquet
kind. Its own rules: one man off the head a turn, two in the first turn with some doublets
(R-HEAD); six points in a row only once an opposing man is past them (R-SIXBLOCK); 1 point,
or 2 for a mars (R-SCORE-MARS); the doubling cube with ``cube=true``.
"""

from __future__ import annotations

from notation.engine.board import MEN, OFF, TALON, Position
from notation.engine.rules.base import Outcome, RuleSet, StepContext, double_still_possible
from notation.engine.rules.jacquet import jacquet_family
from notation.engine.rules.sixblock import SixBlockRule
from notation.errors import InvalidError
from notation.messages import Message, either, option_error

HEAD = TALON
HEAD_DOUBLETS = {"6-4-3": frozenset({6, 4, 3}), "6-4": frozenset({6, 4})}
"""The ``head_doublets`` readings: the doublets that let two men leave the head in a
player's first turn."""

_SWITCH = {True: True, False: False, "true": True, "false": False}


def switch(name: str, value: object) -> bool:
    """An on/off option's value: ``True``/``False``, or ``true``/``false`` as a tag or the
    command line writes it; :class:`InvalidError` otherwise."""
    key = value.strip().lower() if isinstance(value, str) else value
    if not isinstance(key, (bool, str)) or key not in _SWITCH:
        raise InvalidError(option_error(name, ("true", "false"), value))
    return _SWITCH[key]


def first_turn(board: tuple[int, ...]) -> bool:
    """Whether a turn from the mover's ``board`` is his first of the game: all 15 men on
    the head. Exact in every position a game can reach (docs/rules.md, R-HEAD): a first
    turn always plays at least one man off the head, and no man comes back to it."""
    return board[HEAD] == MEN


class HeadRule:
    """R-HEAD: at most one man leaves the head in a turn; two in the player's first turn
    with one of the ``head_doublets`` (``"6-4-3"``: 6-6, 4-4 or 3-3; ``"6-4"``: 6-6 or
    4-4). The quota counts the men that left the head in this turn. Also the rule set's
    :class:`~notation.engine.rules.base.HeadLimit`: the board marks the head while it binds."""

    rule_id = "R-HEAD"
    point = HEAD
    watches = frozenset(range(HEAD - 6, HEAD))  # where a step from the head lands

    def __init__(self, head_doublets: str = "6-4-3") -> None:
        if head_doublets not in HEAD_DOUBLETS:
            raise InvalidError(option_error("head_doublets", ("6-4-3", "6-4"), head_doublets))
        self.reading = head_doublets
        self.doublets = HEAD_DOUBLETS[head_doublets]

    def limits(self, board: tuple[int, ...]) -> bool:
        """Whether the rule binds a side with this ``board``: two or more men on the head
        (a lone man leaves it freely)."""
        return board[HEAD] >= 2

    def applies(self, rules: RuleSet, start: Position) -> bool:
        """Only with two or more men on the head."""
        return self.limits(start.mover)

    @property
    def legend(self) -> Message:
        """The rule in a few words, for the board's readers (the first-turn doublets as
        ``6-6, 4-4 or 3-3``)."""
        return Message.of("legend.head", doublets=either([f"{die}-{die}" for die in
                                                         sorted(self.doublets, reverse=True)]))

    def quota(self, ctx: StepContext) -> int:
        """How many men may leave the head in this turn."""
        dice = ctx.dice
        if (dice is not None and dice.is_doublet and dice.high in self.doublets
                and first_turn(ctx.turn_start.mover)):
            return 2
        return 1

    def broken(self, ctx: StepContext) -> bool:
        return (ctx.from_point == HEAD
                and ctx.turn_start.mover[HEAD] - ctx.after[HEAD] > self.quota(ctx))

    def explain(self, ctx: StepContext, step_text: str | Message) -> Message:
        *others, last = (f"{die}-{die}" for die in sorted(self.doublets, reverse=True))
        what = "rule.narde.head.first-turn" if self.quota(ctx) == 2 else "rule.narde.head"
        return Message.of(what, step=step_text, doublets=either([*others, last]),
                          option=f"head_doublets={self.reading}")


MARS = Outcome("mars", 2, "win2", "lose2")
"""R-SCORE-MARS's 2 points (the loser has borne off none), the one outcome above the oin."""


def mars(rules: RuleSet, final: Position, held_prime: bool, cube: int) -> int:
    """R-SCORE-MARS: 1 point (oin), or 2 (mars) when the loser has borne off no man; times
    the cube where there is one."""
    return cube * (2 if final.opponent[OFF] == 0 else 1)


def narde(head_doublets: str = "6-4-3", cube: bool | str = False) -> RuleSet:
    """The ``narde`` rule set; ``head_doublets`` names the reading of R-HEAD's exception,
    ``cube`` gives the doubling cube (R-CUBE) as in ``backgammon``."""
    with_cube = switch("cube", cube)
    options: dict[str, object] = {}
    if head_doublets != "6-4-3":
        options["head_doublets"] = head_doublets
    if with_cube:
        options["cube"] = "true"
    head = HeadRule(head_doublets)
    return jacquet_family(
        "narde",
        title="rules.title.narde",
        outcomes=(MARS,),
        ceiling=double_still_possible,
        step_rules=(head, SixBlockRule()),
        head=head,
        score_rule="R-SCORE-MARS",
        scorer=mars,
        koks_declared=True,
        shows_doublet_rest_points=False,
        score_range=(1, 2 * 64 if with_cube else 2),  # as backgammon's (1, 3 * 64)
        has_cube=with_cube,
        resign_multiples=(1, 2),  # an oin, a mars
        options=options,
    )
