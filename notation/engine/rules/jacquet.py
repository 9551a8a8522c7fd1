"""Rule set ``jacquet`` (the default): classic French Jacquet.

No hitting, a single man closes a point, the courier runs first, the blocking limits
(R-POSTILION, R-FIRSTQUARTER), R-BEAROFF, and 1 or 2 points (R-SCORE).
"""

from __future__ import annotations

from typing import Any

from notation.engine.board import Position
from notation.engine.rules.base import (
    DOUBLE_GAME,
    RuleSet,
    double_still_possible,
    jacquet_opposite,
    single_or_double_game,
)
from notation.engine.rules.bouchon import bouchon_rules
from notation.engine.rules.courier import COURIER, CourierRule

DEFAULTS = {"courier_release": "die", "bouchon": "wikipedia"}


def jacquet_family(name: str, courier_release: str = "die", bouchon: str = "wikipedia",
                   **fields: Any) -> RuleSet:
    """A no-hitting rule set of the Jacquet family with its courier and blocking options."""
    options = {key: value for key, value in
               (("courier_release", courier_release), ("bouchon", bouchon))
               if value != DEFAULTS[key]}
    return RuleSet(
        name=name,
        opposite=jacquet_opposite(),
        start=Position.from_points({24: 15}, {24: 15}),
        hitting=False,
        phases=(COURIER,),
        step_rules=(CourierRule(courier_release),) + bouchon_rules(bouchon),
        options={**options, **fields.pop("options", {})},
        **fields,
    )


def jacquet(courier_release: str = "die", bouchon: str = "wikipedia") -> RuleSet:
    """The ``jacquet`` rule set."""
    return jacquet_family("jacquet", courier_release, bouchon, title="Jacquet",
                          scorer=single_or_double_game, score_range=(1, 2),
                          outcomes=(DOUBLE_GAME,), ceiling=double_still_possible)
