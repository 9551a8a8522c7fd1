"""Benchmark: the default confirmation (2-ply) against a second stage of rollouts, which
keeps a mark only where a rollout of the play made and 2-ply's best plays confirms it,
each setting measured against gnubg 2-ply on real matches (``bench/gnubg_judge.py``'s
cache: run it first), printed side by side in one run (issue 35).

Every game of the matches is analysed as ``jacquet analyse`` does by default (0-ply, the
turns that could be marked judged again at 2-ply: :class:`analysis.confirm.PlyJudge`),
without the luck. Where the 2-ply judgement leaves the play made a loss of ``--low`` or
more (the doubtful threshold, 0.030, by default: the marks and the plays that may become
marks), the play made and 2-ply's best ``--candidates`` plays are rolled out on the same
dice (:class:`analysis.rollout.Rollout`, both sides at 0-ply, seed 1) for each of
``--settings`` (``TRUNCATE:GAMES``, ``0`` for played to the end); the figures of the
first 144, 324, ... games of each (the games of a rollout depend on their number alone,
so the first 144 of 1,296 are a rollout of 144) are kept: each candidate's equity and the
standard error of its difference from the play made over the paired games.

The columns (one per rule, from the same judgements): the default; and for each rollout
(games, truncation), the turns rolled out given the rollout's best and loss and a mark
from it: ``?`` from 0.060 or from 0.070 (:data:`analysis.confirm.MARGIN`), on the
rollout's loss itself or only where it is a standard error or two above the threshold
(a mark dropped where the rollout cannot tell).

    python bench/confirm_rollout.py [--set first|second] [--settings 7:648,0:324]
        [--low 0.03] [--candidates 2] [--jobs 2] [--save FILE] [--load FILE]

The per-turn judgements go to ``--save`` (JSON lines, a match each, as each is done;
matches already there are not judged again); ``--load`` measures from such a file.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from pathlib import Path
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from analysis.threads import limit_blas_threads  # noqa: E402

limit_blas_threads(1)

import gnubg_judge  # noqa: E402
from gnubg_judge_measures import Matching, figures  # noqa: E402

from analysis.analyse import analyse_game, mark_for  # noqa: E402
from analysis.confirm import PlyJudge, confirmed_limits  # noqa: E402
from analysis.ranking import Evaluator  # noqa: E402
from analysis.report import analysis_json  # noqa: E402
from analysis.shipped import load_net  # noqa: E402
from notation import rule_set  # noqa: E402
from notation.formats import read_file  # noqa: E402

if TYPE_CHECKING:
    from analysis.network import Network
    from analysis.ranking import Candidate
    from notation import Dice, Play, Position

RULES = rule_set("backgammon")
PREFIXES = (144, 324, 648, 1296)
"""The rollouts measured from a longer one's first games."""


class RecordingJudge:
    """The default's 2-ply judge, which also rolls out the turns it leaves a loss of
    ``low`` or more and records what the rollouts say (:attr:`records`, by the position,
    the dice and the play made's result)."""

    def __init__(self, net: Network, low: float, candidates: int,
                 settings: Sequence[tuple[int, int]]) -> None:
        self.ply = PlyJudge(Evaluator(net, RULES, ply=2))
        self.net = net
        self.low = low
        self.candidates = candidates
        self.settings = settings
        self.records: dict[tuple[str, str, str], dict[str, Any]] = {}
        self.cpu = {f"{t}:{g}": 0.0 for t, g in settings}

    @property
    def name(self) -> str:
        """The 2-ply judge's."""
        return self.ply.name

    @property
    def level(self) -> str:
        """The 2-ply judge's."""
        return self.ply.level

    def judge(self, plays: Sequence[Play], position: Position, dice: Dice,
              primes: tuple[bool, bool], also: Play) -> list[Candidate]:
        """2-ply's ranking; the rollouts recorded on the side."""
        from analysis.rollout import Rollout, RolloutSpec

        ranked = self.ply.judge(plays, position, dice, primes, also)
        made = next(c for c in ranked if c.play.result == also.result)
        if ranked[0].equity - made.equity < self.low:
            return ranked
        chosen = [c.play for c in ranked[:self.candidates]]
        if all(p.result != also.result for p in chosen):
            chosen.append(also)
        places = tuple(next(i for i, p in enumerate(plays) if p.result == c.result) for c in chosen)
        played = next(i for i, p in enumerate(chosen) if p.result == also.result)
        record: dict[str, Any] = {"plays": [p.notation for p in chosen], "played": played}
        for truncate, games in self.settings:
            started = time.process_time()
            spec = RolloutSpec(self.net, RULES.name, dict(RULES.options), position.position_id(),
                               str(dice), places, ply=0, truncate=truncate or None, seed=1)
            equity = self.net.outcomes.equity(Rollout(spec).games(range(games)))  # (games, plays)
            self.cpu[f"{truncate}:{games}"] += time.process_time() - started
            for n in (p for p in PREFIXES if p <= games):
                part = equity[:n]
                apart = part - part[:, played:played + 1]
                record[f"{truncate}:{n}"] = {
                    "equity": [round(float(v), 5) for v in part.mean(axis=0)],
                    "error": [round(float(v), 5) for v in apart.std(axis=0, ddof=1) / math.sqrt(n)]}
        self.records[(position.position_id(), str(dice), also.result.position_id())] = record
        return ranked


def judged_turns(path: Path, low: float, candidates: int, settings: list[tuple[int, int]]
                 ) -> tuple[list[dict[str, Any]], dict[str, float]]:
    """Every game of ``path`` as ``jacquet analyse --json`` gives it by default (without
    the luck and the candidates), each turn the recording judge rolled out given
    ``rolled`` (:meth:`RecordingJudge.judge`'s record); and the CPU seconds spent."""
    limit_blas_threads(1)
    net = load_net("backgammon")
    zero = Evaluator(net, RULES, ply=0)
    judge = RecordingJudge(net, low, candidates, settings)
    games = []
    started = time.process_time()
    for number, game in enumerate(read_file(path), 1):
        analysis = analyse_game(game, zero, luck=False, shown=2, confirm=judge)
        record = {"file": str(path), "game": number, **analysis_json(analysis, net.outcomes.names)}
        for turn, data in zip(analysis.turns, record["turns"], strict=True):
            del data["candidates"]
            node = turn.node
            before = node.parent.state if node.parent is not None else game.state
            key = (before.position.position_id(), str(turn.dice), turn.played.result.position_id())
            if not turn.forced and key in judge.records:
                data["rolled"] = judge.records[key]
        games.append(record)
    cpu = {"total": time.process_time() - started, **judge.cpu}
    print(f"  {path.name}: {cpu['total']:.0f} s CPU, rollouts {judge.cpu}", flush=True)
    return games, cpu


Rule = Callable[[dict[str, Any]], dict[str, Any]]


def rollout_rule(setting: str, bad: float, sigmas: float) -> Rule:
    """A turn the rollout ``setting`` (``TRUNCATE:GAMES``) judged given its best and loss,
    and a mark: ``?`` from ``bad`` (``??`` from the rule set's very bad threshold), only
    where the loss is ``sigmas`` standard errors above the threshold (else one lighter)."""
    doubtful, _, very_bad = RULES.marks

    def rule(turn: dict[str, Any]) -> dict[str, Any]:
        rolled = turn.get("rolled")
        if rolled is None or setting not in rolled:
            return turn
        figures_ = rolled[setting]
        best = max(range(len(figures_["equity"])), key=lambda i: figures_["equity"][i])
        played = rolled["played"]
        loss = max(0.0, figures_["equity"][best] - figures_["equity"][played])
        error = figures_["error"][best]
        sure = loss - sigmas * error
        mark = mark_for(sure, (doubtful, bad, very_bad))
        if mark is None and loss >= doubtful:
            mark = "?!"
        return {**turn, "best": rolled["plays"][best], "loss": round(loss, 4), "mark": mark}
    return rule


def margin_rule(bad: float) -> Rule:
    """The default with the 2-ply judgement's ``?`` from ``bad`` (the margin's rows)."""
    doubtful, _, very_bad = RULES.marks

    def rule(turn: dict[str, Any]) -> dict[str, Any]:
        if turn["forced"] or not turn["level"].endswith("2-ply"):
            return turn
        return {**turn, "mark": mark_for(turn["loss"], (doubtful, bad, very_bad))}
    return rule


def columns_for(settings: list[str]) -> list[tuple[str, Rule]]:
    """The default, the margin's rows, then each rollout with each mark rule."""
    bad = RULES.marks[1]
    columns: list[tuple[str, Rule]] = [
        (f"2-ply, ? from {margin:.3f}" + (" (default)" if margin == confirmed_limits(RULES.marks)[1] else ""),
         margin_rule(margin)) for margin in (0.060, 0.065, confirmed_limits(RULES.marks)[1], 0.075)]
    for setting in settings:
        truncate, games = setting.split(":")
        name = f"{int(games):,} games, " + (f"trunc. {truncate}" if truncate != "0" else "to the end")
        columns += [(f"{name}, ? from {bad:.3f}", rollout_rule(setting, bad, 0)),
                    (f"{name}, ? from {confirmed_limits(RULES.marks)[1]:.3f}",
                     rollout_rule(setting, confirmed_limits(RULES.marks)[1], 0)),
                    (f"{name}, ? 1 s.e. above {bad:.3f}", rollout_rule(setting, bad, 1)),
                    (f"{name}, ? 2 s.e. above {bad:.3f}", rollout_rule(setting, bad, 2))]
    return columns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=gnubg_judge.SETS, default="first",
                        help="the matches (bench/gnubg_judge.py's --set)")
    parser.add_argument("--matches", type=int, default=20, metavar="N", help="only the first N")
    parser.add_argument("--settings", default="7:648,0:324",
                        help="the rollouts, TRUNCATE:GAMES (0: played to the end), comma-separated")
    parser.add_argument("--low", type=float, default=RULES.marks[0],
                        help="the 2-ply loss from which a turn is rolled out (default: doubtful)")
    parser.add_argument("--candidates", type=int, default=2, help="2-ply's best plays rolled out")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (a match each)")
    parser.add_argument("--save", type=Path, default=Path("bench/results/confirm_rollout.jsonl"))
    parser.add_argument("--load", type=Path, help="measure from judgements kept by --save")
    parser.add_argument("--cached-only", action="store_true",
                        help="only the matches gnubg has judged already (a partial run)")
    args = parser.parse_args()
    settings = [(int(t), int(g)) for t, g in (s.split(":") for s in args.settings.split(","))]
    paths = [gnubg_judge.REAL / name for name in gnubg_judge.SETS[args.set][:args.matches]]
    if args.cached_only:
        version = gnubg_judge.gnubg_version()
        paths = [p for p in paths if gnubg_judge.read_cached(
            gnubg_judge.cache_key(p, version, gnubg_judge.PLIES)) is not None]
    judged = gnubg_judge.gnubg_judgement(paths, gnubg_judge.PLIES, 1)
    kept = args.load or args.save
    done = set()
    if kept.exists():
        done = {Path(json.loads(line)["games"][0]["file"]) for line in kept.read_text().splitlines() if line}
    if not args.load:
        todo = [p for p in paths if p not in done]
        print(f"{len(todo)} matches to judge (default analysis, rollouts {args.settings} of the "
              f"turns 2-ply leaves a loss of {args.low} or more)...", flush=True)
        args.save.parent.mkdir(parents=True, exist_ok=True)
        with ProcessPoolExecutor(args.jobs, mp_context=get_context("spawn")) as pool, \
                args.save.open("a", encoding="utf-8") as out:
            futures = [pool.submit(judged_turns, p, args.low, args.candidates, settings) for p in todo]
            for future in as_completed(futures):
                games, cpu = future.result()
                out.write(json.dumps({"games": games, "cpu": cpu}) + "\n")
                out.flush()
    lines = [json.loads(line) for line in kept.read_text(encoding="utf-8").splitlines() if line]
    lines = [line for line in lines if Path(line["games"][0]["file"]) in paths]
    games = [g for line in lines for g in line["games"]]
    judged = {path: found for path, found in judged.items() if path in {Path(g["file"]) for g in games}}
    cpu: dict[str, float] = {}
    for line in lines:
        for key, seconds in line["cpu"].items():
            cpu[key] = cpu.get(key, 0.0) + seconds
    rolled = sum("rolled" in t for g in games for t in g["turns"])
    decisions = sum(not t["forced"] for g in games for t in g["turns"])
    print(f"{len(judged)} of {len(paths)} matches ({args.set} set), {decisions:,} decisions, "
          f"{rolled} rolled out; CPU: " + ", ".join(f"{k} {v:.0f} s" for k, v in cpu.items()))
    prefixes = sorted({k for g in games for t in g["turns"] for k in t.get("rolled", {})
                       if ":" in k}, key=lambda k: (k.split(":")[0] == "0", int(k.split(":")[1])))
    columns = []
    for label, rule in columns_for(prefixes):
        analysed = [{**g, "turns": [rule(t) for t in g["turns"]]} for g in games]
        totals = Matching([])
        mine = gnubg_judge.engine_judged(judged, analysed, totals)
        found = figures([j for each in mine.values() for j in each])
        found.update(unmatched=totals.unmatched, played_unknown=totals.played_unknown,
                     forced_disagree=totals.forced_disagree)
        columns.append((label, games[0]["engine"] if games else "?", found))
    print_rows(columns)


def print_rows(columns: list[tuple[str, str, dict[str, Any]]]) -> None:
    """One line per setting (a Markdown table), the engine named below."""
    print("\n| setting | best play | Spearman | precision | recall | marked / errors / both | "
          "refuted < 0.03 / 0.03-0.08 | best plays lose | players |\n|---|---|---|---|---|---|---|---|---|")
    for label, _, f in columns:
        print(f"| {label} | {100 * f['best_agree']:.1f}% | {f['spearman_losses']:.2f} | "
              f"{f['precision']:.2f} | {f['recall']:.2f} | {f['marked']} / {f['errors']} / {f['both']} | "
              f"{f['refuted_flat']} / {f['refuted_near']} | {f['best_loss_thousandths']:.1f} | "
              f"{f['spearman_players']:.2f} ({f['players']}) |")
    print(f"\n({columns[0][1]}; {columns[0][2]['decisions']:,} decisions, "
          f"{columns[0][2].get('unmatched', 0)} not matched)")


if __name__ == "__main__":
    main()
