"""An engine that judges plays: self-trained evaluators (TD-Gammon's recipe, plain numpy)
for every rule set of :mod:`notation`.

Layers, each importing only the ones above it (and :mod:`notation`, never the reverse):

- :mod:`analysis.outcomes`: what each rule set's outputs mean, the equity derived from them
  and the training targets at the end of a game;
- :mod:`analysis.encoding`: positions (all the candidates of a turn at once) to inputs;
- :mod:`analysis.network`: the network, its gradient, TD(λ) traces, save and load;
- :mod:`analysis.players`: random, heuristic and network players;
- :mod:`analysis.match`: games between two players, duplicate-dice matches;
- :mod:`analysis.training`: self-play TD(λ) training with checkpoints and strength checks;
- :mod:`analysis.rollout` (with :mod:`analysis.rollout_dice`): candidate plays played out
  on the same balanced dice, their figures with standard errors;
- :mod:`analysis.pool` and :mod:`analysis.analyse_jobs`: the same work over worker
  processes, with the one-process result.
"""

from __future__ import annotations

VERSION = 1
"""The encoding and outcome layout version: a net saved by another version is refused."""
