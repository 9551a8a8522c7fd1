"""Rule set ``hale``: Hale's "Spanish Backgammon or Jacquet" (1888), ``jacquet`` movement
with penalty scoring (R-SCORE-HALE)."""

from __future__ import annotations

from functools import cache
from operator import mul

from notation.engine.board import BAR, MEN, SIDE, Position
from notation.engine.rules.base import RuleSet, scaled_skill
from notation.engine.rules.jacquet import courier_and_blocking, jacquet_family
from notation.errors import InvalidError
from notation.messages import Message

FIRST_TABLE_PENALTY = 3
SECOND_TABLE_PENALTY = 2
LAST_TABLE_PENALTY = 1
MARKS = (0.32, 0.64, 1.28)
"""The mark thresholds, eight times the Jacquet family's: a hale game is worth about eight
times as much (7.0 points a game between two heuristic players and 8.8 between random ones,
against 1.05 in jacquet: 60 and 40 games measured when the analysis was written)."""
SKILL = scaled_skill(8)
"""The error-rate labels: gnubg's scale eight times larger, as the marks are."""


def penalty(rules: RuleSet, final: Position, held_prime: bool, cube: int) -> int:
    """R-SCORE-HALE: the loser pays for every man he has left, by quarter
    (``RuleSet.penalty_rates``)."""
    return sum(map(mul, rules.penalty_rates[1:25], final.opponent[1:25]))


@cache
def ceiling_rates(rates: tuple[int, ...]) -> tuple[int, ...]:
    """The most a man on each point can still cost: men never go back (no hitting), so the
    highest rate of the points it may yet stand on, its own and those below it (0 off)."""
    ceilings = [0] * len(rates)
    for point in range(1, len(rates)):
        ceilings[point] = max(ceilings[point - 1], rates[point])
    return tuple(ceilings)


def most_penalty(rules: RuleSet, winner: tuple[int, ...], loser: tuple[int, ...],
                 held_prime: bool) -> int:
    """R-SCORE-HALE's ceiling: each man the loser has left pays at most the highest rate of
    the points he may still stand on at the end (:func:`ceiling_rates`); a man borne off
    pays none."""
    return sum(map(mul, ceiling_rates(rules.penalty_rates)[1:25], loser[1:25]))


def hale(third_table_penalty: int = 1, courier_release: str = "die",
         bouchon: str = "wikipedia") -> RuleSet:
    """The ``hale`` rule set; ``third_table_penalty`` is the unnamed Q3 rate (default 1)."""
    if not isinstance(third_table_penalty, int) or third_table_penalty < 0:
        raise InvalidError(Message.of("option.whole-number", option="third_table_penalty",
                                      value=repr(third_table_penalty)))
    rates = [0] * SIDE
    for point in range(1, BAR):
        if point >= 19:
            rates[point] = FIRST_TABLE_PENALTY
        elif point >= 13:
            rates[point] = SECOND_TABLE_PENALTY
        elif point >= 7:
            rates[point] = third_table_penalty
        else:
            rates[point] = LAST_TABLE_PENALTY
    own = {"third_table_penalty": third_table_penalty} if third_table_penalty != 1 else {}
    highest_rate = max(FIRST_TABLE_PENALTY, SECOND_TABLE_PENALTY, third_table_penalty)
    return jacquet_family("hale", scorer=penalty,
                          title="rules.title.hale", penalties=True,
                          penalty_rates=tuple(rates), ceiling=most_penalty,
                          marks=MARKS, skill=SKILL, score_rule="R-SCORE-HALE",
                          score_basis="score.quarters",
                          score_range=(min(rates[1:25]), highest_rate * MEN),
                          **courier_and_blocking(courier_release, bouchon, **own))
