"""``--jobs``: `jacquet analyse` and `jacquet import --analyse` over worker processes give
what one process gives, in the same order, to the last digit."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading

import pytest
from click.testing import CliRunner

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


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_forked_and_spawned_workers_give_the_analysis_of_one_process(records, small_net, method,
                                                                       monkeypatch):
    """Workers forked from this process (its kernels and evaluators already loaded) or
    spawned afresh: the same JSON as one process, byte for byte, in both rule sets."""
    if method == "fork" and not sys.platform.startswith("linux"):
        pytest.skip("workers are forked on Linux only")
    monkeypatch.setattr("analysis.analyse_jobs.start_method", lambda: method)
    args = ["analyse", f"{records}/jacquet.jqn", f"{records}/backgammon.jqn", "--json", "--confirm", "none"]
    one = CliRunner().invoke(main, [*args, "--jobs", "1"])
    two = CliRunner().invoke(main, [*args, "--jobs", "2"])
    assert one.exit_code == 0, one.output
    assert two.exit_code == 0, two.output
    assert len(one.stdout.splitlines()) == 3
    assert two.stdout == one.stdout


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
    out = {}
    for jobs in ("1", "2"):
        target = tmp_path / f"annotated-{jobs}.jqn"
        result = CliRunner().invoke(main, ["analyse", f"{records}/jacquet.jqn", f"{records}/backgammon.jqn",
                                           "-o", str(target), "--jobs", jobs])
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
                                           "--db", str(archive), "--analyse", "--net", small_net, "--jobs", jobs])
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
    assert workers_for(few, 0, cores=8, method="spawn") == 1
    assert workers_for(few, 2, cores=8, method="spawn") == 3  # no more workers than games
    assert workers_for(games * 20, 0, cores=8, method="spawn") == 8
    assert workers_for(games * 20, 0, cores=1, method="spawn") == 1
    assert workers_for(few, 0, cores=8, method="fork") == 3
    assert workers_for(few[:1], 0, cores=8, method="fork") == 1


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
