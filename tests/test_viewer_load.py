"""A bounded load on the viewer served by waitress on loopback (issue 8): a few hundred
mixed requests from 8 concurrent clients, every one answered with the status expected, no
server error, no connection error. The load generator is ``bench/load.py`` (shared with
``bench/viewer_speed.py``)."""

from __future__ import annotations

import random

import pytest

import archive
from bench.load import Probe, run_load, serving
from webviewer import create_app
from webviewer.demo import build_demo

REQUESTS = 400
CLIENTS = 8
TIME_LIMIT = 60.0  # seconds; the run stops by itself then (and the test fails)
START = "AACA/z8AAID/Pw"  # the Jacquet starting position


@pytest.fixture(scope="module")
def viewer(tmp_path_factory):
    """The viewer over the demo archive, and the archive's (id, turns) and player names."""
    path = tmp_path_factory.mktemp("load") / "viewer.db"
    build_demo(path)
    db = archive.open_archive(path, readonly=True)
    try:
        games = list(db.execute("SELECT id, turns FROM games"))
        players = [row[0] for row in db.execute("SELECT name FROM players")]
    finally:
        db.close()
    return create_app({"ARCHIVE": str(path)}), games, players


def mixed_probes(games: list[tuple[int, int]], players: list[str], count: int, seed: int = 8) -> list[Probe]:
    """``count`` requests cycling through the pages, permalinks, searches, API endpoints,
    downloads and bad requests, on random games; each with the status it must get."""
    rng = random.Random(seed)
    missing = max(game_id for game_id, _ in games) + 1000
    kinds = [
        lambda i, t: Probe(f"/game/{i}"),
        lambda i, t: Probe(f"/game/{i}?ply={rng.randint(0, t)}"),
        lambda i, t: Probe(f"/game/{i}?ply={rng.randint(0, t)}&flip=1"),
        lambda i, t: Probe(f"/?player={rng.choice(players).replace(' ', '+')}"),
        lambda i, t: Probe(f"/?variant={rng.choice(['jacquet', 'murray', 'backgammon'])}&sort=turns&desc=1"),
        lambda i, t: Probe(f"/api/games?player={rng.choice(players).replace(' ', '+')}"),
        lambda i, t: Probe(f"/api/games/{i}"),
        lambda i, t: Probe(f"/api/positions/{START}?variant=jacquet"),
        lambda i, t: Probe(f"/api/legal?variant=jacquet&position={START}&dice={rng.randint(1, 6)}{rng.randint(1, 6)}"),
        lambda i, t: Probe(f"/game/{i}.jqn"),
        lambda i, t: Probe(f"/game/{missing}", 404),
        lambda i, t: Probe(f"/api/games/{missing}", 404),
        lambda i, t: Probe(f"/game/{i}?ply={t + 2}"),  # past the end: the end
        lambda i, t: Probe(f"/game/{i}?ply=-1", 400),
        lambda i, t: Probe(f"/game/{i}?ply=x", 400),
        lambda i, t: Probe("/?sort=evil", 400),
        lambda i, t: Probe("/api/legal?dice=77", 400),
    ]
    return [kinds[n % len(kinds)](*rng.choice(games)) for n in range(count)]


def test_viewer_under_a_bounded_load_answers_every_request_as_expected(viewer, capsys):
    app, games, players = viewer
    probes = mixed_probes(games, players, REQUESTS)
    with serving(app) as address:
        result = run_load(address, probes, CLIENTS, TIME_LIMIT)
    with capsys.disabled():
        print(f"\nviewer under load ({CLIENTS} clients, waitress on loopback): {result.summary()}")
    assert result.failures == [], result.failures[:10]
    assert len(result.latencies) == REQUESTS, f"stopped by the {TIME_LIMIT:.0f} s limit"


def test_load_reports_wrong_statuses_and_connection_errors(viewer):
    app, games, _ = viewer
    wrong = [Probe("/game/1", 404), Probe(f"/game/{max(i for i, _ in games) + 1}")]
    with serving(app) as address:
        served = run_load(address, wrong + [Probe("/game/1")], 2, TIME_LIMIT)
    assert sorted(f.split(":")[0] for f in served.failures) == sorted(p.path for p in wrong)
    assert len(served.latencies) == 3
    closed = run_load(address, [Probe("/")], 1, TIME_LIMIT)  # the server is gone
    assert closed.latencies == [] and closed.failures[0].startswith("connection error on /")
