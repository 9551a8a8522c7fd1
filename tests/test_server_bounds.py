"""The server's bounds (``docs/server-limits.md``): odd query strings are a 400, a failing
archive a 503 with a page that says why, the session key file private, a foreign or damaged
SQLite file refused by ``import`` and ``serve``, ``jacquet check`` on any archive."""

from __future__ import annotations

import os
import random
import re
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

import archive
import archive.store
import webviewer.pages.validation
from jacquet_cli import main
from notation import rule_set
from notation.formats import render
from notation.tree.generate import random_game
from tests.accounts_helpers import signed_in_client
from tests.test_server_workers import HeldJobs
from tests.viewer_helpers import shown
from webviewer.plumbing.args import MAX_QUERY_BYTES

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "jacquet" / "annotated-game.jqn"


@pytest.fixture
def archive_path(archive_of):
    """The viewer's archive (``scorer``, ``make_app``: tests/conftest.py): the jacquet
    sample."""
    return archive_of(SAMPLE)


@pytest.fixture
def inline_scorer(make_app):
    """A scorer's client whose heavy work runs in the request's thread, where a test can
    patch it."""
    return signed_in_client(make_app(WORKERS=0))


@pytest.mark.parametrize("query", [
    "text=%00", "player=a%00b", "event=%01", "text=%7f", "player=%ff%fe",
    "position=%00&dice=31", "text=" + "a" * MAX_QUERY_BYTES])
@pytest.mark.parametrize("page", ["/", "/api/games", "/api/legal", "/explore"])
def test_odd_query_strings_are_400_everywhere(scorer, page, query):
    answer = scorer.get(f"{page}?{query}")
    assert answer.status_code == 400
    assert b"query string" in answer.data


def test_a_search_with_spaces_and_accents_is_still_answered(scorer):
    assert scorer.get("/?player=Marie+Cur%C3%A9&text=24%2F13").status_code == 200


def save_fields(client) -> dict[str, str]:
    """The save form for ten new games (more than the archive's free space holds)."""
    page = client.get("/validate")
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)
    games = [random_game(rule_set("jacquet"), random.Random(seed)) for seed in range(10)]
    return {"csrf_token": csrf, "format": "jqn", "variant": "jacquet", "name": "x.jqn",
            "record": render(games, "jqn")}


def test_a_full_disk_while_saving_is_a_503_that_says_so(inline_scorer, monkeypatch):
    real = webviewer.pages.validation.open_archive

    def full(path, readonly=False):
        db = real(path, readonly)
        if not readonly:  # no page more may be added: "database or disk is full"
            pages = db.execute("PRAGMA page_count").fetchone()[0]
            db.execute(f"PRAGMA max_page_count={pages}")
        return db

    monkeypatch.setattr(webviewer.pages.validation, "open_archive", full)
    answer = inline_scorer.post("/validate/save", data=save_fields(inline_scorer))
    assert answer.status_code == 503 and answer.headers["Retry-After"]
    assert "disk is full" in answer.text


def test_a_read_only_archive_while_saving_is_a_503_that_says_so(inline_scorer, monkeypatch):
    real = webviewer.pages.validation.open_archive

    def read_only(path, readonly=False):
        db = real(path, readonly)
        db.execute("PRAGMA query_only=1")  # SQLite refuses every write: "readonly"
        return db

    monkeypatch.setattr(webviewer.pages.validation, "open_archive", read_only)
    answer = inline_scorer.post("/validate/save", data=save_fields(inline_scorer))
    assert answer.status_code == 503 and "read-only" in answer.text


def test_a_save_while_another_process_holds_the_archive_is_a_503_with_retry_after(
        inline_scorer, archive_path, monkeypatch):
    monkeypatch.setattr(archive.store, "BUSY_TIMEOUT_MS", 50)
    monkeypatch.setattr(archive.store, "BUSY_SECONDS", 0.2)
    fields = save_fields(inline_scorer)
    holder = sqlite3.connect(archive_path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another writer, for longer than the server waits
    try:
        answer = inline_scorer.post("/validate/save", data=fields)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert answer.status_code == 503 and answer.headers["Retry-After"]
    assert "busy" in answer.text
    assert inline_scorer.post("/validate/save", data=fields).status_code == 200  # once it is free


def test_the_key_file_is_refused_if_others_may_read_it(tmp_path, monkeypatch):
    from webviewer.plumbing.secret import InsecureSecret, secret_key

    monkeypatch.delenv("JACQUET_SECRET_KEY", raising=False)
    path = tmp_path / "club.db"
    key = secret_key(path)
    kept = tmp_path / "club.db.secret"
    assert kept.stat().st_mode & 0o777 == 0o600
    kept.chmod(0o644)
    with pytest.raises(InsecureSecret, match="chmod 600"):
        secret_key(path)
    kept.chmod(0o600)
    assert secret_key(path) == key


def test_a_key_file_of_another_user_is_refused(tmp_path, monkeypatch):
    from webviewer.plumbing.secret import InsecureSecret, secret_key

    monkeypatch.delenv("JACQUET_SECRET_KEY", raising=False)
    path = tmp_path / "club.db"
    secret_key(path)
    monkeypatch.setattr(os, "geteuid", lambda: os.getuid() + 1)
    with pytest.raises(InsecureSecret, match="another user"):
        secret_key(path)


def test_serve_refuses_an_insecure_key_file_in_one_line(archive_path, monkeypatch):
    monkeypatch.delenv("JACQUET_SECRET_KEY", raising=False)
    key = archive_path.with_name(archive_path.name + ".secret")  # the archive's, beside it
    key.write_text("k" * 64)
    key.chmod(0o640)
    result = CliRunner().invoke(main, ["serve", "--db", str(archive_path), "--port", "1"])
    assert result.exit_code == 2 and "chmod 600" in result.output
    assert "Traceback" not in result.output


def test_import_refuses_an_sqlite_file_of_another_program(tmp_path):
    foreign = tmp_path / "notes.db"
    with sqlite3.connect(foreign) as connection:
        connection.execute("CREATE TABLE notes (text)")
    result = CliRunner().invoke(main, ["import", str(SAMPLE), "--db", str(foreign)])
    assert result.exit_code == 2 and "not a jacquet archive" in result.output
    with sqlite3.connect(foreign) as connection:
        tables = [row[0] for row in connection.execute("SELECT name FROM sqlite_master")]
    assert tables == ["notes"]


def damage(path: Path) -> None:
    """Overwrite a page in the middle of the archive's indexes with junk."""
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = connection.execute("PRAGMA page_size").fetchone()[0]
        root = connection.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'idx_games_hash'").fetchone()[0]
    with open(path, "r+b") as handle:
        handle.seek((root - 1) * page_size + 8)
        handle.write(b"\xff\x00" * 40)


def test_a_damaged_archive_is_refused_by_import_and_serve_and_reported_by_check(archive_path):
    runner = CliRunner()
    assert runner.invoke(main, ["check", "--db", str(archive_path)]).exit_code == 0
    damage(archive_path)
    checked = runner.invoke(main, ["check", "--db", str(archive_path)])
    assert checked.exit_code == 1 and "damaged" in checked.output
    imported = runner.invoke(main, ["import", str(SAMPLE), "--db", str(archive_path)])
    assert imported.exit_code == 2 and "damaged" in imported.output
    served = runner.invoke(main, ["serve", "--db", str(archive_path), "--port", "1"])
    assert served.exit_code == 2 and "damaged" in served.output
    assert "Traceback" not in checked.output + imported.output + served.output


def test_a_game_whose_text_cannot_be_stored_is_refused_alone(tmp_path):
    """A game built in code (no reader checked it) with a lone surrogate in a comment:
    refused with the reason, the games around it stored."""
    games = [random_game(rule_set("jacquet"), random.Random(seed)) for seed in range(3)]
    games[1].end().comments.append("half a pair: \ud800")
    db = archive.open_archive(tmp_path / "club.db")
    summary = archive.import_games(db, games)
    assert (summary.imported, summary.refused) == (2, 1)
    assert "cannot be stored" in str(summary.errors[0]) and summary.errors[0].game == 2
    assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 2


@pytest.fixture
def served(archive_path, tmp_path):
    """``jacquet serve`` on a free loopback port (``--port 0``: the one it prints), over the
    archive; its address."""
    import re
    import socket
    import subprocess
    import sys
    import time

    log = open(tmp_path / "serve.log", "w")  # noqa: SIM115 (closed when the server stops)
    server = subprocess.Popen([sys.executable, "-m", "jacquet_cli", "serve", "--db", str(archive_path),
                               "--port", "0"], stderr=log,
                              env={**os.environ, "JACQUET_SECRET_KEY": "k" * 40})
    deadline = time.monotonic() + 600  # a bound on serve's start, not a pace
    port = None
    while time.monotonic() < deadline and server.poll() is None:
        said = re.search(r"on http://127\.0\.0\.1:(\d+)/", (tmp_path / "serve.log").read_text())
        try:
            if said:
                port = int(said.group(1))
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
        except OSError:
            pass
        time.sleep(0.2)
    assert port, (tmp_path / "serve.log").read_text()[-2000:]
    try:
        yield ("127.0.0.1", port)
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


def test_idle_connections_do_not_lock_visitors_out(served, tmp_path):
    import http.client
    import socket

    idle = [socket.create_connection(served, timeout=5, source_address=(f"127.0.0.{3 + n % 3}", 0))
            for n in range(150)]  # from three addresses, each under CONNECTIONS_PER_ADDRESS
    visitor = http.client.HTTPConnection(*served, timeout=10, source_address=("127.0.0.2", 0))
    try:
        visitor.request("GET", "/")
        answer = visitor.getresponse()
        assert answer.status == 200, (answer.read()[-300:], (tmp_path / "serve.log").read_text()[-2000:])
    finally:
        visitor.close()
        for connection in idle:
            connection.close()


def test_a_body_over_the_upload_limit_is_refused_before_it_is_sent(served):
    import socket

    with socket.create_connection(served, timeout=10) as client:
        client.sendall(b"POST /validate HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000\r\n"
                       b"Content-Type: text/plain\r\n\r\n")
        answer = client.recv(200)
    assert answer.startswith(b"HTTP/1.1 413")


# ------------------------------------------------------------------ every request bounded

ILLEGAL = '[Variant "backgammon"]\n[LeadRoll "W2 B1"]\n\n1. 21: 24/20 *\n'
"""A play that fits no legal play of the roll, of which there are 15."""
CROWDED = "AwAAAFRVVVUAAA"
"""A backgammon position with 1,654 legal plays for 1-1."""


def csrf_of(client) -> str:
    page = client.get("/validate")
    return re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)


def post_record(client, text: str, fmt: str = "jqn", token: str | None = None):
    """The record sent to the Validate page as an uploaded file (the body encoded in
    memory: the test client would spool a large one to a file it never closes)."""
    import io

    from werkzeug.datastructures import FileStorage
    from werkzeug.test import encode_multipart

    boundary, body = encode_multipart({
        "csrf_token": token or csrf_of(client), "format": fmt, "variant": "jacquet",
        "record": "", "file": FileStorage(io.BytesIO(text.encode()), f"record.{fmt}")})
    return client.post("/validate", data=body,
                       content_type=f"multipart/form-data; boundary={boundary}")


def test_an_error_names_a_few_legal_plays_and_counts_the_rest(scorer):
    import io

    from notation.errors import LISTED_PLAYS
    from notation.formats.jqn import GameBuilder, read_games

    [game] = list(read_games(io.BytesIO(ILLEGAL.encode()), GameBuilder))
    [error] = game.errors
    assert len(error.legal_plays) == 15  # all kept for the API and --json
    legal = str(error).split("; legal: ")[1]
    assert legal.endswith(" and 5 more") and legal.count(", ") == LISTED_PLAYS - 1
    page = post_record(scorer, ILLEGAL)
    assert page.status_code == 200
    listed = re.search(r'<p class="legal">(.*?)</p>', page.text, re.DOTALL).group(1)
    assert shown("Legal plays for this roll (%(count)s):", count=15) in listed and listed.count("<code>") == LISTED_PLAYS
    assert listed.endswith(shown("and %(more)s more", more=5))


def test_the_legal_plays_api_returns_500_at_most_and_says_it_cut(scorer):
    answer = scorer.get(f"/api/legal?variant=backgammon&position={CROWDED}&dice=11").get_json()
    assert answer["count"] == 1654 and answer["truncated"] is True
    assert len(answer["plays"]) == 500 and all("play" in play for play in answer["plays"])


def test_a_json_upload_of_666000_empty_objects_is_refused_cheaply(make_app):
    """2 MB of ``{}``: refused past the game limit before any more games are built (the
    games used to be built first, 900 MB for this upload)."""
    import time
    import tracemalloc

    from webviewer.pages.validation import TooLarge, check_record

    text = "[" + ",".join(["{}"] * 666_000) + "]"
    assert len(text) < 2_000_000
    tracemalloc.start()
    started = time.perf_counter()
    try:
        with pytest.raises(TooLarge):
            check_record(text, "json", "jacquet", "empty.json", 500)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    print(f"\n666,000 empty objects: peak {peak / 2**20:.0f} MB, "
          f"{time.perf_counter() - started:.1f} s (traced)")
    assert peak < 250 * 2**20
    # the game limit's answer, whatever the machine's pace (not the time limit's)
    client = make_app(WORK_SECONDS=600).test_client()
    answer = post_record(client, text, "json")
    assert answer.status_code == 413 and "more than 500 games" in answer.text, answer.text[-400:]


UNBOUNDED_TURNS = 10**9
"""``MAX_TURNS`` for the tests of the time, memory and queue limits: the slow record holds
more turns than a validation may (on a fast machine that limit answers first)."""

SLOW = {"MAX_TURNS": UNBOUNDED_TURNS, "MAX_UPLOAD_BYTES": 8_000_000, "MAX_GAMES": 2_000}
"""The limits lifted for the tests of the time and queue limits, so that the slow record's
check outlasts their ``WORK_SECONDS`` on a quiet machine too."""


def slow_record(games: int = 1200) -> str:
    """A record that takes seconds to check: long murray games (four times the 300 games
    whose check took under 4 s on a quiet core)."""
    pool = [random_game(rule_set("murray"), random.Random(seed)) for seed in range(3)]
    return render([pool[number % 3] for number in range(games)], "jqn")


def test_a_validation_over_its_time_is_stopped_with_a_clear_answer(make_app):
    client = make_app(WORK_SECONDS=2, **SLOW).test_client()
    answer = post_record(client, slow_record())
    over = shown("This request was stopped: %(error)s. Send a smaller record (split it), or fewer games at once.",
                 error=shown("it took longer than %(seconds)s s (WORK_SECONDS)", seconds="2"))
    assert answer.status_code == 413 and over in answer.text, (answer.status_code, answer.text[-600:])
    assert client.get("/").status_code == 200
    # the next job runs, given the time a loaded machine needs to start its process
    client.application.extensions["jacquet.workers"].seconds = 600
    assert post_record(client, ILLEGAL).status_code == 200


def test_a_validation_over_its_memory_is_stopped_with_a_clear_answer(make_app):
    client = make_app(WORK_MEMORY_BYTES=120 * 2**20, MAX_TURNS=UNBOUNDED_TURNS).test_client()
    answer = post_record(client, slow_record(400))
    assert answer.status_code == 413 and "WORK_MEMORY_BYTES" in answer.text
    assert post_record(client, ILLEGAL).status_code == 200  # a small one fits


def test_when_every_worker_is_busy_and_the_queue_full_the_answer_is_503_retry_after(make_app, monkeypatch):
    """The one worker held by a first check (held in the pool until released: what is
    asserted does not depend on the machine's pace; the time limit's own answer is the
    test above), a second is refused at once while browsing goes on."""
    import threading

    held = HeldJobs(monkeypatch)
    app = make_app(WORKERS=1, WORK_QUEUE=0)
    first = app.test_client()
    token = csrf_of(first)
    answers = []
    worker = threading.Thread(target=lambda: answers.append(post_record(first, ILLEGAL, token=token)))
    worker.start()
    try:
        second = app.test_client()
        token_2 = csrf_of(second)
        assert held.started.acquire(timeout=600)  # the first one is in the worker
        refused = post_record(second, ILLEGAL, token=token_2)
        assert refused.status_code == 503
        assert refused.headers["Retry-After"] and "busy" in refused.text
        assert second.get("/").status_code == 200  # browsing is not queued behind it
    finally:
        held.release.set()
        worker.join()
    assert answers[0].status_code == 200 and "Legal plays" in answers[0].text  # the first, answered


@pytest.mark.parametrize("words", [21, 200])
def test_a_search_of_too_many_words_is_a_400(scorer, words):
    answer = scorer.get("/?player=" + "+".join(f"w{i}" for i in range(words)))
    assert answer.status_code == 400 and "words" in answer.text


def test_a_game_of_too_many_turns_with_its_variations_is_refused_at_import(tmp_path, monkeypatch):
    import archive.importer

    games = [random_game(rule_set("jacquet"), random.Random(seed), annotate=True)
             for seed in range(2)]
    big = max(games, key=lambda game: sum(1 for _ in game.descendants()))
    nodes = sum(1 for _ in big.descendants())
    monkeypatch.setattr(archive.importer, "MAX_NODES", nodes - 1)
    db = archive.open_archive(tmp_path / "club.db")
    summary = archive.import_games(db, [big])
    assert (summary.imported, summary.refused) == (0, 1)
    assert f"more than {nodes - 1:,} turns" in str(summary.errors[0])
    assert "MAX_NODES" in str(summary.errors[0])
    monkeypatch.setattr(archive.importer, "MAX_NODES", nodes)
    assert archive.import_games(db, [big]).imported == 1


def test_the_caches_are_bounded_by_bytes_too():
    from webviewer.plumbing.cache import BoundedCache

    cache: BoundedCache[str, str] = BoundedCache(100, max_bytes=10, weigh=len)
    for key in "abc":
        cache.get(key, lambda key=key: key * 4)
    assert cache.bytes == 8  # "aaaa" dropped for "cccc"
    made = []
    assert cache.get("b", lambda: made.append(1) or "new") == "bbbb" and not made  # still kept
    assert cache.get("a", lambda: "a" * 4) == "aaaa" and made == []
    assert cache.get("huge", lambda: "h" * 11) == "h" * 11  # made, never kept
    assert cache.bytes <= 10 and cache.get("huge", lambda: "again") == "again"


def test_the_game_views_are_weighed_by_their_nodes(scorer, monkeypatch):
    from webviewer.pages import kept_games

    scorer.get("/game/1")
    view_bytes = kept_games._views.bytes
    assert view_bytes > 0 and view_bytes % kept_games.NODE_BYTES == 0
