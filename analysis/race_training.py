"""Training the race evaluator (:mod:`analysis.race`) on rolled-out targets, in three
resumable stages, each saved as it goes in one work file (``OUT.work.npz`` beside the net):

1. **Positions**: race positions (the rule set's ``race`` class) sampled from self-play of
   the shipped engine at 0-ply (the fast core's moves; the race net judges races once one
   is given): each race position of game ``i`` is kept with probability ``keep``, game
   ``i``'s dice drawn from ``(seed, i)``. In a rule set scored by a prime held
   (``murray``), each position's prime flags (whether each side has held a prime so far:
   :func:`analysis.fast.movegen.legal_results_primes` says it of every play) are followed
   through the game and kept beside it.
2. **Targets**: each position played out ``games`` times, the side to act first, both
   sides playing the engine's best 0-ply play; a play-out stops where the position reaches
   the ``bearoff`` class (both sides home: the exact tables close it) or the game ends, and
   its outputs there (exact, or the game's result) are its result. A position's target is
   the mean over its play-outs, for the side that has just moved. Position ``p``'s dice come
   from ``(seed, p)``: a stop between chunks loses nothing, and a resumed run gives the same
   targets. The prime flags go on through the play-outs: the judge masks the outcomes and
   scores the game's end with them, as the rules say. Rule sets that pass unplayable dice
   to the opponent (R-PASS) are played out without that rule.
3. **Fit**: minibatch Adam on the cross-entropy (:mod:`analysis.supervised`), the prime
   flags among the inputs where the rule set has them, one turn in ten held out (a
   position with its siblings) to measure; the weights, the optimiser's state and the
   learning curve saved after every epoch, the net written being that of the best held-out
   epoch so far.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from analysis.board_judge import BoardJudge, swapped
from analysis.fast import legal_boards
from analysis.network import Network
from analysis.race import CONTACT, RACE, RaceNet, classes
from analysis.supervised import Adam, epoch, loss
from analysis.training import CannotTrain
from analysis.twolayer import WEIGHTS, TwoLayerNet, save_arrays
from notation import MEN, OFF, RuleSet
from notation.messages import Message

Boards = NDArray[np.int8]
Flags = NDArray[np.bool_]
MAX_TURNS = 400
"""A play-out longer than this is closed by the judge's outputs (none in practice)."""
HOLD_OUT = 10
"""One turn's positions in this many are held out of the fit, to measure it (a position
and its siblings together: :meth:`RaceTrainer.held_out`)."""


@dataclass
class RaceRecipe:
    """How a race net is trained: the stages' sizes and the fit's settings."""

    positions: int = 2500
    games: int = 36
    keep: float = 0.5
    epochs: int = 100
    batch: int = 64
    rate: float = 0.003
    hidden: int = 48
    seed: int = 1
    policy: str = ""
    """The engine that sampled and played out the positions (its name)."""
    siblings: int = 0
    """At each turn kept, the positions of this many of the engine's next best plays kept
    beside its own (the candidates a mark weighs the play made against)."""


def _rng(seed: int, stage: str, number: int) -> np.random.Generator:
    return np.random.default_rng([seed, sum(map(ord, stage)), number])


def _best(judge: BoardJudge, parts: list[Boards], flag_parts: list[Flags] | None = None
          ) -> tuple[Boards, Flags | None, NDArray[np.float32]]:
    """For each list of a turn's resulting boards (``flag_parts``: their prime flags, murray),
    the one the judge rates best, its flags and its outputs (for the side that has just
    moved)."""
    sizes = np.array([len(part) for part in parts])
    boards = np.concatenate(parts)
    flags = np.concatenate(flag_parts) if flag_parts is not None else None
    judged = judge.judge(boards, flags)
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    top = np.maximum.reduceat(judged.equity, starts)
    segment = np.repeat(np.arange(len(parts)), sizes)
    rows = np.arange(len(boards))
    best = np.minimum.reduceat(np.where(judged.equity == top[segment], rows, len(boards)), starts)
    return boards[best], None if flags is None else flags[best], judged.y[best]


def _children(judge: BoardJudge, board: Boards, dice: tuple[int, int],
              primes: tuple[bool, bool] | None) -> tuple[Boards, Flags | None]:
    """A roll's resulting boards of ``board`` (the player to act first) and, with ``primes``
    (the (player to act, other) prime flags before it, murray), the (mover, opponent) prime
    flags after each."""
    kernels = judge.load_kernels()
    assert kernels is not None and kernels.fast is not None
    high, low = max(dice), min(dice)
    if primes is None:
        return legal_boards(board, high, low, kernels.fast), None
    mine, his = primes
    results, held = kernels.legal_boards(board, high, low, not mine)
    flags = np.empty((len(results), 2), dtype=np.bool_)
    flags[:, 0], flags[:, 1] = held | mine, his
    return results, flags


def _next_best(judge: BoardJudge, results: Boards, flags: Flags | None, chosen: Boards,
               count: int, wanted: int) -> list[tuple[Boards, Flags | None]]:
    """Up to ``count`` of a turn's resulting boards of class ``wanted`` other than ``chosen``,
    the judge's best first, each with its prime flags (``None`` where not tracked); equal
    boards (two plays to one result) once."""
    if count == 0:
        return []
    equity = judge.judge(results, flags).equity
    kinds = classes(judge.rules, results)
    out: list[tuple[Boards, Flags | None]] = []
    seen = {chosen.tobytes()}
    for row in np.argsort(-equity, kind="stable"):
        key = results[row].tobytes()
        if len(out) == count:
            break
        if kinds[row] == wanted and key not in seen:
            seen.add(key)
            out.append((results[row], None if flags is None else flags[row]))
    return out


def sample_positions(judge: BoardJudge, count: int, keep: float, seed: int,
                     first_game: int = 0, found: list[Boards] | None = None,
                     last_game: int | None = None, wanted: int = RACE,
                     found_primes: list[Flags] | None = None, siblings: int = 0,
                     found_turns: list[int] | None = None
                     ) -> tuple[list[Boards], list[Flags], list[int], int]:
    """Positions of class ``wanted`` (:data:`analysis.race.RACE` or ``CONTACT``; boards, the side
    that has just moved first) from self-play games ``first_game``, ``first_game + 1``, …
    until ``count`` are found (with ``found`` so far, and ``found_primes`` their flags) or
    game ``last_game`` is reached; the positions, their (side that has just moved, other)
    prime flags (all false where the rule set does not track primes) and the next game's
    number. A game stops where it leaves the class (a game only ever goes from contact to
    race to bear-off). At each turn kept, ``siblings`` of the judge's next best plays' positions
    are kept after the one it plays (:func:`_next_best`); the games go on as without them.
    Each position's turn is numbered (``found_turns`` so far, one number a turn kept,
    returned after the flags): a position and its siblings share theirs."""
    rules = judge.rules
    start = np.array(rules.start.mover + rules.start.opponent, dtype=np.int8)
    out = list(found or [])
    out_primes = list(found_primes if found_primes is not None else
                      [np.zeros(2, dtype=np.bool_) for _ in out])
    out_turns = list(found_turns if found_turns is not None else range(len(out)))
    game = first_game
    while len(out) < count and (last_game is None or game < last_game):
        rng = _rng(seed, "sample", game)
        board = start
        primes = (False, False) if rules.tracks_prime else None
        for _turn in range(MAX_TURNS):
            dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
            results, flags = _children(judge, board, dice, primes)
            chosen, held, _ = _best(judge, [results], None if flags is None else [flags])
            child = chosen[0]
            if child[OFF] == MEN:
                break
            kind = classes(rules, child[None])[0]
            if kind < wanted:
                break
            if kind == wanted and rng.random() < keep and len(out) < count:
                turn = out_turns[-1] + 1 if out_turns else 0
                out.append(child.copy())
                out_primes.append(held[0].copy() if held is not None else np.zeros(2, dtype=np.bool_))
                out_turns.append(turn)
                for sibling, its_flags in _next_best(judge, results, flags, child, siblings, wanted):
                    if len(out) < count:
                        out.append(sibling.copy())
                        out_primes.append(its_flags.copy() if its_flags is not None
                                          else np.zeros(2, dtype=np.bool_))
                        out_turns.append(turn)
            board = swapped(child[None])[0]
            if held is not None:
                primes = (bool(held[0, 1]), bool(held[0, 0]))
        game += 1
    return out, out_primes, out_turns, game


def rollout_targets(judge: BoardJudge, boards: Boards, games: int, seed: int, first: int,
                    kind: int = RACE, truncate: int = 0, primes: Flags | None = None
                    ) -> NDArray[np.float32]:
    """Each board's outputs (for the side that has just moved) averaged over ``games``
    play-outs (see the module's docstring); board ``k`` is position ``first + k``. A
    play-out stops where it leaves class ``kind`` (the judge's race net or exact tables
    close it) or, with ``truncate``, after that many plies (the judge's outputs close it).
    ``primes``: each board's (side that has just moved, other) prime flags, followed
    through the play-outs where the rule set tracks them (all false where not given)."""
    outcomes = judge.outcomes
    tracking = judge.rules.tracks_prime
    targets = np.zeros((len(boards), outcomes.size), dtype=np.float32)
    for k, root in enumerate(boards):
        rng = _rng(seed, "rollout", first + k)
        # the first roll stratified over the 36 outcomes, the rest random
        firsts = [(a, b) for a in range(1, 7) for b in range(1, 7)]
        state = np.repeat(swapped(root[None]), games, axis=0)
        # the (player to act, other) flags of each play-out
        held = np.zeros((games, 2), dtype=np.bool_)
        if primes is not None:
            held[:] = primes[k, ::-1]
        total = np.zeros(outcomes.size, dtype=np.float64)
        live = np.arange(games)
        for turn in range(MAX_TURNS):
            if not len(live):
                break
            rolls = [firsts[g % 36] if turn == 0 else (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
                     for g in live]
            parts, flag_parts = [], []
            for g, roll in zip(live, rolls, strict=True):
                results, after = _children(judge, state[g], roll,
                                           (bool(held[g, 0]), bool(held[g, 1])) if tracking else None)
                parts.append(results)
                if after is not None:
                    flag_parts.append(after)
            chosen, flags, y = _best(judge, parts, flag_parts if tracking else None)
            done = (chosen[:, OFF] == MEN) | (classes(judge.rules, chosen) != kind)
            if turn == MAX_TURNS - 1 or turn + 1 == truncate:
                done[:] = True
            values = y[done].astype(np.float64)
            # the side that made ply ``turn`` is the root's mover when ``turn`` is odd
            total += (values if turn % 2 else outcomes.mirrored(values)).sum(axis=0)
            state[live[~done]] = swapped(chosen[~done])
            if flags is not None:
                held[live[~done]] = flags[~done][:, ::-1]
            live = live[~done]
        targets[k] = total / games
    return targets


def rolled_rows(boards: Boards, rolled: Boards) -> tuple[NDArray[np.int64], list[int]]:
    """Where each of ``boards`` stands among the positions rolled out, ``rolled`` (a work
    file's, in the order they were rolled out): for each board, the row of ``rolled`` that
    is it (each row matched once, in order; -1 where none is left), and the boards without
    one (their indices). The trainer and ``bench/race_targets.py`` find a net's targets so."""
    free: dict[bytes, list[int]] = {}
    for row, board in enumerate(rolled):
        free.setdefault(board.tobytes(), []).append(row)
    rows = np.full(len(boards), -1, dtype=np.int64)
    missing = []
    for k, board in enumerate(boards):
        left = free.get(board.tobytes())
        if left:
            rows[k] = left.pop(0)
        else:
            missing.append(k)
    return rows, missing


POSITIONS_FOUND = {RACE: "training.positions.race", CONTACT: "training.positions.contact"}
"""The progress line of the positions found, by the class a trainer samples."""


def _keyed(boards: Boards, primes: Flags) -> Boards:
    """Each board with its prime flags after it: what names a position in murray."""
    return np.concatenate((boards, primes.astype(np.int8)), axis=1)


class RaceTrainer:
    """The three stages for one rule set, resumable from ``OUT.work.npz`` (the net goes to
    ``OUT``, the learning curve to ``OUT.log.jsonl``). ``kind``: the class of position
    sampled and played out (:class:`analysis.contact_training.ContactTrainer` fits the
    contact net so); ``truncate``: plies after which a play-out is closed by the judge (0:
    never). ``report`` is told each step of the progress as a message (``training.*``:
    the positions found, rolled out, the fit's losses), for the caller to show in its
    language."""

    kind = RACE
    truncate = 0
    rollouts_key = "games"
    """The key of the net's ``meta`` that says how many play-outs each target is the mean of."""

    def __init__(self, out: str | Path, net: Network, rules: RuleSet, recipe: RaceRecipe,
                 report: Callable[[Message], None] = print) -> None:
        self.out = Path(out)
        self.work = self.out.with_suffix(".work.npz")
        self.log = self.out.with_suffix(".log.jsonl")
        self.recipe = recipe
        self.rules = rules
        self.judge = BoardJudge(net, rules)
        kernels = self.judge.load_kernels()
        if kernels is None or kernels.fast is None:
            raise CannotTrain("training.race.not-covered", variant=rules.name)
        self.report = report
        self.data: dict[str, Any] = {}
        if self.work.exists():
            with np.load(self.work, allow_pickle=False) as saved:
                self.data = {k: np.array(saved[k]) for k in saved.files}
        # the engine that samples and plays out (its digest, its race net's with it): a
        # work file begun by another would mix two engines' positions and targets
        begun = str(self.data["policy"]) if "policy" in self.data else None
        if begun is not None and begun != net.digest:
            raise CannotTrain("training.policy.changed", work=str(self.work), begun=begun,
                              policy=f"{net.name} ({net.digest})")
        self.data["policy"] = np.array(net.digest)
        # the positions of a work file begun with other siblings would mix two samplings
        begun_siblings = int(self.data.get("siblings", 0))
        if "positions" in self.data and begun_siblings != recipe.siblings:
            raise CannotTrain("training.siblings.changed", work=str(self.work), begun=begun_siblings,
                              siblings=recipe.siblings)
        self.data["siblings"] = np.array(recipe.siblings)

    def _save(self) -> None:
        save_arrays(self.work, self.data)

    def positions(self, chunk: int = 50) -> Boards:
        """Stage 1, ``chunk`` self-play games at a time, saved after each (with the prime
        flags, :meth:`primes`, where the rule set tracks them). A work file with more
        positions than the recipe asks gives its first ones: those a run of the smaller
        recipe would have found (the games are played in the same order)."""
        boards = self.data.get("positions", np.zeros((0, 52), np.int8))
        game = int(self.data.get("sample_games", 0))
        while len(boards) < self.recipe.positions:
            flags = list(self._flags(len(boards))) if self.rules.tracks_prime else None
            found, held, turns, game = sample_positions(
                self.judge, self.recipe.positions, self.recipe.keep, self.recipe.seed, game, list(boards),
                game + chunk, self.kind, flags, self.recipe.siblings, list(self._turns(len(boards))))
            boards = np.array(found, dtype=np.int8).reshape(-1, 52)
            self.data["positions"], self.data["sample_games"] = boards, np.array(game)
            self.data["turns"] = np.array(turns, dtype=np.int64)
            if self.rules.tracks_prime:
                self.data["primes"] = np.array(held, dtype=np.bool_).reshape(-1, 2)
            self._save()
            self.report(Message.of(POSITIONS_FOUND[self.kind], count=len(boards), games=game))
        result: Boards = boards[:self.recipe.positions]  # a smaller recipe: its first ones
        return result

    def _turns(self, count: int) -> NDArray[np.int64]:
        """The turns of the first ``count`` positions saved (each its own in work files begun
        before turns were kept, which had no siblings)."""
        saved = self.data.get("turns")
        turns: NDArray[np.int64] = np.arange(count) if saved is None else np.asarray(saved, np.int64)[:count]
        return turns

    def held_out(self, count: int) -> NDArray[np.bool_]:
        """Which of the fit's ``count`` positions are held out: those of one turn in
        :data:`HOLD_OUT`, a position with its siblings (a sibling in the fit beside a held-out
        position would flatter the held-out loss); positions after the self-play ones (the
        recorded games') each a turn of its own."""
        played = self._turns(min(count, self.recipe.positions))
        after = (int(played.max()) + 1 if len(played) else 0) + np.arange(count - len(played))
        held: NDArray[np.bool_] = np.concatenate((played, after)) % HOLD_OUT == 0
        return held

    def primes(self) -> Flags | None:
        """The (side that has just moved, other) prime flags of :meth:`positions`' positions,
        ``None`` where the rule set does not track primes."""
        if not self.rules.tracks_prime:
            return None
        return self._flags(len(self.positions()))

    def _flags(self, count: int) -> Flags:
        """The saved prime flags of the first ``count`` positions."""
        flags: Flags = self.data.get("primes", np.zeros((0, 2), np.bool_))[:count]
        return flags

    def targets(self, chunk: int = 25) -> NDArray[np.float32]:
        """Stage 2, ``chunk`` positions at a time, saved after each: each position's target.
        The positions rolled out are kept in the order they were (``rolled``, with their
        prime flags ``rolled_primes`` where the rule set tracks them; position ``p``'s dice
        from ``(seed, p)``), so a position asked again keeps its target when the recipe grows
        or the list changes order (the recorded games' positions come after the self-play
        ones)."""
        boards = self.positions()
        primes = self.primes()
        size = self.judge.outcomes.size
        targets = self.data.get("targets", np.zeros((0, size), np.float32))
        rolled = self.data.get("rolled", boards[:len(targets)])  # older work files: in order
        rolled_primes = self.data.get("rolled_primes", np.zeros((0, 2), np.bool_))
        if primes is None:
            rows, missing = rolled_rows(boards, rolled)
        else:
            rows, missing = rolled_rows(_keyed(boards, primes), _keyed(rolled, rolled_primes))
        while missing:
            first = len(rolled)
            started = time.process_time()
            part = boards[missing[:chunk]]
            part_primes = None if primes is None else primes[missing[:chunk]]
            more = rollout_targets(self.judge, part, self.recipe.games, self.recipe.seed, first,
                                   self.kind, self.truncate, part_primes)
            rows[missing[:chunk]] = np.arange(first, first + len(part))
            missing = missing[chunk:]
            targets, rolled = np.concatenate((targets, more)), np.concatenate((rolled, part))
            self.data["targets"], self.data["rolled"] = targets, rolled
            if part_primes is not None:
                rolled_primes = np.concatenate((rolled_primes, part_primes))
                self.data["rolled_primes"] = rolled_primes
            self._save()
            self.report(Message.of("training.rolled-out", done=len(boards) - len(missing), total=len(boards),
                            seconds=f"{(time.process_time() - started) / len(more):.2f}"))
        result: NDArray[np.float32] = targets[rows]
        return result

    def fit(self, release: int = 1) -> RaceNet:
        """Stage 3 (:meth:`fit_net`) for a fresh race net of the recipe's size and seed, of
        release ``release`` (its name: ``race r2`` for 2)."""
        net = RaceNet.create(self.rules.name, self.recipe.hidden, self.recipe.seed)
        net.meta["release"] = release
        self.fit_net(net, net.inputs.encode(self.positions(), self.primes()))
        return RaceNet.load(self.out)

    def fit_net(self, net: TwoLayerNet, x: NDArray[np.float32]) -> None:
        """Stage 3: the fit of ``net`` (its weights at the start) on inputs ``x`` of the
        positions, from where it stopped (anew if the positions have grown since), to
        ``epochs``, the weights and the optimiser saved in the work file after each; the net
        written to ``OUT`` is the one of the epoch with the lowest loss on the held-out
        positions so far (early stopping: past it, the fit learns the play-outs' noise)."""
        recipe = self.recipe
        targets = self.targets()
        adam = Adam(rate=recipe.rate)
        if int(self.data.get("fit_positions", len(x))) != len(x):  # more positions: fit anew
            for key in [k for k in self.data if k.startswith(("adam", "net_")) or k == "best_held_out"]:
                del self.data[key]
        self.data["fit_positions"] = np.array(len(x))
        if "adam" in self.data:  # the weights and the optimiser as the last epoch left them
            for name in WEIGHTS:
                setattr(net, name, np.array(self.data[f"net_{name}"], np.float32))
            adam = Adam.from_state(self.data)
        best = float(self.data.get("best_held_out", np.inf))
        held = self.held_out(len(x))
        if not np.isfinite(best):  # the start itself, measured: the figure the fit is to beat
            figures = self._figures(net, adam, x, targets, held)
            self.report(Message.of("training.before-fit", loss=f"{figures['train']:.4f}",
                            held_out=f"{figures['held_out']:.4f}",
                            equity=f"{figures['held_out_equity']:.4f}"))
        while adam.epochs < recipe.epochs:
            epoch(net, adam, x[~held], targets[~held], recipe.batch, recipe.seed)
            figures = self._figures(net, adam, x, targets, held)
            self.data.update(adam.state())
            self.data.update({f"net_{name}": getattr(net, name) for name in WEIGHTS})
            if figures["held_out"] < best:
                best = figures["held_out"]
                net.meta.update({"positions": len(x), self.rollouts_key: recipe.games,
                                 "epochs": adam.epochs, "held_out": best, "recipe": recipe.__dict__})
                net.save(self.out)
                self.data["best_held_out"] = np.array(best)
            self._save()
            with self.log.open("a", encoding="utf-8") as out:
                out.write(json.dumps(figures) + "\n")
            if adam.epochs % 10 == 0 or adam.epochs == recipe.epochs:
                self.report(Message.of("training.epoch", epoch=adam.epochs, loss=f"{figures['train']:.4f}",
                                held_out=f"{figures['held_out']:.4f}",
                                equity=f"{figures['held_out_equity']:.4f}"))

    def _figures(self, net: TwoLayerNet, adam: Adam, x: NDArray[np.float32],
                 targets: NDArray[np.float32], held: NDArray[np.bool_]) -> dict[str, Any]:
        equity = self.judge.outcomes.equity
        off = equity(net.forward(x[held])[1]) - equity(targets[held])
        return {"epoch": adam.epochs, "train": loss(net, x[~held], targets[~held]),
                "held_out": loss(net, x[held], targets[held]), "positions": len(x),
                "games": self.recipe.games,
                "held_out_equity": float(np.sqrt(np.mean(off ** 2))) if len(off) else float("nan")}


__all__ = ["RaceRecipe", "RaceTrainer", "rollout_targets", "sample_positions"]
