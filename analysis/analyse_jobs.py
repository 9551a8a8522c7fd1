"""Games analysed over a pool of processes (``jacquet analyse --jobs``, ``jacquet import
--analyse --jobs``): each game is judged by one worker exactly as one process judges it
(:func:`analysis.analyse.analyse_game`), and the analyses come back in the games' order.

A game goes to its worker without its tree: its rule set and the turns to judge
(:class:`GameToJudge`), and comes back as the figures of each turn keyed by its ply
(:class:`JudgedGame`), the plays' notations written; this process puts them together with
its own game (:func:`analysis.analyse.assembled`), which the analysis holds
(``GameAnalysis.game``): annotate and write that game. A game's tree would cost far more to
pickle both ways (and a long game's tree is too deep for pickle's recursion).
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from multiprocessing.pool import AsyncResult, Pool

from analysis.analyse import GameAnalysis, TurnFigures, TurnToJudge, assembled, judge_turns, turns_to_judge
from analysis.confirm import Judge, confirmation_for, confirmation_level, deeper_judge
from analysis.network import Network
from analysis.pool import worker_pool
from analysis.ranking import Evaluator
from notation import RuleSet
from notation.tree.game import Game


@dataclass(frozen=True)
class GameToJudge:
    """What a worker judges of a game: its rule set (with the game's options) and its played
    turns."""

    rules: RuleSet
    turns: list[TurnToJudge]

    @classmethod
    def of(cls, game: Game) -> GameToJudge:
        """``game``'s rule set and played turns."""
        return cls(game.rules, turns_to_judge(game))


@dataclass(frozen=True)
class JudgedGame:
    """A game's turns judged by ``engine`` (its version and depth), their marks confirmed at
    the ``confirm`` level (``None``: not confirmed)."""

    engine: str
    confirm: str | None
    figures: list[TurnFigures]

    def written(self) -> JudgedGame:
        """The same, every kept play's notation written (so that a play pickles without the
        rules that write it)."""
        for turn in self.figures:
            for _, candidate in turn.candidates:
                _ = candidate.play.notation
        return self


@dataclass(frozen=True)
class AnalysisJob:
    """How to analyse: the net of each rule set, the depth, the mark thresholds (``None``:
    the rule set's), the plays kept per turn and the confirmation of the marks (one of
    :data:`analysis.confirm.CONFIRMATIONS`; ``None``: each rule set's own,
    :func:`analysis.confirm.confirmation_for`)."""

    nets: dict[str, Network]
    ply: int = 0
    marks: tuple[float, float, float] | None = None
    candidates: int = 5
    confirm: str | None = "none"
    evaluators: dict[str, tuple[Evaluator, Judge | None]] = field(
        default_factory=dict, compare=False, repr=False)
    """The evaluator and confirming judge of each rule set (and options) met so far, made
    once."""

    def analyse(self, game: Game) -> GameAnalysis:
        """``game`` judged with the net of its rule set."""
        return _assembled(game, self.judge(GameToJudge.of(game)))

    def judge(self, task: GameToJudge) -> JudgedGame:
        """A game's turns judged with the net of its rule set."""
        rules = task.rules
        evaluator, judge = self._judges(rules)
        figures = judge_turns(rules, task.turns, evaluator, self.marks or rules.marks, self.candidates,
                              True, judge)
        return JudgedGame(evaluator.name, None if judge is None else judge.level, figures)

    def _judges(self, rules: RuleSet) -> tuple[Evaluator, Judge | None]:
        """The evaluator and the confirming judge of ``rules``, made at the first call."""
        key = rules.describe()
        if key not in self.evaluators:
            net = self.nets[rules.name]
            self.evaluators[key] = (Evaluator(net, rules, ply=self.ply),
                                    deeper_judge(confirmation_for(self.confirm, rules), net, rules))
        return self.evaluators[key]

    def ready(self, games: Sequence[Game]) -> None:
        """The evaluator of each rule set of ``games`` made and its kernels loaded in this
        process (the first turn of the first game of each with a turn to judge, judged by
        the evaluator alone, the confirming judge left out, its figures thrown away), so
        that workers forked from this process find them ready."""
        seen = set()
        for game in games:
            task = GameToJudge.of(game)
            key = task.rules.describe()
            if key in seen or not task.turns:
                continue
            seen.add(key)
            evaluator, _ = self._judges(task.rules)
            judge_turns(task.rules, task.turns[:1], evaluator, self.marks or task.rules.marks,
                        self.candidates, True, None)

    def level(self, rules: RuleSet) -> str:
        """The confirming judge's level in ``rules`` (``''`` for none), as the archive keys an
        analysis by it: from the setting alone, no judge made
        (:func:`analysis.confirm.confirmation_level`)."""
        return confirmation_level(confirmation_for(self.confirm, rules), rules)


WORKER_TURNS = {"fork": 30, "spawn": 900}
"""How many turns judged at 0-ply (with the luck of the roll) make a worker process worth
starting, by how it starts (:func:`start_method`): a forked worker shares this process's
loaded kernels and costs about 20 turns' CPU to start and feed (11 for its pages copied as
it writes them, some 10 for this process to send its games and take its figures back); a
spawned one (an interpreter, numpy, the notation, the nets, numba's kernels loaded) about
1.3 s of CPU, some 840 turns of a real backgammon match
(``python bench/analyse_speed.py --worker-start`` measures both)."""

DEPTH_COST = (1, 6, 45)
"""What a turn costs at 0, 1 and 2 ply, in turns at 0-ply (the luck's 21 rolls, then 8
candidates' 21 replies at 1-ply, and 21 × 22 more at 2-ply): measured by
``python bench/analyse_speed.py --depth-cost``, 7.6 and 43 on a real backgammon match, 5.6
and 48 on generated jacquet games (session 23; it was 3 and 35 against a dearer turn at
0-ply)."""


CONFIRM_COST = {"none": 0, "1ply": 3, "2ply": 30, "2ply+rollout": 125, "rollout": 400}
"""What confirming the marks adds to a turn's cost, on average over a game's turns, in turns
at 0-ply (measured by ``bench/confirm_cost.py``, two thirds of the turns or more judged
again: at 1-ply 2.6 in a real backgammon match and 2.9 in a generated jacquet game, at
2-ply 56 and 60 before 2-ply's second move filter, about half of it since: 5.5 → 2.8 s of
CPU a backgammon game, 11.7 → 5.6 s a jacquet game of 93 turns; a rollout of 144 games
about 400 in backgammon; 2-ply with its marks checked by a 648-game rollout about 4.2
times the 2-ply confirmation's analysis on real backgammon matches, ``bench/confirm_rollout.py``)."""


def workers_for(games: Sequence[Game], ply: int, cores: int, confirm: str | None, method: str) -> int:
    """How many processes the analysis of ``games`` at ``ply``, its marks confirmed by
    ``confirm`` (``None``: each game's rule set's own), is worth, at most ``cores`` (one:
    this process alone; N: this one beside N − 1 workers started by ``method``,
    :func:`start_method`'s); the analyses are the same whatever the number. A worker is
    worth :data:`WORKER_TURNS` turns of work at 0-ply, each turn costing :data:`DEPTH_COST`
    at its depth and :data:`CONFIRM_COST` more."""
    work = sum(game.end().ply * (DEPTH_COST[ply] + CONFIRM_COST[confirmation_for(confirm, game.rules)])
               for game in games)
    worth = math.ceil(work / WORKER_TURNS[method])
    return max(1, min(cores, len(games), worth))


_JOB: dict[str, AnalysisJob] = {}
"""A worker's job, set once by :func:`_start_worker`."""


def _start_worker(job: AnalysisJob) -> None:
    _JOB["job"] = job


def _judge(task: GameToJudge) -> JudgedGame:
    return _JOB["job"].judge(task).written()


def _assembled(game: Game, judged: JudgedGame) -> GameAnalysis:
    return assembled(game, judged.engine, judged.figures, judged.confirm)


Analyser = Callable[[Sequence[Game]], Iterator[GameAnalysis]]
"""Analyses a list of games, yielding their analyses in order."""


def start_method() -> str:
    """How workers are started: forked from this process (sharing its imported modules and
    loaded kernels: a worker's start then costs next to nothing) on Linux when this process
    runs a single thread, as the commands do (BLAS held to one thread before numpy loads,
    :mod:`analysis.threads`; numba's kernels start none): no thread, numba's, BLAS's or the
    caller's, is copied half-way through its work. Else spawned, a fresh interpreter each."""
    if sys.platform.startswith("linux") and len(os.listdir("/proc/self/task")) == 1:
        return "fork"
    return "spawn"


@contextmanager
def analyser(job: AnalysisJob, jobs: int = 1, method: str | None = None) -> Iterator[Analyser]:
    """A function analysing lists of games over ``jobs`` processes: this one and ``jobs`` −
    1 workers (none when ``jobs`` is 1), started at the first list by ``method`` (default:
    :func:`start_method`'s; when forked, once this process has made the evaluators of that
    list's rule sets and loaded its kernels, :meth:`AnalysisJob.ready`), the same workers
    for every list while the block lasts; the same analyses whatever ``jobs``. Leaving the
    block by an exception (Ctrl-C) stops the workers at once."""
    if jobs <= 1:
        yield lambda games: (job.analyse(game) for game in games)
        return
    with ExitStack() as stack:
        pools: list[Pool] = []

        def analyse(games: Sequence[Game]) -> Iterator[GameAnalysis]:
            if not games:
                return iter(())
            if not pools:
                how = method or start_method()
                if how == "fork":
                    job.ready(games)
                pools.append(stack.enter_context(worker_pool(jobs - 1, _start_worker, (job,), how)))
            return _beside(job, pools[0], jobs - 1, games)

        yield analyse


def _beside(job: AnalysisJob, pool: Pool, workers: int, games: Sequence[Game]) -> Iterator[GameAnalysis]:
    """Each game's analysis in the games' order, judged by the ``workers`` of ``pool`` and
    by this process, which takes the next game nobody has while the one due is still with a
    worker. A worker is given one game, then two in hand once this process has taken its
    first (it never waits for this process to finish a game to get its next)."""
    sent: dict[int, AsyncResult[JudgedGame]] = {}
    ready: dict[int, JudgedGame] = {}
    taken, hand = 0, workers
    for due, game in enumerate(games):
        while due not in ready:
            while taken < len(games) and len(sent) < hand:
                sent[taken] = pool.apply_async(_judge, (GameToJudge.of(games[taken]),))
                taken += 1
            if due in sent and (taken == len(games) or sent[due].ready()):
                ready[due] = sent.pop(due).get()
            else:
                ready[taken] = job.judge(GameToJudge.of(games[taken]))
                taken, hand = taken + 1, 2 * workers
        yield _assembled(game, ready.pop(due))


def analyse_all(games: Sequence[Game], job: AnalysisJob, jobs: int = 1, method: str | None = None
                ) -> Iterator[GameAnalysis]:
    """Each game's analysis, in the games' order, over ``jobs`` processes (workers started
    by ``method``, :func:`analyser`)."""
    with analyser(job, jobs, method) as analyse:
        yield from analyse(games)
