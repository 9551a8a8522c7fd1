"""Rule set ``jacquet`` (the default): classic French Jacquet.

No hitting, a single man closes a point, the courier runs first, the blocking limits
(R-POSTILION, R-FIRSTQUARTER), R-BEAROFF, and 1 or 2 points (R-SCORE).

Also the Jacquet family's constructor, :func:`jacquet_family` (its geometry and start, for
every relative), and the courier and blocking rules that only some relatives share,
:func:`courier_and_blocking`.
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
START = Position.from_points({24: 15}, {24: 15})
"""The family's start: each side's fifteen men on its own point 24."""


def jacquet_family(name: str, **fields: Any) -> RuleSet:
    """A rule set of the Jacquet family: both sides run the same way (my ``p`` is his
    ``p ± 12``) from fifteen men on their own 24, without hitting unless ``fields`` say
    ``hitting=True``; everything else (step rules, phases, scoring, options) is the
    relative's own, in ``fields`` (the courier and the blocking limits only where it has
    them: :func:`courier_and_blocking`)."""
    return RuleSet(name=name, opposite=jacquet_opposite(), start=START,
                   **{"hitting": False, **fields})


def courier_and_blocking(courier_release: str = "die", bouchon: str = "wikipedia",
                         **options: object) -> dict[str, Any]:
    """The courier (R-COURIER, with its phase) and the blocking limits (R-BOUCHON) with
    their options, as fields of :func:`jacquet_family`: classic Jacquet's, which
    ``versailles`` and ``hale`` share. ``options`` are the relative's own, kept beside the
    non-default ones of these two."""
    chosen = {key: value for key, value in
              (("courier_release", courier_release), ("bouchon", bouchon))
              if value != DEFAULTS[key]}
    return {"phases": (COURIER,),
            "step_rules": (CourierRule(courier_release),) + bouchon_rules(bouchon),
            "options": {**chosen, **options}}


def jacquet(courier_release: str = "die", bouchon: str = "wikipedia") -> RuleSet:
    """The ``jacquet`` rule set."""
    return jacquet_family("jacquet", title="rules.title.jacquet", scorer=single_or_double_game,
                          score_range=(1, 2), outcomes=(DOUBLE_GAME,),
                          ceiling=double_still_possible,
                          **courier_and_blocking(courier_release, bouchon))
