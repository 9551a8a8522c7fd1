"""The web viewer through Flask's test client: pages, permalinks, the JSON API, errors,
security headers, and user text shown as text."""

import io
import re

import pytest
from markupsafe import escape

import archive
from notation.formats.jqn import GameBuilder, read_games
from tests.archive_fixtures import ERROR_GAMES
from tests.viewer_helpers import shown
from webviewer.demo import build_demo, samples_folder

HOSTILE = ('[Event "<script>alert(1)</script>"]\n[White "<img src=x onerror=alert(2)>"]\n'
           '[Black "B"]\n\n{<script>alert(3)</script>} 1. 55: 24/4 {</li><script>x()</script>} *\n')


@pytest.fixture
def archive_path(tmp_path):
    """The viewer's archive (``app``, ``client``: tests/conftest.py): the demo, and a game
    whose tags and comments are script."""
    path = tmp_path / "viewer.db"
    build_demo(path)
    db = archive.open_archive(path)
    [hostile] = list(read_games(io.BytesIO(HOSTILE.encode("utf-8")), GameBuilder))
    archive.import_games(db, [hostile])
    db.close()
    return path


def test_demo_archive_holds_every_sample(tmp_path):
    summary = build_demo(tmp_path / "demo.db")
    samples = sorted(samples_folder().rglob("*.jqn"))
    assert samples and summary.imported >= 80 and summary.kept_invalid == ERROR_GAMES
    assert summary.refused == 0


def test_archive_page_lists_and_filters(client):
    page = client.get("/")
    assert page.status_code == 200 and b" games" in page.data
    murray = client.get("/?variant=murray")
    assert murray.status_code == 200 and b"murray" in murray.data and b"backgammon</td>" not in murray.data


@pytest.mark.parametrize("path", [
    "/?sort=evil", "/?points_min=abc", "/?result=X", "/?page=x", "/?page=--5", "/?page=\u0663",
    "/?page=999999999999999999999999", "/?turns_min=99999999999999999999999",
    "/?points_max=9223372036854775808", "/?valid=maybe", "/?desc=yes", "/?from=abc", "/?to=2023.1",
    "/game/1?flip=yes", "/?from=2026.13", "/?to=2026.01.32",
    "/api/games?page=99999999999999999999999"])
def test_bad_query_strings_are_400(client, path):
    assert client.get(path).status_code == 400


@pytest.mark.parametrize("path", ["/game/99999999999999999999999", "/game/99999999999999999999999.jqn",
                                  "/api/games/99999999999999999999999"])
def test_an_id_too_large_for_the_archive_is_404(client, path):
    assert client.get(path).status_code == 404


def test_the_archive_page_links_carry_only_the_search(client):
    """Other query-string names (Flask's own url_for arguments among them) are not passed
    on: they neither break the page nor change its links."""
    page = client.get("/?player=a&_anchor=x&_external=1&endpoint=y&_method=POST&sort=turns&desc=1")
    assert page.status_code == 200
    links = re.findall(r'href="(/\?[^"]*)"', page.get_data(as_text=True))
    assert links and all("#" not in link and "endpoint" not in link and "_" not in link.split("?")[1]
                         for link in links)
    assert not re.search(r'href="https?:', page.get_data(as_text=True).split("<main")[1])


def test_the_archive_form_offers_every_filter_and_headings_sort(client):
    page = client.get("/?sort=turns").get_data(as_text=True)
    for name in ("player", "white", "black", "event", "variant", "from", "to", "result", "points_min",
                 "points_max", "turns_min", "turns_max", "valid", "text", "sort", "desc"):
        assert f'name="{name}"' in page
    assert '<th aria-sort="ascending"><a href="/?sort=turns&amp;desc=1">Turns ▲</a></th>' in page
    assert '<th><a href="/?sort=date&amp;desc=0">Date</a></th>' in page


def test_dates_up_to_a_year_take_in_the_whole_year(client, app):
    with app.app_context():
        from webviewer.plumbing.db import get_db
        dates = [row[0] for row in get_db().execute("SELECT date FROM games WHERE date IS NOT NULL")]
    assert dates
    year = max(dates)[:4]
    expected = sum(1 for date in dates if date[:4] <= year)
    assert client.get(f"/api/games?to={year}").get_json()["total"] == expected


def test_player_search_finds_words_begun_and_quotes_find_the_name_only(client):
    def total(player: str) -> int:
        return client.get("/api/games", query_string={"player": player}).get_json()["total"]

    white, black, both = total('"Sample White"'), total('"Sample Black"'), total("sam")
    assert white > 0 and black > 0 and both >= max(white, black)
    assert total("white sam") == white and total("SAMPLE") == both and total("ample") == 0
    player = client.get("/player/Sample White").get_data(as_text=True)
    assert "player=%22Sample+White%22" in player  # the player page's links name that player only


def test_api_errors_are_json_everywhere_under_api(client):
    for path, code in (("/api/games/abc", 404), ("/api/nothing", 404), ("/api/games?valid=x", 400)):
        answer = client.get(path)
        assert answer.status_code == code and "error" in answer.get_json()
    assert client.post("/api/legal").status_code == 405 and "error" in client.post("/api/legal").get_json()
    assert all("source_file" not in game for game in client.get("/api/games").get_json()["games"])


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
    assert client.get("/game/1?ply=9999").data == client.get("/game/1").data  # past the end: the end
    assert client.get("/game/1?ply=-1").status_code == 400


def test_invalid_game_shows_its_error(client, app):
    with app.app_context():
        from webviewer.plumbing.db import get_db
        [row], _ = archive.search(get_db(), archive.Query(valid=False, limit=1))
    page = client.get(f"/game/{row['id']}")
    assert page.status_code == 200 and b"breaks a rule" in page.data
    assert row["error_rule"].encode() in page.data


def test_an_invalid_games_error_is_said_once_and_its_ply_linked(client, app):
    """The heading says the error; the move list ends with the refused turn's ply, linked
    to its page, the position it was played from; no ply lies beyond it; the error's text
    is nowhere else, whatever the ply shown."""
    with app.app_context():
        from webviewer.plumbing.db import get_db
        rows, _ = archive.search(get_db(), archive.Query(valid=False, turns_min=2, limit=1))
    [row] = rows
    ply, game = row["error_ply"], f"/game/{row['id']}"
    message = str(escape(row["error_message"]))
    refused = client.get(f"{game}?ply={ply}").get_data(as_text=True)
    assert (f'<p class="error" role="alert">{shown("This game breaks a rule at ply %(ply)s", ply=ply)}: '
            f'[{row["error_rule"]}] {message}</p>') in refused
    assert (f'<div class="aside error"><a href="{game}?ply={ply}" class="refused">'
            f'{shown("Ply %(ply)s: reading stops here (%(rule)s)", ply=ply, rule=row["error_rule"])}</a></div>') in refused
    before = shown("Ply %(ply)s of %(last)s", ply=ply - 1, last=ply - 1)
    assert before in refused  # the board before the refused turn
    beyond = client.get(f"{game}?ply={ply + 1}").get_data(as_text=True)  # past the end: the end
    assert before in beyond
    for text in (refused, beyond, client.get(f"{game}?ply={ply - 2}").get_data(as_text=True)):
        assert text.count(message) == 1 and "refused-here" not in text


def test_user_text_is_escaped_and_headers_are_strict(client, app):
    with app.app_context():
        from webviewer.plumbing.db import get_db
        [row], _ = archive.search(get_db(), archive.Query(event="<script>alert(1)</script>", limit=1))
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
    assert [p["play"] for p in legal["plays"]] == ["24/19/14/9/4"]
    assert (legal["count"], legal["truncated"]) == (1, False)
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


def test_serve_sets_the_collector_for_serving_before_the_first_request(tmp_path, monkeypatch):
    """What start-up made is out of the collector's sight and full collections are rarer
    by the time waitress is handed the app (jacquet_cli.collector); the served app is the
    viewer over the demo archive built at --db."""
    import gc

    from click.testing import CliRunner

    from jacquet_cli import main
    from jacquet_cli.collector import FULL_COLLECTION_EVERY, YOUNG_COLLECTION_AFTER

    seen = {}

    class Server:
        def run(self):
            seen.update(threshold=gc.get_threshold(), frozen=gc.get_freeze_count())

    def guarded_server(app, listening):
        seen.update(archive=app.config["ARCHIVE"], address=listening.getsockname())
        listening.close()
        return Server()

    monkeypatch.setattr("webviewer.plumbing.serving.guarded_server", guarded_server)
    threshold = gc.get_threshold()
    try:
        db = tmp_path / "demo.db"  # --port 0: any free port, and the address says which
        result = CliRunner().invoke(main, ["serve", "--db", str(db), "--port", "0"])
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
    assert result.exit_code == 0, result.output
    assert seen["threshold"] == (YOUNG_COLLECTION_AFTER, threshold[1], FULL_COLLECTION_EVERY)
    assert threshold[2] < FULL_COLLECTION_EVERY and threshold[0] < YOUNG_COLLECTION_AFTER
    assert seen["frozen"] > 0
    host, port = seen["address"]
    assert seen["archive"] == str(db) and host == "127.0.0.1" and port > 0
    assert f"on http://127.0.0.1:{port}/" in result.output


def test_serve_says_why_it_cannot_listen(tmp_path):
    """A port already taken, or a host that is no address, is a one-line error, not a
    traceback; and nothing says it is serving."""
    import gc
    import socket

    from click.testing import CliRunner

    from jacquet_cli import main

    db = tmp_path / "demo.db"
    threshold = gc.get_threshold()
    try:
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            port = taken.getsockname()[1]
            result = CliRunner().invoke(main, ["serve", "--db", str(db), "--port", str(port)])
        bad_host = CliRunner().invoke(main, ["serve", "--db", str(db), "--host", "256.1.1.1"])
    finally:  # serve set the collector for serving before it tried to listen
        gc.unfreeze()
        gc.set_threshold(*threshold)
    assert result.exit_code == 1
    assert f"cannot listen on 127.0.0.1:{port}: Address already in use" in result.output
    assert "Traceback" not in result.output and "serving" not in result.output
    result = bad_host
    assert result.exit_code == 2
    assert "'256.1.1.1' is not an address or a known host name" in result.output
    assert "Traceback" not in result.output


def test_pip_chart_links_every_ply(client):
    page = client.get("/game/1?ply=0").data.decode()
    assert 'class="pip-chart"' in page
    assert page.count('href="/game/1?ply=') >= 2


@pytest.mark.parametrize("fmt", ["jqn", "xml", "json"])
def test_downloads_read_back_to_the_same_game(client, app, fmt, tmp_path):
    from notation.formats import read_file
    from tests.trees import same_tree

    response = client.get(f"/game/1.{fmt}")
    assert response.status_code == 200
    assert "attachment" in response.headers["Content-Disposition"]
    path = tmp_path / f"g.{fmt}"
    path.write_bytes(response.data)
    [game] = list(read_file(path))
    with app.app_context():
        from webviewer.plumbing.db import get_db
        stored = archive.load_game(get_db(), 1)
    assert same_tree(game, stored)


def test_a_download_is_written_once_and_kept(client, monkeypatch):
    """A large game's file is not written again for every download: the second asks
    nothing of the record's reader, and the file is the same."""
    from webviewer.pages import kept_games

    reads = []
    reader = kept_games.game_from_record
    monkeypatch.setattr(kept_games, "game_from_record",
                        lambda *args: reads.append(args) or reader(*args))
    first = client.get("/game/2.xml")
    second = client.get("/game/2.xml")
    assert first.status_code == second.status_code == 200
    assert first.data == second.data and len(reads) == 1
    assert client.get("/game/2.jqn").status_code == 200 and len(reads) == 2  # another format


def test_download_errors(client):
    assert client.get("/game/1.exe").status_code == 404
    assert client.get("/game/999999.jqn").status_code == 404


def test_viewer_script_is_a_static_file(client):
    with client.get("/static/viewer.js") as script:
        assert script.status_code == 200 and b"ArrowLeft" in script.data
    assert b"<script>" not in client.get("/game/1").data  # no inline script


NESTED = ('[White "Ann"]\n[Black "Bob"]\n[Variant "backgammon"]\n[LeadRoll "W3 B1"]\n\n'
          '1. 31: 8/5 6/5 (1. 31: 24/21 6/5 {split} 1... 62: 24/18 13/11 (1... 62: 24/16)) '
          '1... 62: 24/18 13/11 (1... 62: 24/16 {run}) *\n')


@pytest.fixture
def nested(app):
    """The id of a game with a variation inside a variation."""
    [game] = list(read_games(io.BytesIO(NESTED.encode("utf-8")), GameBuilder))
    assert not game.errors, game.errors
    with app.app_context():
        db = archive.open_archive(app.config["ARCHIVE"])
        archive.import_games(db, [game])
        game_id = db.execute("SELECT max(id) FROM games").fetchone()[0]
        db.close()
    return game_id


def test_every_variation_turn_is_a_link_that_shows_it(client, nested):
    page = client.get(f"/game/{nested}").data.decode()
    for path in ("1", "1.0", "1.1", "0.1"):
        assert f'path={path}"' in page
    text = client.get(f"/game/{nested}?path=1.1").data.decode()
    current = text.split('aria-current="true"')[1].split("</a>")[0]
    assert "24/16" in current and f'<span class="in-variation"> {shown("(in a variation)")}</span>' in text
    assert "White: 2 on 21" not in text and "1 on 21" in text  # the split, then Black's run
    back = text.split('" rel="up"')[0].rsplit('href="', 1)[1]
    assert back.endswith("?ply=0")  # back to the main line where the variation branched
    run = client.get(f"/game/{nested}?path=0.1").data.decode()
    assert "24/16" in run.split('aria-current="true"')[1].split("</a>")[0]
    assert 'rel="up" class="leave" aria-keyshortcuts="ArrowUp">' in run
    assert shown("Ply %(ply)s of %(last)s", ply=2, last=2) in run
    main = client.get(f"/game/{nested}?ply=1").data.decode()
    assert '<span class="in-variation" hidden>' in main and '<a rel="up" class="leave" aria-keyshortcuts="ArrowUp" hidden>' in main


@pytest.mark.parametrize("path", ["9", "0.0.0.0.0.0.7", "a", "0..1", "-1", "1" * 20_000])
def test_a_path_naming_no_turn_is_400(client, nested, path):
    assert client.get(f"/game/{nested}?path={path}").status_code == 400


def test_position_page_lists_games_and_plays(client):
    page = client.get("/game/1?ply=0").data.decode()
    link = "/position/" + page.split('href="/position/')[1].split('"')[0].replace("&amp;", "&")
    response = client.get(link)
    assert response.status_code == 200
    text = response.data.decode()
    assert "<svg" in text and "/game/1?ply=0" in text
    assert shown("Plays made from it") in text and "<td>" in text  # the first play of game 1 at least
    position_id = link.split("/position/")[1].split("?")[0]
    assert client.get("/position/notanid").status_code == 400
    assert client.get(f"/position/{position_id}?variant=chess").status_code == 400


def test_player_page_shows_results_by_rule_set(client, nested):
    response = client.get("/player/ann")  # names are matched without regard to case
    assert response.status_code == 200
    text = response.data.decode()
    assert "backgammon</a>" in text and f"/game/{nested}" in text
    assert client.get("/player/Nobody%20at%20all").status_code == 404


def test_every_address_in_a_flipped_page_escapes_its_ampersands(client):
    """Links of the move list and of the pip chart's inline SVG alike: a raw ``&`` in an
    attribute is an error in XML and ambiguous in HTML."""
    text = client.get("/game/1?ply=2&flip=1").get_data(as_text=True)
    hrefs = [part.split('"', 1)[0] for part in text.split('href="')[1:]]
    flipped = [href for href in hrefs if "flip=1" in href]
    assert len(flipped) > 2 and all("&amp;flip=1" in href for href in flipped)
    assert "&flip=" not in text
