"""The engine's analyses in the archive: `jacquet analyse --db` stores what `jacquet
analyse --json` gives, skips what is analysed, and an interrupted run goes on."""

from __future__ import annotations

import json
import os
import signal
import sqlite3

import pytest
from click.testing import CliRunner

import jacquet_cli.analyse_archive as analyse_archive
from analysis.network import Network
from archive import import_files, open_archive
from archive.analyses import latest_analysis, player_figures
from jacquet_cli import main
from notation.formats import read_file, write_file
from notation.messages import render, say

GAMES = 4


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> str:
    """Four of the generated jacquet games."""
    path = tmp_path_factory.mktemp("records") / "four.jqn"
    write_file(list(read_file("samples/generated/jacquet-10.jqn"))[:GAMES], path)
    return str(path)


@pytest.fixture()
def archive(tmp_path, sample) -> str:
    path = tmp_path / "club.db"
    with open_archive(path) as db:
        import_files(db, [sample])
    return str(path)


def stored_line(analysed: int, skipped: int, archive: str) -> str:
    """What ``analyse --db`` says it did: the games analysed, those skipped as analysed before."""
    return say("cli.analyse.stored", count=analysed, skipped=skipped, path=archive)


def import_line(analysed: int, skipped: int) -> str:
    """What ``import --analyse`` says it analysed."""
    return say("cli.import.analysed", count=analysed, skipped=skipped)


def _analyse(archive: str, net: str, *more: str):
    return CliRunner().invoke(main, ["analyse", "--db", archive, "--net", net, *more])


def test_stored_rows_are_what_analyse_json_gives(archive, small_net, sample):
    result = _analyse(archive, small_net, "--variant", "jacquet")
    assert result.exit_code == 0, result.output
    assert stored_line(GAMES, 0, archive) in result.output
    printed = [json.loads(line) for line in CliRunner().invoke(
        main, ["analyse", sample, "--net", small_net, "--json"]).stdout.splitlines()]
    with open_archive(archive) as db:
        ids = [row[0] for row in db.execute("SELECT id FROM games ORDER BY id")]
        for game_id, expected in zip(ids, printed, strict=True):
            stored = latest_analysis(db, game_id)
            assert stored is not None
            assert stored["engine"] == "jacquet-td jacquet v2" and stored["depth"] == 0
            assert len(stored["turns"]) == len(expected["turns"])
            assert list(stored["turns"]) == [turn["ply"] for turn in expected["turns"]]
            for turn in expected["turns"]:  # turn by turn, every figure
                row = stored["turns"][turn["ply"]]
                assert (row["ply"], row["dice"], row["played"], row["best"], row["loss"], row["mark"],
                        row["luck"], row["rank"], row["legal"], row["candidates"]) == (
                    turn["ply"], turn["dice"], turn["played"], turn["best"], turn["loss"], turn["mark"],
                    turn["luck"], turn["rank"], turn["legal"], turn["candidates"])
                assert (row["equity_before"], row["equity_after"], row["best_equity"]) == (
                    turn["before"], turn["equity"], turn["best_equity"])
                assert row["player"] == turn["player"][0] and row["forced"] == turn["forced"]
            white = stored["players"]["W"]
            assert white["decisions"] == expected["players"]["White"]["decisions"]
            assert white["very_bad"] == expected["players"]["White"]["marks"]["??"]
            assert white["error_rate"] == expected["players"]["White"]["error_rate"]
        figures = player_figures(db)
    assert {f["engine"] for f in figures} == {"jacquet-td jacquet v2"}
    assert sum(f["games"] for f in figures) == 2 * len(ids)


def test_a_rerun_skips_and_an_interrupted_run_goes_on(archive, small_net, monkeypatch):
    real = analyse_archive.store_analysis
    calls = []

    def store_then_stop(*args, **kwargs):
        if len(calls) == 2:
            raise KeyboardInterrupt
        calls.append(args[1])
        return real(*args, **kwargs)

    monkeypatch.setattr(analyse_archive, "store_analysis", store_then_stop)
    stopped = _analyse(archive, small_net)
    assert stopped.exit_code == 130 and say("cli.analyse.stopped", count=2) in stopped.output
    monkeypatch.setattr(analyse_archive, "store_analysis", real)
    resumed = _analyse(archive, small_net)
    assert resumed.exit_code == 0, resumed.output
    assert stored_line(GAMES - 2, 2, archive) in resumed.output
    again = _analyse(archive, small_net)
    assert stored_line(0, GAMES, archive) in again.output
    connection = sqlite3.connect(archive)
    assert connection.execute("SELECT count(*), count(DISTINCT game_id) FROM analyses").fetchone() == (GAMES, GAMES)
    turns = connection.execute("SELECT count(*) FROM analysis_turns").fetchone()[0]
    distinct = connection.execute("SELECT count(*) FROM (SELECT DISTINCT a.game_id, t.ply FROM "
                                  "analysis_turns t JOIN analyses a ON a.id = t.analysis_id)").fetchone()[0]
    assert turns == distinct  # each turn stored once


def test_a_real_ctrl_c_while_a_game_is_analysed_stops_once_it_is_stored(archive, small_net, monkeypatch,
                                                                        python_ctrl_c):
    """Ctrl-C is held to the end of the game under way (analysis.ctrl_c): that game's
    analysis is stored, then the run stops and says so."""
    real = analyse_archive.store_analysis
    stored: list[int] = []

    def pressed_while_storing(*args, **kwargs):
        if len(stored) == 1:  # Ctrl-C during the second game's storing
            os.kill(os.getpid(), signal.SIGINT)
        stored.append(args[1])
        return real(*args, **kwargs)

    monkeypatch.setattr(analyse_archive, "store_analysis", pressed_while_storing)
    stopped = _analyse(archive, small_net, "--jobs", "1")
    assert stopped.exit_code == 130, stopped.output
    assert say("cli.ctrl-c.held") in stopped.output and say("cli.analyse.stopped", count=2) in stopped.output
    with open_archive(archive) as db:
        assert [row[0] for row in db.execute("SELECT game_id FROM analyses ORDER BY id")] == stored


def test_another_net_analyses_again_and_filters_select(archive, small_net, sample, tmp_path):
    other = tmp_path / "other.npz"
    Network.create("jacquet", 10, seed=9).save(other)
    turns = sorted(game.end().ply for game in read_file(sample))
    first = _analyse(archive, small_net, "--turns-max", str(turns[0]))
    assert first.exit_code == 0, first.output
    count = sqlite3.connect(archive).execute("SELECT count(*) FROM analyses").fetchone()[0]
    assert 0 < count < GAMES
    assert stored_line(count, 0, archive) in first.output
    second = _analyse(archive, str(other))
    assert stored_line(GAMES, 0, archive) in second.output


def test_where_an_analysis_stopped_is_kept_in_no_language_and_said_in_the_readers(tmp_path, small_net):
    record = tmp_path / "broken.jqn"
    record.write_text('[Variant "jacquet"]\n\n1. 64: 24/14 32: 24/19 2. 65: 14/9 *\n', encoding="utf-8")
    error = next(iter(read_file(record))).errors[0]
    path = str(tmp_path / "club.db")
    with open_archive(path) as db:
        import_files(db, [str(record)], keep_invalid=True)
    # analysed in French, read in Russian and English
    assert CliRunner().invoke(main, ["--lang", "fr", "analyse", "--db", path, "--net", small_net]).exit_code == 0
    with open_archive(path) as db:
        (game_id,) = db.execute("SELECT id FROM games").fetchone()
        stopped = latest_analysis(db, game_id)["stopped"]
        assert stopped == error.msg
        assert render(stopped, "ru") == render(error.msg, "ru") and render(stopped, "en") == error.message
        db.execute("UPDATE analyses SET stopped = ?", ["x.jqn:3:31: error: [R-MAX] 14/9 plays 1 die"])
        db.conn.commit()  # a row stored before the archive kept messages: its English as it is
        assert latest_analysis(db, game_id)["stopped"] == "x.jqn:3:31: error: [R-MAX] 14/9 plays 1 die"


def test_analyse_needs_files_or_an_archive():
    result = CliRunner().invoke(main, ["analyse"])
    assert result.exit_code == 2 and "--db" in result.output


def test_deleting_a_game_deletes_its_analysis(archive, small_net):
    from archive.audit import delete_game

    assert _analyse(archive, small_net).exit_code == 0
    with open_archive(archive) as db:
        game_id = db.execute("SELECT min(game_id) FROM analyses").fetchone()[0]
        assert delete_game(db, game_id, "admin")
        assert latest_analysis(db, game_id) is None
        orphans = db.execute("SELECT count(*) FROM analysis_turns WHERE analysis_id NOT IN "
                             "(SELECT id FROM analyses)").fetchone()[0]
        assert orphans == 0
        assert db.execute("SELECT count(*) FROM analyses").fetchone()[0] == GAMES - 1


def _import(archive: str, sample: str, net: str, *more: str):
    return CliRunner().invoke(main, ["import", sample, "--db", archive, "--analyse", "--net", net, *more])


def test_import_analyse_stores_what_analyse_json_gives(tmp_path, sample, small_net):
    archive = str(tmp_path / "new.db")
    result = _import(archive, sample, small_net)
    assert result.exit_code == 0, result.output
    assert say("cli.import.summary", count=GAMES, duplicates=0, refused=0) in result.output
    assert import_line(GAMES, 0) in result.output
    printed = [json.loads(line) for line in CliRunner().invoke(
        main, ["analyse", sample, "--net", small_net, "--json"]).stdout.splitlines()]
    with open_archive(archive) as db:
        ids = [row[0] for row in db.execute("SELECT id FROM games ORDER BY id")]
        for game_id, expected in zip(ids, printed, strict=True):
            stored = latest_analysis(db, game_id)
            assert stored is not None and stored["depth"] == 0
            assert [(t["ply"], t["dice"], t["played"], t["best"], t["loss"], t["mark"], t["luck"])
                    for t in stored["turns"].values()] == [
                (t["ply"], t["dice"], t["played"], t["best"], t["loss"], t["mark"], t["luck"])
                for t in expected["turns"]]
    again = _import(archive, sample, small_net)
    assert again.exit_code == 0, again.output
    assert say("cli.import.summary", count=0, duplicates=GAMES, refused=0) in again.output
    assert import_line(0, GAMES) in again.output


def test_import_analyse_leaves_the_games_of_other_files_alone(archive, sample, small_net, tmp_path):
    other = tmp_path / "other.jqn"
    write_file(list(read_file("samples/generated/jacquet-10.jqn"))[GAMES:GAMES + 1], other)
    result = _import(archive, str(other), small_net)
    assert result.exit_code == 0, result.output
    assert say("cli.import.summary", count=1, duplicates=0, refused=0) in result.output
    assert import_line(1, 0) in result.output
    with open_archive(archive) as db:
        assert db.execute("SELECT count(*) FROM analyses").fetchone()[0] == 1


def test_an_interrupted_import_analyse_stores_each_turn_once_when_run_again(tmp_path, sample, small_net,
                                                                            monkeypatch):
    archive = str(tmp_path / "new.db")
    real = analyse_archive.store_analysis
    stored: list[int] = []

    def store_then_stop(*args, **kwargs):
        if stored:  # Ctrl-C after the first game is stored
            raise KeyboardInterrupt
        stored.append(args[1])
        return real(*args, **kwargs)

    monkeypatch.setattr(analyse_archive, "store_analysis", store_then_stop)
    stopped = _import(archive, sample, small_net)
    assert stopped.exit_code == 130, stopped.output
    assert say("cli.analyse.stopped", count=1) in stopped.output
    with open_archive(archive) as db:  # the games and the first analysis are kept
        assert db.execute("SELECT count(*) FROM games").fetchone()[0] == GAMES
        assert [row[0] for row in db.execute("SELECT game_id FROM analyses")] == stored
    monkeypatch.setattr(analyse_archive, "store_analysis", real)
    resumed = _import(archive, sample, small_net)
    assert resumed.exit_code == 0, resumed.output
    assert import_line(GAMES - 1, 1) in resumed.output
    connection = sqlite3.connect(archive)
    assert connection.execute("SELECT count(*), count(DISTINCT game_id) FROM analyses").fetchone() == (GAMES, GAMES)
    turns = connection.execute("SELECT count(*) FROM analysis_turns").fetchone()[0]
    printed = [json.loads(line) for line in CliRunner().invoke(
        main, ["analyse", sample, "--net", small_net, "--json"]).stdout.splitlines()]
    assert turns == sum(len(game["turns"]) for game in printed)  # each turn stored once


def test_import_analyse_at_one_ply(tmp_path, small_net):
    one = tmp_path / "one.jqn"
    [short] = sorted(read_file("samples/generated/jacquet-10.jqn"), key=lambda game: game.end().ply)[:1]
    write_file([short], one)
    archive = str(tmp_path / "new.db")
    result = _import(archive, str(one), small_net, "--ply", "1", "--confirm", "none")  # 1-ply itself
    assert result.exit_code == 0, result.output
    with open_archive(archive) as db:
        stored = latest_analysis(db, 1)
        assert stored is not None and stored["depth"] == 1
        assert any(c["depth"] == 1 for turn in stored["turns"].values() for c in turn["candidates"])


@pytest.mark.parametrize("option", [["--ply", "1"], ["--confirm", "2ply"]])
def test_import_ply_without_analyse_is_a_usage_error(tmp_path, sample, option):
    result = CliRunner().invoke(main, ["import", sample, "--db", str(tmp_path / "a.db"), *option])
    assert result.exit_code == 2 and "--ply, --net, --jobs and --confirm are for --analyse" in result.output
    assert not (tmp_path / "a.db").exists()  # nothing done


def test_an_archive_analysed_before_the_worst_column_gains_it_filled(archive, small_net):
    assert _analyse(archive, small_net).exit_code == 0
    with open_archive(archive) as db:  # as the archive was before the player page's migration
        db.execute("DROP INDEX idx_analysis_players_worst")
        db.execute("ALTER TABLE analysis_players DROP COLUMN worst")
        db.execute("DELETE FROM _sqlite_migrations WHERE name = 'player_page_indexes'")
        db.conn.commit()
    with open_archive(archive) as db:
        for game_id in [row[0] for row in db.execute("SELECT id FROM games")]:
            stored = latest_analysis(db, game_id)
            assert stored is not None
            for colour, player in stored["players"].items():
                losses = [t["loss"] for t in stored["turns"].values() if t["player"] == colour]
                assert player["worst"] == max(losses)
