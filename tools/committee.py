#!/usr/bin/env python3
"""Make a committee of contact nets (``analysis.committee``): one net judging as the nets
named together, written atomically to ``-o``. The first net's recipe is kept.

    python tools/committee.py --variant fevga -o analysis/nets/fevga.npz \\
        analysis/nets/history/fevga-275000.npz analysis/nets/fevga-v2w160.npz
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analysis.committee import NotACommittee, committee
from analysis.shipped import NoNet, load_net
from notation.engine.rules import NAMES


def main() -> int:
    """Read the nets, check they can judge together, write the committee; a clear error
    (and status 2, nothing written) otherwise."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", required=True, choices=NAMES, help="the members' rule set")
    parser.add_argument("nets", nargs="+", type=Path, help="the members' .npz files, the first's recipe kept")
    parser.add_argument("-o", "--output", type=Path, required=True, help="the committee's .npz file")
    args = parser.parse_args()
    try:
        members = [load_net(args.variant, path) for path in args.nets]
        made = committee(members)
    except (NoNet, NotACommittee) as error:
        parser.error(str(error))
    made.save(args.output)
    print(f"{args.output}: {made.name} ({made.digest}), {made.w1.shape[1]} hidden units, "
          f"members {', '.join(f'{m.name} ({m.digest})' for m in members)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
