"""Rollouts: every candidate play of a position and roll played out many times, on the same
dice for every candidate, each candidate's outcome probabilities and equity averaged over
its games with their standard errors.

- **Dice**: game ``g`` of every candidate is played on the rolls of stream ``g``
  (:mod:`analysis.rollout_dice`: the first two rolls stratified over the 36 outcomes, as
  gnubg's quasi-random dice, the rest from a generator seeded by the rollout's seed and
  the game's number). A rollout is so reproducible by its seed, and split over processes
  (``jobs``) it gives exactly the one-process result.
- **Players**: both sides play the net at 0 or 1 ply. At 0-ply the play-out runs on the
  fast core (:meth:`Rollout.play_out_boards`: boards, the fast move generator, the
  choice by :func:`best_board` among a turn's results sorted by their counts, so that no
  move generator's order decides a tie); the same games as on the game state with the same
  choice over the reference move generator (:func:`net_policy`, tested). In a rule set that
  passes dice (versailles' R-PASS), a roll that may leave a die to pass
  (:func:`analysis.rollout_batch.none_passed` cannot tell that none is left) is played on
  the game state, which knows the play's steps, and so are the passed dice the opponent
  plays. At 1-ply, and with another *policy* (:data:`Policy`, a function choosing the play
  for a position and dice), the play-out runs on the game state.
- **Game-level rules** apply as in a recorded game, through the game state
  (:class:`notation.engine.state.GameState`): versailles' passed dice (R-PASS) are played
  by the opponent before his own roll, murray's prime history counts for its scoring, and
  every game is scored by its :class:`RuleSet`.
- **Truncation**: with ``truncate`` K, a game still going after K turns (after the
  candidate) is closed by the evaluator at the rollout's depth: at 0-ply the net's
  judgement of the position, at 1-ply the average over the 36 rolls of the best 0-ply play.
  A game longer than :data:`analysis.match.MAX_TURNS` turns is closed so too.
- **Variance reduction** (``reduce``, gnubg's luck-based reduction): every roll thrown in a
  play-out has a luck, the outputs after the best 0-ply play for it less their average over
  the 36 rolls (for the roller); each game's outputs are given less the sum of White's luck
  and plus the sum of his opponent's. The luck averages 0 over the dice whatever the net,
  so the means stay those of the game's results, and the luck of the dice, most of a game's
  spread, goes. It costs the plays of all 21 rolls every turn.
- **Figures**, for the player who makes the candidate play: the mean of each output (a
  game's outputs are the end-of-game targets of :mod:`analysis.outcomes`, or the
  evaluator's judgement where truncated), the mean equity (points), and the standard error
  of each (the games' standard deviation over √games).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from analysis.board_judge import BoardJudge, Boards, Flags, swapped, trusted_position
from analysis.ctrl_c import CTRL_C, ctrl_c_held, is_ctrl_c
from analysis.encoding import Encoder
from analysis.match import MAX_TURNS
from analysis.network import Network
from analysis.players import Player
from analysis.pool import worker_pool
from analysis.race import race_rows
from analysis.ranking import ROLLS_21, WEIGHTS, Evaluator, LookaheadPlayer
from analysis.rollout_batch import none_passed, play_side_by_side
from analysis.rollout_dice import GameDice, RolloutDice
from analysis.training import best_choice
from notation import MEN, OFF, Dice, Play, Position, RuleSet, legal_plays, rule_set
from notation.engine.state import PASSED, ROLL, Colour, GameState, TurnKind

if TYPE_CHECKING:
    from analysis.fast.judge import FastJudge

GAMES = 1296
"""Games per candidate unless told otherwise: every pair of first two rolls once."""

ROLL_INDEX = {dice: k for k, (dice, _) in enumerate(ROLLS_21)}
"""Each roll's place in :data:`analysis.ranking.ROLLS_21`."""

Policy = Callable[[Position, Dice, tuple[bool, bool]], Play]
"""Chooses the play for ``position`` (seen by the player to act) and ``dice``;
``primes``: whether (he, his opponent) have held a prime (murray)."""


def policy_of(player: Player, rules: RuleSet) -> Policy:
    """The policy of a :class:`~analysis.players.Player` over the reference move generator."""
    def choose(position: Position, dice: Dice, primes: tuple[bool, bool]) -> Play:
        plays = legal_plays(position, dice, rules)
        return plays[player.choose(plays, position, primes) if len(plays) > 1 else 0]
    return choose


def best_board(judge: BoardJudge, boards: Boards, flags: Flags | None) -> int:
    """The row of ``boards`` (a turn's resulting boards, ``flags`` their prime flags) the
    net at 0-ply plays: the best equity, and among equal ones the best by the net's own
    outputs (:func:`analysis.training.best_choice`). The boards are judged sorted by their
    counts, so that the choice, to the last bit of every equity, does not depend on the
    order a move generator lists them in: the reference's and the fast core's play-outs
    make the same plays."""
    order = np.lexsort(boards.T[::-1])
    judged = judge.judge(boards[order], flags[order] if flags is not None else None)
    return int(order[best_choice(judged.equity, judge.outcomes.equity(judged.raw))])


def net_policy(judge: BoardJudge, rules: RuleSet) -> Policy:
    """The net at 0-ply over the reference move generator, choosing as :func:`best_board`."""
    def choose(position: Position, dice: Dice, primes: tuple[bool, bool]) -> Play:
        plays = legal_plays(position, dice, rules)
        if len(plays) == 1:
            return plays[0]
        return plays[best_board(judge, *judge.results(plays, position, primes))]
    return choose


@dataclass(frozen=True)
class RolloutSpec:
    """What a rollout is of, and how: everything a worker process needs (picklable)."""

    net: Network
    variant: str
    options: dict[str, object]
    position_id: str
    dice: str
    candidates: tuple[int, ...]
    """The candidates' places in ``legal_plays(position, dice)``'s order."""
    ply: int = 0
    truncate: int | None = None
    seed: int = 0
    reduce: bool = False
    """Luck-based variance reduction (see the module docstring)."""

    def rules(self) -> RuleSet:
        """The rule set, with its options."""
        return rule_set(self.variant, **self.options)


@dataclass(frozen=True)
class RolloutSettings:
    """How a rollout was made, named beside every figure it gives."""

    engine: str
    """The net's version name, ``jacquet-td jacquet v2``."""
    digest: str
    rule_set: str
    games: int
    """Games asked for, per candidate."""
    truncate: int | None
    ply: int
    seed: int
    reduce: bool = False

    @property
    def label(self) -> str:
        """One line naming every setting: ``jacquet-td jacquet v2 (a1b2c3d4e5f6) at 0-ply,
        1,296 games, played to the end, seed 1`` (``, luck-adjusted`` with variance
        reduction)."""
        truncation = f"truncated after {self.truncate} turns" if self.truncate else "played to the end"
        reduced = ", luck-adjusted" if self.reduce else ""
        return (f"{self.engine} ({self.digest}) at {self.ply}-ply, {self.games:,} games, "
                f"{truncation}, seed {self.seed}{reduced}")


@dataclass(frozen=True)
class CandidateRollout:
    """One candidate's figures, for the player who makes it, over ``games`` games."""

    play: Play
    probabilities: tuple[float, ...]
    probability_errors: tuple[float, ...]
    equity: float
    equity_error: float
    games: int


@dataclass(frozen=True)
class RolloutResult:
    """A rollout's candidates, best equity first, and its settings. ``games`` is how many
    games each candidate was played out over: fewer than ``settings.games`` when it was
    ``interrupted``."""

    settings: RolloutSettings
    names: tuple[str, ...]
    candidates: list[CandidateRollout]
    games: int
    interrupted: bool


@dataclass
class Rollout:
    """The play-outs of one rollout: :meth:`game` plays one game of every candidate."""

    spec: RolloutSpec
    policy: Policy | None = None
    """Both sides' policy; by default the net at the spec's depth."""
    one_at_a_time: bool = False
    """Play the games one after the other even where they could go side by side (the
    benchmark's before)."""
    kernels: FastJudge | None = field(init=False, default=None)
    """The fast core, where the play-outs run on it (:meth:`play_out_boards`)."""
    rules: RuleSet = field(init=False)
    start: GameState = field(init=False)
    plays: list[Play] = field(init=False)
    dice: RolloutDice = field(init=False)
    evaluator: Evaluator = field(init=False)
    encoder: Encoder = field(init=False)

    def __post_init__(self) -> None:
        spec = self.spec
        self.rules = spec.rules()
        position = self.rules.check_position(Position.from_id(spec.position_id))
        self.start = GameState(self.rules, position, Colour.WHITE)
        every = legal_plays(position, Dice.parse(spec.dice), self.rules)
        self.plays = [every[i] for i in spec.candidates]
        self.dice = RolloutDice(spec.seed)
        self.evaluator = Evaluator(spec.net, self.rules, ply=spec.ply)
        self.encoder = Encoder.for_rules(self.rules, spec.net.version)
        if self.policy is None:
            if spec.ply:
                self.policy = policy_of(LookaheadPlayer(spec.net, self.rules), self.rules)
            else:
                self.policy = net_policy(self.evaluator.boards, self.rules)
                self.kernels = self.evaluator.boards.load_kernels()

    def game(self, number: int) -> NDArray[np.float64]:
        """Game ``number`` (from 0) of every candidate: the outputs for the player who
        makes the candidate play, shape ``(candidates, outputs)``."""
        dice = Dice.parse(self.spec.dice)
        play_out = self.play_out if self.kernels is None else self.play_out_boards
        return np.stack([play_out(self.start.with_play(ROLL, dice, play), self.dice.game(number))
                         for play in self.plays])

    @property
    def side_by_side(self) -> bool:
        """Whether :meth:`games` plays its games side by side
        (:func:`analysis.rollout_batch.play_side_by_side`): on the fast core, without
        variance reduction."""
        return self.kernels is not None and not self.spec.reduce and not self.one_at_a_time

    def games(self, numbers: Sequence[int]) -> NDArray[np.float64]:
        """Games ``numbers`` of every candidate, shape ``(games, candidates, outputs)``: side
        by side where :attr:`side_by_side`, else one :meth:`game` after the other."""
        if self.side_by_side and len(numbers):
            return play_side_by_side(self, numbers)
        return np.stack([self.game(g) for g in numbers]) if len(numbers) else \
            np.zeros((0, len(self.plays), self.spec.net.outcomes.size))

    def play_out(self, state: GameState, dice: GameDice) -> NDArray[np.float64]:
        """The game from ``state`` to its end (or its truncation) on ``dice``: the outputs
        for White, who made the candidate play.

        ``GameState.with_play`` is the game state's own step for a play known legal (R-PASS,
        the prime history, the score by the rule set); ``GameState.after`` would check the
        play again, as much work as generating it."""
        assert self.policy is not None
        outcomes = self.spec.net.outcomes
        truncate = self.spec.truncate
        rolls = turns = 0
        luck = np.zeros(outcomes.size)
        kind: TurnKind
        while state.winner is None:
            held = state.prime_held
            primes = (held[state.player.index], held[state.player.other.index])
            if state.passed is not None:
                kind, thrown = PASSED, state.passed
            elif (truncate and turns >= truncate) or turns >= MAX_TURNS:
                return self.close(state.position, state.player is Colour.WHITE, primes) - luck
            else:
                kind, thrown = ROLL, dice[rolls]
                rolls += 1
                if self.spec.reduce:
                    luck += self.luck(state.position, state.player is Colour.WHITE, thrown, primes)
            play = self.policy(state.position, thrown, primes)
            state = state.with_play(kind, thrown, play)
            turns += 1
        target = outcomes.target(state.winner is Colour.WHITE, state.points)
        return np.asarray(target, dtype=np.float64) - luck

    def play_out_boards(self, state: GameState, dice: GameDice) -> NDArray[np.float64]:
        """:meth:`play_out` on the fast core: the game on boards (the 52 counts, the player
        to act first), every roll's resulting boards by the fast move generator (murray's
        prime flags with them), the choice by :func:`best_board`, the points by the rule
        set's scorer. The same games as :meth:`play_out` (tested). In a rule set that
        passes dice (``RuleSet.passes_dice``: versailles' R-PASS needs the play's steps), a
        roll :func:`analysis.rollout_batch.none_passed` is unsure of is played on the game state
        (:meth:`turn_on_state`)."""
        assert self.kernels is not None
        kernels, judge, rules = self.kernels, self.evaluator.boards, self.rules
        outcomes = self.spec.net.outcomes
        truncate = self.spec.truncate
        white = state.player is Colour.WHITE
        if state.winner is not None:
            return np.asarray(outcomes.target(state.winner is Colour.WHITE, state.points), dtype=np.float64)
        board = np.array(state.position.mover + state.position.opponent, dtype=np.int8)
        mine, his = state.prime_held[state.player.index], state.prime_held[state.player.other.index]
        watching, flagged = rules.primes is not None, judge.encoder.primes is not None
        rolls = turns = 0
        luck = np.zeros(outcomes.size)
        while True:
            if (truncate and turns >= truncate) or turns >= MAX_TURNS:
                return self.close(trusted_position(board), white, (mine, his)) - luck
            thrown = dice[rolls]
            rolls += 1
            if self.spec.reduce:
                luck += self.luck(trusted_position(board), white, thrown, (mine, his))
            assert thrown.low is not None
            results, made = kernels.legal_boards(board, thrown.high, thrown.low, watching and not mine)
            if rules.passes_dice and not none_passed(board[np.newaxis], results, np.zeros(1, dtype=np.int64),
                                                     np.array([thrown.high]), np.array([thrown.low]))[0]:
                after_turn, taken = self.turn_on_state(board, thrown, (mine, his), state.cube)
                if after_turn.winner is not None:
                    won = (after_turn.winner is Colour.WHITE) == white
                    return np.asarray(outcomes.target(won, after_turn.points), dtype=np.float64) - luck
                board = np.array(after_turn.position.mover + after_turn.position.opponent, dtype=np.int8)
                seen = after_turn.prime_held
                mine, his = seen[Colour.BLACK.index], seen[Colour.WHITE.index]
                white = not white
                turns += taken
                continue
            flags = None
            if flagged:
                flags = np.empty((len(results), 2), dtype=np.bool_)
                flags[:, 0], flags[:, 1] = made | mine, his
            chosen = best_board(judge, results, flags) if len(results) > 1 else 0
            after, held = results[chosen], mine or bool(made[chosen])
            if after[OFF] == MEN:
                points = rules.score(trusted_position(after), held, state.cube)
                return np.asarray(outcomes.target(white, points), dtype=np.float64) - luck
            board = swapped(after[np.newaxis])[0]
            mine, his, white = his, held, not white
            turns += 1

    def turn_on_state(self, board: NDArray[np.int8], thrown: Dice, primes: tuple[bool, bool],
                      cube: int) -> tuple[GameState, int]:
        """The roll ``thrown`` played from ``board`` (``primes``: the mover's and his
        opponent's prime flags) on the game state, as :meth:`play_out` plays it: the dice
        its play leaves (R-PASS) are played by the opponent, who then rolls his own. The
        state after it (the mover is its White, the opponent to act), and the turns taken
        (2 with passed dice)."""
        assert self.policy is not None
        state = GameState(self.rules, trusted_position(board), Colour.WHITE, cube=cube, prime_held=primes)
        state = state.with_play(ROLL, thrown, self.policy(state.position, thrown, primes))
        if state.passed is None or state.winner is not None:
            return state, 1
        held = state.prime_held
        play = self.policy(state.position, state.passed, (held[Colour.BLACK.index], held[Colour.WHITE.index]))
        return state.with_play(PASSED, state.passed, play), 2

    def luck(self, position: Position, white: bool, thrown: Dice, primes: tuple[bool, bool]
             ) -> NDArray[np.float64]:
        """The luck of ``thrown`` for the player to act in ``position`` (``white``: whether
        he is White), as outputs for White: what his best 0-ply play leaves with it, less
        its average over the 36 rolls."""
        outcomes = self.spec.net.outcomes
        y = self.evaluator.roll_outputs(position, primes).astype(np.float64)
        after, average = y[ROLL_INDEX[thrown]], WEIGHTS @ y / 36.0
        if white:
            return np.asarray(after - average)
        return np.asarray(outcomes.mirrored(after) - outcomes.mirrored(average))

    def close(self, position: Position, white: bool, primes: tuple[bool, bool]) -> NDArray[np.float64]:
        """The evaluator's judgement of a game stopped at ``position`` (before the roll of
        the player to act, White if ``white``; ``primes``: his and his opponent's prime
        flags), as outputs for White."""
        if self.spec.ply:
            y = self.evaluator.before_roll(position, primes).astype(np.float64)
            return y if white else np.asarray(self.spec.net.outcomes.mirrored(y))
        board = np.array([position.mover + position.opponent], dtype=np.int8)
        return np.asarray(self.close_boards(board, np.array([white]), np.array([primes], dtype=np.bool_))[0])

    def close_boards(self, boards: Boards, whites: NDArray[np.bool_], primes: NDArray[np.bool_]
                     ) -> NDArray[np.float64]:
        """:meth:`close` of many games at once: ``boards`` (shape ``(n, 52)``, the player to
        act's counts first), ``whites`` whether he is White, ``primes`` (shape ``(n, 2)``)
        his and his opponent's prime flags; outputs for White, shape ``(n, outputs)``. At
        0-ply the boards are encoded together and each is judged by its own pass of the net
        (:func:`_row_by_row`), so a game's close is the same to the last bit in any batch."""
        if not len(boards):
            return np.zeros((0, self.spec.net.outcomes.size))
        if self.spec.ply:
            return np.stack([self.close(trusted_position(board), bool(white), (bool(mine), bool(his)))
                             for board, white, (mine, his) in zip(boards, whites, primes, strict=True)])
        net, outcomes = self.spec.net, self.spec.net.outcomes
        # the net judges a position from the side that has just moved (the race net where
        # the position is a race: analysis.race.race_rows)
        seen, flags = swapped(boards), np.ascontiguousarray(primes[:, ::-1])
        x = self.encoder.encode_boards(seen, flags if self.encoder.prime else None)
        raw = _row_by_row(net.forward, x)
        rows = race_rows(self.rules, seen) if net.race is not None else np.zeros(0, dtype=np.intp)
        if len(rows):
            assert net.race is not None
            race_flags = flags[rows] if self.encoder.prime else None
            raw[rows] = _row_by_row(net.race.forward, net.race.inputs.encode(seen[rows], race_flags))
        y = np.asarray(outcomes.mirrored(raw), dtype=np.float64)
        y[~whites] = outcomes.mirrored(y[~whites])
        return y


Pass = Callable[[NDArray[np.float32]], tuple[NDArray[np.float32], NDArray[np.float32]]]
"""A net's forward pass: hidden activations and outputs for rows of inputs."""


def _row_by_row(forward: Pass, x: NDArray[np.float32]) -> NDArray[np.float32]:
    """The outputs of ``forward`` for each row of ``x`` (at least one) on its own: a matrix
    product rounds a row's last bits by the size of the batch, and a rollout's figures are
    to be the same however its games are grouped (a pass costs some microseconds)."""
    return np.concatenate([forward(x[i:i + 1])[1] for i in range(len(x))])


_WORKER: dict[str, Rollout] = {}
"""A worker process's play-outs, built once by :func:`_start_worker`."""


def _start_worker(spec: RolloutSpec) -> None:
    _WORKER["rollout"] = Rollout(spec)


def _play_chunk(games: range) -> tuple[range, NDArray[np.float64]]:
    rollout = _WORKER["rollout"]
    return games, rollout.games(games)


def chunks(games: int, jobs: int) -> list[range]:
    """The games split into tasks for ``jobs`` workers: 36 games a task at most (a bar's
    step, and little lost to Ctrl-C), at least four tasks a worker when there are few."""
    size = max(1, min(36, math.ceil(games / (4 * jobs))))
    return [range(start, min(start + size, games)) for start in range(0, games, size)]


def run_rollout(spec: RolloutSpec, games: int = GAMES, jobs: int = 1,
                progress: Callable[[int], None] | None = None,
                rollout: Rollout | None = None) -> RolloutResult:
    """Play every candidate of ``spec`` out ``games`` times over ``jobs`` processes (the
    same result for any ``jobs``); ``progress`` is told of the games done as they end.
    Ctrl-C stops it after the games under way (:func:`analysis.ctrl_c.ctrl_c_held`; a
    second press at once): the result then holds the games completed so far and says it
    was ``interrupted``. ``rollout``: the play-outs to run in this process
    (another policy), ``jobs`` 1 only."""
    if rollout is not None and jobs > 1:
        raise ValueError("play-outs given in this process run on one job, not on a pool")
    done: dict[int, NDArray[np.float64]] = {}
    interrupted = False
    try:
        with ctrl_c_held() as ctrl_c:
            if jobs <= 1 or games <= 1:  # nothing to share
                local = rollout or Rollout(spec)
                # side by side a chunk at a time; else a game at a time (Ctrl-C loses none)
                tasks = chunks(games, 1) if local.side_by_side else [range(g, g + 1) for g in range(games)]
                for numbers in tasks:
                    ctrl_c.check()
                    done.update(zip(numbers, local.games(numbers), strict=True))
                    if progress:
                        progress(len(numbers))
            else:
                with worker_pool(jobs, _start_worker, (spec,)) as pool:
                    for numbers, outputs in pool.imap_unordered(_play_chunk, chunks(games, jobs)):
                        done.update(zip(numbers, outputs, strict=True))
                        if progress:
                            progress(len(numbers))
                        ctrl_c.check()
    except CTRL_C as error:
        if not is_ctrl_c(error):
            raise
        interrupted = True
    return summarise(spec, games, done, interrupted)


def summarise(spec: RolloutSpec, games: int, done: dict[int, NDArray[np.float64]],
              interrupted: bool = False) -> RolloutResult:
    """The figures of the games ``done`` (each game's outputs by its number), taken in the
    games' order (so that any split gives the same sums), best equity first."""
    net = spec.net
    outcomes = net.outcomes
    rules = spec.rules()
    every = legal_plays(Position.from_id(spec.position_id), Dice.parse(spec.dice), rules)
    settings = RolloutSettings(net.name, net.digest, rules.describe(), games, spec.truncate,
                               spec.ply, spec.seed, spec.reduce)
    n = len(done)
    results = []
    if n:
        y = np.stack([done[g] for g in sorted(done)])  # (games, candidates, outputs)
        equity = outcomes.equity(y)  # (games, candidates)
        for c, index in enumerate(spec.candidates):
            results.append(CandidateRollout(
                every[index], tuple(float(v) for v in y[:, c].mean(axis=0)),
                tuple(float(v) for v in _errors(y[:, c])),
                float(equity[:, c].mean()), float(_errors(equity[:, c])), n))
    results.sort(key=lambda r: -r.equity)
    return RolloutResult(settings, outcomes.names, results, n, interrupted)


def _errors(values: NDArray[np.floating]) -> NDArray[np.float64]:
    """The standard error of the mean of ``values`` along its first axis (0 for one game)."""
    n = values.shape[0]
    if n < 2:
        return np.zeros(values.shape[1:])
    return np.asarray(values.std(axis=0, ddof=1) / math.sqrt(n))


def candidates_for(plays: Sequence[Play], named: Sequence[Play] | None) -> tuple[int, ...]:
    """The places in ``plays`` (a turn's legal plays) of the ``named`` ones (all when
    ``None``), each once, in the order named."""
    if named is None:
        return tuple(range(len(plays)))
    places: list[int] = []
    for play in named:
        place = next(i for i, p in enumerate(plays) if p.result == play.result)
        if place not in places:
            places.append(place)
    return tuple(places)
