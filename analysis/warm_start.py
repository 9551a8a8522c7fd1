"""A net of a newer encoding that starts as strong as an older one: warm start.

A newer encoding keeps every input of the older one and adds some (version 5 is version 4
and the timing features of :mod:`analysis.timing`). :func:`widen` gives the net of the
newer encoding whose weights from the inputs both have (by name, :meth:`Encoder.names`)
are the older net's and whose weights from the new inputs are 0: it judges every position
exactly as the older net did, and training (``jacquet train --resume``) goes on from there,
its games, recipe and dice those of the older net's checkpoint.

    python -m analysis.warm_start OLD.npz NEW.npz VERSION

A net is widened only: an encoding that lacks some of the net's inputs is refused
(``training.encoding.narrower``, naming both versions).
"""

from __future__ import annotations

import argparse
import copy
from pathlib import Path

import numpy as np

from analysis.encoding import Encoder, NoEncoding
from analysis.network import Network
from notation import rule_set


def widen(net: Network, version: int) -> Network:
    """``net`` on the inputs of encoding ``version``: the same weights from the inputs the
    two encodings share, 0 from the new ones (:class:`~analysis.encoding.NoEncoding` if
    there is no encoding ``version`` for its rule set, or if it lacks one of ``net``'s
    inputs)."""
    rules = rule_set(net.variant)
    old = Encoder.for_rules(rules, net.version).names()
    new = Encoder.for_rules(rules, version).names()
    row = {name: k for k, name in enumerate(new)}
    if not set(old) <= set(row):
        raise NoEncoding("training.encoding.narrower", version=version, net=net.version)
    w1 = np.zeros((len(new), net.w1.shape[1]), dtype=np.float32)
    w1[[row[name] for name in old]] = net.w1
    meta = copy.deepcopy(net.meta)
    meta["version"] = meta["training"]["encoding"] = version
    meta["inputs"] = len(new)
    return Network(net.variant, w1, net.b1.copy(), net.w2.copy(), net.b2.copy(), meta)


def main(argv: list[str] | None = None) -> None:
    """Write the widened net of the checkpoint ``OLD`` to ``NEW`` (its dice state too), as
    the command line (``argv``, default ``sys.argv``) asks."""
    parser = argparse.ArgumentParser(
        prog="python -m analysis.warm_start",
        description="Warm start: write the net of checkpoint OLD widened to a newer encoding VERSION "
                    "(the old inputs' weights kept, the new inputs' 0, the dice state kept), so that "
                    "it judges every position as OLD did; `jacquet train --resume -o NEW` trains on from it.")
    parser.add_argument("old", metavar="OLD", help="the checkpoint (.npz) of the net to widen")
    parser.add_argument("new", metavar="NEW", help="where to write the widened net (.npz)")
    parser.add_argument("version", metavar="VERSION", type=int,
                        help="the encoding version to widen to (one that keeps every input of OLD's)")
    args = parser.parse_args(argv)
    with np.load(args.old, allow_pickle=False) as data:
        net = Network.from_arrays(data)
        extra = {"rng": np.array(data["rng"])} if "rng" in data else {}
    widen(net, args.version).save(Path(args.new), extra)


if __name__ == "__main__":
    main()
