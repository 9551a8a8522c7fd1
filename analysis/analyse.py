"""The analysis of a recorded game: every turn's plays ranked, the equity the played play
lost, a mark by that loss, the luck of the roll, and a summary per player.

- A turn is a *decision* when it had more than one legal play; a forced play is shown but
  not counted (no mark, no loss in the error rate).
- **Marks** by the equity lost, in the rule set's own points (:data:`MARKS`): doubtful
  ``?!`` (NAG ``$6``), bad ``?`` (``$2``), very bad ``??`` (``$4``). The thresholds are the
  rule set's (``RuleSet.marks``): GNU Backgammon 1.07's 0.030, 0.060, 0.120 in
  ``backgammon``, the project's own elsewhere (``docs/analysis.md`` says which and why).
- **Luck** of a roll thrown (not of dice passed, nor of a lead doublet the rules impose):
  the equity after the best play for it minus the average of that over all 36 rolls, at
  0-ply whatever the depth of the analysis.
- **Confirmation** (``confirm``, :mod:`analysis.confirm`): the turns whose mark could be
  wrong are judged again by a deeper judge, whose ranking, loss and mark they then carry;
  every turn names the level that decided it (``level``).
- Per player: unforced decisions, marks of each kind, the **error rate** (equity lost per
  unforced decision, in thousandths of a point), the total luck, the result (points won,
  negative when lost; ``None`` while the game is not over) and the luck-adjusted result
  (the result less the luck).

Cube actions and resignations are not judged (the nets are cubeless). A game with an error
is analysed up to it (its tree stops there).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from analysis.board_judge import named_play
from analysis.confirm import Judge, confirmed_limits, needs_confirming
from analysis.ranking import Candidate, Evaluator, RollsJudged
from analysis.rolls import ROLLS_21
from notation import Dice, Play, Position, RuleSet, legal_plays
from notation.engine.board import WIDTH
from notation.engine.movegen import TurnRules
from notation.engine.state import PASSED, ROLL, Colour
from notation.errors import NotationError
from notation.tree.game import Game, GameNode

MARKS = (("??", 4), ("?", 2), ("?!", 6))
"""The marks, worst first, with their NAG."""

def mark_for(loss: float, limits: tuple[float, float, float]) -> str | None:
    """The mark a play losing ``loss`` earns under ``limits`` (doubtful, bad, very bad)."""
    doubtful, bad, very_bad = limits
    if loss >= very_bad:
        return "??"
    if loss >= bad:
        return "?"
    if loss >= doubtful:
        return "?!"
    return None


@dataclass
class TurnAnalysis:
    """One turn judged: ``candidates`` best first (the ``shown`` best and the play made),
    ``rank`` the play made's place among all ``legal`` plays (1 = best)."""

    node: GameNode
    ply: int
    player: Colour
    dice: Dice
    played: Play
    best: Candidate
    chosen: Candidate
    rank: int
    legal: int
    loss: float
    mark: str | None
    forced: bool
    luck: float | None
    before: float | None
    """The equity of the player to act before his roll (the average over the 36 rolls of
    the equity after his best play); ``None`` for dice passed, or without the luck."""
    candidates: list[tuple[int, Candidate]]
    level: str = ""
    """Who decided the turn's ranking, loss and mark: the engine, its version and the
    level (``jacquet-td jacquet v2, 0-ply``, or the deeper judge's name when it was
    judged again)."""
    confirmed: bool = False
    """Whether the deeper judge decided it."""


@dataclass
class PlayerSummary:
    """What one player's turns add up to."""

    decisions: int = 0
    marks: dict[str, int] = field(default_factory=lambda: {mark: 0 for mark, _ in MARKS})
    lost: float = 0.0
    luck: float = 0.0
    result: int | None = None
    confirmed: int = 0
    """Unforced decisions whose loss and mark the deeper judge decided."""

    @property
    def error_rate(self) -> float:
        """Equity lost per unforced decision, in thousandths of a point (0 with none)."""
        return 1000.0 * self.lost / self.decisions if self.decisions else 0.0

    @property
    def luck_adjusted(self) -> float | None:
        """The result less the luck (``None`` while the game is not over)."""
        return None if self.result is None else self.result - self.luck


@dataclass
class GameAnalysis:
    """A game judged by ``engine`` (its version and depth)."""

    game: Game
    engine: str
    turns: list[TurnAnalysis]
    players: dict[Colour, PlayerSummary]
    error: NotationError | None
    """The record's first error, where the analysis stops, if any."""
    confirm: str | None = None
    """The level of the deeper judge that confirmed the marks (``2-ply``), if any."""

    @property
    def stopped(self) -> str | None:
        """That error's whole line (where, the rule, what it says) in the current
        language, if any."""
        return None if self.error is None else str(self.error)


def analyse_game(game: Game, evaluator: Evaluator, limits: tuple[float, float, float] | None = None,
                 shown: int = 10, luck: bool = True, confirm: Judge | None = None) -> GameAnalysis:
    """Judge every played turn of ``game``'s main line with ``evaluator``. ``limits``: the
    mark thresholds (default: the rule set's, ``RuleSet.marks``); ``shown``: how many of the
    best plays each turn keeps (the play made is kept too); ``luck``: whether to measure
    the luck; ``confirm``: the deeper judge of the turns whose mark could be wrong
    (:mod:`analysis.confirm`), none by default."""
    figures = judge_turns(game.rules, turns_to_judge(game), evaluator, limits or game.rules.marks, shown,
                          luck, confirm)
    return assembled(game, evaluator.name, figures, None if confirm is None else confirm.level)


@dataclass(frozen=True)
class TurnToJudge:
    """What the judgement of one played turn needs, apart from the game's tree (what goes
    to a worker process): the turn's ``ply``, the ``position`` before it, whether each
    side (the player to act first) has held a prime, the ``played`` play's result, and
    whether the roll's luck counts (a roll thrown, not dice passed nor a lead doublet the
    rules impose) or is to be measured at all (``roll``: the player rolled two dice)."""

    ply: int
    dice: Dice
    position: Position
    primes: tuple[bool, bool]
    played: Position
    roll: bool
    lucky: bool


@dataclass
class TurnFigures:
    """One turn judged, keyed by its ``ply`` (what a worker process sends back; the game's
    own :class:`TurnAnalysis` adds its node): the fields are :class:`TurnAnalysis`'s."""

    ply: int
    best: Candidate
    chosen: Candidate
    rank: int
    legal: int
    loss: float
    mark: str | None
    forced: bool
    luck: float | None
    before: float | None
    candidates: list[tuple[int, Candidate]]
    level: str
    confirmed: bool


def turns_to_judge(game: Game) -> list[TurnToJudge]:
    """The played turns of ``game``'s main line, as :func:`judge_turns` takes them."""
    turns = []
    for node in game.mainline():
        turn = node.turn
        if turn.kind not in (ROLL, PASSED) or turn.play is None or turn.dice is None:
            continue
        before = node.parent.state if node.parent is not None else game.state
        player = turn.player
        roll = turn.kind == ROLL and turn.dice.low is not None
        turns.append(TurnToJudge(node.ply, turn.dice, before.position,
                                 (before.prime_held[player.index], before.prime_held[player.other.index]),
                                 turn.play.result, roll, roll and not before.forced))
    return turns


def judge_turns(rules: RuleSet, turns: list[TurnToJudge], evaluator: Evaluator,
                limits: tuple[float, float, float], shown: int, with_luck: bool, confirm: Judge | None
                ) -> list[TurnFigures]:
    """Each turn of a game of ``rules`` judged (see :func:`analyse_game`)."""
    return [_figures(rules, turn, evaluator, limits, shown, with_luck, confirm) for turn in turns]


def _figures(rules: RuleSet, turn: TurnToJudge, evaluator: Evaluator, limits: tuple[float, float, float],
             shown: int, with_luck: bool, confirm: Judge | None) -> TurnFigures:
    position, primes = turn.position, turn.primes
    rolls = evaluator.rolls_judged(position, primes) if with_luck and turn.roll else None
    expected = luck = None
    if rolls is not None:
        expected = rolls.average
        if turn.lucky:
            luck = rolls.equities[_ROLL[turn.dice]] - expected
    quick = _from_rolls(rules, turn, evaluator, rolls, limits, shown, confirm) \
        if rolls is not None and evaluator.ply == 0 else None
    if quick is not None:
        quick.luck, quick.before, quick.level = luck, expected, evaluator.name
        return quick
    plays = legal_plays(position, turn.dice, rules)
    played = next(play for play in plays if play.result == turn.played)
    ranked = evaluator.rank(plays, position, primes, also=played)
    forced = len(plays) == 1
    rank, loss, mark = _judged(ranked, played, forced, limits)
    level, confirmed = evaluator.name, False
    if confirm is not None and not forced and needs_confirming(ranked, mark, limits):
        ranked = confirm.judge(plays, position, turn.dice, primes, played)
        rank, loss, mark = _judged(ranked, played, forced, confirmed_limits(limits))
        level, confirmed = confirm.name, True
    kept = [(i, c) for i, c in enumerate(ranked) if i < shown or i == rank]
    return TurnFigures(turn.ply, ranked[0], ranked[rank], rank + 1, len(plays), loss, mark, forced, luck,
                       expected, kept, level, confirmed)


_ROLL = {dice: k for k, (dice, _) in enumerate(ROLLS_21)}
"""Each roll's place in :data:`~analysis.rolls.ROLLS_21`."""


def _from_rolls(rules: RuleSet, turn: TurnToJudge, evaluator: Evaluator, rolls: RollsJudged,
                limits: tuple[float, float, float], shown: int, confirm: Judge | None) -> TurnFigures | None:
    """A turn judged at 0-ply as :meth:`Evaluator.rank` judges its legal plays, the plays
    taken from its roll's among the 21 rolls made for the luck, and only the plays kept
    named; the luck and the level are the caller's to fill in. ``None`` where the fast core
    did not make the plays (no steps to name them by), or where the deeper judge is to
    confirm the turn (it takes the reference's plays)."""
    children, paths = rolls.children, rolls.children.paths
    if paths is None:
        return None
    from analysis.fast.paths import path_steps, reference_order  # the fast package loads the kernels

    k = _ROLL[turn.dice]
    start, end = children.starts[0, k:k + 2].tolist()
    rows = reference_order(paths[start:end]) + start  # (it ranks plays of one equity)
    boards = children.boards[rows]
    judged = rolls.judged
    if judged.by_board:  # the figures of the turn's boards are theirs among the 21 rolls'
        y, equity = judged.y[rows], judged.equity[rows]
    else:
        judged = evaluator.boards.values(boards, None if children.flags is None else children.flags[rows])
        y, equity = judged.y, judged.equity
    equities = equity.tolist()  # (float32 to Python's floats, exactly)
    ranked = np.argsort(-equity, kind="stable").tolist()  # (the higher equity, then the first)
    rank = ranked.index(_row_of(boards, turn.played))
    forced = end - start == 1
    loss = 0.0 if forced or rank == 0 else max(0.0, equities[ranked[0]] - equities[ranked[rank]])
    mark = None if forced else mark_for(loss, limits)
    steps = TurnRules(rules, turn.position, turn.dice)

    def candidate(i: int) -> Candidate:
        return Candidate(named_play(steps, path_steps(int(paths[rows[i]]))), equities[i],
                         tuple(y[i].tolist()), 0)

    kept = [(place, candidate(i)) for place, i in enumerate(ranked) if place < shown or place == rank]
    if confirm is not None and not forced:
        named = dict(kept)
        best_two = [named.get(place) or candidate(ranked[place]) for place in (0, 1)]
        if needs_confirming(best_two, mark, limits):  # (it reads the best two only)
            return None
    chosen = next(c for place, c in kept if place == rank)
    return TurnFigures(turn.ply, kept[0][1], chosen, rank + 1, end - start, loss, mark, forced, None, None,
                       kept, "", False)


def _row_of(boards: NDArray[np.int8], result: Position) -> int:
    """The row of ``boards`` (``(n, 52)``, C order) that is ``result`` (the mover's counts,
    then the opponent's)."""
    raw, made = boards.tobytes(), bytes(result.mover + result.opponent)
    at = raw.find(made)
    while at >= 0 and at % WIDTH:  # (a match across two rows)
        at = raw.find(made, at + 1)
    assert at >= 0, "the play made is among its roll's plays"
    return at // WIDTH


def assembled(game: Game, engine: str, figures: list[TurnFigures], confirm: str | None
              ) -> GameAnalysis:
    """The analysis of ``game`` from its turns' figures (by ``engine``; ``confirm``: the
    level of the deeper judge, if any): each turn given its node and the play made, and
    each player's summary."""
    nodes = {node.ply: node for node in game.mainline()}
    turns = []
    for f in figures:
        node = nodes[f.ply]
        turn = node.turn
        assert turn.play is not None and turn.dice is not None
        turns.append(TurnAnalysis(node, f.ply, turn.player, turn.dice, turn.play, f.best, f.chosen, f.rank,
                                  f.legal, f.loss, f.mark, f.forced, f.luck, f.before, f.candidates,
                                  f.level, f.confirmed))
    players = {colour: PlayerSummary() for colour in Colour}
    for t in turns:
        summary = players[t.player]
        if not t.forced:
            summary.decisions += 1
            summary.lost += t.loss
            if t.mark:
                summary.marks[t.mark] += 1
            summary.confirmed += t.confirmed
        if t.luck is not None:
            summary.luck += t.luck
    end = game.end().state
    if end.winner is not None:
        players[end.winner].result = end.points
        players[end.winner.other].result = -end.points
    return GameAnalysis(game, engine, turns, players, game.errors[0] if game.errors else None, confirm)


def _judged(ranked: list[Candidate], played: Play, forced: bool, limits: tuple[float, float, float]
            ) -> tuple[int, float, str | None]:
    """The play made's place in ``ranked`` (from 0), the equity it lost and its mark."""
    rank = next(i for i, c in enumerate(ranked) if c.play.result == played.result)
    loss = 0.0 if forced or rank == 0 else max(0.0, ranked[0].equity - ranked[rank].equity)
    return rank, loss, None if forced else mark_for(loss, limits)
