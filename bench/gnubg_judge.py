"""Benchmark: the engine's judgement of 20 real backgammon matches against GNU Backgammon
2-ply's, printed side by side in one run (issues 34 and 35).

The matches (:data:`MATCHES`, 3,939 unforced plays): the first 9 Backgammon Studio matches
and the first 11 galaxy matches by file name in ``../shared/data/backgammon/real-mat/``.

- **gnubg's judgement** (GNU Backgammon 1.07, Debian's ``/usr/games/gnubg``, driven as a
  separate program: ``gnubg -t -q -p bench/gnubg_judge_worker.py``; it is GPL and never
  imported): gnubg's own importer reads each match, its own move generator lists every
  legal play of every move record with its 0-ply equity, and its evaluator judges the play
  made and the plays gnubg's default move filter keeps (the 16 best within 0.32 at 0-ply)
  at 2-ply, as gnubg's own analysis does: the mover's cubeless money equity after the
  play. Cubeless money,
  not gnubg's match-equity losses, because that is what the engine judges: its nets know
  neither the cube nor the score, so a loss measured in match equity would count against
  the engine what it was never asked (at 2-away-2-away, gammons that do not count). The
  result is cached per match (``bench/cache/gnubg_judge/``, keyed by the file's SHA-256,
  gnubg's version and the depth); a run with the cache present starts no gnubg.
- **The engine's judgement**: ``jacquet analyse --json`` of the same files, run as a user
  runs it (a subprocess), once per ``--engine-args`` (default: the default settings,
  ``--ply 0`` and ``--ply 1``). Each of its turns is found in gnubg's by its position ID and
  dice (the project's own reader rebuilds the position of each judged ply); a decision that
  cannot be matched is counted and printed.
- **Printed**, one column per judge, gnubg 0-ply first (the scale: gnubg's own cheap
  judgement against its deeper one): best play = gnubg 2-ply's best (all decisions, and
  races: positions gnubg classes as race or bear-off; gnubg's contact and crashed classes,
  with what the judge's best plays lose there); Spearman of the losses of the play
  made; ``?``/``??`` marks (gnubg 0-ply: a loss of 0.060 or more) against gnubg 2-ply's
  losses of 0.08 or more (precision, recall, counts); what the judge's own best plays lose
  in gnubg 2-ply's eyes (thousandths per decision); Spearman of the players' error rates
  (players with 30+ decisions over the matches).
- ``--before REV``: the same columns for another revision of the project, checked out in a
  temporary ``git worktree`` and run with ``--before-python`` (default: this interpreter).

- ``--scored LABEL=FILE ...``: score ``jacquet analyse --json`` outputs kept from an earlier
  run (finished or cut short) instead of running the engine, on the games all of them have.

- ``--set second``: 20 other matches (:data:`SECOND`, the next 10 Backgammon Studio and
  the next 10 galaxy matches by file name), held out from every choice made on the first.

    python bench/gnubg_judge.py [--set first|second] [--engine-args "--ply 1" ...] [--before REV]
        [--before-python PATH] [--jobs 2] [--output FILE] [--scored LABEL=FILE ...]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from gnubg_judge_measures import (  # noqa: E402
    GNUBG_BAD,
    Decision,
    EngineTurn,
    Judged,
    Matching,
    figures,
    gnubg_zero_ply,
    match_turns,
    player_names,
)

from notation import legal_plays  # noqa: E402
from notation.engine.state import PASSED, ROLL  # noqa: E402
from notation.formats import read_file  # noqa: E402

GNUBG = "/usr/games/gnubg"
WORKER = ROOT / "bench" / "gnubg_judge_worker.py"
REAL = ROOT.parent / "shared" / "data" / "backgammon" / "real-mat"
CACHE = ROOT / "bench" / "cache" / "gnubg_judge"
PLIES = 2
FILTER = (16, 0.32)
"""gnubg 1.07's default move filter for 2-ply analysis: the 16 best plays at 0-ply within
0.32 of the best are judged at 2-ply (and the play made)."""

MATCHES = (
    "backgammon-studio/BoardLord_-_Llabba_7pt_Backgammon_Studio_2023_08_09_18_11_07.mat",
    "backgammon-studio/Bulgakov_-_Llabba_13pt_Backgammon_Studio_2023_09_12_13_54_06.mat",
    "backgammon-studio/CroatianFish_-_Llabba_13pt_Backgammon_Studio_2023_07_23_18_59_01.mat",
    "backgammon-studio/Daisy_-_Llabba_13pt_Backgammon_Studio_2023_09_28_12_45_23.mat",
    "backgammon-studio/DasWerl_-_Llabba_13pt_Backgammon_Studio_2023_01_04_13_11_05.mat",
    "backgammon-studio/FAETHON_-_Llabba_13pt_Backgammon_Studio_2023_06_29_18_26_07.mat",
    "backgammon-studio/Gibraltar_Mike_-_Llabba_13pt_Backgammon_Studio_2023_03_22_21_22_47.mat",
    "backgammon-studio/GitteD_-_Llabba_13pt_Backgammon_Studio_2023_01_08_15_39_15.mat",
    "backgammon-studio/Greathumics_-_Llabba_13pt_Backgammon_Studio_2023_01_29_19_57_58.mat",
    "galaxy/match10013413.mat",
    "galaxy/match10014006.mat",
    "galaxy/match10030560.mat",
    "galaxy/match10031435.mat",
    "galaxy/match10041414.mat",
    "galaxy/match10043238.mat",
    "galaxy/match1004844.mat",
    "galaxy/match1004950.mat",
    "galaxy/match10058734.mat",
    "galaxy/match10059423.mat",
    "galaxy/match10074339.mat",
)
"""The 20 matches, under :data:`REAL`."""

SECOND = (
    "backgammon-studio/GrigoryRevaz_-_Llabba_9pt_Backgammon_Studio_2023_09_14_09_36_55.mat",
    "backgammon-studio/Howe_-_Llabba_13pt_Backgammon_Studio_2023_09_19_19_43_05.mat",
    "backgammon-studio/JuliaH_-_Llabba_13pt_Backgammon_Studio_2023_01_18_18_32_47.mat",
    "backgammon-studio/Llabba_-_Arkhimedes_13pt_Backgammon_Studio_2023_11_10_13_57_19.mat",
    "backgammon-studio/Llabba_-_Bigeagle32_9pt_Backgammon_Studio_2023_09_21_12_05_50.mat",
    "backgammon-studio/Llabba_-_Breum__13pt_Backgammon_Studio_2023_01_09_20_28_11.mat",
    "backgammon-studio/Llabba_-_Ciuffo_13pt_Backgammon_Studio_2023_02_09_15_19_56.mat",
    "backgammon-studio/Llabba_-_DiablodelDados_13pt_Backgammon_Studio_2023_06_18_17_32_21.mat",
    "backgammon-studio/Llabba_-_Djmarek_13pt_Backgammon_Studio_2023_03_26_13_56_31.mat",
    "backgammon-studio/Llabba_-_DrVirus_13pt_Backgammon_Studio_2023_04_17_14_13_25.mat",
    "galaxy/match10086311.mat",
    "galaxy/match10089897.mat",
    "galaxy/match10090396.mat",
    "galaxy/match10090882.mat",
    "galaxy/match10106485.mat",
    "galaxy/match10146940.mat",
    "galaxy/match10147827.mat",
    "galaxy/match10232587.mat",
    "galaxy/match10251829.mat",
    "galaxy/match10279832.mat",
)
"""The held-out set (``--set second``): the next 10 Backgammon Studio and the next 10
galaxy matches by file name, never used to choose a setting (issue 35: the margin on
``?`` and the confirmation were chosen on :data:`MATCHES`)."""

SETS = {"first": MATCHES, "second": SECOND}
"""The sets of matches by name (``--set``)."""

YARDSTICK = MATCHES + SECOND
"""Every match the engine is judged on: no net is fitted to their positions (``--list``
names them for ``jacquet train-contact --exclude``)."""


# -- gnubg's judgement --------------------------------------------------------------------

def gnubg_version() -> str:
    """The first line of ``gnubg --version``."""
    out = subprocess.run([GNUBG, "--version"], capture_output=True, text=True, check=True)
    return out.stdout.strip().splitlines()[0]


def cache_key(path: Path, version: str, plies: int) -> dict[str, Any]:
    """What a cached judgement depends on."""
    return {"sha256": hashlib.sha256(path.read_bytes()).hexdigest(), "gnubg": version,
            "plies": plies, "filter": list(FILTER), "equity": "cubeless money, pruning nets"}


def cache_file(key: dict[str, Any]) -> Path:
    """Where the judgement under ``key`` is kept."""
    return CACHE / f"{key['sha256'][:20]}-{key['plies']}ply.json"


def read_cached(key: dict[str, Any]) -> list[list[dict[str, Any]]] | None:
    """The cached judgement under ``key``, if there is one made with that key."""
    try:
        kept = json.loads(cache_file(key).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return kept["games"] if kept.get("key") == key else None


def gnubg_judgement(paths: list[Path], plies: int, jobs: int) -> dict[Path, list[list[Decision]]]:
    """gnubg's judgement of every match, from the cache or by running gnubg (``jobs``
    processes at once, the missing matches dealt among them)."""
    version = gnubg_version()
    keys = {path: cache_key(path, version, plies) for path in paths}
    missing = [path for path in paths if read_cached(keys[path]) is None]
    if missing:
        CACHE.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        print(f"gnubg ({version}) judging {len(missing)} match(es) at {plies}-ply in {jobs} "
              "process(es)...", flush=True)
        with tempfile.TemporaryDirectory() as folder:
            running = []
            for share in range(min(jobs, len(missing))):
                job = Path(folder) / f"job{share}.json"
                job.write_text(json.dumps({"plies": plies, "filter": FILTER, "matches": [
                    {"file": str(p), "output": str(cache_file(keys[p])), "key": keys[p]}
                    for p in missing[share::jobs]]}), encoding="utf-8")
                log = (Path(folder) / f"job{share}.log").open("w")
                running.append((subprocess.Popen(
                    [GNUBG, "-t", "-q", "-p", str(WORKER)], cwd=folder, stdout=log,
                    stderr=subprocess.STDOUT, env={**os.environ, "GNUBG_JUDGE_JOB": str(job)}), log))
            for process, log in running:
                process.wait()
                log.close()
            failed = [p for p in missing if read_cached(keys[p]) is None]
            if failed:
                logs = "".join(f.read_text()[-2000:] for f in Path(folder).glob("job*.log"))
                sys.exit(f"gnubg did not judge {', '.join(p.name for p in failed)}:\n{logs}")
        print(f"gnubg done in {time.perf_counter() - started:.0f} s", flush=True)
    judged = {}
    for path in paths:
        games = read_cached(keys[path])
        assert games is not None
        judged[path] = [[Decision.from_json(d) for d in game] for game in games]
    return judged


# -- the engine's judgement ---------------------------------------------------------------

@dataclass
class Analysing:
    """A ``jacquet analyse --json`` under way, its output going to a file."""

    label: str
    engine_args: list[str]
    command: list[str]
    process: subprocess.Popen[bytes]
    output: Path
    started: float


def start_analyse(label: str, paths: list[Path], engine_args: list[str], python: str,
                  checkout: Path, folder: Path) -> Analysing:
    """``jacquet analyse --json`` of ``paths`` as ``checkout``'s code runs it under
    ``python``, started (it runs while gnubg judges)."""
    command = [python, "-m", "jacquet_cli", "analyse", *map(str, paths), "--json", *engine_args]
    output = folder / f"analyse-{len(list(folder.glob('analyse-*')))}.jsonl"
    with output.open("wb") as out:
        process = subprocess.Popen(command, cwd=checkout, stdout=out, stderr=subprocess.PIPE,
                                   env={**os.environ, "PYTHONPATH": str(checkout)})
    return Analysing(label, engine_args, command, process, output, time.perf_counter())


def finish_analyse(run: Analysing) -> tuple[list[dict[str, Any]], float]:
    """A started analysis's games (one object each) and its wall time."""
    _, errors = run.process.communicate()
    seconds = time.perf_counter() - run.started
    if run.process.returncode not in (0, 1):  # 1: a game with an error, analysed up to it
        sys.exit(f"{shlex.join(run.command)} failed (exit {run.process.returncode}):\n"
                 f"{errors.decode(errors='replace')[-3000:]}")
    lines = run.output.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()], seconds


def rebuilt_turns(path: Path, analysed: Iterable[dict[str, Any]]) -> list[EngineTurn]:
    """The engine's turns of one file, each given the position the project's reader rebuilds
    for its ply, and the positions its play made and its best play leave."""
    games = list(read_file(path))
    turns = []
    for analysis in analysed:
        game = games[analysis["game"] - 1]
        nodes = {node.ply: node for node in game.mainline()}
        for turn in analysis["turns"]:
            node = nodes[turn["ply"]]
            if node.turn.kind not in (ROLL, PASSED) or node.turn.dice is None or node.turn.play is None:
                continue
            before = node.parent.state if node.parent is not None else game.state
            leaves = {str(play): play.next_position.position_id()
                      for play in legal_plays(before.position, node.turn.dice, before.rules)}
            turns.append(EngineTurn(
                analysis["game"], before.position.position_id(), str(node.turn.dice),
                analysis["players"][turn["player"]]["name"] or turn["player"],
                node.turn.play.next_position.position_id(), leaves.get(turn["best"]),
                float(turn["loss"]), turn["mark"], bool(turn["forced"])))
    return turns


def engine_judged(judged: dict[Path, list[list[Decision]]], analysed: list[dict[str, Any]],
                  totals: Matching) -> dict[Path, list[Judged]]:
    """The engine's analyses matched file by file to gnubg's decisions; ``totals`` adds up
    what could not be matched."""
    result = {}
    for path, games in judged.items():
        mine = [a for a in analysed if Path(a["file"]) == path]
        matching = match_turns(games, rebuilt_turns(path, mine))
        result[path] = matching.judged
        totals.unmatched += matching.unmatched
        totals.played_unknown += matching.played_unknown
        totals.forced_disagree += matching.forced_disagree
        totals.gnubg_left += matching.gnubg_left
    return result


# -- the table ----------------------------------------------------------------------------

def _pct(value: float) -> str:
    return "—" if value != value else f"{100 * value:.1f}%"


def _num(value: float, places: int = 2) -> str:
    return "—" if value != value else f"{value:.{places}f}"


def _class_cell(found: dict[str, Any], name: str) -> str:
    """Best play and what the best plays lose (thousandths) in one of gnubg's classes."""
    nan = float("nan")
    return (f"{_pct(found.get(f'best_agree_{name}', nan))} / "
            f"{_num(found.get(f'best_loss_{name}', nan), 1)} of {found.get(f'{name}s', 0)}")


ROWS = (
    ("best play = gnubg 2-ply's best", lambda f: _pct(f["best_agree"])),
    ("  in races", lambda f: f"{_pct(f['best_agree_races'])} of {f['races']}"),
    ("  in gnubg's contact class: best / loses", lambda f: _class_cell(f, "contact")),
    ("  in gnubg's crashed class: best / loses", lambda f: _class_cell(f, "crashed")),
    ("Spearman, loss of the play made", lambda f: _num(f["spearman_losses"])),
    ("?/?? marks vs gnubg losses >= 0.08: precision", lambda f: _num(f["precision"])),
    ("  recall", lambda f: _num(f["recall"])),
    ("  marked / such errors / both", lambda f: f"{f['marked']} / {f['errors']} / {f['both']}"),
    ("  refuted: gnubg loss < 0.03 / 0.03 to 0.08", lambda f: f"{f['refuted_flat']} / {f['refuted_near']}"),
    ("  in races: marked / both", lambda f: f"{f['marked_races']} / {f['both_races']}"),
    ("  own loss >= 0.12: marked / both", lambda f: f"{f['marked_heavy']} / {f['both_heavy']}"),
    ("its best plays lose (thousandths/decision)", lambda f: _num(f["best_loss_thousandths"], 1)),
    ("Spearman, players' error rates", lambda f: f"{_num(f['spearman_players'])} ({f['players']})"),
    ("unforced decisions judged", lambda f: f"{f['decisions']:,}"),
    ("  not matched / play unknown / forced differs", lambda f: f"{f.get('unmatched', 0)} / "
     f"{f.get('played_unknown', 0)} / {f.get('forced_disagree', 0)}"),
)


def print_table(columns: list[tuple[str, str, dict[str, Any]]]) -> None:
    """One row per measure, one column per judge (its label, engine name, figures); the
    engines named below."""
    width = max(16, *(len(label) for label, _, _ in columns))
    print(f"\n{'judged against gnubg 2-ply':<46}" + "".join(f" {label:>{width}}" for label, _, _ in columns))
    for title, cell in ROWS:
        print(f"{title:<46}" + "".join(f" {cell(found):>{width}}" for _, _, found in columns))
    for label, name, found in columns:
        seconds = (f" (`{found['command']}`, {found['seconds']:.0f} s wall, beside the others)"
                   if "seconds" in found else "")
        print(f"  {label}: {name}{seconds}")


# -- the run ------------------------------------------------------------------------------

def column(run: Analysing, judged: dict[Path, list[list[Decision]]]) -> tuple[
        tuple[str, str, dict[str, Any]], dict[Path, list[Judged]]]:
    """One engine setting's column, and its matched decisions."""
    analysed, seconds = finish_analyse(run)
    totals = Matching([])
    mine = engine_judged(judged, analysed, totals)
    found = figures([j for each in mine.values() for j in each])
    found.update(unmatched=totals.unmatched, played_unknown=totals.played_unknown,
                 forced_disagree=totals.forced_disagree, gnubg_left=totals.gnubg_left,
                 seconds=round(seconds, 1),
                 command=shlex.join(["jacquet", "analyse", "FILES", "--json", *run.engine_args]))
    engine = analysed[0]["engine"] if analysed else "?"
    print(f"{run.label}: {engine}, {found['decisions']:,} decisions matched", flush=True)
    return (run.label, engine, found), mine


def scored(outputs: list[str], judged: dict[Path, list[list[Decision]]]
           ) -> list[tuple[str, str, dict[str, Any]]]:
    """The columns of ``jacquet analyse --json`` outputs kept from earlier runs (``LABEL=FILE``,
    one game a line, finished or not), each scored on the games every one of them has."""
    runs = {}
    for output in outputs:
        label, _, name = output.partition("=")
        lines = Path(name).read_text(encoding="utf-8").splitlines()
        runs[label] = [json.loads(line) for line in lines if line.strip()]
    common = set.intersection(*({(a["file"], a["game"]) for a in games} for games in runs.values()))
    print(f"{len(common)} games in every output", flush=True)
    columns = []
    for label, games in runs.items():
        totals = Matching([])
        mine = engine_judged(judged, [a for a in games if (a["file"], a["game"]) in common], totals)
        found = figures([j for each in mine.values() for j in each])
        found.update(unmatched=totals.unmatched, played_unknown=totals.played_unknown,
                     forced_disagree=totals.forced_disagree, gnubg_left=totals.gnubg_left)
        columns.append((label, games[0]["engine"] if games else "?", found))
    return columns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine-args", action="append",
                        help='Arguments of jacquet analyse, one column each (repeatable; default: '
                        '"", "--ply 0", "--ply 1").')
    parser.add_argument("--before", metavar="REV", help="Also judge this revision of the project.")
    parser.add_argument("--before-engine-args", action="append",
                        help='Its columns, as --engine-args (default: "", its default settings).')
    parser.add_argument("--before-python", default=sys.executable,
                        help="The interpreter that runs --before's code (default: this one).")
    parser.add_argument("--jobs", type=int, default=2, help="gnubg processes when the cache is cold.")
    parser.add_argument("--set", choices=SETS, default="first",
                        help="first: the 20 matches the settings were chosen on; second: 20 "
                        "others, held out (default: first).")
    parser.add_argument("--matches", type=int, default=len(MATCHES), metavar="N",
                        help="Only the first N matches (a quicker, partial run; default: all 20).")
    parser.add_argument("--cached-only", action="store_true",
                        help="Only the matches gnubg has judged already (a partial run, no gnubg).")
    parser.add_argument("--scored", action="append", metavar="LABEL=FILE",
                        help="Score these jacquet analyse --json outputs of an earlier run instead "
                        "(repeatable; on the games all of them have).")
    parser.add_argument("--output", type=Path, default=Path("bench/results/gnubg_judge.json"))
    parser.add_argument("--list", action="store_true",
                        help="Print the path of every match of both sets (the yardstick a "
                        "fit must leave out), one a line, and stop.")
    args = parser.parse_args()
    if args.list:
        print("\n".join(str(REAL / name) for name in YARDSTICK))
        return
    if not shutil.which(GNUBG):
        sys.exit(f"gnubg is not installed ({GNUBG}): apt-get install gnubg")
    paths = [REAL / name for name in SETS[args.set][:args.matches]]
    absent = [p for p in paths if not p.exists()]
    if absent:
        sys.exit(f"the real matches are not there: {absent[0]} (../shared/data beside the checkout)")
    if args.cached_only:
        version = gnubg_version()
        paths = [p for p in paths if read_cached(cache_key(p, version, PLIES)) is not None]
    if args.scored:
        print_table(scored(args.scored, gnubg_judgement(paths, PLIES, args.jobs)))
        return
    settings = args.engine_args if args.engine_args is not None else ["", "--ply 0", "--ply 1"]
    runs = [(setting or "default", sys.executable, ROOT, setting) for setting in settings]
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        before = folder / "before"
        if args.before:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(before),
                            args.before], check=True, capture_output=True)
            runs += [(f"{args.before} {setting or 'default'}", args.before_python, before, setting)
                     for setting in (args.before_engine_args or [""])]
        try:
            started = [start_analyse(label, paths, shlex.split(setting), python, checkout, folder)
                       for label, python, checkout, setting in runs]
            judged = gnubg_judgement(paths, PLIES, args.jobs)
            columns, names = [], {path: dict[tuple[int, str], str]() for path in paths}
            for run in started:
                found, mine = column(run, judged)
                columns.append(found)
                for path, matched in mine.items():
                    names[path].update(player_names(matched))
        finally:
            if args.before:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(before)],
                               check=False)
    zero = figures([j for path, games in judged.items() for j in gnubg_zero_ply(games, names[path])])
    columns.insert(0, ("gnubg 0-ply", f"GNU Backgammon 1.07 at 0-ply, {GNUBG_BAD} for ?", zero))
    print(f"\n{len(paths)} matches ({', '.join(p.stem[:14] for p in paths)}),\ngnubg at {PLIES}-ply "
          f"(cubeless money), {FILTER[0]} plays within "
          f"{FILTER[1]} at 0-ply judged deeper")
    print_table(columns)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps([{"label": c[0], "engine": c[1], **c[2]} for c in columns],
                                      indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
