"""Exact bear-offs: one-sided bear-off tables per bear-off rule (gnubg's one-sided
database, for every rule set of the project), a two-sided table for few men, and the
exact outputs the evaluator uses wherever both sides are in a pure bear-off
(``docs/analysis.md``, "Exact bear-offs").

- :mod:`analysis.bearoff.positions`: one side's 54,264 positions and their order;
- :mod:`analysis.bearoff.moves`: the plays of every position and roll, per bear-off rule;
- :mod:`analysis.bearoff.onesided`: building a one-sided table;
- :mod:`analysis.bearoff.store`: the tables' cache folder, built once at first use;
- :mod:`analysis.bearoff.exact`: :func:`exact_outputs`, the evaluator's one call.
"""

from analysis.bearoff.exact import exact_outputs, pure_bear_off
from analysis.bearoff.moves import BearOffRule

__all__ = ["BearOffRule", "exact_outputs", "pure_bear_off"]
