"""Helpers shared by the rule tests (test_rules_*.py)."""

import pytest

from notation import IllegalPlayError
from notation.engine.checker import check_play


def texts(plays):
    """The canonical texts of some plays, as a set."""
    return {str(play) for play in plays}


def outcome(points):
    """A mover's board as a comparable value: ``{point: men}`` for points 1-25."""
    return frozenset(points.items())


def outcomes(plays):
    """The mover's resulting boards of some plays, as a set of :func:`outcome` values."""
    return {outcome(play.result.points()) for play in plays}


def broken(position, dice, text, rules):
    """The IllegalPlayError that checking ``text`` raises (the test fails if none)."""
    with pytest.raises(IllegalPlayError) as info:
        check_play(position, dice, text, rules)
    return info.value


def holds(points, wanted):
    """Whether a position's ``points`` (as ``Position.points()`` gives them) hold every
    point of ``wanted``."""
    return all(points.get(p, 0) for p in wanted)
