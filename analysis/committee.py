"""A committee of contact nets (issue 35): nets of one rule set, trained apart on the same
inputs, judging together. Each output is the sigmoid of the mean of the nets' sums before
their output sigmoid (their logits), which is itself one two-layer net: the nets' hidden
units side by side, each net's output weights and biases divided by their number. The
committee runs wherever a net runs (the fast core, 2-ply, rollouts, training's files) at
the cost of its hidden units.

Two nets of even strength that erred apart judge better together: fevga's 80-unit net
(275,000 games) and its 160-unit net (600,000 games), level with each other, together beat
the first by 53.4% (``docs/analysis.md``, "A committee of nets"). A committee is a new
method: engine version :data:`COMMITTEE` (``jacquet-td fevga v7``), its ``meta`` naming
each member (its engine, digest, hidden units and games).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from analysis.network import Network

COMMITTEE = 7
"""The engine version of a committee of nets (:func:`committee`)."""


class NotACommittee(ValueError):
    """Nets that cannot judge together: fewer than two, or of other rule sets, encodings
    or outcomes."""


def committee(nets: Sequence[Network]) -> Network:
    """One net judging as ``nets`` together: every output the sigmoid of the mean of their
    logits. The nets must share the rule set and the encoding (the same inputs and
    outputs); the committee keeps the first one's metadata (its recipe), with ``hidden``
    their sum, ``games`` the self-play games of all, ``engine_version``
    :data:`COMMITTEE` and ``members`` saying each (engine, digest, hidden, games)."""
    if len(nets) < 2:
        raise NotACommittee(f"a committee needs two nets or more, not {len(nets)}")
    first = nets[0]
    for net in nets[1:]:
        if (net.variant, net.version, net.w1.shape[0], net.w2.shape[0]) != \
                (first.variant, first.version, first.w1.shape[0], first.w2.shape[0]):
            raise NotACommittee(f"{net.name} ({net.w1.shape[0]} inputs, encoding v{net.version}) "
                                f"cannot judge beside {first.name} ({first.w1.shape[0]} inputs, "
                                f"encoding v{first.version})")
    share = np.float32(1.0 / len(nets))
    w1 = np.hstack([net.w1 for net in nets]).astype(np.float32)
    b1 = np.concatenate([net.b1 for net in nets]).astype(np.float32)
    w2 = np.hstack([net.w2 * share for net in nets]).astype(np.float32)
    b2 = (np.sum([net.b2 for net in nets], axis=0) * share).astype(np.float32)
    games = [int(net.meta.get("games", 0)) for net in nets]
    members = [{"engine": net.name, "digest": net.digest, "hidden": int(net.w1.shape[1]),
                "games": played} for net, played in zip(nets, games, strict=True)]
    meta = {**first.meta, "hidden": int(w1.shape[1]), "engine_version": COMMITTEE,
            "method": "committee", "members": members, "games": sum(games)}
    return Network(first.variant, w1, b1, w2, b2, meta)


__all__ = ["COMMITTEE", "NotACommittee", "committee"]
