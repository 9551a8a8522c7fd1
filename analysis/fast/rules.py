"""A rule set as the numbers the kernels read: which shared rules are tuned how, which
step rules apply (found by their rule ids in ``RuleSet.step_rules``) and which turn filters
(``RuleSet.turn_filters``).

A rule set with a step rule or a turn filter the kernels do not know is not covered:
:func:`fast_rules` gives ``None`` and the callers use the reference engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from notation import RuleSet

# indices of the parameter vector
HITTING = 0
CLOSES = 1
REAR_BEAR_OFF = 2
WASTE = 3
SQUARED = 4
COURIER = 5
"""0: no courier rule; 1: released by the die (judged before every step); 2: released
at the next turn (judged at the turn's start)."""
POSTILION = 6
FIRST_QUARTER = 7
LAST_TWO = 8
CLOSE_TWO = 9
MIDPOINT_TWO = 10
HEAD = 11
"""R-HEAD: 1 when at most one man leaves the head (point 24) a turn."""
HEAD_DOUBLETS = 12
"""R-HEAD's exception: bit ``d`` set when a first-turn doublet of ``d`` lets two men leave."""
SIX_BLOCK = 13
RUNNER = 14
HOME_QUARTER = 15
UNBLOCK = 16
"""R-UNBLOCK, the one turn filter the kernels know."""
SIZE = 17

_RELEASE = {"die": 1, "next-turn": 2}
_FLAGS = {"R-POSTILION": POSTILION, "R-FIRSTQUARTER": FIRST_QUARTER, "R-BOUCHON": LAST_TWO,
          "R-CLOSE2": CLOSE_TWO, "R-MID2": MIDPOINT_TWO, "R-SIXBLOCK": SIX_BLOCK,
          "R-RUNNER": RUNNER, "R-HOMEQUARTER": HOME_QUARTER}
_TURN_FILTERS = {"R-UNBLOCK": UNBLOCK}
_BEAR_OFF = {"highest": 0, "rear": 1}


@dataclass(frozen=True)
class FastRules:
    """The kernels' view of one rule set: ``params`` (see the indices above) and
    ``opposite`` (the rule set's point mapping), both ``int64`` arrays."""

    rules: RuleSet
    params: NDArray[np.int64]
    opposite: NDArray[np.int64]


def fast_rules(rules: RuleSet) -> FastRules | None:
    """The kernels' parameters for ``rules``, or ``None`` when a rule of it is not built
    into the kernels."""
    params = np.zeros(SIZE, dtype=np.int64)
    for turn_filter in rules.turn_filters:
        if turn_filter.rule_id not in _TURN_FILTERS:
            return None
        params[_TURN_FILTERS[turn_filter.rule_id]] = 1
    params[HITTING] = rules.hitting
    params[CLOSES] = rules.closes_at
    if rules.bear_off not in _BEAR_OFF:
        return None
    params[REAR_BEAR_OFF] = _BEAR_OFF[rules.bear_off]
    params[WASTE] = rules.waste
    params[SQUARED] = rules.squared_doublets
    for rule in rules.step_rules:
        rule_id = rule.rule_id
        if rule_id == "R-COURIER":
            release: Any = getattr(rule, "release", None)
            if release not in _RELEASE:
                return None
            params[COURIER] = _RELEASE[release]
        elif rule_id == "R-HEAD":
            doublets: Any = getattr(rule, "doublets", None)
            if not isinstance(doublets, frozenset):
                return None
            params[HEAD] = 1
            params[HEAD_DOUBLETS] = sum(1 << die for die in doublets)
        elif rule_id in _FLAGS:
            params[_FLAGS[rule_id]] = 1
        else:
            return None
    return FastRules(rules, params, np.array(rules.opposite, dtype=np.int64))
