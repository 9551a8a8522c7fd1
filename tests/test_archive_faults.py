"""Faults: whatever happens to an import, the archive loses nothing committed and never holds
a half game.

1. ``jacquet import`` is killed (SIGKILL) at random moments, many times in a row on the same
   archive; after each kill the file is sound, every game in it is whole and reads back as
   the game of the source, no game committed before is gone, and running the import once more
   completes it. Interrupted (Ctrl-C), it says ``Aborted!`` and keeps whole batches.
   ``bench/kill_import.py`` kills it hundreds of times with this module's harness
   (``write_source``, ``kill_import``, ``inspect``).
2. A reader with its own read-only connection, while an import writes, sees whole games only
   and counts that never go down; a search's count and page agree.
3. A read-only archive or folder, a file size limit and a full database give one clear line
   naming the archive and exit 2, never a traceback, and leave the archive as it was; so do
   the reading commands on a missing, foreign, truncated or damaged file.
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import random
import resource
import signal
import sqlite3
import struct
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlite_utils import Database

import archive
import jacquet_cli.import_cmd
from archive.rows import game_rows
from archive.search import COLUMNS
from jacquet_cli import main
from notation import rule_set
from notation.formats import read_file
from notation.formats.jqn import write_game
from notation.tree.game import Game
from tests.trees import same_tree

from .archive_fixtures import VARIANTS, content_hash, generated

# ------------------------------------------------------------------ the harness


@dataclass
class Expected:
    """A game of the source file, and what the archive must hold of it."""

    game: Game
    turns: int
    annotations: int


def write_source(path: Path, games: int, seed: int = 1) -> dict[str, Expected]:
    """Write ``games`` annotated games of every rule set to ``path`` (a pool of generated
    games, each copy under its own players and round, so under its own hash) and return
    them as read back from the file, by content hash."""
    pool = [generated(variant, seed * 100 + i, annotate=True)
            for i in range(4) for variant in VARIANTS]
    rng = random.Random(seed)
    texts = []
    for number in range(games):
        game = pool[number % len(pool)]
        game.headers.update(Round=str(number), White=f"White {rng.randint(1, 40)}",
                            Black=f"Black {rng.randint(1, 40)}", Event=f"Event {number % 7}")
        texts.append(write_game(game))
    path.write_text("\n".join(texts), encoding="utf-8")
    expected = {}
    for game in read_file(path):
        rows = game_rows(game)
        expected[content_hash(game)] = Expected(game, len(rows.turns), len(rows.annotations))
    assert len(expected) == games, "every game of the source has its own hash"
    return expected


def import_command(db_path: Path, source: Path, batch: int) -> list[str]:
    """``jacquet import`` as a subprocess runs it."""
    return [sys.executable, "-m", "jacquet_cli", "import", str(source), "--db", str(db_path),
            "--batch", str(batch)]


SHM_WRITE_LOCK = 120  # SQLite's unix VFS: this byte of the -shm file is WAL's write lock
FLOCK = "hhqqi4x"  # Linux's struct flock: type, whence, start, length, pid


def holds_write_lock(db_path: Path) -> bool | None:
    """Whether some process holds the archive's write lock, that is, is inside a write
    transaction: asked of the kernel (F_GETLK on the -shm file), taking no lock. ``None``
    off Linux. Only for a process with no connection of its own to the archive (closing a
    descriptor drops the process's locks on the file)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        descriptor = os.open(f"{db_path}-shm", os.O_RDONLY)
    except FileNotFoundError:
        return False
    try:
        probe = struct.pack(FLOCK, fcntl.F_WRLCK, os.SEEK_SET, SHM_WRITE_LOCK, 1, 0)
        return struct.unpack(FLOCK, fcntl.fcntl(descriptor, fcntl.F_GETLK, probe))[0] != fcntl.F_UNLCK
    finally:
        os.close(descriptor)


@dataclass
class Kill:
    """One run of the import: signalled while it ran (inside a write transaction or not), or
    finished before its time was up; how it ended."""

    killed: bool
    mid_transaction: bool | None  # the write lock was held when the signal was sent
    returncode: int
    stderr: str
    first_write: float | None  # seconds from the start to the first write, if waited for
    ended: float  # seconds from the start to the exit or the signal


def stored_games(db_path: Path) -> int:
    """How many games the archive holds, asked through a connection opened and closed
    here (so that no lock of this process outlives the question)."""
    try:
        connection = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=5)
    except sqlite3.OperationalError:
        return 0
    try:
        return connection.execute("SELECT count(*) FROM games").fetchone()[0]
    except sqlite3.OperationalError:  # no schema yet
        return 0
    finally:
        connection.close()


def kill_import(db_path: Path, source: Path, batch: int, delay: float,
                from_first_write: bool = False, sig: int = signal.SIGKILL,
                once_stored: int | None = None, in_transaction: bool = False) -> Kill:
    """Run ``jacquet import`` and send it ``sig`` ``delay`` seconds after it starts or, with
    ``from_first_write``, after it first takes the write lock: a resumed import spends its
    first seconds reading the games it already stored, and only a moment counted from its
    first write is sure to fall where it stores games. With ``once_stored``, the moment is
    counted from when the archive first holds that many games (or the import ends), and with
    ``in_transaction`` from when, after that, the import next holds the write lock."""
    process = subprocess.Popen(import_command(db_path, source, batch), stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    started, first_write, mid_transaction = time.monotonic(), None, None
    try:
        if from_first_write:
            while process.poll() is None and not holds_write_lock(db_path):
                time.sleep(0.002)
            first_write = time.monotonic() - started
        while once_stored is not None and process.poll() is None and stored_games(db_path) < once_stored:
            time.sleep(0.01)
        while in_transaction and process.poll() is None and not holds_write_lock(db_path):
            time.sleep(0.001)
        try:
            process.wait(timeout=delay)
            killed = False
        except subprocess.TimeoutExpired:
            mid_transaction = holds_write_lock(db_path)
            process.send_signal(sig)
            killed = True
        ended = time.monotonic() - started
        stderr = process.communicate()[1]
        return Kill(killed, mid_transaction, process.returncode, stderr, first_write, ended)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


@dataclass
class Findings:
    """What one look at the archive found: the games present (by hash) and everything wrong."""

    hashes: set[str] = field(default_factory=set)
    integrity: list[str] = field(default_factory=list)
    half: list[str] = field(default_factory=list)
    lost: set[str] = field(default_factory=set)
    strays: set[str] = field(default_factory=set)

    @property
    def sound(self) -> bool:
        return not (self.integrity or self.half or self.lost or self.strays)


def inspect(db_path: Path, expected: dict[str, Expected], before: set[str],
            verified: set[str]) -> Findings:
    """Look at the archive as a reader does (read-only): ``PRAGMA integrity_check`` and
    ``foreign_key_check``, every game whole (its turns and annotations all there, as many as
    the source game has), the games not yet in ``verified`` read back with the archive's
    ``load_game`` and compared with the source (then added to ``verified``), every hash of
    ``before`` still there, and nothing that is not in the source. A missing file, or one
    killed before its schema was made, holds no game."""
    findings = Findings()
    if db_path.exists():
        db = Database(sqlite3.connect(f"file:{db_path}?mode=ro", uri=True))
        try:
            _check_file(db, findings)
            if "games" in db.table_names():
                _check_games(db, expected, verified, findings)
        finally:
            db.close()
    findings.lost = before - findings.hashes
    return findings


def _check_file(db: Database, findings: Findings) -> None:
    report = [row[0] for row in db.execute("PRAGMA integrity_check")]
    if report != ["ok"]:
        findings.integrity += report
    findings.integrity += [f"foreign key: {row}" for row in db.execute("PRAGMA foreign_key_check")]


def _check_games(db: Database, expected: dict[str, Expected], verified: set[str],
                 findings: Findings) -> None:
    fts, notes = db.execute("SELECT (SELECT count(*) FROM annotations_fts), "
                            "(SELECT count(*) FROM annotations)").fetchone()
    if fts != notes:
        findings.integrity.append(f"{fts} rows of full text for {notes} annotations")
    for table in ("turns", "annotations"):
        orphans = db.execute(f"SELECT count(*) FROM {table} WHERE game_id NOT IN "
                             "(SELECT id FROM games)").fetchone()[0]
        if orphans:
            findings.half.append(f"{orphans} {table} rows of no game")
    games = db.execute("SELECT g.id, g.hash, g.turns, (SELECT count(*) FROM turns t WHERE "
                       "t.game_id = g.id), (SELECT count(*) FROM annotations a WHERE "
                       "a.game_id = g.id) FROM games g").fetchall()
    for game_id, content, turns, turn_rows, notes in games:
        findings.hashes.add(content)
        source = expected.get(content)
        if source is None:
            findings.strays.add(content)
        elif (turns, turn_rows, notes) != (source.turns, source.turns, source.annotations):
            findings.half.append(f"game {game_id}: {turns} turns, {turn_rows} stored, "
                                 f"{notes} annotations; the source has {source.turns} and "
                                 f"{source.annotations}")
        elif content not in verified:
            if not same_tree(archive.load_game(db, game_id), source.game):
                findings.half.append(f"game {game_id} does not read back as its source")
            else:
                verified.add(content)


# ------------------------------------------------------------------ 1. kill and resume

KILLS = 20
GAMES = 240
BATCH = 6


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> tuple[Path, dict[str, Expected]]:
    """A record file of GAMES games of every rule set, and its games by hash."""
    path = tmp_path_factory.mktemp("faults") / "source.jqn"
    return path, write_source(path, GAMES)


@dataclass
class Pace:
    """How long imports of the source take here, uninterrupted: seconds to the first write,
    from there to the end on an empty archive (storing every game), and a whole import on
    the full archive (reading and skipping every game)."""

    starting: float
    storing: float
    skipping: float


@pytest.fixture(scope="module")
def pace(source, tmp_path_factory) -> Pace:
    path, _ = source
    db_path = tmp_path_factory.mktemp("pace") / "paced.db"
    whole = kill_import(db_path, path, BATCH, 600, from_first_write=True)
    again = kill_import(db_path, path, BATCH, 600)
    assert not (whole.killed or again.killed) and whole.returncode == again.returncode == 0
    return Pace(whole.first_write, whole.ended - whole.first_write, again.ended)


@pytest.mark.long  # twenty imports killed in flight: minutes of CPU
def test_imports_killed_at_random_moments_lose_nothing_and_leave_no_half_game(tmp_path, source,
                                                                             pace):
    path, expected = source
    db_path = tmp_path / "killed.db"
    rng = random.Random(8)
    present: set[str] = set()
    verified: set[str] = set()
    kills, sizes = [], []
    for number in range(KILLS):
        if number % 5 == 0:  # inside a write transaction, whatever this machine's pace
            target = min(len(present) + BATCH, GAMES - BATCH)
            kill = kill_import(db_path, path, BATCH, 0.0, once_stored=target, in_transaction=True)
        elif rng.random() < 0.75:  # while it stores games: one to three batches on, within a batch
            target = min(len(present) + rng.randint(1, 3) * BATCH, GAMES - BATCH)
            kill = kill_import(db_path, path, BATCH, rng.uniform(0, 2 * pace.storing * BATCH / GAMES),
                               once_stored=target)
        else:  # anywhere: starting, opening, recovering, reading what is stored
            reading = pace.starting + pace.skipping * len(present) / GAMES
            kill = kill_import(db_path, path, BATCH, rng.uniform(0, reading))
        findings = inspect(db_path, expected, present, verified)
        assert findings.integrity == [] and findings.half == []
        assert findings.lost == set(), "games committed before the kill are gone"
        assert findings.strays == set()
        present = findings.hashes
        kills.append(kill)
        sizes.append(len(present))
    killed = [kill for kill in kills if kill.killed]
    assert len(killed) >= KILLS // 2, "the imports were killed, not left to finish"
    assert sum(bool(kill.mid_transaction) for kill in killed) >= 3, \
        "kills landed inside write transactions"
    assert len(set(sizes)) > 3, "the archive grew from kill to kill"

    result = subprocess.run(import_command(db_path, path, BATCH), capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    summary = result.stderr.strip().splitlines()[-1]
    assert summary.startswith(f"{GAMES - len(present)} games imported; duplicates skipped: {len(present)}; "
                              "refused: 0"), summary
    findings = inspect(db_path, expected, present, verified)
    assert findings.sound and findings.hashes == set(expected)
    assert verified == set(expected), "every game was read back and compared with its source"
    with archive.open_archive(db_path, readonly=True) as db:
        assert db["games"].count == GAMES


def test_an_import_interrupted_by_ctrl_c_says_aborted_and_keeps_whole_batches(tmp_path, source):
    path, expected = source
    db_path = tmp_path / "interrupted.db"
    present: set[str] = set()
    verified: set[str] = set()
    for _ in range(3):  # Ctrl-C once a batch more is stored, whatever the machine's pace
        kill = kill_import(db_path, path, BATCH, 0.0, once_stored=min(len(present) + BATCH, GAMES - BATCH),
                           sig=signal.SIGINT)
        findings = inspect(db_path, expected, present, verified)
        assert findings.sound
        present = findings.hashes
        if kill.returncode == 0:  # the signal came after the last batch (a slow poll): the import is whole
            assert present == set(expected) and "Traceback" not in kill.stderr, kill.stderr
            return
        assert kill.killed and kill.returncode == 1
        assert "Aborted!" in kill.stderr and "Traceback" not in kill.stderr, kill.stderr
    assert 0 < len(present) < GAMES


# ------------------------------------------------------------------ 2. readers during an import

def test_a_reader_sees_whole_games_and_counts_that_never_go_down_while_an_import_writes(
        tmp_path, source):
    path, expected = source
    db_path = tmp_path / "read.db"
    archive.open_archive(db_path).close()  # the schema is there before the reader opens it
    process = subprocess.Popen(import_command(db_path, path, BATCH), stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    totals: list[int] = []
    loaded = 0
    try:
        with archive.open_archive(db_path, readonly=True) as reader:
            while process.poll() is None:
                rows, total = archive.search(reader, archive.Query(limit=GAMES + 1, descending=True))
                assert len(rows) == total, "the count and the page of one search agree"
                assert not totals or total >= totals[-1], "the number of games went down"
                totals.append(total)
                turns, rows_of_turns = reader.execute(
                    "SELECT (SELECT coalesce(sum(turns), 0) FROM games), "
                    "(SELECT count(*) FROM turns)").fetchone()
                assert turns == rows_of_turns, "turns of games not (yet, or any more) stored"
                for row in rows[:2]:  # the newest: just committed
                    content = reader.execute("SELECT hash FROM games WHERE id = ?",
                                             [row["id"]]).fetchone()[0]
                    game = archive.load_game(reader, row["id"])
                    assert game.end().ply == row["turns"] == expected[content].turns
                    assert same_tree(game, expected[content].game)
                    loaded += 1
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        errors = process.stderr.read()
        process.stderr.close()
    assert process.returncode == 0, errors
    assert len(set(totals)) > 5 and loaded > 10, "the reader watched the import, not its end"
    assert 0 < totals[-1] <= GAMES
    findings = inspect(db_path, expected, set(), set(expected))  # whole; trees compared above
    assert findings.sound and findings.hashes == set(expected)


def test_a_search_counts_and_lists_the_same_games_while_another_connection_commits(
        tmp_path, source):
    _, expected = source
    games = [item.game for item in list(expected.values())[:5]]
    db_path = tmp_path / "snapshot.db"
    with archive.open_archive(db_path) as writer, \
            archive.open_archive(db_path, readonly=True) as reader:
        archive.import_games(writer, games[:3])

        def commit_before_the_page(statement: str) -> None:
            """Another connection commits two games between the count and the page."""
            if statement.startswith(f"SELECT {COLUMNS}"):
                archive.import_games(writer, games[3:])

        reader.conn.set_trace_callback(commit_before_the_page)
        rows, total = archive.search(reader, archive.Query())
        reader.conn.set_trace_callback(None)
        assert (len(rows), total) == (3, 3)
        assert archive.search(reader, archive.Query())[1] == 5


# ------------------------------------------------------------------ 3. clear errors

PR_CAPBSET_DROP, CAP_DAC_OVERRIDE = 24, 1  # <linux/prctl.h>, <linux/capability.h>


def obeying_file_modes() -> None:
    """``preexec_fn``: the child, even when root runs the tests, obeys file modes: root's
    override of them (CAP_DAC_OVERRIDE) is dropped from what the command will run with."""
    if os.geteuid() == 0:
        ctypes.CDLL(None, use_errno=True).prctl(PR_CAPBSET_DROP, CAP_DAC_OVERRIDE, 0, 0, 0)


@pytest.fixture
def modes_bind(tmp_path) -> None:
    """Skip unless a child started with :func:`obeying_file_modes` cannot write a file
    whose mode forbids it."""
    probe = tmp_path / "probe"
    probe.write_text("")
    probe.chmod(0o444)
    try:
        result = subprocess.run([sys.executable, "-c", f"open({str(probe)!r}, 'a')"],
                                preexec_fn=obeying_file_modes, capture_output=True, check=False)
    finally:
        probe.chmod(0o644)
    if result.returncode == 0:
        pytest.skip("file modes do not bind a child process here (root keeping its override)")


def archive_of(db_path: Path, expected: dict[str, Expected], count: int) -> set[str]:
    """An archive of the source's first ``count`` games, closed (no WAL left); their hashes."""
    games = list(expected)[:count]
    with archive.open_archive(db_path) as db:
        assert archive.import_games(db, [expected[h].game for h in games]).imported == count
    assert not Path(f"{db_path}-wal").exists()
    return set(games)


def one_clear_error(stderr: str, db_path: Path, *reasons: str) -> str:
    """The one error line of ``stderr``: no traceback, the archive named, one of ``reasons``."""
    assert "Traceback" not in stderr, stderr
    errors = [line for line in stderr.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1, stderr
    assert str(db_path) in errors[0] and any(reason in errors[0] for reason in reasons), errors[0]
    return errors[0]


@pytest.mark.parametrize("read_only", ["file", "folder"])
def test_importing_into_a_read_only_archive_is_one_clear_error(tmp_path, source, modes_bind,
                                                               read_only):
    path, expected = source
    folder = tmp_path / "archives"
    folder.mkdir()
    db_path = folder / "club.db"
    stored = archive_of(db_path, expected, 12)
    target = db_path if read_only == "file" else folder
    target.chmod(0o444 if read_only == "file" else 0o555)
    try:
        result = subprocess.run(import_command(db_path, path, BATCH), capture_output=True,
                                text=True, preexec_fn=obeying_file_modes, check=False)
    finally:
        target.chmod(0o644 if read_only == "file" else 0o755)
    assert result.returncode == 2
    one_clear_error(result.stderr, db_path, "read-only", "cannot be written")
    findings = inspect(db_path, expected, stored, set())
    assert findings.sound and findings.hashes == stored


def test_importing_past_a_file_size_limit_is_one_clear_error_and_keeps_what_was_committed(
        tmp_path, source):
    path, expected = source
    db_path = tmp_path / "club.db"
    stored = archive_of(db_path, expected, 12)
    limit = db_path.stat().st_size + 1_000_000  # room for some batches, not for all

    def limited() -> None:
        """Writing past the limit fails with EFBIG (instead of killing the process)."""
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    result = subprocess.run(import_command(db_path, path, BATCH), capture_output=True, text=True,
                            preexec_fn=limited, check=False)
    assert result.returncode == 2
    one_clear_error(result.stderr, db_path, "disk")
    findings = inspect(db_path, expected, stored, set())
    assert findings.sound
    assert stored < findings.hashes < set(expected), "whole batches went in before the limit"

    again = subprocess.run(import_command(db_path, path, BATCH), capture_output=True, text=True, check=False)
    assert again.returncode == 0, again.stderr
    assert f"{GAMES - len(findings.hashes)} games imported; duplicates skipped: {len(findings.hashes)}" in again.stderr
    assert inspect(db_path, expected, findings.hashes, set()).hashes == set(expected)


def test_a_full_database_is_one_clear_error_and_keeps_what_was_committed(
        tmp_path, source, monkeypatch):
    path, expected = source
    db_path = tmp_path / "club.db"
    stored = archive_of(db_path, expected, 12)

    def capped(where):
        """The archive, allowed to grow by 200 pages only: SQLITE_FULL past them."""
        db = archive.open_archive(where)
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {pages + 200}")
        return db

    monkeypatch.setattr(jacquet_cli.import_cmd, "open_archive", capped)
    result = CliRunner().invoke(main, ["import", str(path), "--db", str(db_path),
                                       "--batch", str(BATCH)])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    line = one_clear_error(result.stderr, db_path, "database or disk is full")
    assert line.startswith(f"Error: cannot write to the archive {db_path}:")
    findings = inspect(db_path, expected, stored, set())
    assert findings.sound and stored < findings.hashes < set(expected)


# ------------------------------------------------------------------ the reading commands


@pytest.fixture(scope="module")
def bad_archives(tmp_path_factory, source) -> dict[str, Path]:
    """Files that are not a sound archive: missing, empty, text renamed ``.db``, a real
    archive cut short, and one whose pages past those of an empty archive (the schema, the
    tables' first pages) are overwritten: it opens, and fails when read."""
    _, expected = source
    folder = tmp_path_factory.mktemp("bad")
    good = folder / "good.db"
    archive_of(good, expected, 60)
    data = good.read_bytes()
    files = {name: folder / f"{name}.db" for name in ("missing", "empty", "text", "truncated", "damaged")}
    files["empty"].write_bytes(b"")
    files["text"].write_text("White: Marie\nBlack: Jean\n" * 200, encoding="utf-8")
    files["truncated"].write_bytes(data[:len(data) // 3])
    page = 4096
    archive.open_archive(folder / "schema.db").close()
    schema = (folder / "schema.db").stat().st_size  # a migration more adds pages to it
    damaged = bytearray(data)
    for start in range(schema, len(data), page):
        damaged[start + 8:start + page:7] = b"\xa5" * len(range(start + 8, start + page, 7))
    files["damaged"].write_bytes(bytes(damaged))
    archive.open_archive(files["damaged"], readonly=True).close()  # the damage shows later
    return files


READERS = {
    "search": ["search"],
    "search --text": ["search", "--text", "quiet"],
    "search --position": ["search", "--position", rule_set("jacquet").start.position_id(),
                          "--variant", "jacquet"],
    "export": ["export", "-o", "{out}"],
    "stats": ["stats"],
    "serve": ["serve", "--port", "8999"],
}


# serve builds a demo archive where there is none, and damage past the schema shows on the
# pages that read it
CASES = [(command, bad) for command in READERS
         for bad in ("missing", "empty", "text", "truncated", "damaged")
         if command != "serve" or bad not in ("missing", "damaged")]


@pytest.mark.parametrize("command, bad", CASES)
def test_reading_commands_on_a_bad_file_give_one_clear_error(bad_archives, tmp_path, monkeypatch,
                                                             command, bad):
    monkeypatch.setattr("waitress.serve", lambda *args, **kwargs: pytest.fail("served a bad file"))
    db_path = bad_archives[bad]
    out = tmp_path / "out.jqn"
    args = [arg.format(out=out) for arg in READERS[command]]
    result = CliRunner().invoke(main, [*args, "--db", str(db_path)])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
    one_clear_error(result.stderr, db_path, "no archive", "not a jacquet archive",
                    "not an SQLite file", "the file is damaged")
    assert not out.exists()
