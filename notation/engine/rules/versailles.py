"""Rule set ``versailles``: Jacquet de Versailles, ``jacquet`` with squared doublets
(R-DOUBLET-SQUARED) and no die ever lost (R-PASS and R-LEADDICE, applied by the game
reader, which passes unplayable dice to the opponent)."""

from __future__ import annotations

from notation.engine.rules.base import (
    DOUBLE_GAME,
    RuleSet,
    double_still_possible,
    single_or_double_game,
)
from notation.engine.rules.jacquet import courier_and_blocking, jacquet_family


def versailles(courier_release: str = "die", bouchon: str = "wikipedia") -> RuleSet:
    """The ``versailles`` rule set."""
    return jacquet_family("versailles", squared_doublets=True,
                          title="rules.title.versailles", scorer=single_or_double_game,
                          score_range=(1, 2), outcomes=(DOUBLE_GAME,),
                          ceiling=double_still_possible, passes_dice=True,
                          lead_is_first_roll=True, doublet_leads=True, rethrow_clause=True,
                          **courier_and_blocking(courier_release, bouchon))
