"""The pure parts of ``bench/gnubg_judge.py``: gnubg's judgement of a decision as read back
from its cache, the engine's turns matched to it, and the measures of one judge against
gnubg 2-ply (no gnubg, no engine needed: ``tests/test_bench_gnubg_judge.py`` tests them).

Every equity is the mover's cubeless money equity; a *loss* is the best play's equity less
the play's, so 0 for the best play, never negative.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import numpy as np

RACE_CLASSES = range(1, 9)
"""gnubg's position classes without contact (``classifypos``): hypergammon, bear-offs, race."""
MARKED = 0.08
"""gnubg 2-ply's loss from which a play is an error a ``?``/``??`` mark should catch."""
GNUBG_BAD = 0.060
"""gnubg 1.07's threshold of ``?`` (bad): the marks of gnubg 0-ply as a judge."""
DOUBTFUL = 0.030
"""gnubg 1.07's threshold of ``?!`` (doubtful): a refuted mark below it is no error at all
in gnubg 2-ply's eyes."""
VERY_BAD = 0.120
"""gnubg 1.07's (and ``backgammon``'s) threshold of ``??``: the judge's heavy marks."""
MIN_DECISIONS = 30
"""Players with fewer unforced decisions over the matches are left out of the error rates'
Spearman."""
CRASHED = 9
"""gnubg's class of a contact position where a side has few men left to build with
(``classifypos``): the class gnubg judges with its own net."""
CONTACT = 10
"""gnubg's class of the other contact positions."""
TIE = 1e-9
"""Two equities this close are equal: a play that ties gnubg's best is a best play."""


@dataclass(frozen=True)
class GnubgPlay:
    """One legal play as gnubg judged it: the position it leaves (ID seen by the next
    player), its equity at 2-ply (at 0-ply for a play gnubg's move filter drops: ``depth``
    0) and at 0-ply (``None`` for a forced play), gnubg's notation."""

    after: str
    equity: float | None
    equity0: float | None
    notation: str
    depth: int = 2


@dataclass(frozen=True)
class Decision:
    """One move record of a match as gnubg judged it (see ``bench/gnubg_judge_worker.py``)."""

    position: str
    dice: str
    player: str
    played: str
    gnubg_class: int
    plays: tuple[GnubgPlay, ...]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Decision:
        """A decision as the worker wrote it."""
        return cls(data["position"], dice_key(data["dice"]), data["player"], data["played"],
                   data["class"], tuple(GnubgPlay(*play) for play in data["plays"]))

    @property
    def forced(self) -> bool:
        """Whether there was only one legal play."""
        return len(self.plays) <= 1

    @property
    def race(self) -> bool:
        """Whether gnubg classes the position as without contact."""
        return self.gnubg_class in RACE_CLASSES

    def loss(self, after: str, zero_ply: bool = False) -> float | None:
        """What the play leaving ``after`` loses against the best (at 2-ply, or 0-ply);
        ``None`` when no legal play leaves it."""
        equities = {p.after: (p.equity0 if zero_ply else p.equity) for p in self.plays}
        if after not in equities:
            return None
        best = max(e for e in equities.values() if e is not None)
        value = equities[after]
        assert value is not None
        return max(0.0, best - value)

    def best(self, zero_ply: bool = False) -> str:
        """The position the best play leaves (at 2-ply, or 0-ply)."""
        return max(self.plays, key=lambda p: (p.equity0 if zero_ply else p.equity) or 0.0).after


def dice_key(dice: str) -> str:
    """Dice written high first (``"15"`` → ``"51"``), as both sides are matched."""
    return "".join(sorted(dice, reverse=True))


@dataclass(frozen=True)
class EngineTurn:
    """One turn of ``jacquet analyse --json`` with the position the project's reader rebuilt
    for it: where it was played (game from 1, the position ID before, the dice), by whom,
    the positions the play made and the engine's best play leave (``None`` when its
    notation names no legal play), the engine's loss and mark."""

    game: int
    position: str
    dice: str
    player: str
    played: str
    best: str | None
    loss: float
    mark: str | None
    forced: bool


@dataclass(frozen=True)
class Judged:
    """One unforced decision as a judge saw it, beside gnubg 2-ply's verdict."""

    decision: Decision
    game: int
    """The game of the match, from 1."""
    player: str
    best: str
    """The position the judge's best play leaves."""
    loss: float
    """The judge's loss for the play made."""
    marked: bool
    """Whether the judge marks the play made ``?`` or ``??``."""


@dataclass
class Matching:
    """The engine's turns found in gnubg's judgement, and what could not be."""

    judged: list[Judged]
    unmatched: int = 0
    """Unforced turns of the engine with no gnubg decision of that game, position and dice."""
    played_unknown: int = 0
    """Matched turns whose play made (or the engine's best) leaves no position gnubg lists."""
    forced_disagree: int = 0
    """Turns one side calls forced and the other not."""
    gnubg_left: int = 0
    """gnubg's unforced decisions that no engine turn claimed."""


def match_turns(games: list[list[Decision]], turns: list[EngineTurn]) -> Matching:
    """Each engine turn paired with gnubg's decision of the same game, position ID and dice
    (taken in order where one position and roll recur within a game)."""
    waiting: dict[tuple[int, str, str], list[Decision]] = defaultdict(list)
    for number, game in enumerate(games, 1):
        for decision in game:
            waiting[number, decision.position, decision.dice].append(decision)
    result = Matching([])
    for turn in turns:
        queue = waiting.get((turn.game, turn.position, dice_key(turn.dice)))
        if not queue:
            result.unmatched += 0 if turn.forced else 1
            continue
        decision = queue.pop(0)
        if decision.forced != turn.forced:
            result.forced_disagree += 1
            continue
        if turn.forced:
            continue
        if turn.best is None or decision.loss(turn.played) is None or decision.loss(turn.best) is None:
            result.played_unknown += 1
            continue
        result.judged.append(Judged(decision, turn.game, turn.player, turn.best, turn.loss,
                                    turn.mark in ("?", "??")))
    result.gnubg_left = sum(1 for queue in waiting.values() for d in queue if not d.forced)
    return result


def gnubg_zero_ply(games: list[list[Decision]], players: dict[tuple[int, str], str]) -> list[Judged]:
    """gnubg 0-ply as a judge of one match's decisions: its best, its loss, and its marks
    at :data:`GNUBG_BAD`. ``players`` names each (game, gnubg's X/O): see :func:`player_names`."""
    judged = []
    for number, game in enumerate(games, 1):
        for decision in game:
            if decision.forced:
                continue
            loss = decision.loss(decision.played, zero_ply=True)
            assert loss is not None
            judged.append(Judged(decision, number, players.get((number, decision.player), decision.player),
                                 decision.best(zero_ply=True), loss, loss >= GNUBG_BAD))
    return judged


def player_names(judged: list[Judged]) -> dict[tuple[int, str], str]:
    """The players' names for gnubg's sides (X/O) in each game of a match, as the engine's
    turns matched them."""
    return {(j.game, j.decision.player): j.player for j in judged}


def ranks(values: list[float]) -> np.ndarray:
    """Each value's rank from 1, ties given the mean of the ranks they share."""
    array = np.asarray(values, dtype=float)
    order = np.argsort(array, kind="stable")
    ranked = np.empty(len(array))
    ranked[order] = np.arange(1, len(array) + 1)
    for value in np.unique(array):
        tied = array == value
        ranked[tied] = ranked[tied].mean()
    return ranked


def spearman(first: list[float], second: list[float]) -> float:
    """Spearman's rank correlation (ties at their mean rank); NaN when either side is
    constant or there are fewer than two pairs."""
    if len(first) != len(second):
        raise ValueError("Spearman of two lists of different lengths")
    if len(first) < 2:
        return float("nan")
    a, b = ranks(first), ranks(second)
    if a.std() == 0 or b.std() == 0:
        return float("nan")
    return float(np.corrcoef(a, b)[0, 1])


def _share(hits: int, total: int) -> float:
    return hits / total if total else float("nan")


def figures(judged: list[Judged], min_decisions: int = MIN_DECISIONS) -> dict[str, Any]:
    """A judge's figures against gnubg 2-ply over its ``judged`` decisions."""
    truth = [j.decision.loss(j.decision.played) or 0.0 for j in judged]
    best_loss = [j.decision.loss(j.best) or 0.0 for j in judged]
    agree = [loss <= TIE for loss in best_loss]
    races = [a for a, j in zip(agree, judged, strict=True) if j.decision.race]
    by_class = {name: [(a, b) for a, b, j in zip(agree, best_loss, judged, strict=True)
                       if j.decision.gnubg_class == number]
                for name, number in (("crashed", CRASHED), ("contact", CONTACT))}
    marked = sum(j.marked for j in judged)
    errors = sum(t >= MARKED for t in truth)
    both = sum(j.marked and t >= MARKED for j, t in zip(judged, truth, strict=True))
    refuted = [t for j, t in zip(judged, truth, strict=True) if j.marked and t < MARKED]
    race_marks = [t >= MARKED for j, t in zip(judged, truth, strict=True) if j.marked and j.decision.race]
    heavy = [t >= MARKED for j, t in zip(judged, truth, strict=True) if j.marked and j.loss >= VERY_BAD]
    by_player: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for j, t in zip(judged, truth, strict=True):
        by_player[j.player].append((j.loss, t))
    rated = {name: losses for name, losses in by_player.items() if len(losses) >= min_decisions}
    return {
        "decisions": len(judged),
        "best_agree": _share(sum(agree), len(agree)),
        "races": len(races),
        "best_agree_races": _share(sum(races), len(races)),
        **{f"{name}s": len(pairs) for name, pairs in by_class.items()},
        **{f"best_agree_{name}": _share(sum(a for a, _ in pairs), len(pairs))
           for name, pairs in by_class.items()},
        **{f"best_loss_{name}": 1000 * float(np.mean([b for _, b in pairs])) if pairs else float("nan")
           for name, pairs in by_class.items()},
        "spearman_losses": spearman([j.loss for j in judged], truth),
        "marked": marked, "errors": errors, "both": both,
        "precision": _share(both, marked), "recall": _share(both, errors),
        "refuted_flat": sum(t < DOUBTFUL for t in refuted),
        "refuted_near": sum(t >= DOUBTFUL for t in refuted),
        "marked_races": len(race_marks), "both_races": sum(race_marks),
        "marked_heavy": len(heavy), "both_heavy": sum(heavy),
        "best_loss_thousandths": 1000 * float(np.mean(best_loss)) if best_loss else float("nan"),
        "players": len(rated),
        "spearman_players": spearman([float(np.mean([a for a, _ in v])) for v in rated.values()],
                                     [float(np.mean([b for _, b in v])) for v in rated.values()]),
    }
