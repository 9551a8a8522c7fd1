"""What a stored candidate lost against the best play of its turn, the one way every page
says it (the game page's candidates, in the server's table and viewer.js's, and practice's
ranking).

The play made has its loss stored with the turn (``analysis_turns.loss``: the engine's
difference of the unrounded equities, which made its mark); the stored equities are
rounded to four places, so their difference may be 0.0001 off it (0.605 shown against the
stored 0.606): the play made is given the stored loss, the others the difference of
their stored equities from the best's.

A ranking deeper than 0-ply judges only the best few plays at its depth (2-ply, say) and
keeps the others' shallower figures (0-ply), ranked below them (:mod:`analysis.ranking`):
a 0-ply equity is not on the footing of a 2-ply one, so a loss is given only to the plays
judged at the best play's depth; the others have none (``None``), and the pages show each
candidate's depth where the stored ones mix them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def depth_of(candidate: Mapping[str, Any]) -> int | None:
    """The depth a stored candidate was judged at (``None`` for an analysis stored before
    candidates said it)."""
    depth = candidate.get("depth")
    return None if depth is None else int(depth)


def mixed_depths(candidates: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the stored candidates of a turn were judged at more than one depth."""
    return len({depth_of(candidate) for candidate in candidates}) > 1


def candidate_losses(candidates: Sequence[Mapping[str, Any]], played: str,
                     played_loss: float) -> list[float | None]:
    """The loss of each of a turn's stored ``candidates`` (best first) against the best:
    the stored ``played_loss`` for the play made (``played``, as stored), the others the
    difference of their stored equities from the best's (never below 0), ``None`` for a
    play judged at another depth than the best (not comparable).

    >>> ranked = [{"play": "24/18", "equity": 0.1234, "depth": 2},
    ...           {"play": "24/23", "equity": -0.4816, "depth": 2},
    ...           {"play": "13/7", "equity": 0.2000, "depth": 0}]
    >>> candidate_losses(ranked, "24/23", 0.6051)
    [0.0, 0.6051, None]
    >>> candidate_losses(ranked, "24/18", 0.0)
    [0.0, 0.605, None]
    """
    if not candidates:
        return []
    best = candidates[0]
    best_equity, best_depth = float(best["equity"]), depth_of(best)
    losses: list[float | None] = []
    for candidate in candidates:
        if candidate["play"] == played:
            losses.append(float(played_loss))
        elif depth_of(candidate) != best_depth:
            losses.append(None)
        else:
            losses.append(max(0.0, round(best_equity - float(candidate["equity"]), 4)))
    return losses
