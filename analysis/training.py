"""Self-play TD(λ) training with checkpoints that resume exactly, and strength checks.

One game: both sides play greedily at 0-ply with the same net (the dice explore); each side
has its own eligibility traces (:class:`analysis.network.Traces`) over the positions *it*
produces, and at the end each side's last position is pulled towards its result (the
winner's ``target(True, points)``, the loser's ``target(False, points)``). Every target
has the outcomes the position no longer allows at 0 (the judged outputs are masked by the
rule set's ceilings, :func:`analysis.players.judge`), so the net learns them as 0 too.

A checkpoint (the net file itself) is written every ``checkpoint_every`` games and at the
end, atomically (and every ``snapshot_every`` games a copy of the net is kept in
``history/`` beside it, for the learning curve): it holds the weights, the metadata
(games done, α and its lowerings, λ, seed, ...) and the dice generator's state. Traces are reset every
game, so nothing else is needed: a run resumed from a checkpoint gives the same weights as one never stopped.
A snapshot is a checkpoint too (copied over the net file, ``--resume`` goes on from it as
the run did); one kept before snapshots held the dice state (session 24) resumes with dice
seeded by the run's seed and its games done, the same on every machine.

Every ``check_every`` games the net plays a duplicate-dice match against random play and
against the heuristic (its own seeded dice, so the check never disturbs training), and one
JSON line per opponent goes to the log beside the checkpoint (``NAME.log.jsonl``).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from analysis.committee import COMMITTEE
from analysis.encoding import Encoder
from analysis.match import MAX_TURNS, ROLLS, duplicate_match
from analysis.network import Network, Traces
from analysis.players import HeuristicPlayer, NetPlayer, RandomPlayer, judge
from notation import MEN, OFF, RuleSet, legal_plays, rule_set
from notation.engine.rules import DEFAULT
from notation.messages import Message, MessageError

if TYPE_CHECKING:
    from analysis.fast.selfplay import FastGames


@dataclass(frozen=True)
class TrainingConfig:
    """How to train: ``games`` is the total to reach (a resumed run stops there too)."""

    variant: str = DEFAULT
    games: int = 1000
    seed: int = 0
    hidden: int = 80
    alpha: float = 0.1
    lam: float = 0.7
    checkpoint_every: int = 500
    check_every: int = 5000
    check_pairs: int = 100
    max_turns: int = MAX_TURNS
    snapshot_every: int = 25000
    """Games between the copies of the net kept in ``history/`` beside the checkpoint (the
    learning curve's earlier nets; 0: none)."""
    encoding: int | None = None
    """The input layout's version (:data:`analysis.encoding.VERSIONS`; ``None``: the
    default for a new net, :data:`analysis.encoding.LATEST`)."""
    alpha_steps: tuple[tuple[int, float], ...] = ()
    """Lowerings of the learning rate, ``(games, α)``: α from that many games on, in the
    order they were made (``jacquet train --resume --alpha``: TD-Gammon's recipe lowers α
    once the learning curve flattens). Part of the recipe: it is saved and kept on resume."""

    def __post_init__(self) -> None:
        # a checkpoint's metadata gives lists; keep the recipe hashable and comparable
        object.__setattr__(self, "alpha_steps",
                           tuple((int(games), float(alpha)) for games, alpha in self.alpha_steps))

    def alpha_at(self, games: int) -> float:
        """The learning rate of the game played after ``games`` games."""
        alpha = self.alpha
        for start, step_alpha in self.alpha_steps:
            if games >= start:
                alpha = step_alpha
        return alpha

    def with_alpha_from(self, games: int, alpha: float) -> TrainingConfig:
        """This recipe with α changed to ``alpha`` from ``games`` games on (itself when α
        is already that)."""
        if alpha == self.alpha_at(games):
            return self
        return replace(self, alpha_steps=(*self.alpha_steps, (games, alpha)))


def log_path(path: Path) -> Path:
    """The strength log beside a checkpoint: ``jacquet.npz`` → ``jacquet.log.jsonl``."""
    return path.with_suffix(".log.jsonl")


def snapshot_path(path: Path, games: int) -> Path:
    """Where the copy of the net after ``games`` games is kept:
    ``nets/jacquet.npz`` → ``nets/history/jacquet-025000.npz``."""
    return path.parent / "history" / f"{path.stem}-{games:06d}.npz"


def self_play_game(net: Network, rules: RuleSet, encoder: Encoder, rng: random.Random,
                   alpha: float, lam: float, max_turns: int = MAX_TURNS) -> tuple[int | None, int, int]:
    """One training game; (winner side or None when abandoned, points, turns)."""
    outcomes = net.outcomes
    traces = (Traces(net, alpha, lam), Traces(net, alpha, lam))
    position = rules.start
    primes = [False, False]
    for turn in range(max_turns):
        side = turn & 1
        dice = ROLLS[rng.randrange(6)][rng.randrange(6)]
        plays = legal_plays(position, dice, rules)
        judged = judge(net, encoder, outcomes, rules, plays, position,
                       (primes[side], primes[1 - side]), bear_off=False)
        i = best_choice(judged.equity, outcomes.equity(judged.raw))
        play = plays[i]
        if judged.primes is not None:
            primes[side] = bool(judged.primes[i, 0])
        if play.result.mover[OFF] == MEN:
            points = rules.score(play.result, winner_held_prime=primes[side])
            traces[side].finish(outcomes.target(True, points))
            traces[1 - side].finish(outcomes.target(False, points))
            return side, points, turn + 1
        traces[side].step(judged.x[i], judged.h[i], judged.raw[i], judged.y[i])
        position = play.next_position
    return None, 0, max_turns


def best_choice(equity: NDArray[np.floating], own: NDArray[np.floating]) -> int:
    """The candidate of the best ``equity`` (the masked outputs'); among equal ones, that
    of the best ``own`` equity (the net's raw outputs'), so that where the masks leave
    several plays equal (a race already lost: every play exactly the same) the choice
    depends on the plays, not on the order they are listed in (the fast core lists them in
    another)."""
    tied = np.flatnonzero(equity == equity.max())
    return int(tied[np.argmax(own[tied])])


class CannotTrain(MessageError, ValueError):
    """A training that cannot start or go on (a checkpoint of another rule set, a rule set
    the race or contact trainer does not cover yet): ``msg`` says why."""


def _fast_games(net: Network, rules: RuleSet, encoder: Encoder) -> tuple[FastGames | None, Message]:
    """The fast core's games for ``net`` (or ``None``) and the message saying which engine
    plays the training games, and why."""
    from analysis.fast.jit import COMPILED  # imports numba: only when training
    from analysis.fast.selfplay import FastGames

    if not COMPILED:
        return None, Message.of("training.core.no-numba")
    games = FastGames.for_net(net, rules, encoder, net.outcomes)
    if games is None:
        return None, Message.of("training.core.not-covered", variant=rules.name)
    return games, Message.of("training.core.fast")


def _rng_state(rng: random.Random) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """The generator's state as JSON in UTF-8 bytes (a quarter of numpy's UTF-32 text)."""
    return np.frombuffer(json.dumps(rng.getstate()).encode(), dtype=np.uint8)


def _set_rng_state(rng: random.Random, data: np.ndarray[Any, Any]) -> None:
    version, internal, gauss = json.loads(data.tobytes().decode())
    rng.setstate((version, tuple(internal), gauss))


class Trainer:
    """A training run writing its checkpoint to ``path`` (see the module docstring)."""

    def __init__(self, path: str | Path, config: TrainingConfig, resume: bool = False) -> None:
        self.path = Path(path)
        self.rules = rule_set(config.variant)
        self.rng = random.Random(config.seed)
        self.stop_requested = False
        if resume:
            with np.load(self.path, allow_pickle=False) as data:
                self.net = Network.from_arrays(data)
                dice = data.get("rng")
            saved = self.net.meta["training"]
            if dice is not None:
                _set_rng_state(self.rng, dice)
            else:  # a snapshot kept before snapshots held the dice: the same dice on every resume
                self.rng.seed(f"{saved['seed']}:{self.net.meta['games']}")
            if saved["variant"] != self.rules.name:
                raise CannotTrain("training.resume.variant", path=str(self.path), found=saved["variant"],
                                  variant=self.rules.name)
            if self.net.meta.get("engine_version") == COMMITTEE:
                raise CannotTrain("training.resume.committee", path=str(self.path), engine=self.net.name)
            # the recipe is the saved one; only the number of games to reach is new
            self.config = TrainingConfig(**{**saved, "games": config.games})
        else:
            self.config = config
            self.net = Network.create(self.rules.name, config.hidden, config.seed, config.encoding)
            self.net.meta["training"] = asdict(config)
            self.net.meta["seconds"] = 0.0
        self.encoder = Encoder.for_rules(self.rules, self.net.version)
        self.fast, self.core = _fast_games(self.net, self.rules, self.encoder)

    def play_game(self, alpha: float, lam: float, max_turns: int) -> tuple[int | None, int, int]:
        """One training game, by the fast core where it trains this rule set (the same
        game for the same dice: see :mod:`analysis.fast.selfplay`), else by
        :func:`self_play_game`."""
        if self.fast is not None:
            return self.fast.play(self.rng, alpha, lam, max_turns)
        return self_play_game(self.net, self.rules, self.encoder, self.rng, alpha, lam, max_turns)

    @property
    def games_done(self) -> int:
        """Games trained so far."""
        return int(self.net.meta["games"])

    def save(self) -> None:
        """Write the checkpoint (atomically)."""
        self.net.save(self.path, {"rng": _rng_state(self.rng)})

    def strength(self) -> list[dict[str, Any]]:
        """A duplicate-dice match against random play and one against the heuristic."""
        config = self.config
        rows = []
        net = NetPlayer(self.net)
        for opponent in (RandomPlayer(seed=config.seed + self.games_done), HeuristicPlayer(self.rules)):
            start = time.perf_counter()
            result = duplicate_match(self.rules, net, opponent, config.check_pairs,
                                     seed=config.seed * 7919 + self.games_done)
            rows.append({"games": self.games_done, "opponent": opponent.name,
                         "match_games": result.games, "win_rate": round(result.win_rate, 4),
                         "standard_error": round(result.standard_error, 4),
                         "points_per_game": round(result.points_per_game, 4),
                         "abandoned": result.abandoned,
                         "seconds": round(time.perf_counter() - start, 2),
                         "training_seconds": round(float(self.net.meta["seconds"]), 1),
                         "engine": self.net.name})
        with log_path(self.path).open("a", encoding="utf-8") as log:
            for row in rows:
                log.write(json.dumps(row) + "\n")
        return rows

    def run(self, progress: Callable[[int], None] | None = None,
            report: Callable[[list[dict[str, Any]]], None] | None = None,
            saved: Callable[[], None] | None = None) -> Network:
        """Train up to ``config.games`` games (or until :attr:`stop_requested`, checked
        between games), with checkpoints and strength checks; the net. ``progress`` is
        told of every game, ``report`` of every strength check, ``saved`` of every
        checkpoint. A checkpoint already at ``config.games`` is left as it is (a script run
        again changes no net: neither its recipe nor its target)."""
        config, net, meta = self.config, self.net, self.net.meta
        if self.games_done >= config.games:
            return net
        meta["training"] = asdict(config)  # the recipe as saved, the cadence and target as now
        meta.setdefault("abandoned", 0)
        started = time.perf_counter()
        seconds = float(meta["seconds"])
        checking = 0.0
        while self.games_done < config.games and not self.stop_requested:
            winner, _points, _turns = self.play_game(config.alpha_at(self.games_done), config.lam,
                                                     config.max_turns)
            meta["games"] = self.games_done + 1
            meta["abandoned"] += winner is None
            meta["seconds"] = seconds + time.perf_counter() - started - checking
            if progress:
                progress(1)
            done = self.games_done
            if done % config.checkpoint_every == 0:
                self.save()
                if saved:
                    saved()
            if config.snapshot_every and done % config.snapshot_every == 0:
                snapshot = snapshot_path(self.path, done)
                snapshot.parent.mkdir(exist_ok=True)
                net.save(snapshot, {"rng": _rng_state(self.rng)})
            if config.check_every and done % config.check_every == 0:
                check_start = time.perf_counter()
                rows = self.strength()
                checking += time.perf_counter() - check_start
                if report:
                    report(rows)
        self.save()
        return net
