"""Rollout play-outs side by side: many games of every candidate advanced a turn at a time,
every game's resulting boards of the turn judged in one pass of the net.

A play-out on the fast core (:meth:`analysis.rollout.Rollout.play_out_boards`) costs, each
turn, a dozen numpy calls on some twenty boards: Python's and numpy's cost per call, not the
arithmetic, is most of its time. Here the games of a chunk (every candidate's game ``g`` for
each game number ``g`` of the chunk) are played together:

- each live game's roll is that of its own dice stream (:mod:`analysis.rollout_dice`): the
  same rolls as the one-game play-out;
- every game's legal boards come from the fast move generator in one kernel call
  (:func:`analysis.fast.many.legal_boards_of_many`; murray's prime flags with them), each
  game's boards **sorted by their counts** as :func:`analysis.rollout.best_board` sorts
  them;
- every game's boards are judged in one call of :meth:`BoardJudge.judge`, and each game
  takes the best equity, among equal ones the best by the net's own outputs, the first of
  those in the sorted order (:func:`analysis.training.best_choice`'s rule);
- a game that ends is scored by the rule set's scorer, those stopped by the truncation (or
  :data:`analysis.match.MAX_TURNS`) are closed together by the rollout's evaluator
  (:meth:`analysis.rollout.Rollout.close_boards`: the same figures as one at a time);
- in a rule set that passes dice (versailles' R-PASS), a game whose roll may leave a die
  (:func:`none_passed` is unsure) plays that turn, and the opponent's passed dice, on the
  game state (:meth:`analysis.rollout.Rollout.turn_on_state`), so each game counts its own
  turns and rolls.

The choice is the one-game play-out's. The only difference is the batch the net is run on:
a board's equity is computed in a larger matrix product, which BLAS may round differently
in the last bit; where two plays' equities differ by less than that, the two paths may take
different plays. The tests compare the two paths game for game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from analysis.board_judge import Boards, swapped, trusted_position
from analysis.match import MAX_TURNS
from notation import MEN, OFF, Dice
from notation.engine.board import SIDE
from notation.engine.state import ROLL, Colour

if TYPE_CHECKING:
    from analysis.rollout import Rollout


def segment_best(equity: NDArray[np.floating], own: NDArray[np.floating],
                 starts: NDArray[np.int64]) -> NDArray[np.int64]:
    """For each segment of rows (segment ``k`` from ``starts[k]`` to the next start, the
    last to the end; none empty), the row :func:`analysis.training.best_choice` takes: the
    best ``equity``, among equal ones the best ``own``, the first of those."""
    n = len(equity)
    rows = np.arange(n)
    segment = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, n)))
    top = np.maximum.reduceat(equity, starts)
    tied = equity == top[segment]
    own_tied = np.where(tied, own, -np.inf)
    top_own = np.maximum.reduceat(own_tied, starts)
    chosen = tied & (own_tied == top_own[segment])
    return np.asarray(np.minimum.reduceat(np.where(chosen, rows, n), starts), dtype=np.int64)


def none_passed(boards: Boards, every: Boards, starts: NDArray[np.int64], highs: NDArray[np.int64],
                lows: NDArray[np.int64]) -> NDArray[np.bool_]:
    """For each board ``boards[k]`` and roll (``highs[k]``, ``lows[k]``), whose resulting
    boards the fast move generator gave as ``every[starts[k]:starts[k + 1]]`` (the last to
    the end), whether the roll surely leaves no die to pass (R-PASS): a doublet passes only
    when none of its steps can be played (its one result the board itself), and another
    roll passes nothing when a result shows a play of both dice (then every legal play
    plays both): its men moved more pips than the higher die, or two more men borne off,
    which one die cannot do. ``False`` where unsure (a die played alone, or a bear-off
    with one die short of its pips): the game state, which knows the play's steps, decides
    there (:meth:`analysis.rollout.Rollout.turn_on_state`)."""
    distance = np.arange(SIDE)
    sizes = np.diff(np.append(starts, len(every)))
    segment = np.repeat(np.arange(len(starts)), sizes)
    moved = (boards[:, :SIDE] @ distance)[segment] - every[:, :SIDE] @ distance
    borne = every[:, OFF].astype(np.int64) - boards[segment, OFF]
    both = np.logical_or.reduceat((moved > highs[segment]) | (borne >= 2), starts)
    stuck = (sizes == 1) & (every[starts, :SIDE] == boards[:, :SIDE]).all(axis=1)
    return np.asarray(np.where(highs == lows, ~stuck, both), dtype=np.bool_)


def play_side_by_side(rollout: Rollout, numbers: Sequence[int]) -> NDArray[np.float64]:
    """Games ``numbers`` of every candidate of ``rollout`` (played out on the fast core at
    0-ply, without variance reduction), side by side: the outputs for the player who makes
    the candidate play, shape ``(games, candidates, outputs)``, as
    :meth:`Rollout.game` gives them one game at a time."""
    from analysis.fast.many import legal_boards_of_many  # numba, loaded with the kernels

    kernels, judge, rules = rollout.kernels, rollout.evaluator.boards, rollout.rules
    assert kernels is not None and kernels.fast is not None and not rollout.spec.reduce
    fast = kernels.fast
    outcomes = rollout.spec.net.outcomes
    truncate = rollout.spec.truncate
    watching, flagged = rules.primes is not None, judge.encoder.primes is not None
    dice = Dice.parse(rollout.spec.dice)
    streams = [rollout.dice.game(number) for number in numbers]
    candidates = len(rollout.plays)
    out = np.zeros((len(numbers), candidates, outcomes.size))

    # every (game, candidate) still going: its board (the player to act first), the prime
    # flags (his, his opponent's), whether the player to act is White, (game, candidate)
    boards: list[Boards] = []
    mine: list[bool] = []
    his: list[bool] = []
    white: list[bool] = []
    where: list[tuple[int, int]] = []
    cube = rollout.start.cube
    for c, play in enumerate(rollout.plays):
        state = rollout.start.with_play(ROLL, dice, play)
        cube = state.cube
        for g in range(len(numbers)):
            if state.winner is not None:
                out[g, c] = outcomes.target(state.winner is Colour.WHITE, state.points)
                continue
            boards.append(np.array(state.position.mover + state.position.opponent, dtype=np.int8))
            mine.append(state.prime_held[state.player.index])
            his.append(state.prime_held[state.player.other.index])
            white.append(state.player is Colour.WHITE)
            where.append((g, c))
    board = np.array(boards, dtype=np.int8).reshape(len(boards), 52)
    held_now, held_his = np.array(mine, dtype=np.bool_), np.array(his, dtype=np.bool_)
    whites = np.array(white, dtype=np.bool_)
    places = np.array(where, dtype=np.int64).reshape(len(where), 2)
    # each game's turns (its passed dice one more: R-PASS) and rolls thrown
    turns, rolls = np.zeros(len(places), dtype=np.int64), np.zeros(len(places), dtype=np.int64)
    while len(places):
        stop = turns >= MAX_TURNS
        if truncate:
            stop |= turns >= truncate
        if stop.any():
            out[places[stop, 0], places[stop, 1]] = rollout.close_boards(
                board[stop], whites[stop], np.stack((held_now[stop], held_his[stop]), axis=1))
            keep = ~stop
            board, held_now, held_his, whites = board[keep], held_now[keep], held_his[keep], whites[keep]
            places, turns, rolls = places[keep], turns[keep], rolls[keep]
            if not len(places):
                break
        thrown = [streams[g][r] for g, r in zip(places[:, 0], rolls, strict=True)]
        highs = np.array([d.high for d in thrown], dtype=np.int64)
        lows = np.array([d.low for d in thrown], dtype=np.int64)
        watch = np.logical_and(watching, ~held_now)
        every, made_every, bounds = legal_boards_of_many(fast, board, highs, lows, watch)
        sizes, starts = np.diff(bounds), bounds[:-1]
        segment = np.repeat(np.arange(len(sizes)), sizes)
        # each game's boards sorted by their counts, as best_board judges them
        order = np.lexsort(np.vstack((every.T[::-1], segment[np.newaxis])))
        every, made_every = every[order], made_every[order]
        unsure = (~none_passed(board, every, starts, highs, lows) if rules.passes_dice
                  else np.zeros(len(places), dtype=np.bool_))
        chosen = starts.copy()
        several = (sizes > 1) & ~unsure
        if several.any():
            rows = np.flatnonzero(several[segment])
            flags = None
            if flagged:
                flags = np.empty((len(rows), 2), dtype=np.bool_)
                flags[:, 0] = made_every[rows] | held_now[segment[rows]]
                flags[:, 1] = held_his[segment[rows]]
            judged = judge.judge(every[rows], flags)
            local_starts = np.concatenate(([0], np.cumsum(sizes[several])[:-1])).astype(np.int64)
            best = segment_best(judged.equity, outcomes.equity(judged.raw), local_starts)
            chosen[several] = rows[best]
        after = every[chosen]
        held = held_now | made_every[chosen]
        over = (after[:, OFF] == MEN) & ~unsure
        for row in np.flatnonzero(over):
            points = rules.score(trusted_position(after[row]), bool(held[row]), cube)
            out[places[row, 0], places[row, 1]] = outcomes.target(bool(whites[row]), points)
        following, taken = swapped(after), np.ones(len(places), dtype=np.int64)
        for row in np.flatnonzero(unsure):  # on the game state, which knows the play's steps
            state, taken[row] = rollout.turn_on_state(board[row], thrown[row],
                                                      (bool(held_now[row]), bool(held_his[row])), cube)
            if state.winner is not None:
                won = (state.winner is Colour.WHITE) == bool(whites[row])
                out[places[row, 0], places[row, 1]] = outcomes.target(won, state.points)
                over[row] = True
                continue
            following[row] = state.position.mover + state.position.opponent
            seen = state.prime_held
            held[row], held_his[row] = seen[Colour.WHITE.index], seen[Colour.BLACK.index]
        going = ~over
        board = following[going]
        held_now, held_his = held_his[going], held[going]
        whites, places = ~whites[going], places[going]
        turns, rolls = turns[going] + taken[going], rolls[going] + 1
    return out
