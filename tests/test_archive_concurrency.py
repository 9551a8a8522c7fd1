"""Two writers at once (``archive/store.py``'s :func:`~archive.store.writing`): a write
transaction takes the write lock when it begins (``BEGIN IMMEDIATE``), games are read
and built before it, and a busy archive is waited for and tried again. So two imports at
once both complete, and the viewer saving games while an import runs waits a little,
never fails."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

import archive
from notation.formats.jqn import write_game
from tests.accounts_helpers import signed_in_client
from tests.viewer_helpers import viewer_app

from .archive_fixtures import generated

POOL = 6
"""Distinct random games; each copy gets its own round, so its own content hash."""


def write_games(path: Path, count: int, prefix: str) -> None:
    pool = [generated("jacquet", 500 + i, annotate=False, max_turns=60) for i in range(POOL)]
    texts = []
    for number in range(count):
        game = pool[number % POOL]
        game.headers.update(White=f"{prefix} white", Black="Black", Round=str(number))
        texts.append(write_game(game))
    path.write_text("\n".join(texts), encoding="utf-8")


def start_import(path: Path, db: Path, batch: int = 5) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "jacquet_cli", "import", str(path), "--db", str(db),
                             "--batch", str(batch)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def stored(db_path: Path) -> int:
    db = archive.open_archive(db_path, readonly=True)
    try:
        return db.execute("SELECT count(*) FROM games").fetchone()[0]
    finally:
        db.close()


def test_two_imports_at_once_both_complete(tmp_path):
    db_path = tmp_path / "club.db"
    archive.open_archive(db_path).close()
    first, second = tmp_path / "first.jqn", tmp_path / "second.jqn"
    write_games(first, 120, "First")
    write_games(second, 120, "Second")
    runs = [start_import(first, db_path), start_import(second, db_path)]
    results = [run.communicate(timeout=600) for run in runs]
    for run, (_, err) in zip(runs, results, strict=True):
        assert run.returncode == 0, err
        assert "120 games imported" in err and "locked" not in err
    assert stored(db_path) == 240


def test_saving_in_the_viewer_while_an_import_writes_waits_and_succeeds(tmp_path):
    db_path = tmp_path / "club.db"
    archive.open_archive(db_path).close()
    source = tmp_path / "big.jqn"
    write_games(source, 200, "Imported")
    client = signed_in_client(viewer_app(db_path))
    page = client.get("/validate")
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)
    run = start_import(source, db_path, batch=20)
    answers, waits = [], []
    try:
        while stored(db_path) == 0 and run.poll() is None:  # the import has begun writing
            time.sleep(0.05)
        for number in range(8):
            game = generated("murray", 900 + number, annotate=False, max_turns=40,
                             White="Scorer", Black=f"Visitor {number}")
            started = time.perf_counter()
            answers.append(client.post("/validate/save", data={
                "csrf_token": csrf, "format": "jqn", "variant": "murray", "name": "live.jqn",
                "record": write_game(game)}))
            waits.append(time.perf_counter() - started)
    finally:
        _, err = run.communicate(timeout=600)
    assert run.returncode == 0, err
    assert [answer.status_code for answer in answers] == [200] * 8
    assert all("1 game saved" in answer.text for answer in answers)
    assert stored(db_path) == 208
    print(f"\nsaves during an import: longest {max(waits):.2f} s")


@pytest.mark.parametrize("busy", ["database is locked", "SQLITE_BUSY_SNAPSHOT"])
def test_a_busy_transaction_is_tried_again(tmp_path, busy):
    """``writing`` runs the whole transaction again when SQLite answers busy (a stale
    snapshot is not covered by the busy timeout), and gives up on anything else."""
    import sqlite3

    from archive.store import writing

    db = archive.open_archive(tmp_path / "club.db")
    tries = []

    def work():
        tries.append(1)
        db.execute("INSERT INTO events (name, key) VALUES (?, ?)", [f"e{len(tries)}", "e"])
        if len(tries) < 3:
            error = sqlite3.OperationalError(busy)
            error.sqlite_errorname = busy if busy.startswith("SQLITE") else "SQLITE_BUSY"
            raise error
        return len(tries)

    assert writing(db, work) == 3
    assert [row[0] for row in db.execute("SELECT name FROM events")] == ["e3"]

    def full():
        raise sqlite3.OperationalError("database or disk is full")

    with pytest.raises(sqlite3.OperationalError, match="full"):
        writing(db, full)
