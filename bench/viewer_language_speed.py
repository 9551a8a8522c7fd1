"""Benchmark: the game page's server time before the languages and now (issue 36's speed
item), in one run.

The viewer as it was at ``--before`` (default: the last commit before Flask-Babel, the
parent of the one that added ``webviewer/plumbing/language.py``) is unpacked with
``git archive`` into a temporary folder; each side runs in a child process of its own (its
own ``webviewer`` imported, its own archive of the demo samples built by its own code):

* ``before``: that commit's viewer, English (it knew no other language);
* ``now en``: this checkout's viewer, no ``Accept-Language`` (English);
* ``now fr``: this checkout's viewer, ``Accept-Language: fr`` (the French catalog);
* ``now ru``: this checkout's viewer, ``Accept-Language: ru`` (the Russian catalog).

Each child steps through the same games' pages (``/game/ID?ply=K``, every ply of the
first ``--games`` games, through Flask's test client: server time, no network), once to
warm up (each record read and kept), then the parent asks the children in turn for one
round of ``--pages`` pages each, ``--rounds`` rounds, in a rotating order, so that a load
on the machine falls on every side alike. Printed: each side's median time per page over
the rounds, the spread (the rounds' 10th-90th percentiles), and the ratio to ``before``;
and for each side of this checkout, the share of its time the language layer takes
(Flask-Babel, Babel, ``webviewer/plumbing/language.py``, the catalogs' lookups and
formatting; their inclusive time entered from outside the layer) in one round of
``4 * --pages`` pages under ``cProfile``: what the languages themselves cost a page, which
the ratio to ``before`` cannot tell from the page's later features. (The profiler slows
small calls more than large ones: the layer's share is if anything overstated.)

    python bench/viewer_language_speed.py [--rounds 40] [--pages 60] [--games 8] [--before REV]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r'''
import cProfile, json, pstats, sys, time, tempfile, os
from pathlib import Path
from webviewer import create_app
from webviewer.demo import build_demo
from archive import open_archive
from jacquet_cli.collector import settle_for_serving

LAYER = ("flask_babel", "/babel/", "webviewer/plumbing/language.py", "notation/messages",
         "/gettext.py")


def language_share(stats):
    """The profile's total time and the time spent inside the language layer, entered
    from outside it (its functions' inclusive time per outside caller, so that nothing is
    counted twice)."""
    inside = lambda function: any(part in function[0] for part in LAYER)
    total = sum(row[2] for row in stats.stats.values())
    layer = sum(per_caller[3] for function, row in stats.stats.items() if inside(function)
                for caller, per_caller in row[4].items() if not inside(caller))
    return {"profiled": total, "language": layer}


language, games = sys.argv[1], int(sys.argv[2])
folder = tempfile.mkdtemp()
path = Path(folder) / "bench.db"
build_demo(path)
db = open_archive(path)
rows = db.execute("SELECT id, turns FROM games WHERE valid = 1 ORDER BY id LIMIT ?", [games]).fetchall()
db.close()
paths = [f"/game/{game_id}?ply={ply}" for game_id, plies in rows for ply in range(plies + 1)]
client = create_app({"ARCHIVE": str(path)}).test_client()
headers = {"Accept-Language": language} if language != "en" else {}
for address in paths:  # warm: every record read and kept
    assert client.get(address, headers=headers).status_code == 200, address
settle_for_serving()
print(json.dumps({"pages": len(paths)}), flush=True)
at = 0
for line in sys.stdin:
    count = int(line.split()[-1])
    profiler = cProfile.Profile() if line.startswith("profile") else None
    start = time.perf_counter()
    if profiler:
        profiler.enable()
    for _ in range(count):
        client.get(paths[at % len(paths)], headers=headers)
        at += 1
    if profiler:
        profiler.disable()
    answer = {"seconds": time.perf_counter() - start}
    if profiler:
        answer.update(language_share(pstats.Stats(profiler)))
    print(json.dumps(answer), flush=True)
'''


def before_commit() -> str:
    """The parent of the commit that added the viewer's language module."""
    added = subprocess.run(["git", "log", "--diff-filter=A", "--format=%H", "--",
                            "webviewer/plumbing/language.py"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.split()[-1]
    return f"{added}^"


def unpack(revision: str, folder: Path) -> None:
    """The tree of ``revision`` written into ``folder``."""
    tar = subprocess.run(["git", "archive", "--format=tar", revision], cwd=ROOT,
                         capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
        archive.extractall(folder, filter="data")


class Side:
    """One child process serving one side's game pages."""

    def __init__(self, name: str, tree: Path, language: str, games: int) -> None:
        self.name = name
        env = {**os.environ, "PYTHONPATH": str(tree)}
        self.process = subprocess.Popen([sys.executable, "-c", CHILD, language, str(games)],
                                        cwd=tree, env=env, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        self.pages = json.loads(self.ask(None))["pages"]
        self.times: list[float] = []

    def ask(self, count: int | None) -> str:
        assert self.process.stdin and self.process.stdout
        if count is not None:
            self.process.stdin.write(f"{count}\n")
            self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"{self.name}: the child process ended")
        return line

    def round(self, count: int) -> None:
        self.times.append(json.loads(self.ask(count))["seconds"] / count * 1000)

    def profile(self, count: int) -> float:
        """The share of a profiled round's time spent in the language layer."""
        assert self.process.stdin
        self.process.stdin.write(f"profile {count}\n")
        self.process.stdin.flush()
        answer = json.loads(self.ask(None))
        return float(answer["language"] / answer["profiled"])

    def close(self) -> None:
        assert self.process.stdin
        self.process.stdin.close()
        self.process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--pages", type=int, default=60)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--before", default=None)
    args = parser.parse_args()
    revision = args.before or before_commit()
    with tempfile.TemporaryDirectory() as folder:
        old = Path(folder) / "before"
        old.mkdir()
        unpack(revision, old)
        sides = [Side(f"before ({revision[:12]})", old, "en", args.games),
                 Side("now, en", ROOT, "en", args.games), Side("now, fr", ROOT, "fr", args.games),
                 Side("now, ru", ROOT, "ru", args.games)]
        print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; "
              f"{sides[0].pages} game pages a side, {args.rounds} rounds of {args.pages}")
        for number in range(args.rounds):
            turn = number % len(sides)
            for side in sides[turn:] + sides[:turn]:
                side.round(args.pages)
        shares = {side.name: side.profile(args.pages * 4) for side in sides[1:]}
        for side in sides:
            side.close()
    reference = statistics.median(sides[0].times)
    print(f"{'':22} {'median ms/page':>15} {'p10-p90 of rounds':>19} {'v before':>9} "
          f"{'language layer':>15}")
    for side in sides:
        deciles = statistics.quantiles(side.times, n=10)
        median = statistics.median(side.times)
        print(f"{side.name:22} {median:15.2f} {deciles[0]:9.2f}-{deciles[-1]:<9.2f} "
              f"{median / reference:8.2f}x "
              f"{f'{shares[side.name]:.1%}' if side.name in shares else '-':>14}")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
