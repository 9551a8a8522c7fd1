"""Fitting the contact net to rolled-out targets (issue 35; wildbg's method): the race
trainer's three resumable stages (:mod:`analysis.race_training`) for the positions of the
``contact`` class, the contact net fitted by supervised learning in place of TD(λ).

1. **Positions**: contact positions sampled from self-play of the shipped engine at 0-ply
   (each kept with probability ``keep``; with ``siblings``, the positions of the engine's
   next best plays of that turn beside it: the plays a mark weighs against each other, whose
   differences the net must judge), and, with ``real``, up to that many more from
   recorded games (:func:`real_positions`: the positions the players' plays left, in the
   files' order, read through the project's readers), saved after the self-play ones.
2. **Targets**: each position played out ``games`` times by the engine, the first roll
   balanced over the 36; a play-out stops where the game leaves contact (the race net and
   the exact bear-off tables close it), where it ends, or, with ``truncate``, after that
   many plies (the engine's own judgement closes it: a truncated rollout, far cheaper).
3. **Fit**: the net (the shipped contact net's weights by default, or fresh ones) fitted by
   minibatch Adam on the cross-entropy to the targets, one turn in ten held out (a
   position with its siblings), the net of the best held-out epoch written.

A net so fitted is a new method: engine version :data:`ROLLED_OUT` (``jacquet-td
backgammon v6``), its ``meta`` saying the targets it was fitted to (positions, play-outs
each, truncation) and its encoding (``version``) beside the self-play games its start had
seen. (The first fitted nets, on encoding v2, were named v3; the number after the newest
encoding's, v5, names the method now, so that a net fitted on the v4 net reads as newer
than it.)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from analysis.encoding import Encoder
from analysis.network import Network
from analysis.race import CONTACT, classes
from analysis.race_training import RaceRecipe, RaceTrainer
from analysis.training import CannotTrain
from notation import RuleSet
from notation.engine.state import PASSED, ROLL
from notation.errors import NotationError
from notation.formats import read_file
from notation.messages import Message

Boards = NDArray[np.int8]
ROLLED_OUT = 6
"""The engine version of a contact net fitted to rolled-out targets."""


@dataclass
class ContactRecipe(RaceRecipe):
    """How a contact net is fitted: the race recipe's stages and settings (a position kept
    with probability ``keep``: a game has many contact positions, alike), and the
    truncation of the play-outs (plies, 0: none), the recorded-game positions added
    (``real``), and the start (``fresh`` weights, or the ``shipped`` net's)."""

    keep: float = 0.1
    truncate: int = 0
    real: int = 0
    start: str = "shipped"


def real_positions(paths: Iterable[Path], rules: RuleSet, count: int, keep: float, seed: int
                   ) -> tuple[Boards, list[Message]]:
    """Up to ``count`` contact positions (boards, the side that has just moved first) that
    the plays of the recorded games of ``paths`` (files of ``rules``' game) left, each kept
    with probability ``keep`` (drawn from ``seed`` in the files' order), and the problems
    met (a file that cannot be read is skipped and named)."""
    rng = np.random.default_rng([seed, 7])
    found: list[tuple[int, ...]] = []
    problems: list[Message] = []
    for path in paths:
        if len(found) >= count:
            break
        try:
            games = list(read_file(path, variant=rules.name))
        except (OSError, NotationError) as error:
            problems.append(Message.of("training.skipped", path=str(path), error=str(error)))
            continue
        for game in games:
            for node in game.mainline():
                play = node.turn.play
                if node.turn.kind not in (ROLL, PASSED) or play is None:
                    continue
                board = play.result.mover + play.result.opponent
                if classes(rules, np.array([board], np.int8))[0] == CONTACT and rng.random() < keep:
                    found.append(board)
    return np.array(found[:count], dtype=np.int8).reshape(-1, 52), problems


class ContactTrainer(RaceTrainer):
    """The stages for the contact net of one rule set, resumable from ``OUT.work.npz``:
    ``policy`` samples and plays out (the shipped engine, its race net beside it), ``start``
    is the net the fit starts from; ``real_files``: the recorded games the recipe's ``real``
    positions come from."""

    kind = CONTACT
    rollouts_key = "rollouts"

    def __init__(self, out: str | Path, policy: Network, rules: RuleSet, recipe: ContactRecipe,
                 start: Network, real_files: Iterable[Path] = (),
                 report: Callable[[Message], None] = print) -> None:
        if rules.tracks_prime:
            raise CannotTrain("training.contact.prime", variant=rules.name)
        super().__init__(out, policy, rules, recipe, report)
        self.contact = recipe
        self.truncate = recipe.truncate
        self.start = start
        self.real_files = list(real_files)

    def positions(self, chunk: int = 50) -> Boards:
        """Stage 1: the self-play positions (:meth:`RaceTrainer.positions`), then the
        recorded games' ones after them (read once, saved)."""
        played = super().positions(chunk)
        if self.contact.real and "real" not in self.data:
            real, problems = real_positions(self.real_files, self.rules, self.contact.real,
                                            self.contact.keep, self.contact.seed)
            for problem in problems:
                self.report(problem)
            self.data["real"] = real
            self._save()
            self.report(Message.of("training.real", count=len(real),
                            files=Message.of("count.files", count=len(self.real_files))))
        real = self.data.get("real", np.zeros((0, 52), np.int8))[:self.contact.real]
        boards: Boards = np.concatenate((played, real.astype(np.int8)))
        return boards

    def fit(self) -> Network:  # type: ignore[override]
        """Stage 3 from the start net's weights (or, ``start="fresh"``, from fresh ones of
        the recipe's size and seed on the start's inputs), as engine version
        :data:`ROLLED_OUT`."""
        start = self.start
        net = Network.create(start.variant, self.contact.hidden, self.contact.seed, start.version) \
            if self.contact.start == "fresh" else \
            Network(start.variant, start.w1.copy(), start.b1.copy(), start.w2.copy(),
                    start.b2.copy(), dict(start.meta))
        net.meta.update(engine_version=ROLLED_OUT, method="rolled-out targets",
                        truncate=self.truncate)
        encoder = Encoder.for_rules(self.rules, net.version)  # the start's encoding, not the policy's
        self.fit_net(net, encoder.encode_boards(self.positions(), None))
        return Network.load(self.out)


__all__ = ["ROLLED_OUT", "ContactRecipe", "ContactTrainer", "real_positions"]
