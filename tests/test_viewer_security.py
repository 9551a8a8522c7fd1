"""The viewer against hostile users: script in every field a user controls (tags, player
names, comments, the archive's query strings, record and upload names) rendered inert in
a real browser; every state-changing request CSRF-protected; no path traversal; error
pages without stack traces; security headers on every answer."""

from __future__ import annotations

import io

import pytest

import archive
from notation.formats.jqn import GameBuilder, read_games
from tests.browser_helpers import serving
from webviewer import create_app

MARK = "pwned"
PAYLOADS = (f'<script>window.{MARK}=1</script>', f'"><img src=x onerror="window.{MARK}=2">',
            f"'><svg onload=window.{MARK}=3>", f"</title><script>window.{MARK}=4</script>")


def hostile_record(payload: str) -> str:
    tag = payload.replace("\\", "\\\\").replace('"', '\\"')
    fields = ("Event", "Site", "Round", "White", "Black", "Annotator", "Match")
    return ("\n".join(f'[{name} "{tag}"]' for name in fields) + '\n[MatchLength "3"]\n'
            '[Variant "backgammon"]\n[LeadRoll "W3 B1"]\n\n'
            f"{{{payload}}} 1. 31: 8/5 6/5 {{{payload}}} (1. 31: 24/21 6/5 {{{payload}}}) "
            f"62: 24/18 13/11 $1 {{{payload}}} *\n")


@pytest.fixture(scope="module")
def archive_path(tmp_path_factory):
    """The viewer's archive (``app``, ``client``: tests/conftest.py): a game for each
    payload, in every tag, comment and variation."""
    path = tmp_path_factory.mktemp("security") / "hostile.db"
    db = archive.open_archive(path)
    games = [next(read_games(io.BytesIO(hostile_record(p).encode()), GameBuilder)) for p in PAYLOADS]
    assert not any(g.errors for g in games)
    archive.import_games(db, games)
    db.close()
    return path


def pages(client) -> list[str]:
    """Every page showing user text: the list, each game (and a variation), each player,
    searches echoing the query, the position page."""
    urls = ["/", "/?event=" + PAYLOADS[0], "/?player=" + PAYLOADS[1], "/?text=" + PAYLOADS[2]]
    for game_id in (1, 2, 3, 4):
        urls += [f"/game/{game_id}", f"/game/{game_id}?path=1", f"/game/{game_id}?ply=0"]
    urls += ["/player/" + p for p in PAYLOADS] + ["/position/" + PAYLOADS[0]]
    return urls


def test_user_text_is_escaped_in_every_page(client):
    for url in pages(client):
        response = client.get(url)
        assert response.status_code in (200, 400, 404), url
        for payload in PAYLOADS:
            assert payload not in response.text, (url, payload)


def test_a_game_pages_links_escape_the_address_it_is_served_under(client):
    """Served under a script root that holds quotes and ``&``: every link of the game page
    (the steps, the move list, the pip chart), flipped or not, escapes it."""
    root = "/a'b\"c&d"
    for flip in ("", "&flip=1"):
        text = client.get(f"/game/1?path=1{flip}", environ_overrides={"SCRIPT_NAME": root}).text
        hrefs = [part.split('"', 1)[0] for part in text.split('href="')[1:]]
        links = [href for href in hrefs if "/game/1?" in href]
        assert len(links) > 8
        assert all(href.startswith("/a&#39;b&#34;c&amp;d/game/1?") for href in links)
        assert sum(("&amp;flip=1" in href) != bool(flip) for href in links) == 1  # "Flip board"
        assert root not in text


def test_every_state_changing_route_needs_the_csrf_token(app):
    client = app.test_client()
    posts = [rule for rule in app.url_map.iter_rules() if "POST" in rule.methods]
    assert {rule.endpoint for rule in posts} >= {"record.start", "record.act", "check.validate", "check.save",
                                                  "accounts.login", "accounts.logout", "admin.game"}
    for rule in posts:
        if rule.endpoint == "accounts.choose_language":  # a visitor's choice is only his cookie:
            continue  # a signed-in user's needs the token (tests/test_viewer_language.py)
        url = rule.rule.replace("<key>", "somekey").replace("<int:game_id>", "1")
        response = client.post(url, data={"action": "roll", "variant": "jacquet", "record": "x"})
        assert response.status_code == 400 and "CSRF" in response.text, url
    for rule in app.url_map.iter_rules():
        assert rule.methods <= {"GET", "HEAD", "OPTIONS", "POST"}, rule  # no PUT/DELETE


@pytest.mark.parametrize("url", ["/static/../../etc/passwd", "/static/%2e%2e/%2e%2e/etc/passwd",
                                 "/game/1.%2e%2e%2fetc%2fpasswd", "/game/1.jqn/../../x",
                                 "/record/..%2f..%2fetc%2fpasswd", "/record/x.%2e%2e"])
def test_no_path_traversal(client, url):
    response = client.get(url)
    assert response.status_code in (400, 404) and "root:" not in response.text


def test_an_error_page_shows_no_stack_trace(archive_path):
    app = create_app({"ARCHIVE": str(archive_path)})  # the default configuration: no TESTING

    @app.get("/boom")
    def boom():
        raise RuntimeError("secret internals")

    response = app.test_client().get("/boom")
    assert response.status_code == 500
    assert "Traceback" not in response.text and "secret internals" not in response.text
    assert response.headers["Content-Security-Policy"].startswith("default-src 'self'")


@pytest.mark.parametrize("url", ["/", "/game/1", "/game/999", "/api/games/1", "/api/games/999",
                                 "/static/style.css", "/validate", "/record/", "/player/nobody"])
def test_security_headers_on_every_answer(client, url):
    with client.get(url) as response:
        headers = response.headers
        assert "script-src 'self'" in headers["Content-Security-Policy"]
        assert "unsafe-inline" not in headers["Content-Security-Policy"]
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "same-origin"


# ---------------------------------------------------------------- in a real browser

@pytest.fixture(scope="module")
def browser_page(archive_path, browser):
    """The viewer of the hostile archive served on a thread, a page of ``browser``
    (tests/conftest.py), and the messages of the dialogs the page opened."""
    with serving(create_app({"ARCHIVE": str(archive_path)})) as base:
        page = browser.new_page()
        dialogs = []
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        yield base, page, dialogs


def test_payloads_run_nothing_in_the_browser(browser_page, client):
    base, page, dialogs = browser_page
    for url in pages(client):
        page.goto(base + url)
        assert page.evaluate(f"window.{MARK}") is None, url
    page.goto(f"{base}/game/1")
    assert PAYLOADS[0] in page.inner_text("h1") and PAYLOADS[0] in page.inner_text(".moves")
    page.goto(f"{base}/validate")
    page.set_input_files("input[type=file]", files=[{
        "name": f"{PAYLOADS[3]}.jqn", "mimeType": "text/plain",
        "buffer": hostile_record(PAYLOADS[2]).encode()}])
    page.click("button[type=submit]")
    assert page.evaluate(f"window.{MARK}") is None
    assert dialogs == []


def test_the_session_key_is_kept_beside_the_archive_privately(tmp_path, monkeypatch):
    from webviewer.plumbing.secret import secret_key

    monkeypatch.delenv("JACQUET_SECRET_KEY", raising=False)
    path = tmp_path / "club.db"
    first = secret_key(path)
    kept = tmp_path / "club.db.secret"
    assert len(first) >= 32 and secret_key(path) == first  # the same after a restart
    assert kept.stat().st_mode & 0o777 == 0o600
    kept.write_text("")  # a file cut short (a crash, a full disk) is replaced
    second = secret_key(path)
    assert len(second) >= 32 and secret_key(path) == second
    monkeypatch.setenv("JACQUET_SECRET_KEY", "from the environment, 32 characters or more")
    assert secret_key(path) == "from the environment, 32 characters or more"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club.db.secret"]  # no temporary left
