"""Differential check of ``narde`` and ``fevga`` against independent implementations.

Positions met in random games of each rule set (seeded), each with a fresh random roll, are
given to ``legal_plays`` and to another program's move generator; the sets of resulting
positions (the mover's men after the play) are compared. Every difference is printed with
the position ID, the dice and the plays either side alone allows; differences the rules
digest names (``../shared/design/rules.md`` §9) are counted apart as known.

- ``narde``: the npm package ``long-nardy-engine`` (MIT, TypeScript), built: ``--narde``
  names its folder (the one holding ``dist/``). ``npm install long-nardy-engine`` gives it;
  from its GitHub source (DmitriiNov/long-nardy-engine), ``npm install typescript`` and
  ``npx tsc`` in the checkout build ``dist/`` (the type errors of newer ``@types/node``
  do not stop the output). Its first turn is the game's move number (1 or 2), given here
  from the game's ply, not from the position.
- ``fevga``: the rules engine of mvichosfm/fevga (``src/engine.js``, MIT), an ES module:
  ``--fevga`` names the file. Its ``finalPositions`` is asked.

Each program runs in ``node`` through a small shim this script writes to a temporary folder.

    python -m bench.relatives_oracle --narde DIR --fevga FILE [--positions N] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from notation import Dice, Position, legal_plays, rule_set
from notation.engine.board import MEN, OFF
from tests.selfplay import play_random_game

Board = tuple[int, ...]
"""The mover's men after a play: borne off, then points 1-24."""

NARDE_SHIM = """
const dir = process.argv[2];
const Engine = require(dir + '/dist/engine/long-nardy/engine.js').default;
const Board = require(dir + '/dist/board.js').default;
const MoveState = require(dir + '/dist/moveState.js').default;
const engine = new Engine(() => {});
const lines = require('fs').readFileSync(0, 'utf8').split('\\n').filter((l) => l);
for (const line of lines) {
  const q = JSON.parse(line);
  const [a, b] = q.dice;
  const state = new MoveState(q.move, true, [a, b], a === b ? [a, a, a, a] : [a, b], []);
  engine.SetPossibleMoves(state, new Board(q.mine.slice(), q.opp.slice()));
  const results = new Set();
  for (const path of state.getMovesTree().allMovesToArray()) {
    const mine = q.mine.slice();
    for (const [from, to] of path) { mine[from]--; if (to < 24) mine[to]++; }
    results.add(JSON.stringify(mine));
  }
  if (!results.size) results.add(JSON.stringify(q.mine));
  console.log(JSON.stringify([...results].map((r) => JSON.parse(r))));
}
"""

FEVGA_SHIM = """
const { pathToFileURL } = require('url');
import(pathToFileURL(process.argv[2]).href).then((engine) => {
  const lines = require('fs').readFileSync(0, 'utf8').split('\\n').filter((l) => l);
  for (const line of lines) {
    const q = JSON.parse(line);
    const view = { mine: Int8Array.from(q.mine), opp: Int8Array.from(q.opp),
                   myOff: q.myOff, oppOff: q.oppOff };
    const out = engine.finalPositions(view, engine.expandDice(q.dice));
    const results = out.map((leaf) => [leaf.myOff, ...Array.from(leaf.mine).slice(1)]);
    if (!results.length) results.push([q.myOff, ...q.mine.slice(1)]);
    console.log(JSON.stringify(results));
  }
});
"""


START = Position.from_points({24: 15}, {24: 15})
PINNED = {
    "narde": [  # the worked cases of the digest's §9, and the difference it names
        (0, START, "66"), (0, START, "44"), (0, START, "33"), (0, START, "65"),
        (20, Position.from_points({24: 13, 15: 1, 10: 1}, {24: 15}), "66"),
        (20, Position.from_points({24: 9, 11: 1, 10: 1, 9: 1, 8: 1, 7: 2}, {24: 15}), "51"),
        (20, Position.from_points({24: 9, 11: 1, 10: 1, 9: 1, 8: 1, 7: 2}, {24: 14, 17: 1}), "51"),
        (1, Position.from_points({24: 15}, {24: 14, 4: 1}), "44"),
    ],
    "fevga": [  # the worked cases of §10, and R-UNBLOCK binding and lapsing
        (0, START, "66"), (0, START, "55"), (0, START, "65"),
        (20, Position.from_points({24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 5: 1}, {24: 15}), "54"),
        (20, Position.from_points({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}, {19: 15}), "21"),
        (20, Position.from_points({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}, {19: 15}), "65"),
    ],
}
"""Positions asked first, before the random ones: (ply, position, dice)."""


def situations(name: str, count: int, seed: int) -> Iterator[tuple[int, Position, Dice]]:
    """(ply, position on roll, a fresh roll) from random games of ``name``."""
    rules = rule_set(name)
    rng = random.Random(seed)
    made = 0
    while True:
        game = play_random_game(rules, rng)
        position = rules.start
        for ply, (_, play) in enumerate(game.turns):
            yield ply, position, Dice(rng.randint(1, 6), rng.randint(1, 6))
            made += 1
            if made == count:
                return
            position = play.next_position


def ours(name: str, position: Position, dice: Dice) -> set[Board]:
    return {play.result.mover[OFF:25] for play in legal_plays(position, dice, name)}


def narde_query(ply: int, position: Position, dice: Dice) -> dict[str, object]:
    """long-nardy-engine's board: index i is the side's point 24 - i; no off slot."""
    return {"mine": [position.mover[24 - i] for i in range(24)],
            "opp": [position.opponent[24 - i] for i in range(24)],
            "dice": [dice.high, dice.low], "move": ply + 1}


def narde_board(indexed: list[int]) -> Board:
    points = [indexed[24 - p] for p in range(1, 25)]
    return (MEN - sum(points), *points)


def fevga_query(ply: int, position: Position, dice: Dice) -> dict[str, object]:
    """mvichosfm/fevga's view: ``mine[r]`` the men on the side's point r (1-24)."""
    return {"mine": [0, *position.mover[1:25]], "opp": [0, *position.opponent[1:25]],
            "myOff": position.mover[OFF], "oppOff": position.opponent[OFF],
            "dice": [dice.high, dice.low]}


def run_node(shim: str, engine: str, queries: list[dict[str, object]]) -> list[list[list[int]]]:
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "shim.cjs"
        script.write_text(shim, encoding="utf-8")
        done = subprocess.run(["node", str(script), str(Path(engine).resolve())],
                              input="\n".join(json.dumps(q) for q in queries) + "\n",
                              capture_output=True, text=True, check=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


def known_narde(ply: int, position: Position, dice: Dice) -> bool:
    """The difference §9 names: a first-turn 4-4 with an opposing man on my 16 (his 4),
    where long-nardy-engine refuses the second head man and R-MAX plays ``24/20(2)``."""
    return ply < 2 and dice.is_doublet and dice.high == 4 and position.opponent[4] > 0


def show(board: Board) -> str:
    points = " ".join(f"{p}:{board[p]}" for p in range(24, 0, -1) if board[p])
    return f"{points} off:{board[OFF]}" if board[OFF] else points


def compare(name: str, shim: str, engine: str, query: Callable[..., dict[str, object]],
            convert: Callable[[list[int]], Board], known: Callable[..., bool] | None,
            count: int, seed: int, shown: int) -> None:
    cases = [(ply, position, Dice.parse(dice)) for ply, position, dice in PINNED[name]]
    cases += situations(name, count, seed)
    count = len(cases)
    answers = run_node(shim, engine, [query(*case) for case in cases])
    agree = known_count = 0
    listed = 0
    for (ply, position, dice), answer in zip(cases, answers, strict=True):
        mine, theirs = ours(name, position, dice), {convert(board) for board in answer}
        if mine == theirs:
            agree += 1
            continue
        is_known = known is not None and known(ply, position, dice)
        known_count += is_known
        if listed < shown:
            listed += 1
            print(f"  {'known, ' if is_known else ''}{name} ply {ply} position "
                  f"{position.position_id()} dice {dice}: "
                  f"from {show(position.mover[OFF:25])} (his: {show(position.opponent[OFF:25])})")
            for board in sorted(mine - theirs):
                print(f"    here only:  {show(board)}")
            for board in sorted(theirs - mine):
                print(f"    there only: {show(board)}")
    other = count - agree - known_count
    print(f"{name}: {count} positions ({len(PINNED[name])} pinned), {agree} agree "
          f"({100 * agree / count:.2f}%), {known_count} known differences (rules digest), "
          f"{other} other")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--narde", help="the built long-nardy-engine package's folder")
    parser.add_argument("--fevga", help="mvichosfm/fevga's src/engine.js")
    parser.add_argument("--positions", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=10, help="differences printed per rule set")
    args = parser.parse_args()
    if args.narde:
        compare("narde", NARDE_SHIM, args.narde, narde_query, narde_board, known_narde,
                args.positions, args.seed, args.show)
    if args.fevga:
        compare("fevga", FEVGA_SHIM, args.fevga, fevga_query, tuple, None,
                args.positions, args.seed, args.show)


if __name__ == "__main__":
    main()
