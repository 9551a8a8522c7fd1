"""Property tests of the rules engine, for every rule set, on many random games
(the drawn positions' properties, the generator against the checker, are in
``tests/test_properties_plays.py``; what both share in ``tests/property_checks.py``).

Cheap invariants, checked after every play of many random games per rule set
(``play_random_game`` with fixed seeds, offset per rule set so that ``hale`` does not
replay ``jacquet``'s games):

1. 15 men a side at all times, no negative count, never both sides' men on one physical
   point (``rules.opposite``), no man on the bar where there is no hitting; the play's
   single-die steps, replayed by the board's geometry alone, lead to its result.
5. Games end, well within the turn limit, and score within ``rules.score_range``:
   backgammon 1-3 (cube at 1), jacquet and versailles 1-2, murray 1-3, hale at least 1; the
   points are also recomputed from the final position (and, for murray, the primes held).
6. The position ID of every position seen decodes back to that position.

**Games per rule set: the environment variable ``JACQUET_PROPERTY_GAMES``, default 2000**
(10,000 games in all, about 0.05-0.14 CPU-second each, so a few CPU-minutes: the bulk of
this file and of the suite; set it lower for a quick local run). They are marked ``long``: the
README's test command leaves them out, ``.ci/run`` runs them after it (``-m long``). Each rule
set's games are checked in chunks of ``CHUNK``, one test each, so that pytest-xdist spreads
them over its workers; run without xdist, a chunk's games are spread over the CPUs with
``fork`` where the platform has it (``JACQUET_PROPERTY_WORKERS=1`` plays them in this
process). For a deeper run, e.g. ``JACQUET_PROPERTY_GAMES=10000``.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import threading
from collections import Counter

import pytest

from notation.engine.board import BAR, MEN, OFF
from notation.engine.rules import NAMES
from tests.property_checks import RULES, SEED_OFFSET, board_problems, id_round_trips, replay_steps
from tests.selfplay import play_random_game

GAMES = int(os.environ.get("JACQUET_PROPERTY_GAMES", "2000"))
CHUNK = 250                 # games per test: xdist's unit of work
TURN_LIMIT = 20000          # play_random_game's default max_turns
WELL_WITHIN = 2000          # a random game must finish in a tenth of it
EXPECTED_POINTS = {
    "jacquet": {1, 2}, "versailles": {1, 2}, "murray": {1, 2, 3}, "backgammon": {1, 2, 3},
    "narde": {1, 2}, "fevga": {1, 2},
}


def expected_points(name, final, winner_held_prime):
    loser = final.opponent
    if name in ("jacquet", "versailles", "narde", "fevga"):  # R-SCORE, R-SCORE-MARS
        return 2 if loser[OFF] == 0 else 1
    if name == "murray":
        return 1 if loser[OFF] else (2 if winner_held_prime else 3)
    if name == "hale":
        rate = {**dict.fromkeys(range(19, 25), 3), **dict.fromkeys(range(13, 19), 2),
                **dict.fromkeys(range(1, 13), 1)}
        return sum(rate[p] * loser[p] for p in range(1, 25))
    if loser[OFF]:
        return 1
    return 3 if loser[BAR] or any(loser[19:25]) else 2


# -- properties 1, 5, 6: many random games -------------------------------------------------


def check_game(name, seed):
    """Play one random game and return (turns, points, problems)."""
    rules = RULES[name]
    game = play_random_game(rules, random.Random(seed))
    problems = []
    position = rules.start
    primes = [False, False]  # by side, at any moment of the game (R-SCORE-MARCIA)
    problems.extend(f"{name} start: {p}" for p in board_problems(rules, position))
    for ply, (dice, play) in enumerate(game.turns):
        found = []
        replayed, held_prime = replay_steps(rules, position, play)
        if replayed:
            found.append(replayed)
        primes[ply % 2] = primes[ply % 2] or held_prime
        for seen in (play.result, play.next_position):
            found.extend(board_problems(rules, seen))
            if not id_round_trips(seen):
                found.append(f"position ID {seen.position_id()} does not round-trip")
        if play.next_position != play.result.swapped():
            found.append("next_position is not the result seen by the other side")
        problems.extend(f"{name} seed {seed} ply {ply} from {position.position_id()} dice {dice} "
                        f"play {play}: {problem}" for problem in found)
        position = play.next_position
    turns = len(game.turns)
    if not game.finished:
        problems.append(f"{name} seed {seed}: unfinished after {turns} turns")
        return turns, game.points, problems
    final = game.final
    if final.mover[OFF] != MEN or final.opponent[OFF] == MEN:
        problems.append(f"{name} seed {seed}: final position {final.position_id()} has no winner")
    if game.first_player_won != (turns % 2 == 1):
        problems.append(f"{name} seed {seed}: the winner is not the side that made the last play")
    low, high = rules.score_range
    if not low <= game.points <= high:
        problems.append(f"{name} seed {seed}: {game.points} points, outside {rules.score_range}")
    allowed = EXPECTED_POINTS.get(name)
    if (allowed is not None and game.points not in allowed) or game.points < 1:
        problems.append(f"{name} seed {seed}: {game.points} points")
    expected = expected_points(name, final, primes[(turns - 1) % 2])
    if game.points != expected:
        problems.append(f"{name} seed {seed}: {game.points} points, expected {expected} "
                        f"(final {final.position_id()})")
    return turns, game.points, problems


def _check_game(args):
    return check_game(*args)


def workers():
    wanted = os.environ.get("JACQUET_PROPERTY_WORKERS")
    if wanted:
        return max(1, int(wanted))
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return 1  # the chunks are spread over xdist's workers, which have the CPUs already
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def check_games(name, seeds):
    """The games of ``seeds`` checked: in a pool of forked processes where there are several
    workers and this process runs one thread only (forking a process with other threads
    alive, such as a server an earlier test left running, can deadlock the child); otherwise
    here, one after another."""
    jobs = [(name, seed) for seed in seeds]
    count = min(workers(), len(jobs))
    if (count > 1 and "fork" in multiprocessing.get_all_start_methods()
            and threading.active_count() == 1):
        with multiprocessing.get_context("fork").Pool(count) as pool:
            return pool.map(_check_game, jobs, chunksize=8)
    return [check_game(*job) for job in jobs]


@pytest.mark.long
@pytest.mark.parametrize("first", range(0, GAMES, CHUNK))
@pytest.mark.parametrize("name", NAMES)
def test_random_games_keep_the_invariants(name, first):
    start = SEED_OFFSET[name] + first
    results = check_games(name, range(start, start + min(CHUNK, GAMES - first)))
    problems = [p for _, _, found in results for p in found]
    assert not problems, f"{len(problems)} problems, first: " + "\n".join(problems[:10])
    longest = max(turns for turns, _, _ in results)
    assert longest <= WELL_WITHIN < TURN_LIMIT, f"a {name} game took {longest} turns"
    points = Counter(points for _, points, _ in results)
    assert min(points) >= 1 and max(points) <= RULES[name].score_range[1]
