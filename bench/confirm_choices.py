"""Benchmark: which turns ``jacquet analyse --confirm`` should judge again, and which marks
it should keep, each choice measured against gnubg 2-ply on the 20 real matches of
``bench/gnubg_judge.py`` (gnubg's judgement read from that bench's cache: run it once
first), printed side by side in one run.

Every unforced turn of the 20 matches is judged once at 0-ply and once at each deeper
level asked (``--depths 1,2``: :class:`analysis.confirm.PlyJudge`, as ``--confirm 1ply``
and ``2ply`` judge). A choice is a rule saying, from the 0-ply judgement of a turn alone,
whether the deeper level decides it (and, for some, which of its marks stand): so every
choice's analysis is the two judgements put together turn by turn, exactly what
``jacquet analyse`` would give with that rule, without analysing the matches once per
choice. The choices:

- ``0-ply alone`` (``--confirm none``);
- ``marked or close within S``: the rule of :func:`analysis.confirm.needs_confirming`, the
  turns marked at 0-ply and those whose best two plays are within S times the doubtful
  threshold (0.030 in backgammon), S 0.5 (the rule before this bench), 1 and 2 (``CLOSE``,
  the one shipped, is named);
- ``... or nearly marked``: also the turns whose play made loses half the doubtful
  threshold at 0-ply;
- ``... both levels agree``: a mark kept only where 0-ply marked the play too (no mark
  added by the deeper level);
- ``... 0.070 for ?``: the deeper level's ``?`` only from 0.070 (a margin above the
  threshold), and the same from 0.065, 0.075 and 0.080 (``--only`` measures a margin
  chosen on one set of matches on the other).

Each column: gnubg_judge's measures and the turns judged again (the cost beside
``every turn``).

    python bench/confirm_choices.py [--depths 1,2] [--matches 20] [--only TEXT] [--jobs 2]
                                    [--save FILE] [--load FILE]

The per-turn judgements go to ``--save`` (JSON lines, a match each, as each is judged);
``--load`` measures from such a file without judging again, from the matches judged so far
when the run was stopped.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from analysis.threads import limit_blas_threads  # noqa: E402

limit_blas_threads(1)

import gnubg_judge  # noqa: E402
from gnubg_judge_measures import Matching, figures  # noqa: E402

from analysis.analyse import analyse_game, mark_for  # noqa: E402
from analysis.confirm import CLOSE, PlyJudge  # noqa: E402
from analysis.ranking import Evaluator  # noqa: E402
from analysis.report import analysis_json  # noqa: E402
from analysis.shipped import load_net  # noqa: E402
from notation import legal_plays, rule_set  # noqa: E402
from notation.formats import read_file  # noqa: E402

RULES = rule_set("backgammon")
DOUBTFUL, BAD, VERY_BAD = RULES.marks


def wanted(turn: dict[str, Any]) -> bool:
    """Whether any choice judges the turn again (the union of their rules)."""
    return close(2.0)(turn) or turn["loss"] >= DOUBTFUL / 2


def judged_turns(path: Path, depths: list[int]) -> list[dict[str, Any]]:
    """Every game of ``path`` as ``jacquet analyse --json`` gives it at 0-ply (without the
    luck and the candidates), each unforced turn given ``gap`` (its best two plays' equities
    apart at 0-ply) and, where a choice may judge it again (:func:`wanted`), for each of
    ``depths`` the deeper level's ``best``, ``loss`` and ``mark``."""
    limit_blas_threads(1)
    net = load_net("backgammon")
    zero = Evaluator(net, RULES, ply=0)
    judges = {depth: PlyJudge(Evaluator(net, RULES, ply=depth)) for depth in depths}
    games = []
    started = time.process_time()
    for number, game in enumerate(read_file(path), 1):
        analysis = analyse_game(game, zero, luck=False, shown=2)
        record = {"file": str(path), "game": number, **analysis_json(analysis, net.outcomes.names)}
        for turn, data in zip(analysis.turns, record["turns"], strict=True):
            del data["candidates"]
            if turn.forced:
                continue
            ranked = [c for _, c in turn.candidates]
            data["gap"] = ranked[0].equity - ranked[1].equity
            if not wanted(data):
                continue
            node = turn.node
            before = node.parent.state if node.parent is not None else game.state
            primes = (before.prime_held[turn.player.index], before.prime_held[turn.player.other.index])
            plays = legal_plays(before.position, turn.dice, before.rules)
            for depth, judge in judges.items():
                deeper = judge.judge(plays, before.position, turn.dice, primes, turn.played)
                rank = next(i for i, c in enumerate(deeper) if c.play.result == turn.played.result)
                loss = max(0.0, deeper[0].equity - deeper[rank].equity)
                data[str(depth)] = {"best": deeper[0].play.notation, "loss": round(loss, 4),
                                    "mark": mark_for(loss, RULES.marks),
                                    "depths": [deeper[0].depth, deeper[rank].depth]}
        games.append(record)
    print(f"  {path.name}: {time.process_time() - started:.0f} s CPU", flush=True)
    return games


Rule = Callable[[dict[str, Any]], bool]


def marked(turn: dict[str, Any]) -> bool:
    """Whether 0-ply marks the play made."""
    return turn["mark"] is not None


def close(share: float) -> Rule:
    """The turns marked at 0-ply or whose best two plays are within ``share`` × doubtful."""
    return lambda turn: marked(turn) or turn["gap"] < share * DOUBTFUL


def choices(depth: int) -> list[tuple[str, Rule, Callable[[dict[str, Any], str | None], str | None]]]:
    """The choices at ``depth``: a label, which turns the deeper level decides, and which
    of its marks stand."""
    deeper: Callable[[dict[str, Any], str | None], str | None] = lambda turn, mark: mark

    def margin(bad: float) -> Callable[[dict[str, Any], str | None], str | None]:
        """The deeper level's ``?`` only from ``bad`` (its ``?!`` and ``??`` as they are)."""
        return lambda turn, mark: mark_for(turn[str(depth)]["loss"], (DOUBTFUL, bad, VERY_BAD))

    before = close(0.5)  # the rule until this bench measured the others
    return [
        ("0-ply alone", lambda turn: False, deeper),
        *((f"marked or close within {share:g}" + (" (CLOSE)" if share == CLOSE else ""), close(share), deeper)
          for share in (0.5, 1.0, 2.0)),
        ("within 0.5 or nearly marked", lambda turn: before(turn) or turn["loss"] >= DOUBTFUL / 2, deeper),
        ("within 0.5, both levels agree", before, lambda turn, mark: mark if marked(turn) else None),
        ("within 0.5, 0.070 for ?", before, margin(0.070)),
        *((f"within 1, {bad:.3f} for ?", close(1.0), margin(bad)) for bad in (0.065, 0.070, 0.075, 0.080)),
        ("within 1, both levels agree", close(1.0), lambda turn, mark: mark if marked(turn) else None),
        ("within 1, 0.070 for ?, both agree", close(1.0),
         lambda turn, mark: margin(0.070)(turn, mark) if marked(turn) else None),
    ]


def combined(games: list[dict[str, Any]], depth: int, rule: Rule,
             keep: Callable[[dict[str, Any], str | None], str | None]) -> tuple[list[dict[str, Any]], int]:
    """The analyses a choice gives, and how many turns it judged again."""
    again = 0
    result = []
    for game in games:
        turns = []
        for turn in game["turns"]:
            if not turn["forced"] and rule(turn):
                again += 1
                deeper = turn[str(depth)]
                turn = {**turn, "best": deeper["best"], "loss": deeper["loss"],
                        "mark": keep(turn, deeper["mark"])}
            turns.append(turn)
        result.append({**game, "turns": turns})
    return result, again


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depths", default="1,2", help="the deeper levels (comma-separated)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (one match each at a time)")
    parser.add_argument("--save", type=Path, default=Path("bench/results/confirm_choices.jsonl"),
                        help="where the per-turn judgements go, a match a line, as each is judged")
    parser.add_argument("--load", type=Path,
                        help="measure from judgements kept by --save (the matches judged so far)")
    parser.add_argument("--matches", type=int, default=len(gnubg_judge.MATCHES), metavar="N",
                        help="only the first N matches (a quicker, partial run; default: all 20)")
    parser.add_argument("--only", default="", metavar="TEXT",
                        help="only the matches whose path holds TEXT (galaxy, backgammon-studio): a "
                             "choice made on one set of matches, measured on the other")
    args = parser.parse_args()
    depths = [int(d) for d in args.depths.split(",")]
    paths = [gnubg_judge.REAL / name for name in gnubg_judge.MATCHES[:args.matches] if args.only in name]
    judged = gnubg_judge.gnubg_judgement(paths, gnubg_judge.PLIES, 1)
    if not args.load:
        print(f"judging the unforced turns of {len(paths)} matches at 0-ply and, where a choice "
              f"may judge them again, at {', '.join(f'{d}-ply' for d in depths)}...", flush=True)
        with ProcessPoolExecutor(args.jobs, mp_context=get_context("spawn")) as pool, \
                args.save.open("a", encoding="utf-8") as kept:
            for future in as_completed([pool.submit(judged_turns, path, depths) for path in paths]):
                kept.write(json.dumps(future.result()) + "\n")
                kept.flush()
    lines = (args.load or args.save).read_text(encoding="utf-8").splitlines()
    games = [g for line in lines for g in json.loads(line) if Path(g["file"]) in paths]
    done = {Path(g["file"]) for g in games}
    judged = {path: found for path, found in judged.items() if path in done}
    print(f"{len(judged)} of {len(paths)} matches judged", flush=True)
    decisions = sum(not t["forced"] for g in games for t in g["turns"])
    for depth in depths:
        columns = []
        for label, rule, keep in choices(depth):
            analysed, again = combined(games, depth, rule, keep)
            totals = Matching([])
            mine = gnubg_judge.engine_judged(judged, analysed, totals)
            found = figures([j for each in mine.values() for j in each])
            found.update(unmatched=totals.unmatched, played_unknown=totals.played_unknown,
                         forced_disagree=totals.forced_disagree)
            columns.append((label, f"{again:,} of {decisions:,} turns judged again at {depth}-ply", found))
        print(f"\nconfirmed at {depth}-ply (jacquet-td backgammon v1, {len(judged)} matches):")
        gnubg_judge.print_table(columns)


if __name__ == "__main__":
    main()
