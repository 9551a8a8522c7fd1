"""The web viewer through Flask's test client: pages, permalinks, the JSON API, errors,
security headers, and user text shown as text."""

import io

import pytest

import archive
from notation.jqn import GameBuilder, read_games
from webviewer import create_app
from webviewer.demo import build_demo, samples_folder

HOSTILE = ('[Event "<script>alert(1)</script>"]\n[White "<img src=x onerror=alert(2)>"]\n'
           '[Black "B"]\n\n{<script>alert(3)</script>} 1. 55: 24/4 {</li><script>x()</script>} *\n')


@pytest.fixture
def app(tmp_path):
    path = tmp_path / "viewer.db"
    build_demo(path)
    db = archive.open_archive(path)
    [hostile] = list(read_games(io.BytesIO(HOSTILE.encode("utf-8")), GameBuilder))
    archive.import_games(db, [hostile])
    db.close()
    return create_app({"ARCHIVE": str(path), "TESTING": True})


@pytest.fixture
def client(app):
    return app.test_client()


def test_demo_archive_holds_every_sample(tmp_path):
    summary = build_demo(tmp_path / "demo.db")
    samples = sorted(samples_folder().rglob("*.jqn"))
    assert samples and summary.imported >= 80 and summary.kept_invalid == 27
    assert summary.refused == 0


def test_archive_page_lists_and_filters(client):
    page = client.get("/")
    assert page.status_code == 200 and b"game(s)" in page.data
    murray = client.get("/?variant=murray")
    assert murray.status_code == 200 and b"murray" in murray.data and b"backgammon</td>" not in murray.data


@pytest.mark.parametrize("path", ["/?sort=evil", "/?points_min=abc", "/?result=X", "/?page=x"])
def test_bad_query_strings_are_400(client, path):
    assert client.get(path).status_code == 400


def test_game_page_has_a_permalink_for_every_ply(client):
    response = client.get("/game/1")
    assert response.status_code == 200
    assert b"<svg" in response.data and b"aria-current" in response.data
    text = response.data.decode()
    plies = [int(part.split('"')[0]) for part in text.split("ply=")[1:] if part.split('"')[0].isdigit()]
    assert 0 in plies and max(plies) >= 1
    first = client.get("/game/1?ply=1")
    assert first.status_code == 200 and b"Ply 1 of" in first.data


def test_unknown_game_is_404_and_bad_ply_is_400(client):
    assert client.get("/game/999999").status_code == 404
    assert client.get("/game/1?ply=9999").status_code == 400
    assert client.get("/game/1?ply=-1").status_code == 400


def test_invalid_game_shows_its_error(client, app):
    with app.app_context():
        from webviewer.db import get_db
        [row], _ = archive.search(get_db(), archive.Query(valid=False, limit=1))
    page = client.get(f"/game/{row['id']}")
    assert page.status_code == 200 and b"breaks a rule" in page.data
    assert row["error_rule"].encode() in page.data


def test_user_text_is_escaped_and_headers_are_strict(client, app):
    with app.app_context():
        from webviewer.db import get_db
        [row], _ = archive.search(get_db(), archive.Query(player="B", limit=1))
    for path in (f"/game/{row['id']}", "/?player=%3Cscript%3E"):
        page = client.get(path)
        assert page.status_code == 200
        assert b"<script>" not in page.data and b"<img" not in page.data
        assert b"&lt;script&gt;" in page.data or path.startswith("/?")
        policy = page.headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy
        assert page.headers["X-Content-Type-Options"] == "nosniff"


def test_json_api(client):
    games = client.get("/api/games?variant=jacquet").get_json()
    assert games["total"] > 0 and all(g["variant"] == "jacquet" for g in games["games"])
    one = client.get(f"/api/games/{games['games'][0]['id']}").get_json()
    assert one["variant"] == "jacquet" and one["turns"] and "position" in one["turns"][0]
    assert client.get("/api/games/999999").status_code == 404
    legal = client.get("/api/legal?variant=jacquet&position=AACA/z8AAID/Pw&dice=55").get_json()
    assert [p["play"] for p in legal] == ["24/19/14/9/4"]
    assert client.get("/api/legal?dice=77").status_code == 400
    assert client.get("/api/legal?dice=55&position=nope").status_code == 400
    explored = client.get("/api/positions/AACA/z8AAID/Pw?variant=jacquet").get_json()
    assert explored["games"] and explored["plays"]
    assert client.get("/api/positions/not-an-id").status_code == 400


def test_serve_command_is_documented():
    from click.testing import CliRunner

    from jacquet_cli import main

    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0 and "demo" in result.output and "--port" in result.output


def test_pip_chart_links_every_ply(client):
    page = client.get("/game/1?ply=0").data.decode()
    assert 'class="pip-chart"' in page
    assert page.count('href="/game/1?ply=') >= 2


@pytest.mark.parametrize("fmt", ["jqn", "xml", "json"])
def test_downloads_read_back_to_the_same_game(client, app, fmt, tmp_path):
    from notation.formats import read_file
    from notation.game import same_tree

    response = client.get(f"/game/1.{fmt}")
    assert response.status_code == 200
    assert "attachment" in response.headers["Content-Disposition"]
    path = tmp_path / f"g.{fmt}"
    path.write_bytes(response.data)
    [game] = list(read_file(path))
    with app.app_context():
        from webviewer.db import get_db
        stored = archive.load_game(get_db(), 1)
    assert same_tree(game, stored)


def test_download_errors(client):
    assert client.get("/game/1.exe").status_code == 404
    assert client.get("/game/999999.jqn").status_code == 404


def test_keyboard_script_is_a_static_file(client):
    with client.get("/static/keys.js") as script:
        assert script.status_code == 200 and b"ArrowLeft" in script.data
    assert b"<script>" not in client.get("/game/1").data  # no inline script
