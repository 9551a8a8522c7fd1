"""Rule set ``backgammon``: standard backgammon, interchangeable with GNU Backgammon.

Opposite directions (my ``p`` is his ``25 - p``), the 2-5-3-5 setup, hitting and the bar,
no courier and no blocking limits, single game / gammon / backgammon times the cube.
"""

from __future__ import annotations

from notation.engine.board import BAR, OFF, Position
from notation.engine.rules.base import RuleSet, backgammon_opposite

SETUP = {24: 2, 13: 5, 8: 3, 6: 5}
WINNERS_HOME_FOR_LOSER = range(19, 25)


def single_gammon_backgammon(rules: RuleSet, final: Position, held_prime: bool, cube: int) -> int:
    """1 for a single game, 2 for a gammon (the loser bore off none), 3 for a backgammon
    (a gammon with a loser's man on the bar or in the winner's home board), times the cube."""
    loser = final.opponent
    if loser[OFF]:
        return cube
    if loser[BAR] or any(loser[p] for p in WINNERS_HOME_FOR_LOSER):
        return 3 * cube
    return 2 * cube


def backgammon() -> RuleSet:
    """The ``backgammon`` rule set."""
    return RuleSet(
        name="backgammon",
        opposite=backgammon_opposite(),
        start=Position.from_points(SETUP, SETUP),
        hitting=True,
        scorer=single_gammon_backgammon,
        shows_doublet_rest_points=False,
        score_range=(1, 3 * 64),
        has_cube=True,
        lead_is_first_roll=True,
        resign_multiples=(1, 2, 3),  # a single game, a gammon, a backgammon
    )
