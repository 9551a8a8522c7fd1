"""Accounts and roles in the viewer: a visitor reads and validates but writes nothing (401,
nothing stored), a scorer records and saves, an admin hides, shows and deletes games with
each change in the audit log; signing in, its limit on guessing, where it leads back to;
live games owned by their scorer, capped and expiring; the Host header, the session
cookie and the CSRF tokens' lifetime; and what ``jacquet serve`` says on an open address.
(The findings of issue 21's audit: each test fails on the viewer before accounts.)"""

from __future__ import annotations

import re
import socket
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import archive
from archive.accounts import check_password, find_user, remove_user, set_password
from notation import rule_set
from tests.accounts_helpers import add_account, sign_in, signed_in_client
from tests.viewer_helpers import shown, shown_count, shown_pattern

SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "jacquet" / "annotated-game.jqn"
GAME = ('[Event "Club night"]\n[White "Marie"]\n[Black "Jean"]\n\n'
        '1. 55: 24/4 66: 24/18 2. 21: 4/1 21: 18/15 *\n')


@pytest.fixture
def archive_path(archive_of):
    """The viewer's archive (``make_app``: tests/conftest.py): one game."""
    return archive_of(GAME)


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def token(client, page: str = "/validate") -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', client.get(page).text).group(1)


def count(path, table: str) -> int:
    db = archive.open_archive(path)
    try:
        return db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    finally:
        db.close()


def start(client, **fields):
    return client.post("/record/", data={"csrf_token": token(client), "variant": "jacquet",
                                         "white": "Ann", "black": "Bob", "starter": "White", **fields})


# ---------------------------------------------------------------- visitors

def test_a_visitor_writes_nothing_whatever_the_form(make_app, archive_path):
    """A CSRF token from any page was all a write needed: now a visitor's save, start,
    action or admin change answers 401 and stores nothing."""
    client = make_app().test_client()
    csrf = token(client)
    games = count(archive_path, "games")
    record = SAMPLE.read_text(encoding="utf-8")
    saved = client.post("/validate/save", data={"csrf_token": csrf, "record": record, "format": "jqn"})
    assert saved.status_code == 401 and "nothing was changed" in saved.text
    assert 'href="/login' in saved.text
    started = client.post("/record/", data={"csrf_token": csrf, "variant": "jacquet", "starter": "White"})
    assert started.status_code == 401
    assert client.post("/admin/game/1", data={"csrf_token": csrf, "action": "delete",
                                              "confirm": "yes"}).status_code == 401
    assert count(archive_path, "games") == games and count(archive_path, "live_games") == 0
    assert count(archive_path, "audit") == 0
    # validating needs no account, and offers to sign in instead of a save button
    checked = client.post("/validate", data={"csrf_token": csrf, "record": record, "format": "jqn"})
    assert checked.status_code == 200 and shown("Every game is legal") in checked.text
    assert 'action="/validate/save"' not in checked.text
    assert shown_pattern('<a href="%(link)s">Sign in as a scorer</a> to save it to the archive.',
                         link=r"/login\?next=[^\"]+").search(checked.text)


OPEN_TO_VISITORS = {"check.validate", "accounts.login", "accounts.logout", "accounts.choose_language",
                    "play.start", "play.act", "practice.answer"}
"""The forms a visitor may send: validating (nothing saved), signing in and out, playing the
engine (a game of his own, bounded: docs/play.md; storing it in the archive is a scorer's),
choosing the pages' language (a cookie), answering a practice position (his cards kept in
his cookie: docs/viewer.md)."""


def test_every_other_form_needs_a_signed_in_user(make_app, archive_path):
    app = make_app()
    client = app.test_client()
    posts = [rule for rule in app.url_map.iter_rules() if "POST" in rule.methods]
    assert len(posts) > len(OPEN_TO_VISITORS)
    for rule in posts:
        if rule.endpoint in OPEN_TO_VISITORS:
            continue
        url = rule.rule.replace("<key>", "somekey").replace("<int:game_id>", "1")
        answer = client.post(url, data={"csrf_token": token(client), "action": "hide"})
        assert answer.status_code == 401, url
    assert count(archive_path, "audit") == count(archive_path, "live_games") == 0 and count(archive_path, "games") == 1


def test_a_visitor_asking_for_a_scorers_page_is_sent_to_sign_in_and_back(make_app, archive_path):
    add_account(archive_path)
    client = make_app().test_client()
    asked = client.get("/record/")
    assert asked.status_code == 303 and asked.headers["Location"] == "/login?next=/record/"
    form = client.get(asked.headers["Location"]).text
    assert 'name="next" value="/record/"' in form and 'name="password"' in form
    signed = sign_in(client, next_page="/record/")
    assert signed.status_code == 303 and signed.headers["Location"] == "/record/"
    assert client.get("/record/").status_code == 200
    header = client.get("/").text
    assert "Scorer (scorer)" in header and shown("Sign out") in header


@pytest.mark.parametrize("target", ["//evil.example/x", "https://evil.example/", "/\\evil.example",
                                    "/\t/evil.example", "javascript:alert(1)", "evil"])
def test_signing_in_leads_back_to_a_local_path_only(make_app, archive_path, target):
    add_account(archive_path)
    client = make_app().test_client()
    signed = sign_in(client, next_page=target)
    assert signed.status_code == 303 and signed.headers["Location"] == "/"


def test_a_wrong_password_is_refused_and_guessing_is_limited(make_app, archive_path):
    """Five failures for a name from an address, and that name waits there, right
    password or not (issue 33: from another address it may still sign in,
    tests/test_sign_in_limit.py)."""
    add_account(archive_path)
    add_account(archive_path, "Other")
    app = make_app(LOGIN_FAILURES=5, LOGIN_LOCKOUT_SECONDS=900)
    client = app.test_client()
    for _ in range(5):
        wrong = sign_in(client, password="guess")
        assert wrong.status_code == 401 and shown("Unknown name or wrong password.") in wrong.text
    locked = sign_in(client)  # the right password, too late
    assert locked.status_code == 429 and int(locked.headers["Retry-After"]) > 800
    assert shown_count("Too many failed sign-ins for this name or from this address: try again in %(num)d "
                       "minute.", "Too many failed sign-ins for this name or from this address: try again "
                       "in %(num)d minutes.", 15) in locked.text
    assert sign_in(client, "Other").status_code == 303  # another name from there may
    assert "Scorer (scorer)" not in client.get("/").text


def test_an_unknown_name_is_refused_like_a_wrong_password(make_app):
    client = make_app().test_client()
    refused = sign_in(client, "Nobody")
    assert refused.status_code == 401 and shown("Unknown name or wrong password.") in refused.text


# ---------------------------------------------------------------- scorers and admins

def test_a_scorer_saves_and_the_save_is_logged(make_app, archive_path):
    client = signed_in_client(make_app())
    record = SAMPLE.read_text(encoding="utf-8")
    saved = client.post("/validate/save", data={"csrf_token": token(client), "record": record,
                                                "format": "jqn", "name": "club.jqn"})
    assert saved.status_code == 200 and shown_count("%(num)d game saved; duplicates skipped (already in the archive): %(duplicates)s; turns "
                                                       "stored: %(turns)s.", "%(num)d games saved; duplicates skipped "
                                                       "(already in the archive): %(duplicates)s; turns stored: "
                                                       "%(turns)s.", 1, duplicates=0, turns=0).split(";")[0] in saved.text
    db = archive.open_archive(archive_path)
    line = db.execute("SELECT user, action, game_id, detail FROM audit").fetchall()
    newest = db.execute("SELECT max(id) FROM games").fetchone()[0]
    db.close()
    assert line == [("Scorer", "stored", newest, "saved from club.jqn")]


def test_a_scorer_is_not_an_admin(make_app, archive_path):
    client = signed_in_client(make_app())
    hide = client.post("/admin/game/1", data={"csrf_token": token(client), "action": "hide"})
    assert hide.status_code == 403 and "needs the admin role" in hide.text
    assert client.get("/admin/audit").status_code == 403
    assert count(archive_path, "audit") == 0


def test_an_admin_hides_shows_and_deletes_a_game_each_change_logged(make_app, archive_path):
    app = make_app()
    admin = signed_in_client(app, "Boss", "admin")
    visitor = app.test_client()
    assert visitor.get("/game/1").status_code == 200
    page = admin.get("/game/1").text
    assert 'value="hide"' in page and 'value="delete"' in page
    assert 'value="hide"' not in visitor.get("/game/1").text  # no controls for the others
    hidden = admin.post("/admin/game/1", data={"csrf_token": token(admin), "action": "hide"})
    assert hidden.status_code == 303
    for url in ("/game/1", "/game/1.jqn", "/api/games/1"):
        assert visitor.get(url).status_code == 404, url
    assert "/game/1" not in visitor.get("/").text and visitor.get("/api/games").json["total"] == 0
    assert visitor.get("/player/Marie").status_code == 404
    opening = "/api/positions/" + rule_set("jacquet").start.position_id()
    assert visitor.get(opening).json["games"] == [] and visitor.get(opening).json["plays"] == []
    assert "This game is hidden" in admin.get("/game/1").text and '/game/1"' in admin.get("/").text
    shown = admin.post("/admin/game/1", data={"csrf_token": token(admin), "action": "show"})
    assert shown.status_code == 303 and visitor.get("/game/1").status_code == 200
    unconfirmed = admin.post("/admin/game/1", data={"csrf_token": token(admin), "action": "delete"})
    assert unconfirmed.status_code == 303 and count(archive_path, "games") == 1
    deleted = admin.post("/admin/game/1", data={"csrf_token": token(admin), "action": "delete",
                                                "confirm": "yes"})
    assert deleted.status_code == 303
    assert admin.get("/game/1").status_code == 404 and visitor.get("/game/1").status_code == 404
    assert count(archive_path, "games") == count(archive_path, "turns") == count(archive_path, "position_plays") == 0
    log = admin.get("/admin/audit").text
    assert [a for a in ("hidden", "shown", "deleted") if f'<td data-action="{a}">' in log] == ["hidden", "shown", "deleted"]
    assert "Marie - Jean *" in log and log.count("<td>Boss</td>") == 3


def test_a_hidden_game_leaves_the_explorer_counts(make_app, archive_path):
    admin = signed_in_client(make_app(), "Boss", "admin")
    before = count(archive_path, "position_plays")
    admin.post("/admin/game/1", data={"csrf_token": token(admin), "action": "hide"})
    assert before > 0 and count(archive_path, "position_plays") == 0
    admin.post("/admin/game/1", data={"csrf_token": token(admin), "action": "show"})
    assert count(archive_path, "position_plays") == before


def test_a_new_password_ends_the_users_sessions(make_app, archive_path):
    app = make_app()
    client = signed_in_client(app)
    assert "Scorer (scorer)" in client.get("/").text
    db = archive.open_archive(archive_path)
    set_password(db, "Scorer", "another password")
    assert check_password(db, "scorer", "another password") is not None
    db.close()
    assert "Scorer (scorer)" not in client.get("/").text
    assert client.post("/record/", data={"csrf_token": token(client), "variant": "jacquet",
                                         "starter": "White"}).status_code == 401


def test_signing_out(make_app):
    client = signed_in_client(make_app())
    out = client.post("/logout", data={"csrf_token": token(client)})
    assert out.status_code == 303 and "Sign in" in client.get("/").text
    assert start(client).status_code == 401 and client.get("/record/").status_code == 303


# ---------------------------------------------------------------- live games

def test_a_live_game_is_its_scorers_and_anyone_may_watch(make_app):
    """Anyone holding a live game's address could finish it: now others watch it, read only."""
    app = make_app()
    scorer = signed_in_client(app)
    at = start(scorer).headers["Location"]
    mine = scorer.get(at).text
    assert 'value="roll"' in mine
    version = re.search(r'name="version" value="(\d+)"', mine).group(1)
    for stranger in (app.test_client(), signed_in_client(app, "Rival")):
        watched = stranger.get(at)
        assert watched.status_code == 200 and shown("You are watching this game: its scorer records it (reload the "
                                                    "page for the latest turn).") in watched.text
        assert 'name="action"' not in watched.text
        refused = stranger.post(at, data={"csrf_token": token(stranger), "version": version,
                                          "action": "resign", "points": "1"})
        assert refused.status_code in (401, 403)
    assert shown("%(player)s to roll.", player=shown("White")) in scorer.get(at).text
    admin = signed_in_client(app, "Boss", "admin")
    resigned = admin.post(at, data={"csrf_token": token(admin), "version": version, "action": "resign",
                                    "points": "1", "confirm": "yes"})  # (a resignation is confirmed)
    assert resigned.status_code == 303 and "Game over" in scorer.get(at).text


def test_a_removed_scorers_games_go_to_nobody_not_to_the_next_account(make_app, archive_path):
    """SQLite may give a new account the id of the last one removed: it must not inherit
    that scorer's games in progress."""
    app = make_app()
    at = start(signed_in_client(app)).headers["Location"]
    db = archive.open_archive(archive_path)
    removed = remove_user(db, "Scorer")
    db.close()
    newcomer = signed_in_client(app, "Newcomer")
    db = archive.open_archive(archive_path)
    assert find_user(db, "Newcomer").id == removed.id  # the id is reused...
    db.close()
    assert 'name="action"' not in newcomer.get(at).text  # ...the game is not
    admin = signed_in_client(app, "Boss", "admin")
    assert 'value="roll"' in admin.get(at).text


def test_a_scorer_has_at_most_so_many_games_in_progress(make_app, archive_path):
    """300 anonymous starts made 300 live games: now a scorer has at most
    LIVE_GAMES_PER_SCORER (20 unless set)."""
    app = make_app()
    scorer = signed_in_client(app)
    for _ in range(20):
        assert start(scorer).status_code == 303
    refused = start(scorer)
    assert refused.status_code == 429 and "you have 20 games in progress" in refused.text
    assert "LIVE_GAMES_PER_SCORER" in refused.text and count(archive_path, "live_games") == 20
    assert start(signed_in_client(app, "Other")).status_code == 303


def test_an_abandoned_live_game_expires(make_app, archive_path):
    app = make_app(LIVE_GAME_EXPIRY_DAYS=7)
    scorer = signed_in_client(app)
    old, recent = (start(scorer).headers["Location"] for _ in range(2))
    db = archive.open_archive(archive_path)
    with db.conn:  # the first untouched for 8 days, the second for 6
        db.execute("UPDATE live_games SET updated = datetime('now', '-8 days') WHERE rowid = 1")
        db.execute("UPDATE live_games SET updated = strftime('%Y-%m-%dT%H:%M:%S+00:00', 'now', '-6 days') "
                   "WHERE rowid = 2")
    db.close()
    gone = scorer.get(old)
    assert gone.status_code == 404 and "expired" in gone.text
    assert scorer.get(recent).status_code == 200 and count(archive_path, "live_games") == 1


# ---------------------------------------------------------------- the server

def test_a_host_header_from_elsewhere_is_refused_not_reflected(make_app):
    client = make_app().test_client()
    assert client.get("/", headers={"Host": "localhost:8000"}).status_code == 200
    for host in ("evil.example", "evil.example:8000", "localhost.evil.example"):
        for answer in (client.get("/record/", headers={"Host": host}),
                       client.post("/login", headers={"Host": host}, data={"name": "x"})):
            assert answer.status_code == 400 and "Location" not in answer.headers, host
            assert "evil" not in answer.text and "TRUSTED_HOSTS" in answer.text
    served = make_app(TRUSTED_HOSTS=["localhost", "club.example.org"]).test_client()
    assert served.get("/", headers={"Host": "club.example.org"}).status_code == 200


def test_the_session_cookie_is_same_site_lax_and_http_only(make_app, archive_path):
    add_account(archive_path)
    signed = sign_in(make_app().test_client())
    cookie = signed.headers["Set-Cookie"]
    assert "SameSite=Lax" in cookie and "HttpOnly" in cookie and "Secure" not in cookie
    secure = sign_in(make_app(SESSION_COOKIE_SECURE=True).test_client())
    assert "; Secure" in secure.headers["Set-Cookie"]


def test_csrf_tokens_expire(make_app, archive_path):
    assert make_app().config["WTF_CSRF_TIME_LIMIT"] == 8 * 3600
    client = signed_in_client(make_app(WTF_CSRF_TIME_LIMIT=1))
    old = token(client)
    time.sleep(2.1)
    refused = client.post("/record/", data={"csrf_token": old, "variant": "jacquet", "starter": "White"})
    assert refused.status_code == 400 and "CSRF" in refused.text and count(archive_path, "live_games") == 0


def _serve(monkeypatch, db, *args):
    """``jacquet serve`` up to handing waitress the app: its output and the app."""
    import gc

    from jacquet_cli import main

    seen = {}

    class Server:
        def run(self):
            pass

    def guarded_server(app, listening):
        seen["app"] = app
        listening.close()
        return Server()

    monkeypatch.setattr("webviewer.plumbing.serving.guarded_server", guarded_server)
    threshold = gc.get_threshold()
    try:  # --port 0: a port the system gives, never one another test took meanwhile
        result = CliRunner().invoke(main, ["serve", "--db", str(db), "--port", "0", *args])
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
    assert result.exit_code == 0, result.output
    return result.output, seen["app"]


def test_serve_on_an_open_address_says_what_is_exposed(archive_path, monkeypatch):
    output, app = _serve(monkeypatch, archive_path, "--host", "0.0.0.0", "--trusted-host", "Club.Example.org")
    assert "warning: 0.0.0.0 is reachable from other machines, over plain HTTP" in output
    assert "no accounts: the site is read-only" in output
    assert f"jacquet users add NAME --role scorer --db {archive_path}" in output
    assert "HTTPS reverse proxy" in output and "docs/server.md" in output
    assert {"localhost", "127.0.0.1", "club.example.org", socket.gethostname().lower()} <= set(
        app.config["TRUSTED_HOSTS"])
    add_account(archive_path)
    output, _ = _serve(monkeypatch, archive_path, "--host", "0.0.0.0")
    assert "1 account may sign in and write" in output
    output, app = _serve(monkeypatch, archive_path)
    assert "warning" not in output and app.config["TRUSTED_HOSTS"] == ["127.0.0.1", "localhost"]


def test_serve_brings_an_old_archive_up_to_date(tmp_path, monkeypatch):
    """An archive made before accounts gains their tables (and its games their hidden flag)
    before the viewer's read-only connections ask for them."""
    path = tmp_path / "old.db"
    db = archive.open_archive(path)
    for table in ("users", "login_failures", "audit"):
        db.execute(f"DROP TABLE {table}")
    for trigger in ("game_counted", "game_uncounted", "game_hidden_counted"):  # they read hidden
        db.execute(f"DROP TRIGGER {trigger}")
    db.execute("ALTER TABLE game_count DROP COLUMN hidden")
    db.execute("DELETE FROM _sqlite_migrations WHERE name = 'hidden_games_counted'")
    for side in ("white", "black"):  # nor had it the later indexes by player, which hold hidden
        db.execute(f"DROP INDEX idx_games_{side}_player")
        db.execute(f"CREATE INDEX idx_games_{side}_id ON games ({side}_id)")
    db.execute("DROP INDEX idx_analysis_players_worst")
    db.execute("ALTER TABLE analysis_players DROP COLUMN worst")
    db.execute("DELETE FROM _sqlite_migrations WHERE name = 'player_page_indexes'")
    db.execute("ALTER TABLE games DROP COLUMN hidden")
    db.execute("DROP INDEX idx_live_games_owner_id")
    db.execute("ALTER TABLE live_games DROP COLUMN owner_id")
    db.execute("DELETE FROM _sqlite_migrations WHERE name = 'accounts'")
    db.conn.commit()
    db.close()
    _, app = _serve(monkeypatch, path)
    assert app.test_client().get("/").status_code == 200
    assert count(path, "users") == 0


def test_names_are_text_in_the_header_and_the_audit_log(tmp_path, make_app):
    """A user's name and a deleted game's players are shown as text, never as markup."""
    path = tmp_path / "hostile.db"
    db = archive.open_archive(path)
    archive.import_files(db, [_write(tmp_path / "game.jqn", GAME.replace("Marie", "<script>x()</script>"))])
    db.close()
    admin = signed_in_client(make_app(path), "<b>Boss</b>", "admin")
    assert "&lt;b&gt;Boss&lt;/b&gt; (admin)" in admin.get("/").text
    admin.post("/admin/game/1", data={"csrf_token": token(admin), "action": "delete", "confirm": "yes"})
    log = admin.get("/admin/audit").text
    assert "&lt;script&gt;x()&lt;/script&gt; - Jean" in log and "<script>x()" not in log
    assert "<b>Boss" not in log and "&lt;b&gt;Boss&lt;/b&gt;" in log


def test_behind_a_proxy_the_client_address_is_the_forwarded_one(make_app, archive_path):
    """With PROXIES = 1 the sign-in limit counts the address the proxy forwards: one
    client guessing does not lock out the others behind the same proxy."""
    add_account(archive_path, "Other")
    app = make_app(PROXIES=1)
    guesser, other = app.test_client(), app.test_client()
    guesser.environ_base["HTTP_X_FORWARDED_FOR"] = "203.0.113.7"
    other.environ_base["HTTP_X_FORWARDED_FOR"] = "198.51.100.2"
    for _ in range(5):
        sign_in(guesser, "Other", "guess")
    assert sign_in(guesser, "Other").status_code == 429
    assert sign_in(other, "Other").status_code == 303
