"""Benchmark: the engine's 0-ply marks against long rollouts (issue 35's second measure).

    python bench/rollout_marks.py --variant V [--positions 500] [--games 1296] [--jobs 2]
                                  [--candidates 3] [--explore 0.25] [--keep 0.1] [--seed 1]
                                  [--truncate K] [--cache DIR] [--report] [--default] [--confirm SETTING ...]
                                  [--judge NET] [--player NET] [--positions-from NET] [--margin M ...]
                                  [--check-truncate K|end] [--check-games N] [--check-from F]

1. **Positions from real-looking games** (seeded): games of the shipped net at 0-ply
   against itself, where at every choice each side plays the heuristic's play
   (:class:`analysis.players.HeuristicPlayer`) instead with probability ``--explore``, so
   that the games hold the errors a club player makes beside the engine's own; the game
   state plays every rule of the game (versailles' passed dice, murray's primes). Each
   turn with a choice, on a roll (not passed dice), is kept with probability ``--keep``:
   the position, the roll and the play made. Game ``i`` is played on its own generator
   (``seed``, ``i``), so the first N positions are the same whatever ``--positions``.
2. **The engine's judgement**: every legal play ranked by the shipped net at 0-ply (the
   prime flags those the rollout starts with: a prime standing in the position), the play
   made's loss (best equity less its own) and its mark by the rule set's thresholds
   (``RuleSet.marks``; :func:`analysis.analyse.mark_for`).
3. **The rollout's**: the ``--candidates`` best plays at 0-ply and the play made, each
   played out ``--games`` times (1,296: every pair of first two rolls once) on the same dice
   (:mod:`analysis.rollout`, the net at 0-ply both sides, played to the end unless
   ``--truncate``, seed ``--seed`` plus the position's number); the rollout's best is the
   best of them, the play made's loss its equity below it, with the standard error of that
   difference over the paired games (the same dice for both plays), and its mark.
   A play the net puts below its third best is seldom the rollout's best: the bench prints
   where at 0-ply the rollout's best stood, which says how often the third was needed.
4. **Figures**: precision and recall of the 0-ply ``?``/``??`` marks against the
   rollout's, with the counts; the marks side by side (a table of counts); Spearman of
   the two losses; the rollout's standard errors (median and largest). Then (4b) the
   judge's errors on the plays rolled out (:func:`equity_errors`): on an equity, and on a
   loss (a play's error less the rollout's best's), beside the rollout's own noise.
5. **What the reference's noise allows** (no CPU): a judge that knew each loss exactly,
   scored against a rollout of the same length, cannot be scored perfectly, the rollout's
   losses near a threshold falling either side of it. Estimated by taking the rollout's
   losses as the truth and drawing a second rollout from them (each loss plus a normal
   error of its own standard error, 2,000 draws, seeded): the mean precision and recall
   of the truth's marks against the drawn ones. A figure near it is as good as this
   reference can tell.
6. ``--default``: the marks ``jacquet analyse`` gives by default on the same positions
   (:func:`analysis.analyse.judge_turns`: 0-ply, the turns that would be marked or whose
   best two are close judged again as the rule set's ``confirmation`` says), against the
   same rollouts; kept in a cache file of their own (``...-default-SETTING.jsonl``; a
   position judged again where the setting's judge has changed).
   ``--confirm SETTING`` (again for more): the same with another confirmation (one of
   :data:`analysis.confirm.CONFIRMATIONS`). The run ends with one table of the 0-ply marks,
   each confirmation's and the ceiling of step 5, side by side.
7. ``--judge NET``: the marks of steps 2 and 6 given by the contact net in the file ``NET``
   (the shipped race net beside it) instead of the shipped one, against the same rollouts
   (still the shipped net's play-outs: a candidate net judged against them).
8. ``--player NET``: the rollouts (step 3) played by the contact net in the file ``NET``
   (the shipped race net beside it), which also chooses their candidates (its 3 best at
   0-ply and the play made), on the same positions; kept in a results file of their own
   (``...-playerDIGEST.jsonl``). A candidate net stronger than the shipped one is judged
   against its own play-outs, not the weaker net's (a rollout's verdict is its player's):
   ``--player NET --judge NET``; the shipped net's marks against them, ``--player NET``.
9. ``--positions-from NET``: the positions (step 1) of the games of the contact net in the
   file ``NET`` (the shipped race net beside it) instead of the shipped engine's, and the
   cache files named by that engine: a measure made before a net was shipped stays readable
   after (its positions, its rollouts and its judges' marks), as jacquet's of the 80-unit
   net, ``--positions-from analysis/nets/history/jacquet-165000.npz``. The player and the
   judge stay the shipped engine unless ``--player`` and ``--judge`` say otherwise.
10. ``--margin M`` (again for more): each confirmation's marks again with the deeper
    level's ``?`` from ``M`` times the bad threshold (:data:`analysis.confirm.MARGIN`, 7/6,
    otherwise), marked anew from the losses its cache keeps (no CPU), one more line each in
    the table of step 6: where precision is traded for recall.
11. ``--check-truncate K|end``, ``--check-games N`` and ``--check-from F``: the check of
    ``2ply+rollout`` (:class:`analysis.confirm.CheckedJudge`) with its play-outs truncated
    after ``K`` turns or played to the end (:data:`analysis.confirm.CHECK_TRUNCATE`
    otherwise), ``N`` of them (:data:`analysis.confirm.CHECK_GAMES` otherwise), and rolling
    out from ``F`` times the doubtful threshold (1 otherwise), in a cache file of their own
    (``...-default-2ply+rollout-checkend-checkgames1296-from0.5.jsonl``): a change to the
    check measured before it is made. Asked without ``2ply+rollout`` among the settings, they
    are refused.

The results are appended to a cache (``bench/cache/rollout_marks/``, git-ignored; one JSON
line per position as it ends, named by the rule set, the net's digest and the settings): a
run stopped (Ctrl-C, a kill) and started again goes on with the positions not done, and
prints the figures of those done. ``--report`` prints them from the cache alone, beside a
run still going.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analysis.threads import limit_blas_threads  # noqa: E402

limit_blas_threads(1)

import numpy as np  # noqa: E402

from analysis.analyse import TurnToJudge, judge_turns, mark_for  # noqa: E402
from analysis.confirm import (  # noqa: E402
    CONFIRMATIONS,
    CheckedJudge,
    Judge,
    RolloutJudge,
    confirmation_for,
    deeper_judge,
)
from analysis.ctrl_c import CTRL_C, is_ctrl_c  # noqa: E402
from analysis.network import Network  # noqa: E402
from analysis.players import HeuristicPlayer  # noqa: E402
from analysis.pool import worker_pool  # noqa: E402
from analysis.ranking import Evaluator  # noqa: E402
from analysis.rollout import GAMES, Rollout, RolloutSpec, best_board, chunks  # noqa: E402
from analysis.shipped import load_net, playing_net  # noqa: E402
from notation import Dice, Position, legal_plays, rule_set  # noqa: E402
from notation.engine.state import PASSED, ROLL, Colour, GameState, TurnKind  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from gnubg_judge_measures import spearman  # noqa: E402

CACHE = ROOT / "bench" / "cache" / "rollout_marks"
BAD = ("?", "??")
"""The marks counted: bad and very bad."""
MAX_TURNS = 1000


def sample_positions(net: Network, variant: str, count: int, explore: float, keep: float,
                     seed: int) -> list[dict[str, Any]]:
    """``count`` positions to act with a choice, the roll and the play made (its place in
    ``legal_plays``), from the seeded games of step 1 (see the module docstring)."""
    rules = rule_set(variant)
    judge = Evaluator(net, rules).boards
    heuristic = HeuristicPlayer(rules)
    found: list[dict[str, Any]] = []
    game = 0
    while len(found) < count:
        rng = random.Random(f"rollout marks {variant} {seed} game {game}")
        state = GameState.start(rules)
        for _turn in range(MAX_TURNS):
            if state.winner is not None or len(found) >= count:
                break
            held = state.prime_held
            primes = (held[state.player.index], held[state.player.other.index])
            kind: TurnKind
            if state.passed is not None:
                kind, dice = PASSED, state.passed
            else:
                kind, dice = ROLL, Dice(rng.randint(1, 6), rng.randint(1, 6))
            plays = legal_plays(state.position, dice, rules)
            made = 0
            if len(plays) > 1:
                if rng.random() < explore:
                    made = heuristic.choose(plays, state.position, primes)
                else:
                    made = best_board(judge, *judge.results(plays, state.position, primes))
                if kind is ROLL and rng.random() < keep:
                    found.append({"index": len(found), "game": game, "position": state.position.position_id(),
                                  "dice": f"{dice.high}{dice.low}", "made": made})
            state = state.with_play(kind, dice, plays[made])
        game += 1
    return found


def sampled_turn(rules: Any, item: dict[str, Any]) -> tuple[Position, Dice, list[Any], tuple[bool, bool]]:
    """``item``'s position, roll, legal plays and prime flags (those the rollout starts
    with: a prime standing in the position)."""
    position, dice = Position.from_id(item["position"]), Dice.parse(item["dice"])
    held = GameState(rules, position, Colour.WHITE).prime_held
    return position, dice, legal_plays(position, dice, rules), (held[0], held[1])


def judged_at_0ply(net: Network, variant: str, item: dict[str, Any]) -> tuple[list[int], dict[int, float]]:
    """``item``'s legal plays as ``net`` ranks them at 0-ply: their places in
    ``legal_plays``, best first, and each one's equity by its place."""
    rules = rule_set(variant)
    position, _, plays, primes = sampled_turn(rules, item)
    ranked = Evaluator(net, rules).rank(plays, position, primes)
    places = {play.result: i for i, play in enumerate(plays)}
    order = [places[c.play.result] for c in ranked]
    return order, {places[c.play.result]: c.equity for c in ranked}


def judge_position(net: Network, variant: str, item: dict[str, Any], candidates: int, games: int,
                   truncate: int | None, seed: int) -> dict[str, Any]:
    """One position judged at 0-ply and by the rollout (steps 2 and 3): a cache line, with
    the CPU seconds it took (``cpu``)."""
    cpu = time.process_time()
    rules = rule_set(variant)
    made = item["made"]
    order, equity0 = judged_at_0ply(net, variant, item)
    chosen = order[:candidates] + ([made] if made not in order[:candidates] else [])
    spec = RolloutSpec(net, variant, {}, item["position"], item["dice"], tuple(chosen), 0, truncate,
                       seed + item["index"])
    rollout = Rollout(spec)
    y = np.concatenate([rollout.games(numbers) for numbers in chunks(games, 1)])
    equity = net.outcomes.equity(y)  # (games, candidates)
    means = equity.mean(axis=0)
    best = int(np.argmax(means))
    at = chosen.index(made)
    difference = equity[:, best] - equity[:, at]
    loss0 = equity0[order[0]] - equity0[made]
    loss = float(means[best] - means[at])
    return {**item, "legal": len(order), "candidates": chosen,
            "loss0": loss0, "mark0": mark_for(loss0, rules.marks),
            "equities": [float(v) for v in means],
            "errors": [float(v) for v in equity.std(axis=0, ddof=1) / math.sqrt(games)],
            "loss": loss, "loss_error": float(difference.std(ddof=1) / math.sqrt(games)),
            "mark": mark_for(loss, rules.marks), "best_rank0": order.index(chosen[best]) + 1,
            "games": games, "cpu": time.process_time() - cpu}


def rejudged(net: Network, variant: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Step 7: ``rows`` with the 0-ply loss and mark of the play made by ``net``, and where
    the rollout's best stands in ``net``'s ranking."""
    marks = rule_set(variant).marks
    out = []
    for row in rows:
        order, equity0 = judged_at_0ply(net, variant, row)
        loss0 = equity0[order[0]] - equity0[row["made"]]
        best = row["candidates"][int(np.argmax(row["equities"]))]
        out.append({**row, "loss0": loss0, "mark0": mark_for(loss0, marks),
                    "best_rank0": order.index(best) + 1})
    return out


def equity_errors(net: Network, variant: str, rows: list[dict[str, Any]]) -> dict[str, float]:
    """Step 4b: how far ``net``'s 0-ply equities of the plays rolled out stand from the
    rollouts': the standard deviation of its error on each play (``level``), and of its error
    on each play less its error on the rollout's best of the turn (``relative``: the error of
    a loss, what a mark is made of), with that one's mean (``bias``: above 0, the net finds
    the other plays nearer the best than the rollout does); beside them the rollout's own
    standard error of an equity and of a loss (medians), the noise in those figures."""
    level, relative = [], []
    for row in rows:
        _, equity0 = judged_at_0ply(net, variant, row)
        error = [equity0[c] - e for c, e in zip(row["candidates"], row["equities"], strict=True)]
        best = int(np.argmax(row["equities"]))
        level += error
        relative += [e - error[best] for k, e in enumerate(error) if k != best]
    losses = [r["loss_error"] for r in rows if r["loss_error"] > 0]
    return {"level": float(np.std(level)), "relative": float(np.std(relative)),
            "bias": float(np.mean(relative)),
            "noise_level": float(np.median([e for r in rows for e in r.get("errors", [])])),
            "noise_relative": float(np.median(losses)) if losses else float("nan")}


def score(rows: list[dict[str, Any]], bad: float | None = None) -> dict[str, Any]:
    """The figures of the positions done (step 4): ``?``/``??`` marked at 0-ply, by the
    rollout, both; precision, recall; the marks side by side; Spearman of the losses; the
    rollout's standard errors; where the rollout's best stood at 0-ply; with ``bad`` (the
    ``?`` threshold), how many rollout losses lie within two standard errors of it (their
    side of the threshold not settled by the rollout)."""
    marked = sum(r["mark0"] in BAD for r in rows)
    truth = sum(r["mark"] in BAD for r in rows)
    both = sum(r["mark0"] in BAD and r["mark"] in BAD for r in rows)
    errors = sorted(r["loss_error"] for r in rows if r["loss_error"] > 0)  # the play made not the best
    equity_errors = [e for r in rows for e in r.get("errors", [])]
    cpu = [r["cpu"] for r in rows if "cpu" in r]
    return {
        "positions": len(rows), "marked": marked, "errors": truth, "both": both,
        "precision": both / marked if marked else float("nan"),
        "recall": both / truth if truth else float("nan"),
        "marks": Counter((r["mark0"] or "-", r["mark"] or "-") for r in rows),
        "spearman": spearman([r["loss0"] for r in rows], [r["loss"] for r in rows]),
        "loss_miss": float(np.std([r["loss0"] - r["loss"] for r in rows])) if rows else float("nan"),
        "median_error": float(np.median(errors)) if errors else float("nan"),
        "largest_error": errors[-1] if errors else float("nan"),
        "equity_error": float(np.median(equity_errors)) if equity_errors else float("nan"),
        "best_rank0": Counter(r["best_rank0"] for r in rows),
        "cpu": float(np.mean(cpu)) if cpu else float("nan"),
        "unsettled": None if bad is None else sum(abs(r["loss"] - bad) < 2 * r["loss_error"] for r in rows),
    }


def ceiling(rows: list[dict[str, Any]], limits: tuple[float, float, float], draws: int = 2000,
            seed: int = 1) -> tuple[float, float]:
    """Step 5: the mean precision and recall of the rollout's own marks against a second
    rollout drawn from it (each loss plus a normal error of its standard error)."""
    rng = np.random.default_rng(seed)
    loss = np.array([r["loss"] for r in rows])
    error = np.array([r["loss_error"] for r in rows])
    truth = loss >= limits[1]
    drawn = loss + error * rng.standard_normal((draws, len(rows))) >= limits[1]
    both = (drawn & truth).sum(axis=1)
    marked, found = drawn.sum(axis=1), truth.sum()
    precision = float(np.mean(both[marked > 0] / marked[marked > 0])) if (marked > 0).any() else float("nan")
    return precision, float(np.mean(both / found)) if found else float("nan")


@dataclass(frozen=True)
class Check:
    """Step 11: another check for ``2ply+rollout`` than the engine's own. ``truncate``:
    its play-outs truncated after that many turns, ``None`` played to the end, ``"same"``
    as they are; ``games``: that many play-outs (``None``: as many); ``low``: rolling out
    from that share of the doubtful threshold it has."""

    truncate: int | str | None = "same"
    games: int | None = None
    low: float = 1.0

    def applied(self, judge: Judge | None) -> Judge | None:
        """``judge`` with this check, if it is :class:`CheckedJudge` (else as it is)."""
        if not isinstance(judge, CheckedJudge) or not isinstance(judge.rollout, RolloutJudge):
            return judge
        rollout = judge.rollout
        if not isinstance(self.truncate, str):
            rollout = replace(rollout, truncate=self.truncate)
        if self.games is not None:
            rollout = replace(rollout, games=self.games)
        return replace(judge, rollout=rollout, low=self.low * judge.low)

    @property
    def words(self) -> str:
        """The check in words, for the tables (``''`` for the engine's own)."""
        words = [] if isinstance(self.truncate, str) else [
            "played to the end" if self.truncate is None else f"truncated after {self.truncate} turns"]
        words += [] if self.games is None else [f"{self.games:,} games"]
        words += [] if self.low == 1 else [f"from {self.low:g} times the doubtful threshold"]
        return ", ".join(words)

    @property
    def suffix(self) -> str:
        """The cache file's mark of the check (``''`` for the engine's own)."""
        truncated = "" if isinstance(self.truncate, str) else f"-check{self.truncate or 'end'}"
        played = "" if self.games is None else f"-checkgames{self.games}"
        return truncated + played + ("" if self.low == 1 else f"-from{self.low:g}")


def confirmed_marks(net: Network, variant: str, rows: list[dict[str, Any]], path: Path,
                  setting: str, check: Check = Check()) -> list[dict[str, Any]]:
    """Step 6: each row's play made marked as ``jacquet analyse --confirm SETTING`` marks it,
    cached in ``path`` (one JSON line a position: its number, mark, loss and level). A line
    that another judge of the setting decided (its level neither 0-ply's nor this judge's:
    the setting has changed since) is judged again, the new line after it. ``check``: step
    11's check of ``2ply+rollout``."""
    rules = rule_set(variant)
    evaluator, confirm = Evaluator(net, rules), check.applied(deeper_judge(setting, net, rules))
    levels = {evaluator.name} | ({confirm.name} if confirm else set())
    done = {index: line for index, line in cached(path).items() if line["level"] in levels}
    with path.open("a") as out:
        for row in rows:
            if row["index"] in done:
                continue
            position, dice, plays, primes = sampled_turn(rules, row)
            turn = TurnToJudge(0, dice, position, primes, plays[row["made"]].result, True, False)
            [figures] = judge_turns(rules, [turn], evaluator, rules.marks, 1, False, confirm)
            done[row["index"]] = {"index": row["index"], "mark": figures.mark, "loss": figures.loss,
                                  "level": figures.level}
            out.write(json.dumps(done[row["index"]]) + "\n")
            out.flush()
    return [done[row["index"]] for row in rows]


def remarked(marks: list[dict[str, Any]], limits: tuple[float, float, float],
             margin: float) -> list[dict[str, Any]]:
    """Step 6 with another margin on the deeper level's ``?`` (``margin`` times the bad
    threshold in place of :data:`analysis.confirm.MARGIN`'s): each turn judged again marked
    anew from the loss its cache line keeps; a turn left at 0-ply keeps its mark. No CPU."""
    doubtful, bad, very_bad = limits
    moved = (doubtful, min(margin * bad, very_bad), very_bad)
    return [m if m["level"].endswith(", 0-ply") else {**m, "mark": mark_for(m["loss"], moved)}
            for m in marks]


def report(variant: str, label: str, figures: dict[str, Any], judge: str = "0-ply") -> None:
    """The figures as the bench prints them, those of ``judge`` (the marks judged)."""
    print(f"\n{variant}: {label}")
    print(f"| positions | {judge} ?/?? | rollout ?/?? | both | precision | recall | Spearman of the losses "
          "| rollout's standard error of a loss: median, largest | of an equity: median |")
    print("|---|---|---|---|---|---|---|---|---|")
    print(f"| {figures['positions']} | {figures['marked']} | {figures['errors']} | {figures['both']} "
          f"| {figures['precision']:.3f} | {figures['recall']:.3f} | {figures['spearman']:.3f} "
          f"| {figures['median_error']:.4f}, {figures['largest_error']:.4f} "
          f"| {figures['equity_error']:.4f} |")
    names = ["-", "?!", "?", "??"]
    print(f"\nmarks: {judge} (rows) against the rollout (columns)")
    print(f"| {judge} \\ rollout | " + " | ".join(names) + " |")
    print("|---" * (len(names) + 1) + "|")
    for a in names:
        print(f"| {a} | " + " | ".join(str(figures["marks"].get((a, b), 0)) for b in names) + " |")
    stood = ", ".join(f"{rank}: {n}" for rank, n in sorted(figures["best_rank0"].items()))
    print(f"\nwhere the rollout's best stood at 0-ply (rank: positions): {stood}")
    print(f"CPU a position (mean): {figures['cpu']:.0f} s")
    if figures["unsettled"] is not None:
        print(f"rollout losses within two standard errors of the ? threshold: {figures['unsettled']}",
              flush=True)


_WORKER: dict[str, Any] = {}


def _start(variant: str, player: str | None, candidates: int, games: int, truncate: int | None,
           seed: int) -> None:
    _WORKER.update(net=playing_net(variant, player), variant=variant,
                   settings=(candidates, games, truncate, seed))


def _judge(item: dict[str, Any]) -> dict[str, Any]:
    return judge_position(_WORKER["net"], _WORKER["variant"], item, *_WORKER["settings"])


def cached(path: Path) -> dict[int, dict[str, Any]]:
    """The cache lines of ``path`` by position number (a line cut short by a kill is skipped)."""
    done: dict[int, dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue
            done[row["index"]] = row
    return done


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Steps 1 to 3 for the positions not in the cache, then step 4 over all done."""
    net = load_net(args.variant)
    source = net if args.positions_from is None else playing_net(args.variant, args.positions_from)
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    base = f"{args.variant}-{source.digest}-seed{args.seed}-explore{args.explore}-keep{args.keep}"
    positions_file = cache / f"{base}-positions.json"
    known = json.loads(positions_file.read_text()) if positions_file.exists() else []
    if len(known) < args.positions:
        started = time.process_time()
        known = sample_positions(source, args.variant, args.positions, args.explore, args.keep, args.seed)
        positions_file.write_text(json.dumps(known))
        print(f"{len(known)} positions from {known[-1]['game'] + 1} games, "
              f"{time.process_time() - started:.0f} s of CPU", flush=True)
    items = known[: args.positions]
    truncation = f"-truncate{args.truncate}" if args.truncate else ""
    player = net if args.player is None else playing_net(args.variant, args.player)
    played = "" if player.digest == source.digest else f"-player{player.digest}"
    results_file = cache / f"{base}-games{args.games}-candidates{args.candidates}{truncation}{played}.jsonl"
    done = cached(results_file)
    todo = [] if args.report else [item for item in items if item["index"] not in done]
    print(f"{args.variant}: {sum(item['index'] in done for item in items)} of {len(items)} positions "
          f"in {results_file}; "
          f"{len(todo)} to roll out on {args.jobs} processes", flush=True)
    started = time.time()
    finished = 0
    try:
        with results_file.open("a") as out:
            for row in _judged(args, todo):
                out.write(json.dumps(row) + "\n")
                out.flush()
                done[row["index"]] = row
                finished += 1
                per = (time.time() - started) / finished
                cpu = float(np.mean([r["cpu"] for r in done.values() if "cpu" in r]))
                print(f"position {row['index']} ({finished} of {len(todo)}): {row['legal']} plays, "
                      f"{len(row['candidates'])} rolled out, "
                      f"0-ply loss {row['loss0']:.3f} {row['mark0'] or ''}, "
                      f"rollout {row['loss']:.3f} ± {row['loss_error']:.3f} {row['mark'] or ''}; "
                      f"{row['cpu']:.0f} s of CPU (mean {cpu:.0f}); {per:.0f} s a position, "
                      f"{per * (len(todo) - finished) / 3600:.1f} h to go",
                      flush=True)
    except CTRL_C as error:
        if not is_ctrl_c(error):
            raise
        print("interrupted: the positions done are kept", flush=True)
    rows = [done[item["index"]] for item in items if item["index"] in done]
    judge = net if args.judge is None else playing_net(args.variant, args.judge)
    if judge.digest != player.digest:
        rows = rejudged(judge, args.variant, rows)
    limits = rule_set(args.variant).marks
    figures = score(rows, limits[1])
    truncated = f"truncated after {args.truncate} turns" if args.truncate else "played to the end"
    label = (f"{judge.name} ({judge.digest}) at 0-ply against rollouts of the {args.candidates} best at "
             f"0-ply and the play made, {args.games:,} games each, {truncated}, "
             f"{player.name} ({player.digest}) at 0-ply; positions from {source.name} ({source.digest}); "
             f"marks {limits}")
    report(args.variant, label, figures)
    errors = equity_errors(judge, args.variant, rows)
    plays = sum(len(r["candidates"]) for r in rows)
    print(f"\n{judge.name} ({judge.digest}) at 0-ply against the rollouts, on the {plays} "
          f"plays rolled out (step 4b): error of an equity, standard deviation {errors['level']:.4f} "
          f"(the rollout's own {errors['noise_level']:.4f}); of a loss {errors['relative']:.4f} "
          f"(the rollout's own {errors['noise_relative']:.4f}), mean {errors['bias']:+.4f}")
    figures["equity_errors"] = errors
    precision, recall = ceiling(rows, limits)
    print(f"\na judge that knew every loss, against a second rollout of the same length (step 5): "
          f"precision {precision:.3f}, recall {recall:.3f}")
    own = confirmation_for(None, rule_set(args.variant))
    settings = list(dict.fromkeys(([own] if args.default else []) + (args.confirm or [])))
    figures["confirmed"] = {}
    asked = Check(args.check_truncate, args.check_games, args.check_from)
    for setting in settings:
        # the judge's marks, whoever played the rollouts: one cache per judge
        judged = "" if judge.digest == source.digest else f"-judge{judge.digest}"
        check = asked if setting == "2ply+rollout" else Check()
        path = results_file.with_name(f"{base}-default-{setting}{judged}{check.suffix}.jsonl")
        marks = confirmed_marks(judge, args.variant, rows, path, setting, check)
        deep = score([{**row, "mark0": m["mark"], "loss0": m["loss"]}
                      for row, m in zip(rows, marks, strict=True)], limits[1])
        levels = dict(Counter(m["level"] for m in marks))
        named = f"{setting}, its check {check.words}" if check.words else setting
        whose = "default" if named == own else f"--confirm {named}"
        report(args.variant, f"jacquet analyse's {whose} marks (confirmation {setting}; levels "
               f"{levels}) against the same rollouts", deep, whose)
        figures["confirmed"][named] = deep
        for margin in args.margin or []:
            again = remarked(marks, limits, margin)
            figures["confirmed"][f"{named}, margin {margin:g}"] = score(
                [{**row, "mark0": m["mark"], "loss0": m["loss"]} for row, m in zip(rows, again, strict=True)],
                limits[1])
    if settings:
        side_by_side(figures, own, (precision, recall))
    return figures


def side_by_side(figures: dict[str, Any], own: str, ceiling_figures: tuple[float, float]) -> None:
    """The 0-ply marks, each confirmation's (``own`` the rule set's default) and the
    reference's ceiling, one line each."""
    print(f"\n| {figures['positions']} positions | ?/?? marked | rollout ?/?? | both | precision | recall "
          "| Spearman of the losses | the play made's loss less the rollout's: SD |")
    print("|---|---|---|---|---|---|---|---|")
    lines = [("0-ply", figures)] + [(f"{setting}{' (default)' if setting == own else ''}", deep)
                                    for setting, deep in figures["confirmed"].items()]
    for name, line in lines:
        print(f"| {name} | {line['marked']} | {line['errors']} | {line['both']} | {line['precision']:.3f} "
              f"| {line['recall']:.3f} | {line['spearman']:.3f} | {line['loss_miss']:.4f} |")
    print(f"| a judge that knew every loss (step 5) | | | | {ceiling_figures[0]:.3f} "
          f"| {ceiling_figures[1]:.3f} | | |")


def _judged(args: argparse.Namespace, todo: list[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    settings = (args.player, args.candidates, args.games, args.truncate, args.seed)
    if args.jobs <= 1:
        _start(args.variant, *settings)
        yield from map(_judge, todo)
        return
    with worker_pool(args.jobs, _start, (args.variant, *settings)) as pool:
        yield from pool.imap_unordered(_judge, todo)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", required=True)
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--candidates", type=int, default=3)
    parser.add_argument("--explore", type=float, default=0.25)
    parser.add_argument("--keep", type=float, default=0.1)
    parser.add_argument("--truncate", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--cache", default=str(CACHE))
    parser.add_argument("--report", action="store_true",
                        help="Print the figures of the positions in the cache, rolling none out "
                             "(beside a run still going).")
    parser.add_argument("--judge", default=None,
                        help="The contact net judged (the shipped race net beside it; "
                             "default: the shipped one).")
    parser.add_argument("--player", default=None,
                        help="The contact net whose play-outs are the rollouts (the shipped race net "
                             "beside it; default: the shipped one), in a results file of its own.")
    parser.add_argument("--positions-from", default=None, metavar="NET",
                        help="The contact net whose games give the positions, and which names the "
                             "cache (the shipped race net beside it; default: the shipped one).")
    parser.add_argument("--default", action="store_true",
                        help="Also the marks of jacquet analyse's default settings on the same positions.")
    parser.add_argument("--confirm", choices=CONFIRMATIONS, action="append",
                        help="Also the marks of jacquet analyse --confirm SETTING on the same positions "
                             "(--default: the rule set's own); again for more, side by side.")
    parser.add_argument("--margin", type=float, action="append",
                        help="Also each confirmation's marks with the deeper level's ? from MARGIN "
                             "times the bad threshold (analysis.confirm.MARGIN's 7/6 otherwise), "
                             "marked anew from the cached losses; again for more.")
    parser.add_argument("--check-truncate", type=_turns, default="same", metavar="K|end",
                        help="The check of 2ply+rollout with its play-outs truncated after K turns, or "
                             "played to the end (analysis.confirm.CHECK_TRUNCATE otherwise).")
    parser.add_argument("--check-games", type=int, default=None, metavar="N",
                        help="The check of 2ply+rollout with N play-outs (analysis.confirm.CHECK_GAMES "
                             "otherwise).")
    parser.add_argument("--check-from", type=float, default=1.0, metavar="F",
                        help="The check of 2ply+rollout rolling out from F times the doubtful threshold "
                             "(1 otherwise).")
    args = parser.parse_args(argv)
    own = confirmation_for(None, rule_set(args.variant))
    checked = (args.default and own == "2ply+rollout") or "2ply+rollout" in (args.confirm or [])
    if Check(args.check_truncate, args.check_games, args.check_from).words and not checked:
        parser.error("--check-truncate, --check-games and --check-from change the check of 2ply+rollout: "
                     "ask for its marks with --confirm 2ply+rollout (or --default, where it is the default)")
    return run(args)


def _turns(text: str) -> int | str | None:
    """``--check-truncate``'s value: a count of turns, ``end`` (``None``), or ``same`` (the
    engine's own, unset)."""
    return None if text == "end" else text if text == "same" else int(text)


if __name__ == "__main__":
    main()
