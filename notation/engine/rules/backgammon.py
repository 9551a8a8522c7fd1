"""Rule set ``backgammon``: standard backgammon, interchangeable with GNU Backgammon.

Opposite directions (my ``p`` is his ``25 - p``), the 2-5-3-5 setup, hitting and the bar,
no courier and no blocking limits, single game / gammon / backgammon times the cube.
"""

from __future__ import annotations

from notation.engine.board import BAR, FIRST_QUARTER, OFF, Position
from notation.engine.rules.base import Outcome, RuleSet, backgammon_opposite

SETUP = {24: 2, 13: 5, 8: 3, 6: 5}
WINNERS_HOME_FOR_LOSER = FIRST_QUARTER
"""The winner's home board, on the loser's route."""


def single_gammon_backgammon(rules: RuleSet, final: Position, held_prime: bool, cube: int) -> int:
    """1 for a single game, 2 for a gammon (the loser bore off none), 3 for a backgammon
    (a gammon with a loser's man on the bar or in the winner's home board), times the cube."""
    loser = final.opponent
    if loser[OFF]:
        return cube
    if loser[BAR] or any(loser[p] for p in WINNERS_HOME_FOR_LOSER):
        return 3 * cube
    return 2 * cube


def _rear(board: tuple[int, ...]) -> int:
    """The side's rearmost point on its own route (25 the bar, 0 when all are off)."""
    return next((point for point in range(BAR, 0, -1) if board[point]), 0)


def gammon_still_possible(rules: RuleSet, winner: tuple[int, ...], loser: tuple[int, ...],
                          held_prime: bool) -> int:
    """The ceiling of a single game, gammon, backgammon: 1 once the loser has a man off;
    3 while he has a man on the bar or in the winner's home board, or one the winner can
    still hit (a winner's man behind it: my point ``p`` is his ``25 - p``), else 2."""
    if loser[OFF]:
        return 1
    if loser[BAR] or any(loser[WINNERS_HOME_FOR_LOSER.start:BAR]):
        return 3
    return 3 if _rear(winner) + _rear(loser) > BAR else 2


GAMMON = Outcome("gammon", 2, "win_gammon", "lose_gammon")
BACKGAMMON = Outcome("backgammon", 3, "win_backgammon", "lose_backgammon")
GNUBG_MARKS = (0.030, 0.060, 0.120)
"""GNU Backgammon 1.07's thresholds of a doubtful, bad and very bad play (its ``show
analysis``), in points of a cubeless game: the viewer's marks agree with gnubg's."""


def backgammon() -> RuleSet:
    """The ``backgammon`` rule set."""
    return RuleSet(
        name="backgammon",
        opposite=backgammon_opposite(),
        start=Position.from_points(SETUP, SETUP),
        hitting=True,
        title="rules.title.backgammon",
        scorer=single_gammon_backgammon,
        outcomes=(GAMMON, BACKGAMMON),
        ceiling=gammon_still_possible,
        marks=GNUBG_MARKS,
        shows_doublet_rest_points=False,
        score_range=(1, 3 * 64),
        has_cube=True,
        lead_is_first_roll=True,
        resign_multiples=(1, 2, 3),  # a single game, a gammon, a backgammon
    )
