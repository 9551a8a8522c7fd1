"""Rule set ``hale``: Hale's "Spanish Backgammon or Jacquet" (1888), ``jacquet`` movement
with penalty scoring (R-SCORE-HALE)."""

from __future__ import annotations

from notation.engine.board import MEN, Position
from notation.engine.rules.base import RuleSet
from notation.engine.rules.jacquet import jacquet_family
from notation.errors import InvalidError

FIRST_TABLE_PENALTY = 3
SECOND_TABLE_PENALTY = 2
LAST_TABLE_PENALTY = 1


def hale(third_table_penalty: int = 1, courier_release: str = "die",
         bouchon: str = "wikipedia") -> RuleSet:
    """The ``hale`` rule set; ``third_table_penalty`` is the unnamed Q3 rate (default 1)."""
    if not isinstance(third_table_penalty, int) or third_table_penalty < 0:
        raise InvalidError(f"third_table_penalty is a whole number >= 0, not {third_table_penalty!r}")
    rates = {}
    for point in range(1, 25):
        if point >= 19:
            rates[point] = FIRST_TABLE_PENALTY
        elif point >= 13:
            rates[point] = SECOND_TABLE_PENALTY
        elif point >= 7:
            rates[point] = third_table_penalty
        else:
            rates[point] = LAST_TABLE_PENALTY

    def penalty(rules: RuleSet, final: Position, held_prime: bool, cube: int) -> int:
        """R-SCORE-HALE: the loser pays for every man he has left, by quarter."""
        return sum(rates[p] * final.opponent[p] for p in range(1, 25))

    options = {"third_table_penalty": third_table_penalty} if third_table_penalty != 1 else {}
    highest_rate = max(FIRST_TABLE_PENALTY, SECOND_TABLE_PENALTY, third_table_penalty)
    return jacquet_family("hale", courier_release, bouchon, scorer=penalty,
                          score_rule="R-SCORE-HALE", options=options,
                          score_basis="the loser's men left, by quarter",
                          score_range=(min(rates.values()), highest_rate * MEN))
