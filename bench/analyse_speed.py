"""Benchmark: how fast the engine analyses games, printed beside the references.

1. ``jacquet``: the analysis (0-ply, with the luck of every roll) of the generated sample
   game whose length is nearest 95 turns, in this process; the best of ``--repeat`` runs,
   wall clock and CPU time. The goal: under 1 s.
2. ``backgammon``: one real match (``tests/data/mat``, from Backgammon Studio) analysed by
   ``jacquet analyse --json --confirm none`` (every turn at the one depth, as gnubg) and by
   GNU Backgammon (``gnubg -t``, Debian's ``/usr/games/gnubg``), each a fresh process, in
   the same run, at 0-ply and at 2-ply, wall clock and CPU time (the child's user +
   system), as ratios. gnubg also judges the cube decisions; ``jacquet analyse`` judges
   plays only (its nets are cubeless).
3. ``--matches N``: the first N real matches (by name) of
   ``../shared/data/backgammon/real-mat/backgammon-studio``, in one ``jacquet analyse --json``
   (its default ``--jobs``) and in one ``gnubg -t`` session (import, analyse, each in
   turn), at 0-ply: the rate with the start-up of both programs spread over many turns.
4. The engine's time per decision at 0, 1 and 2 ply (``Evaluator.rank`` of every unforced
   turn of the recorded sample game of ``jacquet`` and ``backgammon``, CPU time).
5. What a worker of ``jacquet analyse --jobs`` costs to start, in turns judged at 0-ply
   with the luck (``analysis.analyse_jobs.WORKER_TURNS``, which decides how many workers
   a few games are worth), forked (where this process may fork) and spawned: the CPU
   time of two workers that judge a game each, less what those turns cost in this
   process, against the CPU time a turn of the real match costs in this process.

``--depth-cost``: only a turn's CPU at 1 and 2 ply in turns at 0-ply with the luck
(``analysis.analyse_jobs.DEPTH_COST``), on the match of 2. and three generated jacquet
games, in this process.
``--jobs N``: the N matches analysed with ``jacquet analyse --jobs N`` (default: its own
default, this process and a worker on two cores).
``--before DIR``: the N matches (and with ``--deep`` the jacquet game) also analysed by the
checkout in ``DIR`` (another revision, main's say, run with this interpreter), in the same
run, printed beside this one's.
``--bytecode``: the children (``jacquet analyse``, this checkout's and ``--before``'s) keep
their modules' bytecode, as an installed program does, in a folder of their own
(``PYTHONPYCACHEPREFIX``, filled first by an untimed analysis of the match of 2. by each
checkout); without it they run as this shell sets them (a ``PYTHONDONTWRITEBYTECODE=1``
compiles every module of the project again at each start).
``--start``: only the start's floor (issue 34): the CPU of a Python process that does
nothing, that imports numpy, numpy and numba, and of ``jacquet analyse`` of a match of two
turns (its start: the imports, the nets, numba's kernels loaded from its cache), each the
best of ``--repeat`` fresh processes, beside ``gnubg -t`` analysing the whole match of 2.
at 0-ply: what no change inside the analysis can take away from a short match.
``--deep``: only the deep figures (issue 35): the jacquet game of 1. analysed by
``jacquet analyse`` with its default confirmation (the turns whose mark could be wrong
judged again at the rule set's level, which the line names), a fresh process, wall and CPU
time; and the match of 2. at 2-ply against gnubg's 2-ply, then at ``jacquet analyse``'s
default settings (0-ply, the marks confirmed as backgammon's rule set says) against gnubg's
2-ply.

    python bench/analyse_speed.py [--repeat 3] [--decisions 20] [--matches 20] [--no-two-ply]
                                  [--worker-start] [--depth-cost] [--before DIR] [--deep]
                                  [--jobs N] [--bytecode] [--start]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analysis.threads import limit_blas_threads  # noqa: E402

limit_blas_threads(1)

from analysis.analyse import analyse_game  # noqa: E402
from analysis.ranking import Evaluator  # noqa: E402
from analysis.shipped import load_net  # noqa: E402
from notation import legal_plays  # noqa: E402
from notation.engine.state import ROLL  # noqa: E402
from notation.formats import read_file  # noqa: E402

GAMES = ROOT / "samples" / "generated" / "jacquet-10.jqn"
MATCH = ROOT / "tests" / "data" / "mat" / "BoardLord_-_Llabba_7pt_Backgammon_Studio_2023_08_09_18_11_07.mat"
GNUBG = "/usr/games/gnubg"
REAL = ROOT.parent / "shared" / "data" / "backgammon" / "real-mat" / "backgammon-studio"
TWO_TURNS = ROOT / "tests" / "data" / "mat" / "match1574327.mat"
"""A match of two turns: ``jacquet analyse`` of it is its start."""


def jacquet_game(repeat: int) -> None:
    """The 95-turn analysis."""
    games = list(read_file(GAMES))
    game = min(games, key=lambda g: abs(g.end().ply - 95))
    evaluator = Evaluator(load_net("jacquet"), game.rules)
    best_wall = best_cpu = float("inf")
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        analysis = analyse_game(game, evaluator)
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    print(f"jacquet game of {game.end().ply} turns ({len(analysis.turns)} judged, luck included), "
          f"{evaluator.name}: {best_wall:.2f} s wall, {best_cpu:.2f} s CPU (goal: under 1 s)")


BYTECODE: dict[str, str] = {}
"""With ``--bytecode``: the children's environment (:func:`keep_bytecode`)."""


def keep_bytecode(folder: str, checkouts: list[Path]) -> None:
    """Give this run's children a bytecode cache in ``folder``, filled by an untimed
    analysis of the match of 2. by each of ``checkouts``."""
    BYTECODE.update({name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"})
    BYTECODE["PYTHONPYCACHEPREFIX"] = folder
    command = [sys.executable, "-m", "jacquet_cli", "analyse", str(MATCH), "--json", "--confirm", "none",
               "--jobs", "1"]
    for checkout in checkouts:
        subprocess.run(command, capture_output=True, check=False, cwd=checkout, env=BYTECODE)
    print(f"bytecode kept by the children in {folder} (filled by an untimed run of each checkout)")


def _child(command: list[str], cwd: str | None = None) -> tuple[float, float, str, int]:
    """Wall and CPU seconds (user + system) of a child process, its output and exit code."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    run = subprocess.run(command, capture_output=True, text=True, check=False, cwd=cwd, env=BYTECODE or None)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu, run.stdout, run.returncode


def backgammon_match(plies: int, default: bool = False) -> None:
    """``jacquet analyse`` against ``gnubg -t`` on one match at ``plies`` (every turn at that
    depth; ``default``: ``jacquet analyse``'s own default instead, 0-ply with the marks
    confirmed as the rule set says, against gnubg at ``plies``)."""
    options = [] if default else ["--ply", str(plies), "--confirm", "none"]
    wall, cpu, out, code = _child([sys.executable, "-m", "jacquet_cli", "analyse", str(MATCH),
                                   "--json", *options])
    turns = sum(line.count('"ply"') for line in out.splitlines())
    settings = "its default settings" if default else f"{plies}-ply"
    print(f"backgammon match {MATCH.name}: {turns} turns judged, {settings}")
    print(f"  jacquet analyse --json {' '.join(options)}: {wall:.2f} s wall, {cpu:.2f} s CPU "
          f"(exit {code})")
    if not shutil.which(GNUBG):
        print(f"  gnubg: not installed ({GNUBG}); apt-get install gnubg for the reference")
        return
    g_wall, g_cpu, g_code = _gnubg_match(plies)
    print(f"  gnubg -t, analyse match ({plies}-ply): {g_wall:.2f} s wall, {g_cpu:.2f} s CPU "
          f"(exit {g_code})")
    print(f"  ratio: jacquet analyse takes {wall / g_wall:.1f}× gnubg's wall time, "
          f"{cpu / g_cpu:.1f}× its CPU time")


def _gnubg_match(plies: int) -> tuple[float, float, int]:
    """Wall and CPU seconds of ``gnubg -t`` analysing the match of 2. at ``plies``, and its
    exit code."""
    with tempfile.TemporaryDirectory() as folder:
        commands = Path(folder) / "analyse.gnubg"
        commands.write_text(f'import mat "{MATCH}"\n'
                            f"set analysis chequerplay evaluation plies {plies}\n"
                            f"set analysis cubedecision evaluation plies {plies}\n"
                            "analyse match\nquit\n", encoding="utf-8")
        wall, cpu, _, code = _child([GNUBG, "-t", "-q", "-c", str(commands)], cwd=folder)
    return wall, cpu, code


def start_floor(repeat: int) -> None:
    """The start's floor beside gnubg's whole match (see ``--start``)."""
    python = [sys.executable, "-c"]
    analyse = [sys.executable, "-m", "jacquet_cli", "analyse", str(TWO_TURNS), "--json", "--confirm", "none"]
    children = {"python, nothing": [*python, "pass"], "python, import numpy": [*python, "import numpy"],
                "python, import numpy, numba": [*python, "import numpy, numba"],
                f"jacquet analyse of {TWO_TURNS.name} (2 turns)": analyse}
    load = os.getloadavg()[0]
    print(f"the start's floor, CPU, the best of {repeat} fresh processes (load {load:.1f}):")
    for label, command in children.items():
        print(f"  {label}: {min(_child(command)[1] for _ in range(repeat)):.2f} s")
    if shutil.which(GNUBG):
        best = min(_gnubg_match(0)[1] for _ in range(repeat))
        print(f"  gnubg -t, its whole analysis of {MATCH.name} at 0-ply: {best:.2f} s")


def jacquet_confirmed(before: Path | None = None) -> None:
    """The game of :func:`jacquet_game` by ``jacquet analyse`` with its default
    confirmation, a fresh process (first by the checkout ``before``, if given, then by this
    one: the two times side by side, and whether their figures are the same; each checkout
    first analyses the match of :func:`backgammon_match` untimed, as a checkout new to the
    machine compiles its kernels on its first run)."""
    games = list(read_file(GAMES))
    index = min(range(len(games)), key=lambda i: abs(games[i].end().ply - 95))
    command = [sys.executable, "-m", "jacquet_cli", "analyse", str(GAMES), "--game", str(index + 1), "--json"]
    runs = [("before", before), ("this checkout", ROOT)] if before is not None else [("this checkout", ROOT)]
    outputs = []
    for label, checkout in runs:
        if before is not None:
            _child([sys.executable, "-m", "jacquet_cli", "analyse", str(MATCH), "--json"], cwd=str(checkout))
        wall, cpu, out, code = _child(command, cwd=str(checkout))
        outputs.append(out)
        turns = [turn for line in out.splitlines() if line.strip() for turn in json.loads(line)["turns"]]
        again = [turn["level"] for turn in turns if not turn["level"].endswith("0-ply")]
        levels = ", ".join(sorted(set(again)))
        print(f"jacquet game of {games[index].end().ply} turns, jacquet analyse --json (the default "
              f"confirmation: {len(again)} of {len(turns)} turns judged again, {levels}), "
              f"{label}: {wall:.2f} s wall, {cpu:.2f} s CPU (exit {code})")
    if before is not None:
        print(f"  the same figures before and now: {'yes' if outputs[0] == outputs[1] else 'NO'}")


def many_matches(count: int, before: Path | None = None, jobs: int | None = None) -> None:
    """``count`` real matches in one run of each program, at 0-ply (and of the checkout
    ``before``, if given), ``jacquet analyse`` with ``--jobs jobs`` where given."""
    matches = sorted(REAL.glob("*.mat"))[:count]
    if not matches or not shutil.which(GNUBG):
        print(f"{count} matches: no matches in {REAL}, or no gnubg: skipped")
        return
    command = [sys.executable, "-m", "jacquet_cli", "analyse", *map(str, matches), "--json",
               "--confirm", "none", *(["--jobs", str(jobs)] if jobs else [])]
    load = os.getloadavg()[0]
    if before is not None:
        b_wall, b_cpu, b_out, b_code = _child(command, cwd=str(before))
    wall, cpu, out, code = _child(command, cwd=str(ROOT))
    turns = sum(line.count('"ply"') for line in out.splitlines())
    with tempfile.TemporaryDirectory() as folder:
        commands = Path(folder) / "analyse.gnubg"
        lines = ["set analysis chequerplay evaluation plies 0",
                 "set analysis cubedecision evaluation plies 0"]
        for match in matches:
            lines += [f'import mat "{match}"', "analyse match"]
        commands.write_text("\n".join([*lines, "quit", ""]), encoding="utf-8")
        g_wall, g_cpu, _, g_code = _child([GNUBG, "-t", "-q", "-c", str(commands)], cwd=folder)
    print(f"{len(matches)} real matches ({REAL.name}), {turns} turns, 0-ply (load {load:.1f} before, "
          f"{os.getloadavg()[0]:.1f} after, on {os.cpu_count()} cores):")
    option = f" --jobs {jobs}" if jobs else ""
    print(f"  jacquet analyse --json --confirm none{option}: {wall:.2f} s wall, {cpu:.2f} s CPU "
          f"(exit {code}); {1000 * cpu / max(turns, 1):.2f} ms CPU a turn")
    print(f"  gnubg -t: {g_wall:.2f} s wall, {g_cpu:.2f} s CPU (exit {g_code}); "
          f"{1000 * g_cpu / max(turns, 1):.2f} ms CPU a turn")
    print(f"  ratio: {wall / g_wall:.2f}× gnubg's wall time, {cpu / g_cpu:.2f}× its CPU time")
    if before is not None:
        same = "the same JSON" if b_out == out else "JSON DIFFERENT from this checkout's"
        print(f"  before ({before}): {b_wall:.2f} s wall, {b_cpu:.2f} s CPU (exit {b_code}); "
              f"{1000 * b_cpu / max(turns, 1):.2f} ms CPU a turn, {b_cpu / g_cpu:.2f}× gnubg's CPU time; "
              f"{same}")


def per_decision(decisions: int) -> None:
    """``Evaluator.rank`` at 0, 1 and 2 ply on the unforced turns of the sample games."""
    for variant in ("jacquet", "backgammon"):
        (game,) = read_file(ROOT / "samples" / variant / "annotated-game.jqn")
        turns = []
        for node in game.mainline():
            turn = node.turn
            if turn.kind != ROLL or turn.dice is None:
                continue
            before = node.parent.state if node.parent is not None else game.state
            plays = legal_plays(before.position, turn.dice, before.rules)
            if len(plays) > 1:
                turns.append((before.position, plays))
        turns = turns[:decisions]
        figures = []
        for ply in (0, 1, 2):
            evaluator = Evaluator(load_net(variant), game.rules, ply=ply)
            evaluator.rank(turns[0][1], turns[0][0])  # the kernels and tables loaded
            cpu = time.process_time()
            for position, plays in turns:
                evaluator.rank(plays, position)
            figures.append(f"{ply}-ply {1000 * (time.process_time() - cpu) / len(turns):.1f} ms")
        print(f"{variant}, {evaluator.net.name}, CPU per decision over {len(turns)} decisions: "
              + ", ".join(figures))


def worker_start() -> None:
    """A worker's start, forked and spawned, in turns judged at 0-ply with the luck."""
    from analysis.analyse_jobs import WORKER_TURNS, AnalysisJob, analyse_all, start_method

    games = list(read_file(MATCH))
    job = AnalysisJob({"backgammon": load_net("backgammon")}, 0, None, 5, "none")
    job.analyse(games[0])  # the kernels and tables loaded
    turns = sum(game.end().ply for game in games)
    cpu = time.process_time()
    for game in games:
        job.analyse(game)
    per_turn = (time.process_time() - cpu) / turns
    short = games[0]
    methods = ["fork", "spawn"] if start_method() == "fork" else ["spawn"]
    for method in methods:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        mine = time.process_time()
        # three jobs: two workers, given a game each, and this process judging the third
        list(analyse_all([short] * 3, AnalysisJob(job.nets, 0, None, 5, "none"), 3, method))
        mine = time.process_time() - mine - short.end().ply * per_turn
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        workers = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        judged = 2 * short.end().ply * per_turn
        start = (workers - judged) / 2
        print(f"a {method}ed worker's start: {start:.2f} s CPU (two workers, {workers:.2f} s, less their "
              f"{2 * short.end().ply} turns at {1000 * per_turn:.2f} ms each in this process) = "
              f"{start / per_turn:.0f} turns at 0-ply; this process's own part (the pool, its games sent "
              f"and figures received, less its own game's turns): {mine:.2f} s; "
              f"WORKER_TURNS[{method!r}] = {WORKER_TURNS[method]}")


def depth_cost() -> None:
    """A turn's CPU at 1 and 2 ply in turns at 0-ply with the luck
    (``analysis.analyse_jobs.DEPTH_COST``): the real match's games and three generated
    jacquet games, each depth's analysis in this process (``--confirm none``)."""
    from analysis.analyse_jobs import DEPTH_COST, AnalysisJob

    samples = (("backgammon", list(read_file(MATCH))), ("jacquet", list(read_file(GAMES))[:3]))
    for variant, games in samples:
        nets = {variant: load_net(variant)}
        turns = sum(game.end().ply for game in games)
        costs = []
        for ply in (0, 1, 2):
            job = AnalysisJob(nets, ply, None, 5, "none")
            job.analyse(games[0])  # the kernels and tables loaded
            cpu = time.process_time()
            for game in games:
                job.analyse(game)
            costs.append((time.process_time() - cpu) / turns)
        print(f"{variant}, {turns} turns, CPU a turn: " + ", ".join(
            f"{ply}-ply {1000 * cost:.2f} ms = {cost / costs[0]:.1f} turns at 0-ply"
            for ply, cost in enumerate(costs)) + f"; DEPTH_COST = {DEPTH_COST}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--decisions", type=int, default=20)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--no-two-ply", dest="two_ply", action="store_false",
                        help="Leave out the match at 2-ply (minutes for gnubg).")
    parser.add_argument("--worker-start", action="store_true",
                        help="Only measure what a worker of --jobs costs to start, in turns.")
    parser.add_argument("--jobs", type=int, default=None,
                        help="The N matches analysed with --jobs N (default: the command's own default).")
    parser.add_argument("--before", type=Path, default=None,
                        help="A checkout of another revision, its analysis of the matches measured beside.")
    parser.add_argument("--depth-cost", action="store_true",
                        help="Only measure a turn at 1 and 2 ply in turns at 0-ply.")
    parser.add_argument("--deep", action="store_true",
                        help="Only the jacquet game with the default confirmation and the match at 2-ply.")
    parser.add_argument("--start", action="store_true",
                        help="Only the start's floor beside gnubg's whole analysis of the match.")
    parser.add_argument("--bytecode", action="store_true",
                        help="The children keep their bytecode, as an installed program does.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        if args.bytecode:
            keep_bytecode(folder, [ROOT, *([args.before] if args.before else [])])
        run(args)


def run(args: argparse.Namespace) -> None:
    """What the options ask for."""
    if args.worker_start:
        worker_start()
        return
    if args.depth_cost:
        depth_cost()
        return
    if args.start:
        start_floor(args.repeat)
        return
    if args.deep:
        jacquet_confirmed(args.before)
        backgammon_match(2)
        backgammon_match(2, default=True)
        return
    jacquet_game(args.repeat)
    backgammon_match(0)
    start_floor(args.repeat)
    if args.two_ply:
        backgammon_match(2)
    if args.matches:
        many_matches(args.matches, args.before, args.jobs)
    per_decision(args.decisions)
    worker_start()


if __name__ == "__main__":
    main()
