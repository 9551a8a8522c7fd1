#!/usr/bin/env python3
"""Build the sample records under ``samples/`` with the project's own engine.

Run it from anywhere (``python3 samples/build_samples.py``); the work is done by the
package ``samples/builder/``, one module a kind of sample. It is deterministic: every
game comes from fixed moves or from a fixed seed, and every file is written by the
canonical writer, so running it again rewrites identical files.

What it writes (see ``samples/README.md``):

* ``openings/``: the worked openings of the rules digest (5-5 and 6-6 of jacquet, section
  3; the four of narde, section 9; the three of fevga, section 10);
* ``<variant>/annotated-game.jqn``: one complete generated game per rule set, with
  comments derived from the engine's state, NAGs and variations;
* ``matches/jacquet-match.jqn``: a short match of complete jacquet games;
* ``generated/<variant>-10.jqn``: ``jacquet generate --games 10 --seed 1 --annotate``;
* ``errors/one-of-each.jqn``: one deliberate error of each kind, one per game.

Every comment that states a fact about a position is computed from the engine (legal
plays, the position after each step, the score) and the claims about refused plays are
checked here with :func:`notation.engine.checker.check_play` before anything is written.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from builder.common import VARIANTS  # noqa: E402
from builder.errors import errors  # noqa: E402
from builder.games import annotated, generated, match  # noqa: E402
from builder.openings import opening_five_five, opening_six_six, relative_openings  # noqa: E402

from notation.formats import write_file  # noqa: E402

__all__ = ["annotated", "errors", "generated", "match", "opening_five_five", "opening_six_six",
           "relative_openings"]


def main() -> None:
    (HERE / "openings").mkdir(exist_ok=True)
    write_file([opening_five_five()], HERE / "openings" / "jacquet-opening-5-5.jqn")
    write_file([opening_six_six()], HERE / "openings" / "jacquet-opening-6-6.jqn")
    for variant in ("narde", "fevga"):
        for name, game in relative_openings(variant):
            write_file([game], HERE / "openings" / name)
    for variant in VARIANTS:
        (HERE / variant).mkdir(exist_ok=True)
        write_file([annotated(variant)], HERE / variant / "annotated-game.jqn")
    (HERE / "matches").mkdir(exist_ok=True)
    write_file(match(), HERE / "matches" / "jacquet-match.jqn")
    (HERE / "generated").mkdir(exist_ok=True)
    for variant in VARIANTS:
        generated(variant, HERE / "generated" / f"{variant}-10.jqn")
    (HERE / "errors").mkdir(exist_ok=True)
    (HERE / "errors" / "one-of-each.jqn").write_text(errors(), encoding="utf-8", newline="\n")


if __name__ == "__main__":
    main()
