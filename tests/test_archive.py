"""The archive file: what goes in comes back out, importing twice adds nothing, a failing or
killed import leaves whole games only and is completed by running it again, invalid games
are refused (or kept, flagged), and the file is plain SQLite."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from collections import Counter
from pathlib import Path

import pytest
import sqlite_utils

import archive
from archive.rows import record_text
from notation.formats import read_file, write_file
from notation.formats.jqn import write_game
from notation.messages import render, say
from tests.trees import same_tree

from .archive_fixtures import (  # noqa: F401
    ERROR_GAMES,
    ERRORS_SAMPLE,
    VARIANTS,
    Stored,
    annotated_game,
    content_hash,
    counts,
    db_path,
    fresh_db,
    generated,
    integrity,
)

TABLES = {"players", "events", "matches", "games", "turns", "annotations"}


def ids_by_hash(db) -> dict[str, int]:
    return {h: i for i, h in db.execute("SELECT id, hash FROM games")}


def fts_check(db) -> None:
    db.execute("INSERT INTO annotations_fts(annotations_fts) VALUES('integrity-check')")


# ------------------------------------------------------------------ the file

def test_fixtures_give_a_new_empty_archive(fresh_db, db_path):
    assert db_path.exists()
    assert set(fresh_db.table_names()) >= TABLES
    assert all(fresh_db[table].count == 0 for table in TABLES)


def test_archive_opens_with_plain_sqlite3_and_sqlite_utils(fresh_db, db_path):
    archive.import_games(fresh_db, [generated("jacquet", 1, White="Marie", Black="Jean")])
    fresh_db.close()
    connection = sqlite3.connect(db_path)
    try:
        names = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert TABLES | {"_sqlite_migrations", "players_fts", "events_fts", "annotations_fts"} <= names
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert connection.execute("SELECT count(*) FROM games").fetchone()[0] == 1
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        connection.close()
    db = sqlite_utils.Database(db_path)
    try:
        assert TABLES | {"_sqlite_migrations"} <= set(db.table_names())
        documented = ["id", "hash", "variant", "options", "white_id", "black_id", "event_id", "match_id",
                      "site", "date", "round", "game_number", "score_white", "score_black", "first",
                      "result", "winner", "points", "turns", "valid", "error_rule", "error_message",
                      "error_ply", "error_line", "source_file", "source_offset", "tags", "record",
                      "imported_at", "hidden", "error_msg"]
        assert list(db["games"].columns_dict) == documented
        assert set(db["turns"].columns_dict) == {"game_id", "ply", "player", "kind", "dice", "play",
                                                 "position_before", "position_after", "pips_white",
                                                 "pips_black"}
        assert db["turns"].pks == ["game_id", "ply"]
        assert any(index.columns == ["position_before", "game_id", "ply"] for index in db["turns"].indexes)
        assert any(index.columns == ["hash"] and index.unique for index in db["games"].indexes)
        assert db["players"].detect_fts() == "players_fts"
        assert db["annotations"].detect_fts() == "annotations_fts"
        assert [r["name"] for r in db["players"].rows] == ["Marie", "Jean"]
    finally:
        db.close()


def test_reopening_applies_no_migration_twice(db_path):
    applied = []
    for _ in range(3):
        db = archive.open_archive(db_path)
        applied.append([(r["migration_set"], r["name"]) for r in db["_sqlite_migrations"].rows])
        assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        db.close()
    assert applied[0] and applied[0] == applied[1] == applied[2]
    assert len(set(applied[0])) == len(applied[0])


def test_open_refuses_what_is_not_an_archive(tmp_path):
    with pytest.raises(archive.ArchiveError, match="no archive"):
        archive.open_archive(tmp_path / "missing.db", readonly=True)
    assert not (tmp_path / "missing.db").exists()
    other = tmp_path / "other.db"
    connection = sqlite3.connect(other)
    connection.execute("CREATE TABLE t (x)")
    connection.close()
    with pytest.raises(archive.ArchiveError, match="not a jacquet archive"):
        archive.open_archive(other, readonly=True)
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"this is not SQLite at all" * 100)
    with pytest.raises(archive.ArchiveError):
        archive.open_archive(garbage)


def test_default_path_comes_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("JACQUET_DB", str(tmp_path / "env.db"))
    assert archive.default_path() == str(tmp_path / "env.db")
    monkeypatch.delenv("JACQUET_DB")
    assert archive.default_path() == "jacquet.db"


# ------------------------------------------------------------------ round trip

@pytest.mark.parametrize("variant", VARIANTS)
def test_round_trip_of_an_annotated_game(fresh_db, tmp_path, variant):
    game = annotated_game(variant, 11, White="Marie", Black="Jean", Event="Club {night}",
                          Date="2024.03.15", Annotator='Someone "quoted"')
    path = tmp_path / f"{variant}.jqn"
    write_file([game], path)
    summary = archive.import_files(fresh_db, [path])
    assert (summary.imported, summary.refused, summary.duplicates) == (1, 0, 0)
    [game_id] = ids_by_hash(fresh_db).values()
    back = archive.load_game(fresh_db, game_id)
    assert same_tree(game, back)
    assert write_game(back) == write_game(game)
    assert back.headers == game.headers
    assert back.rules.name == variant and not back.errors

    row = fresh_db["games"].get(game_id)
    assert row["hash"] == content_hash(game) and row["record"] == write_game(game)
    assert (row["variant"], row["turns"], row["valid"], row["result"]) == (
        variant, game.end().ply, 1, game.headers["Result"])
    assert row["source_file"] == str(path)
    assert '"Annotator"' in row["tags"] and "Someone" in row["tags"]
    stored = Stored(game_id, game)
    turns = [tuple(t[k] for k in ("ply", "player", "kind", "dice", "play", "position_before"))
             for t in fresh_db["turns"].rows_where("game_id = ?", [game_id], order_by="ply")]
    assert turns == list(stored.mainline())
    notes = [n["text"] for n in fresh_db["annotations"].rows_where("game_id = ?", [game_id])]
    assert Counter(notes) == Counter(stored.texts())
    assert "} a closing brace first, then an opening one {" in notes
    assert "A variation {inside} a variation." in notes
    integrity(fresh_db)
    fts_check(fresh_db)


def test_round_trip_of_many_games_through_import_games(fresh_db):
    games = [annotated_game(v, seed) for seed, v in enumerate(VARIANTS * 2)]
    summary = archive.import_games(fresh_db, games, batch=3)
    assert summary.imported == len(games)
    assert summary.turns == sum(g.end().ply for g in games)
    ids = ids_by_hash(fresh_db)
    for game in games:
        back = archive.load_game(fresh_db, ids[content_hash(game)])
        assert same_tree(game, back) and write_game(back) == write_game(game)
    integrity(fresh_db)


def expected_turns(game) -> list[tuple]:
    """The turn rows of ``game`` worked out the plain way, through the public API."""
    rows, before = [], game.state.position.position_id()
    for node in game.mainline():
        turn = node.turn
        after = node.state.seen_next()[0].position_id()  # at the end, as the loser sees it
        rows.append((node.ply, turn.player.value, turn.kind,
                     str(turn.dice) if turn.dice is not None else None,
                     str(turn.play) if turn.play is not None else None,
                     before, after, *node.state.white_view().pip_counts()))
        before = after
    return rows


def test_stored_turns_are_the_games_turns(fresh_db):
    """Every turn column of every game of every rule set (passed dice, cube actions and
    invalid games included), against the game itself."""
    games = [annotated_game(v, seed) for seed, v in enumerate(VARIANTS)] + sample_errors()
    archive.import_games(fresh_db, games, keep_invalid=True)
    ids = ids_by_hash(fresh_db)
    kinds = set()
    for game in games:
        stored = fresh_db.execute(
            "SELECT ply, player, kind, dice, play, position_before, position_after, pips_white, "
            "pips_black FROM turns WHERE game_id = ? ORDER BY ply", [ids[content_hash(game)]]).fetchall()
        assert stored == expected_turns(game)
        kinds |= {row[2] for row in stored}
        last = game.end()
        if last.state.ended_by == "bear-off":  # as `jacquet legal --json` gives the winning play's result
            assert stored[-1][6] == last.turn.play.next_position.position_id()
    assert {"roll", "passed", "double", "take"} <= kinds


def test_explorer_counts_kept_at_import_are_those_of_the_turns(fresh_db):
    """``position_plays`` after imports (two batches, a duplicate, kept invalid games) is
    exactly what counting the stored turns gives, wins included."""
    games = [annotated_game(v, seed) for seed, v in enumerate(VARIANTS * 2)] + sample_errors()
    archive.import_games(fresh_db, games[:7], keep_invalid=True, batch=3)
    archive.import_games(fresh_db, games, keep_invalid=True, batch=5)
    kept = fresh_db.execute("SELECT position, variant, dice, play, count, wins FROM position_plays "
                            "ORDER BY 1, 2, 3, 4").fetchall()
    fresh_db.execute("DELETE FROM position_plays")
    archive.schema.add_position_plays(fresh_db)
    recounted = fresh_db.execute("SELECT position, variant, dice, play, count, wins FROM position_plays "
                                 "ORDER BY 1, 2, 3, 4").fetchall()
    assert kept == recounted
    assert sum(row[4] for row in kept) > 100 and sum(row[5] for row in kept) > 0


def _turn_texts(game) -> list[str]:
    return [str(node.turn) for node in game.descendants()]


SAMPLE_FILES = sorted(path for path in (Path(__file__).resolve().parents[1] / "samples").glob("*/*.jqn")
                      if path.parent.name != "errors")  # (a file of invalid games: none is kept)


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_a_valid_record_read_back_keeps_the_text_its_writer_would_make_again(path):
    """Read back as stored valid, a record's plays keep their text as read (not written
    again): it must be exactly what the writer makes of each play (rest points, repeats,
    hits, the order of moves), in every sample and in annotated games of every rule set."""
    games = list(read_file(path))
    assert games and not any(game.errors for game in games)
    for game in games:
        record = record_text(game)
        kept = archive.game_from_record(record, game.rules.name, valid=True)
        written = archive.game_from_record(record, game.rules.name)
        assert _turn_texts(kept) == _turn_texts(written)
        assert same_tree(kept, written)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_valid_generated_record_read_back_keeps_the_writers_text(variant):
    for seed in range(4):
        record = write_game(annotated_game(variant, seed))
        kept = archive.game_from_record(record, variant, valid=True)
        written = archive.game_from_record(record, variant)
        assert _turn_texts(kept) == _turn_texts(written)
        assert same_tree(kept, written)


# ------------------------------------------------------------------ idempotence

@pytest.fixture
def games_file(tmp_path):
    games = [annotated_game(v, seed, White=f"P{seed}", Event="Idem")
             for seed, v in enumerate(("jacquet", "jacquet", "versailles", "hale", "backgammon", "murray"))]
    path = tmp_path / "games.jqn"
    write_file(games, path)
    return path, games


def test_importing_a_file_twice_adds_nothing(fresh_db, db_path, games_file):
    path, games = games_file
    first = archive.import_files(fresh_db, [path])
    assert (first.imported, first.duplicates, first.refused) == (len(games), 0, 0)
    before = counts(db_path)
    second = archive.import_files(fresh_db, [path])
    assert (second.imported, second.duplicates, second.refused, second.turns) == (0, len(games), 0, 0)
    assert say("cli.import.summary", count=0, duplicates=len(games), refused=0) in str(second)
    assert counts(db_path) == before
    assert before[0] == len(games)
    integrity(fresh_db)


def test_the_same_game_twice_in_one_file_is_stored_once(fresh_db, tmp_path):
    game = generated("jacquet", 5)
    path = tmp_path / "twice.jqn"
    write_file([game, game, generated("jacquet", 6), game], path)
    summary = archive.import_files(fresh_db, [path])
    assert (summary.imported, summary.duplicates) == (2, 2)
    assert fresh_db["games"].count == 2


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_a_game_converted_to_another_format_is_a_duplicate(fresh_db, db_path, games_file, fmt):
    path, games = games_file
    converted = path.with_suffix(f".{fmt}")
    write_file(list(read_file(path)), converted)
    archive.import_files(fresh_db, [path])
    before = counts(db_path)
    summary = archive.import_files(fresh_db, [converted])
    assert (summary.imported, summary.duplicates, summary.refused) == (0, len(games), 0)
    assert counts(db_path) == before


def test_converted_first_then_text_is_a_duplicate_too(fresh_db, games_file):
    path, games = games_file
    write_file(games, path.with_suffix(".json"))
    write_file(games, path.with_suffix(".xml"))
    summary = archive.import_files(fresh_db, [path.with_suffix(".json"), path.with_suffix(".xml"), path])
    assert (summary.imported, summary.duplicates) == (len(games), 2 * len(games))


# ------------------------------------------------------------------ atomicity

VICTIM = 4  # of 7 games, imported in batches of 3: the second batch fails


@pytest.fixture
def seven(tmp_path):
    games = [generated("jacquet", 40 + i, White="Victim" if i == VICTIM else f"Player {i}",
                       Event="Victim's event" if i == VICTIM else "Atomic")
             for i in range(7)]
    games[VICTIM].end().comments.append("BOOM")
    path = tmp_path / "seven.jqn"
    write_file(games, path)
    return path, games


def fail_in_store_game(monkeypatch, db):
    """Make storing the victim fail after its game row, its turns and its annotations are
    all written."""
    real = archive.importer.store_game
    seen = []

    def store_game(db_, rows, names):
        game_id = real(db_, rows, names)
        if rows.white == "Victim":
            assert db_.execute("SELECT count(*) FROM turns WHERE game_id = ?", [game_id]).fetchone()[0] > 0
            notes = db_.execute("SELECT count(*) FROM annotations WHERE game_id = ?", [game_id])
            assert notes.fetchone()[0] > 0
            seen.append(game_id)
            raise sqlite3.OperationalError("disk I/O error (injected)")
        return game_id

    monkeypatch.setattr(archive.importer, "store_game", store_game)
    return seen


def fail_in_sql(monkeypatch, db):
    """Make the database itself refuse the victim's last annotation, in the middle of the
    annotations' insert (its game row and turns already written)."""
    db.execute("CREATE TEMP TRIGGER boom BEFORE INSERT ON main.annotations WHEN NEW.text = 'BOOM' "
               "BEGIN SELECT RAISE(ABORT, 'injected failure'); END")
    return


def test_a_failure_of_the_archive_inside_a_game_leaves_nothing_of_it(monkeypatch, fresh_db,
                                                                      db_path, seven):
    """A failure of the archive itself (a disk I/O error) stops the import; the batches
    committed before it stay, whole, and nothing of the failing batch is kept."""
    path, games = seven
    seen = fail_in_store_game(monkeypatch, fresh_db)
    with pytest.raises(sqlite3.Error):
        archive.import_files(fresh_db, [path], batch=3)
    assert seen, "the failure happened after the game row was written"
    integrity(fresh_db)
    fts_check(fresh_db)
    stored = ids_by_hash(fresh_db)
    assert set(stored) == {content_hash(g) for g in games[:3]}
    assert fresh_db.execute("SELECT count(*) FROM players WHERE name = 'Victim'").fetchone()[0] == 0
    assert fresh_db.execute("SELECT count(*) FROM events WHERE name = \"Victim's event\"").fetchone()[0] == 0
    assert counts(db_path)[1] == sum(g.end().ply for g in games[:3])

    monkeypatch.undo()
    again = archive.import_files(fresh_db, [path], batch=3)
    assert (again.imported, again.duplicates) == (4, 3)
    integrity(fresh_db)
    assert set(ids_by_hash(fresh_db)) == {content_hash(g) for g in games}


def test_a_game_the_archive_refuses_is_refused_alone_and_the_others_are_stored(
        monkeypatch, fresh_db, db_path, seven):
    """A game SQLite refuses (here a trigger, in the middle of its annotations) is refused
    with the reason, nothing of it kept; the other games of its batch and of the file are
    stored (it used to roll back its whole batch and stop the import)."""
    path, games = seven
    fail_in_sql(monkeypatch, fresh_db)
    summary = archive.import_files(fresh_db, [path], batch=3)
    assert (summary.imported, summary.refused) == (6, 1)
    [error] = summary.errors
    assert "injected failure" in str(error) and error.game == VICTIM + 1
    integrity(fresh_db)
    fts_check(fresh_db)
    stored = ids_by_hash(fresh_db)
    assert set(stored) == {content_hash(g) for i, g in enumerate(games) if i != VICTIM}
    assert fresh_db.execute("SELECT count(*) FROM players WHERE name = 'Victim'").fetchone()[0] == 0
    assert fresh_db.execute("SELECT count(*) FROM annotations WHERE text = 'BOOM'").fetchone()[0] == 0
    assert counts(db_path)[1] == sum(g.end().ply for i, g in enumerate(games) if i != VICTIM)

    fresh_db.execute("DROP TRIGGER IF EXISTS temp.boom")
    again = archive.import_files(fresh_db, [path], batch=3)
    assert (again.imported, again.duplicates) == (1, 6)
    integrity(fresh_db)
    back = archive.load_game(fresh_db, ids_by_hash(fresh_db)[content_hash(games[VICTIM])])
    assert same_tree(back, games[VICTIM])


def test_a_failure_in_a_callers_transaction_leaves_whole_batches_only(monkeypatch, fresh_db, seven):
    """Called inside a transaction of its own caller, which goes on and commits after the
    failure, the import still leaves only whole batches (each one a savepoint then)."""
    path, games = seven
    seen = fail_in_store_game(monkeypatch, fresh_db)
    with fresh_db.atomic():
        fresh_db.execute("INSERT INTO events (name, key) VALUES ('Before', 'before')")
        with pytest.raises(sqlite3.Error):
            archive.import_files(fresh_db, [path], batch=3)
    assert seen
    integrity(fresh_db)
    fts_check(fresh_db)
    assert set(ids_by_hash(fresh_db)) == {content_hash(g) for g in games[:3]}
    assert fresh_db.execute("SELECT count(*) FROM players WHERE name = 'Victim'").fetchone()[0] == 0
    assert fresh_db.execute("SELECT count(*) FROM events WHERE name = 'Before'").fetchone()[0] == 1
    assert fresh_db.execute("SELECT count(*) FROM turns").fetchone()[0] == sum(g.end().ply for g in games[:3])


def test_readers_see_whole_batches_while_an_import_writes(fresh_db, db_path):
    games = [generated("jacquet", 60 + i, max_turns=30) for i in range(9)]
    seen = []

    def on_game(game):
        reader = archive.open_archive(db_path, readonly=True)
        try:
            seen.append(reader.execute("SELECT count(*), (SELECT count(*) FROM turns) FROM games").fetchone())
        finally:
            reader.close()

    archive.import_games(fresh_db, games, batch=4, on_game=on_game)
    assert [n for n, _ in seen] == [0, 0, 0, 0, 4, 4, 4, 4, 8]
    assert all(turns == n * 30 for n, turns in seen)


# ------------------------------------------------------------------ kill and resume

KILL_GAMES = 300

IMPORTER = textwrap.dedent("""
    import sys
    import archive
    db = archive.open_archive(sys.argv[1])
    archive.import_files(db, [sys.argv[2]])
    print("finished", flush=True)
""")


def test_a_killed_import_leaves_whole_games_and_is_completed_by_running_it_again(tmp_path):
    base = [generated("jacquet", 200 + i, annotate=True) for i in range(30)]
    games = []
    for i in range(KILL_GAMES):
        game = base[i % len(base)]
        game.headers.update(Round=str(i), White=f"W{i % 7}", Black=f"B{i % 5}")
        games.append(write_game(game))
    source = tmp_path / "many.jqn"
    source.write_text("\n".join(games), encoding="utf-8")
    db_file = tmp_path / "killed.db"
    archive.open_archive(db_file).close()  # the schema exists before the import starts

    process = subprocess.Popen([sys.executable, "-c", IMPORTER, str(db_file), str(source)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               cwd=os.getcwd())
    try:
        deadline = time.monotonic() + 600  # a bound, not a pace: the first commit is awaited
        committed = 0
        while time.monotonic() < deadline and process.poll() is None:
            reader = sqlite3.connect(f"file:{db_file}?mode=ro", uri=True)
            try:
                committed = reader.execute("SELECT count(*) FROM games").fetchone()[0]
            except sqlite3.OperationalError:  # busy: try again
                committed = 0
            finally:
                reader.close()
            if committed:
                break
            time.sleep(0.02)
        assert process.poll() is None, "the import ended before it could be killed: " + \
            process.stderr.read().decode()
        assert committed, "no game committed in 600 s"
        process.send_signal(signal.SIGKILL)
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        process.stdout.close()
        process.stderr.close()
    assert process.returncode == -signal.SIGKILL

    db = archive.open_archive(db_file)
    try:
        integrity(db)
        fts_check(db)
        stored = db["games"].count
        assert 0 < stored < KILL_GAMES
        for game_id, record in db.execute("SELECT id, record FROM games"):
            game = archive.game_from_record(record)
            turns = db.execute("SELECT count(*) FROM turns WHERE game_id = ?", [game_id]).fetchone()[0]
            assert turns == game.end().ply
        summary = archive.import_files(db, [source])
        assert (summary.imported, summary.duplicates, summary.refused) == (KILL_GAMES - stored, stored, 0)
        integrity(db)
        assert db["games"].count == KILL_GAMES
        assert db.execute("SELECT count(DISTINCT hash) FROM games").fetchone()[0] == KILL_GAMES
        assert db.execute("SELECT count(*) FROM turns").fetchone()[0] == sum(
            row[0] for row in db.execute("SELECT turns FROM games"))
    finally:
        db.close()


# ------------------------------------------------------------------ invalid games

def sample_errors():
    games = list(read_file(ERRORS_SAMPLE))
    assert len(games) == ERROR_GAMES and all(len(g.errors) >= 1 for g in games)
    return games


def test_invalid_games_are_refused_with_their_errors(fresh_db):
    games = sample_errors()
    summary = archive.import_files(fresh_db, [ERRORS_SAMPLE])
    assert (summary.imported, summary.refused, summary.kept_invalid) == (0, ERROR_GAMES, 0)
    assert fresh_db["games"].count == 0 and fresh_db["turns"].count == 0
    expected = [(e.file, e.line, e.rule_id) for g in games for e in g.errors]
    assert [(e.file, e.line, e.rule_id) for e in summary.errors] == expected
    rules = {e.rule_id for e in summary.errors}
    assert {"SYNTAX", "TAG", "R-COURIER", "R-MAX", "R-PASS"} <= rules
    for error in summary.errors:
        assert str(error).startswith(f"{ERRORS_SAMPLE}:{error.line}:")
        assert f"[{error.rule_id}]" in str(error)
        assert error.line > 0
    assert f"refused: {ERROR_GAMES}" in str(summary)


def test_keep_invalid_stores_them_flagged(fresh_db):
    games = sample_errors()
    summary = archive.import_files(fresh_db, [ERRORS_SAMPLE], keep_invalid=True)
    assert (summary.imported, summary.refused, summary.kept_invalid) == (ERROR_GAMES, 0, ERROR_GAMES)
    assert say("cli.import.kept-invalid", count=ERROR_GAMES) in str(summary)
    ids = ids_by_hash(fresh_db)
    for game in games:
        row = fresh_db["games"].get(ids[content_hash(game)])
        error = game.errors[0]
        assert row["valid"] == 0
        assert row["error_rule"] == error.rule_id
        assert row["error_line"] == error.line
        assert row["error_message"] == error.message
        assert row["error_ply"] is not None and row["error_ply"] >= 1
        assert row["turns"] == game.end().ply
        if error.turn:  # an illegal turn: the first one not stored
            assert row["error_ply"] == row["turns"] + 1
    integrity(fresh_db)
    rows, total = archive.search(fresh_db, archive.Query(valid=False, limit=100))
    assert total == ERROR_GAMES and all(r["error_rule"] for r in rows)
    assert archive.search(fresh_db, archive.Query(valid=True))[1] == 0
    again = archive.import_files(fresh_db, [ERRORS_SAMPLE], keep_invalid=True)
    assert (again.imported, again.duplicates) == (0, ERROR_GAMES)


def test_valid_games_of_a_file_go_in_when_others_are_refused(fresh_db, tmp_path):
    good = [generated("jacquet", 80), generated("backgammon", 81)]
    path = tmp_path / "mixed.jqn"
    errors = ERRORS_SAMPLE.read_text(encoding="utf-8")
    errors = errors[:errors.rindex("[Event ")]  # the last one, a comment never closed, eats the rest
    path.write_text(write_game(good[0]) + "\n" + errors + "\n" + write_game(good[1]), encoding="utf-8")
    summary = archive.import_files(fresh_db, [path])
    assert (summary.imported, summary.refused) == (2, ERROR_GAMES - 1)
    assert set(ids_by_hash(fresh_db)) == {content_hash(g) for g in good}
    assert all(e.file == str(path) for e in summary.errors)


def test_unreadable_files_are_listed_and_the_others_imported(fresh_db, tmp_path):
    good = tmp_path / "good.jqn"
    write_file([generated("jacquet", 90)], good)
    summary = archive.import_files(fresh_db, [tmp_path / "missing.jqn", tmp_path / "notes.docx", good])
    assert summary.imported == 1
    assert len(summary.unreadable) == 2
    missing, unknown = summary.unreadable
    assert (missing.id, missing.params["path"]) == ("cli.file.missing", str(tmp_path / "missing.jqn"))
    assert (unknown.id, unknown.params["path"]) == ("cli.file.unknown-format", str(tmp_path / "notes.docx"))
    assert render(unknown).count("notes.docx") == 1  # the file named once
    assert say("cli.import.unreadable", count=2) in str(summary)


def test_a_malformed_json_document_is_refused(fresh_db, tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"games": [', encoding="utf-8")
    summary = archive.import_files(fresh_db, [path])
    assert (summary.imported, summary.refused) == (0, 1)
    assert summary.errors and str(path) in str(summary.errors[0])
