"""A net of a newer encoding that starts as strong as an older one: warm start.

A newer encoding keeps every input of the older one and adds some (version 5 is version 4
and the timing features of :mod:`analysis.timing`). :func:`widen` gives the net of the
newer encoding whose weights from the inputs both have (by name, :meth:`Encoder.names`)
are the older net's and whose weights from the new inputs are 0: it judges every position
exactly as the older net did, and training (``jacquet train --resume``) goes on from there,
its games, recipe and dice those of the older net's checkpoint.

    python -m analysis.warm_start OLD.npz NEW.npz VERSION
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import numpy as np

from analysis.encoding import Encoder, NoEncoding
from analysis.network import Network
from notation import rule_set


def widen(net: Network, version: int) -> Network:
    """``net`` on the inputs of encoding ``version``: the same weights from the inputs the
    two encodings share, 0 from the new ones (:class:`~analysis.encoding.NoEncoding` if
    the new encoding lacks one of ``net``'s inputs)."""
    rules = rule_set(net.variant)
    old = Encoder.for_rules(rules, net.version).names()
    new = Encoder.for_rules(rules, version).names()
    row = {name: k for k, name in enumerate(new)}
    if not set(old) <= set(row):
        raise NoEncoding("training.encoding.unknown", version=version, versions=net.version)
    w1 = np.zeros((len(new), net.w1.shape[1]), dtype=np.float32)
    w1[[row[name] for name in old]] = net.w1
    meta = copy.deepcopy(net.meta)
    meta["version"] = meta["training"]["encoding"] = version
    meta["inputs"] = len(new)
    return Network(net.variant, w1, net.b1.copy(), net.w2.copy(), net.b2.copy(), meta)


def main(old: str, new: str, version: str) -> None:
    """Write the widened net of the checkpoint ``old`` to ``new`` (its dice state too)."""
    with np.load(old, allow_pickle=False) as data:
        net = Network.from_arrays(data)
        extra = {"rng": np.array(data["rng"])} if "rng" in data else {}
    widen(net, int(version)).save(Path(new), extra)


if __name__ == "__main__":
    main(*sys.argv[1:])
