"""The club server's remaining limits (issue 21): turns per validation, a live game's
change refused when its record would not read back, the worker pool started with the
server, cheap legal plays answered in the request, the import's audit entries, and the
list paged by key with bounded counts and the visitors' total."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from babel.numbers import format_decimal

import archive
import notation.formats.jqn.reader
from notation import rule_set
from notation.formats import render
from notation.messages import Message
from notation.tree.generate import random_game
from tests.accounts_helpers import signed_in_client
from tests.viewer_helpers import shown_pattern

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "jacquet" / "annotated-game.jqn"


@pytest.fixture
def archive_path(archive_of) -> Path:
    """The viewer's archive (``make_app``: tests/conftest.py): the jacquet sample."""
    return archive_of(SAMPLE)


def _client(make_app, **config):
    """A scorer's client, the heavy work in the request's thread."""
    return signed_in_client(make_app(WORKERS=0, **config))


def _csrf(client) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', client.get("/validate").text).group(1)


def _games(count: int) -> tuple[str, int]:
    """A record of ``count`` random jacquet games, and the turns it holds."""
    games = [random_game(rule_set("jacquet"), random.Random(seed)) for seed in range(count)]
    return render(games, "jqn"), sum(1 for game in games for _ in game.descendants())


def test_a_validation_over_its_turns_is_refused_with_a_clear_message(make_app, archive_path):
    record, turns = _games(3)
    within = _client(make_app, MAX_TURNS=turns)
    fields = {"record": record, "format": "jqn", "variant": "jacquet"}
    assert within.post("/validate", data={**fields, "csrf_token": _csrf(within)}).status_code == 200
    over = _client(make_app, MAX_TURNS=turns - 1)
    answer = over.post("/validate", data={**fields, "csrf_token": _csrf(over)})
    assert answer.status_code == 413
    over_turns = shown_pattern("The record holds more than %(limit)s turns, variations included (MAX_TURNS; game "
                               "%(game)s crosses it): split it and validate the parts one by one.",
                               limit=re.escape(format_decimal(turns - 1, locale="en")), game="3")
    assert over_turns.search(answer.text)
    saved = over.post("/validate/save", data={**fields, "name": "x.jqn", "csrf_token": _csrf(over)})
    assert saved.status_code == 413 and over_turns.search(saved.text)
    with archive.open_archive(archive_path, readonly=True) as db:
        assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 1  # nothing saved


def _version(client, at: str) -> str:
    return re.search(r'name="version" value="(\d+)"', client.get(at).text).group(1)


def test_a_live_game_change_that_would_not_read_back_is_refused(make_app, monkeypatch):
    """A comment that takes the record past the reader's size of a game is refused, and
    the game's page and downloads still answer (they were a 500 for good)."""
    monkeypatch.setattr(notation.formats.jqn.reader, "MAX_GAME_BYTES", 3000)
    client = _client(make_app, WTF_CSRF_ENABLED=False)
    started = client.post("/record/", data={"variant": "backgammon", "white": "Ann",
                                            "black": "Bob", "starter": "White"})
    at = started.headers["Location"]
    first = client.post(at, data={"version": _version(client, at), "action": "annotate",
                                  "comment": "a" * 1500})
    assert first.status_code == 303
    before = _version(client, at)
    second = client.post(at, data={"version": before, "action": "annotate", "comment": "b" * 1900})
    assert second.status_code == 303
    page = client.get(at)
    assert page.status_code == 200
    assert "could not be read back" in page.text and "longer than 3000 bytes" in page.text
    assert _version(client, at) == before  # nothing kept
    assert "a" * 1500 in page.text and "b" * 1900 not in page.text
    assert client.get(f"{at}.jqn").status_code == 200


@pytest.fixture
def ten(archive_of) -> Path:
    """An archive of ten generated jacquet games."""
    return archive_of(ROOT / "samples" / "generated" / "jacquet-10.jqn", name="ten.db")


def _listed(page: str) -> list[int]:
    return [int(number) for number in re.findall(r'<td data-label="#"><a href="/game/(\d+)"', page)]


def test_the_list_pages_by_key_both_ways(make_app, ten):
    client = make_app(ten, PAGE_SIZE=3).test_client()
    pages, at = [], "/"
    while True:
        page = client.get(at).text
        pages.append(_listed(page))
        following = re.search(r'href="([^"]+)" rel="next"', page)
        if following is None:
            break
        at = following.group(1).replace("&amp;", "&")
        assert f"after={pages[-1][-1]}" in at and f"page={len(pages) + 1}" in at
    assert pages == [[10, 9, 8], [7, 6, 5], [4, 3, 2], [1]]
    assert "10 games, page 4 of 4" in page
    back = []
    while (preceding := re.search(r'href="([^"]+)" rel="prev"', page)) is not None:
        page = client.get(preceding.group(1).replace("&amp;", "&")).text
        back.append(_listed(page))
    assert back == pages[-2::-1]


def test_a_filtered_list_counts_up_to_its_bound(make_app, ten, monkeypatch):
    monkeypatch.setattr("webviewer.blueprints.games.COUNT_LIMIT", 4)
    client = make_app(ten, PAGE_SIZE=3).test_client()
    filtered = client.get("/?variant=jacquet").text
    assert "More than 4 games, page 1," in filtered and 'rel="next"' in filtered
    assert "10 games" in client.get("/").text  # the kept count: exact


def test_the_visitors_total_leaves_hidden_games_out(make_app, ten):
    from archive.audit import set_hidden

    with archive.open_archive(ten) as db:
        assert set_hidden(db, 3, True, "admin")
    app = make_app(ten)
    visitor = app.test_client().get("/").text
    assert "9 games" in visitor and 3 not in _listed(visitor)
    admin = signed_in_client(app, "Admin", "admin").get("/").text
    assert "10 games" in admin and 3 in _listed(admin)


@pytest.mark.parametrize("query", ["error_rate_max=abc", "error_rate_min=-1", "error_rate_max=1e9",
                                   "error_rate_max=1.2345"])
def test_an_error_rate_that_is_no_number_is_a_400(make_app, ten, query):
    client = make_app(ten).test_client()
    answer = client.get(f"/?{query}")
    assert answer.status_code == 400 and "error rate" in answer.text


def test_the_search_form_offers_the_analysis_filters(make_app, ten):
    client = make_app(ten).test_client()
    page = client.get("/?error_rate_max=12.5&very_bad_by=Anne").text
    for name in ("error_rate_min", "error_rate_max", "very_bad_by"):
        assert f'name="{name}"' in page
    assert 'value="12.5"' in page and "0 games" in page  # none is analysed


def test_cheap_legal_plays_are_answered_without_a_worker(make_app, monkeypatch):
    """A roll of two different dice in the request; a doublet still in a worker."""
    from webviewer.plumbing.workers import Workers

    pooled = []

    def in_process(self, function, args):
        pooled.append(args[2])
        return function(*args)

    monkeypatch.setattr(Workers, "_in_process", in_process)
    client = make_app(WORKERS=2).test_client()
    cheap = client.get("/api/legal?variant=versailles&dice=31")
    assert cheap.status_code == 200 and cheap.get_json()["count"] > 0
    assert pooled == []
    doublet = client.get("/api/legal?variant=versailles&dice=33")
    assert doublet.status_code == 200 and pooled == ["33"]
    assert client.get("/api/legal?dice=77").status_code == 400


def test_import_logs_who_stored_which_games(tmp_path):
    from click.testing import CliRunner

    from archive.audit import entries, os_user
    from jacquet_cli import main

    db_path = tmp_path / "club.db"
    sample = str(ROOT / "samples" / "generated" / "jacquet-10.jqn")
    run = CliRunner().invoke
    assert run(main, ["import", sample, "--db", str(db_path)]).exit_code == 0
    assert run(main, ["import", sample, str(SAMPLE), "--db", str(db_path)]).exit_code == 0
    with archive.open_archive(db_path, readonly=True) as db:
        lines = entries(db)
    imported = [Message.of("audit.import", source=source, games=Message.of("count.games", count=count), numbers=numbers)
                for source, count, numbers in ((str(SAMPLE), 1, "11"), (sample, 10, "1-10"))]
    assert [(line["user"], line["action"], line["game_id"], Message.from_stored(line["detail_msg"]))
            for line in lines] == [(os_user(), "stored", 11, imported[0]), (os_user(), "stored", None, imported[1])]


def _children(pid: int) -> list[str]:
    """The command lines of the processes whose parent is ``pid``."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                found.append((stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode())
        except (OSError, IndexError, ValueError):
            continue
    return found


def test_serve_starts_the_workers_process_before_the_first_request(archive_path):
    import os
    import subprocess
    import sys
    import time

    server = subprocess.Popen([sys.executable, "-m", "jacquet_cli", "serve", "--db", str(archive_path),
                               "--port", "0"], stderr=subprocess.DEVNULL,
                              env={**os.environ, "JACQUET_SECRET_KEY": "k" * 40})
    try:
        deadline = time.monotonic() + 600  # a bound on serve's start, not a pace
        while not any("forkserver" in line for line in _children(server.pid)):
            assert time.monotonic() < deadline, "no forkserver started by serve"
            assert server.poll() is None, "serve stopped"
            time.sleep(0.2)
    finally:
        server.terminate()
        server.wait(timeout=30)
