"""Marks that hold: a game's plays are judged at 0-ply, then the turns whose mark could be
wrong are judged again at a deeper level, and that level decides their marks and figures.

- **Re-judged**: every turn whose play made would be marked at 0-ply, and every turn where
  the best two plays at 0-ply are within :data:`CLOSE` times the rule set's doubtful
  threshold (``RuleSet.marks[0]``: 0.030 in ``backgammon``, 0.04 in the Jacquet family,
  0.32 in ``hale``), where a deeper look could put another play first and make the play
  made an error. Forced plays never are.
- **Decided there**: the re-judged turn's ranking, loss and mark are the deeper level's: a
  0-ply mark is kept only if the play's loss at that level still crosses the threshold
  (the mark it earns there, maybe another; its ``?`` from a margin above the rule set's,
  :data:`MARGIN`), and a mark the deeper level gives that 0-ply missed is set too. The
  turn says which level decided it (:attr:`Judge.name`).
- **The deeper levels** (:data:`CONFIRMATIONS`): ``1ply`` and ``2ply``, the net looking
  one or two rolls ahead (:class:`analysis.ranking.Evaluator`); ``rollout``, the best
  :attr:`RolloutJudge.candidates` plays at 0-ply and the play made rolled out
  (:mod:`analysis.rollout`: the same dice for each, truncated, closed by the net);
  ``2ply+rollout``, two stages (:class:`CheckedJudge`): 2-ply, then a rollout of the play
  made and 2-ply's best plays where 2-ply leaves the play made a loss of the doubtful
  threshold or more, the rollout deciding those turns' marks.

A judge is anything with a ``name``, a ``level`` and a ``judge`` method (:class:`Judge`),
so that the confirmation can be tested with any of them. The module imports the engine
(numpy) only when a judge is made: ``jacquet analyse --help`` reads its settings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from analysis.network import Network
    from analysis.ranking import Candidate, Evaluator
    from notation import Dice, Play, Position, RuleSet

CONFIRMATIONS = ("none", "1ply", "2ply", "2ply+rollout", "rollout")
"""The settings of ``jacquet analyse --confirm``, from the lightest to the heaviest."""

def confirmation_for(setting: str | None, rules: RuleSet) -> str:
    """The confirmation asked (one of :data:`CONFIRMATIONS`), or where none is (``None``,
    what ``jacquet analyse``, ``jacquet import --analyse``, the viewer's "Analyse this game"
    and ``/play/``'s analysis do unless told) the rule set's own, ``RuleSet.confirmation``
    (``docs/analysis.md``, "Marks that hold", gives each setting's cost and figures, and why
    each rule set has its own)."""
    return rules.confirmation if setting is None else setting


CLOSE = 1.0
"""A turn whose best two plays at 0-ply are within this share of the rule set's doubtful
threshold is judged again (besides every turn that would be marked). Measured against
gnubg 2-ply on 20 real matches (``bench/confirm_choices.py``): at 2-ply, 1 instead of 0.5
judges a quarter more turns again and gives more best plays, a better Spearman, recall
0.74 instead of 0.70 at the same precision (0.33), and best plays losing 6.8 thousandths
a decision instead of 7.8."""

MARGIN = 7 / 6
"""The deeper level marks a play bad (``?``) only from this share of the rule set's bad
threshold (``RuleSet.marks[1]``: 0.070 in ``backgammon`` where gnubg's ``?`` is 0.060,
0.093 in the Jacquet family, 0.75 in ``hale``); its ``?!`` and ``??`` keep the rule set's
thresholds. The net's 2-ply judgement errs most on the ``?`` of contact positions: against
gnubg 2-ply on 20 real matches (``bench/confirm_choices.py``), the margin chosen on one
set of matches raised the precision of the marks on the other without losing much recall
(``docs/analysis.md``, "Marks that hold")."""


CHECK_GAMES = 648
"""The games of the rollout that checks a 2-ply mark (``--confirm 2ply+rollout``)."""

CHECK_TRUNCATE = 7
"""Its truncation: a game still going after this many turns is closed by the net."""

CHECK_CANDIDATES = 2
"""The 2-ply judgement's best plays rolled out beside the play made."""

CHECK_BOUND = 2.0
"""A play 2-ply finds this many times the rule set's very bad threshold worse
(``RuleSet.marks[2]``) or more keeps 2-ply's mark unchecked. On the 500 bench positions of
jacquet, hale, narde and fevga (``bench/rollout_marks.py``), all 14 such plays kept their
mark after the rollout, while 5 of the 22 between once and twice the threshold changed;
the rollouts it saves are most of the check's cost on the games of weak players."""


def confirmed_limits(limits: tuple[float, float, float]) -> tuple[float, float, float]:
    """The thresholds (doubtful, bad, very bad) of a mark the deeper level decides: the
    bad one raised by :data:`MARGIN` (never above the very bad one)."""
    doubtful, bad, very_bad = limits
    return doubtful, min(MARGIN * bad, very_bad), very_bad


class Judge(Protocol):
    """A deeper judge of a turn's plays."""

    @property
    def name(self) -> str:
        """The engine, its version and the level, as stored beside every figure it gives:
        ``jacquet-td jacquet v2, 2-ply``."""
        ...

    @property
    def level(self) -> str:
        """The level alone: ``2-ply``, ``rollout of 144 games, ...``."""
        ...

    def judge(self, plays: Sequence[Play], position: Position, dice: Dice,
              primes: tuple[bool, bool], also: Play) -> list[Candidate]:
        """``plays`` (all the legal plays of ``dice`` from ``position``) best first, the
        ones judged at this level before the others; ``also`` (the play made) among the
        judged."""
        ...


@dataclass
class PlyJudge:
    """The net looking ``evaluator.ply`` rolls ahead."""

    evaluator: Evaluator

    @property
    def name(self) -> str:
        """``jacquet-td jacquet v2, 2-ply``."""
        return self.evaluator.name

    @property
    def level(self) -> str:
        """``2-ply``."""
        return ply_level(self.evaluator.ply)

    def judge(self, plays: Sequence[Play], position: Position, dice: Dice,
              primes: tuple[bool, bool], also: Play) -> list[Candidate]:
        """The evaluator's ranking, the play made judged at its depth."""
        return self.evaluator.rank(plays, position, primes, also=also)


@dataclass
class RolloutJudge:
    """The best ``candidates`` plays at 0-ply and the play made, each played out ``games``
    times on the same dice (truncated after ``truncate`` turns, closed by the net at
    0-ply); the others keep their 0-ply judgement and rank below them. One process: the
    analysis spreads its games over the cores already. A murray prime held before the
    position and gone is not known to the play-outs (as in ``jacquet rollout``)."""

    net: Network
    rules: RuleSet
    games: int = 144
    truncate: int | None = 7
    seed: int = 1
    candidates: int = 3
    evaluator: Evaluator = field(init=False)

    def __post_init__(self) -> None:
        from analysis.ranking import Evaluator

        self.evaluator = Evaluator(self.net, self.rules, ply=0)

    @property
    def level(self) -> str:
        """``rollout of 144 games at 0-ply, truncated after 7 turns, seed 1``."""
        return rollout_level(self.games, self.truncate, self.seed)

    @property
    def name(self) -> str:
        """The net's name and :attr:`level`."""
        return f"{self.net.name}, {self.level}"

    def judge(self, plays: Sequence[Play], position: Position, dice: Dice,
              primes: tuple[bool, bool], also: Play) -> list[Candidate]:
        """The rolled-out plays best first, then the others by their 0-ply equity."""
        return rolled_out(self, plays, position, dice, self.evaluator.rank(plays, position, primes), also)

    def roll(self, plays: Sequence[Play], position: Position, dice: Dice,
             chosen: Sequence[Candidate]) -> list[Candidate]:
        """The ``chosen`` plays (among ``plays``, the legal plays of ``dice``) played out,
        best first by what their games give."""
        from analysis.ranking import Candidate
        from analysis.rollout import RolloutSpec, run_rollout

        places = tuple(next(i for i, p in enumerate(plays) if p.result == c.play.result) for c in chosen)
        spec = RolloutSpec(self.net, self.rules.name, dict(self.rules.options), position.position_id(),
                           str(dice), places, ply=0, truncate=self.truncate, seed=self.seed)
        result = run_rollout(spec, self.games)
        return [Candidate(r.play, r.equity, r.probabilities, 0) for r in result.candidates]


class Roller(Protocol):
    """What plays out a turn's chosen plays (:class:`RolloutJudge`)."""

    @property
    def candidates(self) -> int:
        """The best plays of a ranking played out beside the play made."""
        ...

    @property
    def level(self) -> str:
        """``rollout of 648 games at 0-ply, truncated after 7 turns, seed 1``."""
        ...

    def roll(self, plays: Sequence[Play], position: Position, dice: Dice,
             chosen: Sequence[Candidate]) -> list[Candidate]:
        """The ``chosen`` plays, best first by what their games give."""
        ...


def rolled_out(rollout: Roller, plays: Sequence[Play], position: Position, dice: Dice,
               ranked: list[Candidate], also: Play) -> list[Candidate]:
    """``ranked``'s best :attr:`RolloutJudge.candidates` plays and the play made rolled
    out and put first by what their games give, the others after them as ranked."""
    chosen = ranked[:rollout.candidates]
    if all(c.play.result != also.result for c in chosen):
        chosen += [c for c in ranked if c.play.result == also.result]
    judged = {c.play.result for c in chosen}
    return rollout.roll(plays, position, dice, chosen) + [c for c in ranked if c.play.result not in judged]


@dataclass
class CheckedJudge:
    """Two stages: ``first`` (2-ply) judges the turn; where it leaves the play made a loss
    of ``low`` or more (the rule set's doubtful threshold: a mark, or a play a rollout may
    find worse) and less than ``high`` (a mark no rollout is expected to lift:
    :data:`CHECK_BOUND`), ``rollout`` plays out the play made and ``first``'s best plays,
    and its figures decide: they rank those plays above the others. Elsewhere ``first``'s
    judgement stands (no mark to check, or one beyond doubt)."""

    first: Judge
    rollout: Roller
    low: float
    high: float

    @property
    def level(self) -> str:
        """``2-ply, marks under 0.32 checked by a rollout of 648 games at 0-ply, truncated
        after 7 turns, seed 1``."""
        return checked_level(self.first.level, self.high, self.rollout.level)

    @property
    def name(self) -> str:
        """``first``'s name and the rollout's level: ``jacquet-td backgammon v1, 2-ply,
        marks under 0.24 checked by a rollout of ...``."""
        return checked_level(self.first.name, self.high, self.rollout.level)

    def judge(self, plays: Sequence[Play], position: Position, dice: Dice,
              primes: tuple[bool, bool], also: Play) -> list[Candidate]:
        """``first``'s ranking, its top and the play made rolled out where it leaves the
        play made a loss of :attr:`low` or more and less than :attr:`high`."""
        ranked = self.first.judge(plays, position, dice, primes, also)
        made = next(c for c in ranked if c.play.result == also.result)
        if not self.low <= ranked[0].equity - made.equity < self.high:
            return ranked
        return rolled_out(self.rollout, plays, position, dice, ranked, also)


def fallbacks(setting: str) -> tuple[str, ...]:
    """``setting``, then the lighter of ``2ply``, ``1ply`` and ``none`` (:data:`CONFIRMATIONS`
    goes from the lightest to the heaviest): what an analysis bounded in time tries in turn."""
    cost = CONFIRMATIONS.index
    return (setting, *(lighter for lighter in ("2ply", "1ply", "none") if cost(lighter) < cost(setting)))


def ply_level(ply: int) -> str:
    """The level of the net looking ``ply`` rolls ahead: ``2-ply``."""
    return f"{ply}-ply"


def rollout_level(games: int, truncate: int | None, seed: int) -> str:
    """The level of a rollout judge: ``rollout of 144 games at 0-ply, truncated after 7
    turns, seed 1``."""
    truncation = f"truncated after {truncate} turns" if truncate else "played to the end"
    return f"rollout of {games:,} games at 0-ply, {truncation}, seed {seed}"


def checked_level(first: str, high: float, rollout: str) -> str:
    """The level of a two-stage judge checking the marks of losses under ``high``: ``2-ply,
    marks under 0.32 checked by a rollout of 648 games at 0-ply, truncated after 7 turns,
    seed 1``."""
    return f"{first}, marks under {high:g} checked by a {rollout}"


def check_bound(rules: RuleSet) -> float:
    """The loss from which ``2ply+rollout`` keeps 2-ply's mark unchecked
    (:data:`CHECK_BOUND` times the very bad threshold)."""
    return round(CHECK_BOUND * rules.marks[2], 6)


def check_setting(setting: str) -> None:
    """``ValueError`` for a ``--confirm`` setting the engine cannot make (none of
    :data:`CONFIRMATIONS`, or a depth it does not have), without making its judge."""
    if setting not in CONFIRMATIONS:
        raise _unknown(setting)
    if setting in ("1ply", "2ply"):
        from analysis.ranking import DEPTHS, CannotJudge
        from notation.messages import either

        ply = int(setting[0])
        if ply not in DEPTHS:
            raise CannotJudge("judge.depth", ply=ply, depths=either([str(depth) for depth in DEPTHS]))


def confirmation_level(setting: str, rules: RuleSet) -> str:
    """The level of the judge a ``--confirm`` setting makes in ``rules`` (``''`` for
    ``none``), as the archive keys an analysis by it, without making the judge (no net is
    loaded); ``ValueError`` for a setting the engine cannot make (:func:`check_setting`)."""
    check_setting(setting)
    if setting == "none":
        return ""
    if setting == "rollout":
        return rollout_level(RolloutJudge.games, RolloutJudge.truncate, RolloutJudge.seed)
    if setting == "2ply+rollout":
        return checked_level(ply_level(2), check_bound(rules), rollout_level(CHECK_GAMES, CHECK_TRUNCATE, 1))
    return ply_level(int(setting[0]))


def _unknown(setting: str) -> ValueError:
    """The error of a ``--confirm`` setting that is none of :data:`CONFIRMATIONS`."""
    from analysis.ranking import CannotJudge

    return CannotJudge("judge.confirmation", setting=setting, settings=", ".join(CONFIRMATIONS))


def deeper_judge(setting: str, net: Network, rules: RuleSet) -> Judge | None:
    """The judge of a ``--confirm`` setting (:data:`CONFIRMATIONS`), ``None`` for
    ``none``."""
    if setting == "none":
        return None
    if setting == "rollout":
        return RolloutJudge(net, rules)
    if setting == "2ply+rollout":
        first = deeper_judge("2ply", net, rules)
        assert first is not None
        return CheckedJudge(first, RolloutJudge(net, rules, CHECK_GAMES, CHECK_TRUNCATE, 1, CHECK_CANDIDATES),
                            rules.marks[0], check_bound(rules))
    if setting in ("1ply", "2ply"):
        from analysis.ranking import Evaluator

        return PlyJudge(Evaluator(net, rules, ply=int(setting[0])))
    raise _unknown(setting)


def needs_confirming(ranked: Sequence[Candidate], mark: str | None, limits: tuple[float, float, float]
                     ) -> bool:
    """Whether a turn judged ``ranked`` (best first) with the play made earning ``mark``
    is to be judged again: it would be marked, or its best two plays are close."""
    if mark is not None:
        return True
    return len(ranked) > 1 and ranked[0].equity - ranked[1].equity < CLOSE * limits[0]
