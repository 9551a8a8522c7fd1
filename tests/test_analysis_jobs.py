"""``--jobs``: `jacquet analyse` and `jacquet import --analyse` over worker processes give
what one process gives, in the same order, to the last digit."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from typing import Any

import pytest
from click.testing import CliRunner

from analysis.fast import COMPILED
from analysis.network import Network
from jacquet_cli import main
from notation.formats import read_file, write_file
from notation.messages import say


@pytest.fixture(scope="module")
def records(tmp_path_factory) -> str:
    """The two shortest generated jacquet games and the shortest backgammon one, in one file
    per rule set."""
    folder = tmp_path_factory.mktemp("records")
    for variant, count in (("jacquet", 2), ("backgammon", 1)):
        games = sorted(read_file(f"samples/generated/{variant}-10.jqn"), key=lambda game: game.end().ply)
        write_file(games[:count], folder / f"{variant}.jqn")
    return str(folder)


@pytest.mark.parametrize("jobs", ["2", "3"])
def test_analyse_json_with_more_jobs_is_that_of_one(records, small_net, jobs):
    # two jobs: this process judges a game beside one worker; three: beside two
    args = ["analyse", f"{records}/jacquet.jqn", "--net", small_net, "--json"]
    one = CliRunner().invoke(main, [*args, "--jobs", "1"])
    more = CliRunner().invoke(main, [*args, "--jobs", jobs])
    assert one.exit_code == 0, one.output
    assert more.exit_code == 0, more.output
    assert len(one.stdout.splitlines()) == 2
    assert more.stdout == one.stdout


_SPY = """
import multiprocessing
import sys

started = []
get_context = multiprocessing.get_context


def spy(method=None):
    started.append(method)
    return get_context(method)


multiprocessing.get_context = spy
from jacquet_cli import main  # (after the spy, imported as the command imports it)

try:
    main(sys.argv[1:], prog_name="jacquet")
finally:
    print("workers:", *started, file=sys.stderr)
"""
"""The real `jacquet analyse` in a fresh interpreter (nothing imported before the
command's own imports), saying on stderr how it started its workers (``workers: fork``)."""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux only")
def test_the_command_forks_its_workers_and_they_give_the_analysis_of_one_process(records):
    """`jacquet analyse --jobs 2`, a process of one thread with its nets loaded, forks its
    worker (its kernels and evaluators already loaded), and the JSON is that of one
    process, byte for byte, in both rule sets. Run as its own process: forking this one
    (pytest's, and xdist's threads) would copy threads half-way through their work."""
    args = ["analyse", f"{records}/jacquet.jqn", f"{records}/backgammon.jqn", "--json", "--confirm", "none"]
    runs = {jobs: subprocess.run([sys.executable, "-c", _SPY, *args, "--jobs", jobs], capture_output=True,
                                 text=True, check=False) for jobs in ("1", "2")}
    for run in runs.values():
        assert run.returncode == 0, run.stderr
    assert runs["1"].stderr.splitlines()[-1] == "workers:"
    assert runs["2"].stderr.splitlines()[-1] == "workers: fork"
    assert len(runs["1"].stdout.splitlines()) == 3
    assert runs["2"].stdout == runs["1"].stdout


def test_spawned_workers_give_the_analysis_of_one_process(records, monkeypatch):
    """Workers spawned afresh (as where this process runs other threads): the same JSON as
    one process, byte for byte, in both rule sets."""
    monkeypatch.setattr("analysis.analyse_jobs.start_method", lambda: "spawn")
    args = ["analyse", f"{records}/jacquet.jqn", f"{records}/backgammon.jqn", "--json", "--confirm", "none"]
    one = CliRunner().invoke(main, [*args, "--jobs", "1"])
    two = CliRunner().invoke(main, [*args, "--jobs", "2"])
    assert one.exit_code == 0, one.output
    assert two.exit_code == 0, two.output
    assert len(one.stdout.splitlines()) == 3
    assert two.stdout == one.stdout


def test_the_command_works_out_how_workers_start_once(records, monkeypatch):
    """`jacquet analyse` asks how workers would start once, with its nets loaded, and both
    the number of workers and the pool go by that answer."""
    asked = []

    def start_method() -> str:
        asked.append(True)
        return "spawn"

    monkeypatch.setattr("analysis.analyse_jobs.start_method", start_method)
    result = CliRunner().invoke(main, ["analyse", f"{records}/jacquet.jqn", "--json", "--confirm", "none"])
    assert result.exit_code == 0, result.output
    assert len(asked) == 1


def test_warming_a_forked_pool_judges_a_first_turn_by_the_evaluator_alone(records, monkeypatch):
    """Before forking, the evaluator of each rule set judges a first turn (its kernels
    loaded for the workers); the confirming judge (a rollout under 2ply+rollout) does not
    run; and a list of no games starts no worker."""
    from analysis import analyse_jobs
    from analysis.analyse_jobs import AnalysisJob, analyser
    from analysis.shipped import load_net

    judged = []
    judge_turns = analyse_jobs.judge_turns

    def spy(*args: Any) -> Any:  # (rules, turns, evaluator, limits, shown, with_luck, confirm)
        judged.append((len(args[1]), args[6]))
        return judge_turns(*args)

    monkeypatch.setattr("analysis.analyse_jobs.judge_turns", spy)
    games = list(read_file(f"{records}/jacquet.jqn"))
    job = AnalysisJob({"jacquet": load_net("jacquet")}, 0, None, 5, "2ply+rollout")
    job.ready(games)
    evaluator, judge = job.evaluators[games[0].rules.describe()]
    assert judge is not None  # made, for the workers, but not run
    assert judged == [(1, None)]
    assert evaluator.boards.kernels is not None or not COMPILED
    monkeypatch.setattr("analysis.analyse_jobs.worker_pool", lambda *args: pytest.fail("a worker started"))
    with analyser(job, 2, "fork") as analyse:
        assert list(analyse([])) == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux only")
def test_workers_are_forked_from_a_process_of_one_thread_only():
    """A process of one thread (as `jacquet analyse`, BLAS held to one thread before numpy
    loads) forks its workers; a process running another thread (a server's, say) spawns
    them, never copying a thread half-way through its work."""
    from analysis.analyse_jobs import start_method

    script = ("from analysis.threads import limit_blas_threads; limit_blas_threads(1); "
              "from analysis.analyse_jobs import start_method; print(start_method())")
    alone = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert alone.stdout.strip() == "fork"
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert start_method() == "spawn"
    finally:
        stop.set()
        thread.join()


def test_analyse_writes_the_same_annotated_records_and_tables_with_two_jobs(records, tmp_path):
    # at 2-ply (backgammon's own 2ply+rollout rolls out most of a generated game's turns)
    out = {}
    for jobs in ("1", "2"):
        target = tmp_path / f"annotated-{jobs}.jqn"
        result = CliRunner().invoke(main, ["analyse", f"{records}/jacquet.jqn", f"{records}/backgammon.jqn",
                                           "-o", str(target), "--jobs", jobs, "--confirm", "2ply"])
        assert result.exit_code == 0, result.output
        out[jobs] = (result.stdout, target.read_text(encoding="utf-8"))
    assert out["2"] == out["1"]
    assert out["1"][1].count("[Annotator ") == 3


def _dump(path) -> list[tuple]:
    connection = sqlite3.connect(path)
    rows = [("analyses", *row) for row in connection.execute(
        "SELECT game_id, engine, depth, digest, stopped FROM analyses ORDER BY id")]
    rows += [("turns", *row) for row in connection.execute(
        "SELECT analysis_id, ply, player, dice, played, best, equity_before, equity_after, best_equity, "
        "loss, mark, forced, luck, rank, legal, candidates FROM analysis_turns ORDER BY analysis_id, ply")]
    rows += [("players", *row) for row in connection.execute(
        "SELECT * FROM analysis_players ORDER BY analysis_id, player")]
    connection.close()
    return rows


def test_import_analyse_with_two_jobs_stores_what_one_job_stores(records, tmp_path, small_net):
    dumps = []
    for jobs in ("1", "2"):
        archive = tmp_path / f"club-{jobs}.db"
        result = CliRunner().invoke(main, ["import", f"{records}/jacquet.jqn", f"{records}/backgammon.jqn",
                                           "--db", str(archive), "--analyse", "--net", small_net, "--jobs", jobs,
                                           "--confirm", "2ply"])
        assert result.exit_code == 0, result.output
        assert say("cli.import.analysed", count=3, skipped=0) in result.output
        dumps.append(_dump(archive))
    assert len([row for row in dumps[0] if row[0] == "analyses"]) == 3
    assert dumps[1] == dumps[0]


def test_analyse_db_with_two_jobs_stores_what_one_job_stores(records, tmp_path, small_net):
    dumps = []
    for jobs in ("1", "2"):
        archive = tmp_path / f"club-{jobs}.db"
        imported = CliRunner().invoke(main, ["import", f"{records}/jacquet.jqn", "--db", str(archive)])
        assert imported.exit_code == 0, imported.output
        result = CliRunner().invoke(main, ["analyse", "--db", str(archive), "--net", small_net, "--ply", "0",
                                           "--jobs", jobs])
        assert result.exit_code == 0, result.output
        dumps.append(_dump(archive))
    assert dumps[1] == dumps[0] and len(dumps[0]) > 3


def test_by_default_a_few_games_are_judged_in_this_process_and_many_on_every_core():
    """A spawned worker costs as much to start as judging about 900 turns at 0-ply
    (measured by bench/analyse_speed.py --worker-start): a match of a few short games is
    analysed at once here, hundreds of games (or the same games at 2-ply) over every core
    offered. A forked worker costs some 30 turns: the same few games go to every core."""
    from analysis.analyse_jobs import workers_for

    games = sorted(read_file("samples/generated/jacquet-10.jqn"), key=lambda game: game.end().ply)
    few = games[:3]
    assert sum(game.end().ply for game in few) < 700
    assert workers_for(few, 0, cores=8, confirm="none", method="spawn") == 1
    assert workers_for(few, 2, cores=8, confirm="none", method="spawn") == 3  # no more workers than games
    assert workers_for(games * 20, 0, cores=8, confirm="none", method="spawn") == 8
    assert workers_for(games * 20, 0, cores=1, confirm="none", method="spawn") == 1
    assert workers_for(few, 0, cores=8, confirm="none", method="fork") == 3
    assert workers_for(few[:1], 0, cores=8, confirm="none", method="fork") == 1


def test_the_workers_follow_the_confirmation_s_work():
    """Confirming at 1-ply adds a little to each turn, at 2-ply or by rollouts many times a
    turn's 0-ply work: a short game stays in this process, a few short games take more
    workers the deeper their marks are confirmed."""
    from analysis.analyse_jobs import workers_for

    games = sorted(read_file("samples/generated/jacquet-10.jqn"), key=lambda game: game.end().ply)
    assert workers_for(games[:1], 0, cores=8, confirm="rollout", method="spawn") == 1
    few = games[:3]
    workers = [workers_for(few, 0, cores=8, confirm=setting, method="spawn")
               for setting in ("none", "1ply", "2ply", "rollout")]
    assert workers == sorted(workers) and workers[0] < workers[2] == 3
    # unset: each game's rule set's own
    mixed = [games[0], sorted(read_file("samples/generated/backgammon-10.jqn"), key=lambda g: g.end().ply)[0]]
    for game in mixed:
        own = game.rules.confirmation
        assert all(workers_for([game] * n, 0, cores=8, confirm=None, method="spawn")
                   == workers_for([game] * n, 0, cores=8, confirm=own, method="spawn") for n in range(1, 9))


def test_long_games_go_to_the_workers_and_back(tmp_path):
    """A game's tree is too deep for pickle in the pool's thread past some 170 turns (the
    generated backgammon game of 172 turns broke `--jobs 2`): the workers get the turns
    to judge, not the tree, and the analyses are those of one process."""
    games = sorted(read_file("samples/generated/backgammon-10.jqn"), key=lambda game: game.end().ply)
    assert games[-1].end().ply >= 170
    record = tmp_path / "long.jqn"
    write_file(games[-2:], record)
    net = tmp_path / "backgammon.npz"
    Network.create("backgammon", 10, seed=4).save(net)
    args = ["analyse", str(record), "--net", str(net), "--json", "--confirm", "none"]
    one = CliRunner().invoke(main, [*args, "--jobs", "1"])
    two = CliRunner().invoke(main, [*args, "--jobs", "2"])
    assert one.exit_code == 0, one.output
    assert two.exit_code == 0, two.output
    assert len(two.stdout.splitlines()) == 2
    assert two.stdout == one.stdout
