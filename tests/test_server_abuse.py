"""Issue 33's findings on what the server lets the wrong person do: a hidden game's saved
page (F4), a copied session cookie after signing out (F6), another person's finished game
stored against the engine (F7), a session key too short to sign anything (F10). Each test
failed on the viewer before its fix."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

import archive
from jacquet_cli import main
from tests.accounts_helpers import add_account, sign_in, signed_in_client, without_csrf_tokens

GAME = ('[Event "Club night"]\n[White "Marie"]\n[Black "Jean"]\n\n'
        '1. 55: 24/4 66: 24/18 2. 21: 4/1 21: 18/15 *\n')


@pytest.fixture
def archive_path(archive_of):
    """The viewer's archive (``app``: tests/conftest.py): one game."""
    return archive_of(GAME)


@pytest.fixture
def viewer_config():
    """The heavy work in the request's thread."""
    return {"WORKERS": 0}


def token(client, page: str = "/validate") -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', client.get(page).text).group(1)


# ---------------------------------------------------------------- F4: hidden games

def test_the_saved_page_of_a_hidden_game_is_a_404_but_for_admins(app):
    """``/record/saved/<id>`` showed a hidden game's players and result to anyone."""
    admin = signed_in_client(app, "Boss", "admin")
    visitor, scorer = app.test_client(), signed_in_client(app)
    assert "Marie" in visitor.get("/record/saved/1").text
    assert admin.post("/admin/game/1", data={"csrf_token": token(admin), "action": "hide"}).status_code == 303
    for client in (visitor, scorer):
        hidden = client.get("/record/saved/1")
        assert hidden.status_code == 404 and "Marie" not in hidden.text
    no_game = scorer.get("/record/saved/2").text.replace("game 2", "game 1")
    assert without_csrf_tokens(hidden.text) == without_csrf_tokens(no_game)  # as no game
    assert admin.get("/record/saved/1").status_code == 200


# ---------------------------------------------------------------- F6: signing out

def test_signing_out_ends_the_session_on_the_server(app):
    """A copied session cookie still worked after ``POST /logout``."""
    client = signed_in_client(app)
    copied = app.test_client()
    cookie = client.get_cookie("session")
    copied.set_cookie("session", cookie.value)
    assert "Scorer (scorer)" in copied.get("/").text  # the copy is as good as the original
    assert client.post("/logout", data={"csrf_token": token(client)}).status_code == 303
    assert "Scorer (scorer)" not in copied.get("/").text
    assert copied.get("/record/").status_code == 303  # to the sign-in page


def test_signing_out_in_one_browser_leaves_the_others_signed_in(app):
    first, second = signed_in_client(app), signed_in_client(app)
    first.post("/logout", data={"csrf_token": token(first)})
    assert "Scorer (scorer)" not in first.get("/").text
    assert "Scorer (scorer)" in second.get("/").text


# ---------------------------------------------------------------- F7: storing played games

def _finished_game(client) -> str:
    """A game against the random engine that the player of ``client`` resigns at once."""
    started = client.post("/play/", data={"csrf_token": token(client, "/play/"), "variant": "jacquet",
                                          "side": "White", "strength": "random"})
    assert started.status_code == 303, started.text
    at = started.headers["Location"]
    version = re.search(r'name="version" value="(\d+)"', client.get(at).text).group(1)
    resigned = client.post(at, data={"csrf_token": token(client, at), "version": version,
                                     "action": "resign", "points": "1"})
    assert resigned.status_code == 303
    return at


def _audit(path) -> list[tuple[str, str]]:
    db = archive.open_archive(path)
    try:
        return db.execute("SELECT user, detail FROM audit").fetchall()
    finally:
        db.close()


def test_only_its_player_or_an_admin_stores_a_played_game(app, archive_path):
    """Any scorer could store another person's finished game, the audit crediting him."""
    player = app.test_client()
    at = _finished_game(player)
    other = signed_in_client(app, "Other")
    refused = other.post(f"{at}/store", data={"csrf_token": token(other, at)})
    assert refused.status_code == 403 and "another browser" in refused.text
    assert _audit(archive_path) == []
    add_account(archive_path)
    assert sign_in(player).status_code == 303  # the player signs in: the game is still his
    stored = player.post(f"{at}/store", data={"csrf_token": token(player, at)})
    assert stored.status_code == 303 and "/game/" in stored.headers["Location"]
    assert _audit(archive_path) == [("Scorer", "played against the engine")]


def test_an_admin_may_store_anyones_played_game(app):
    at = _finished_game(app.test_client())
    admin = signed_in_client(app, "Boss", "admin")
    stored = admin.post(f"{at}/store", data={"csrf_token": token(admin, at)})
    assert stored.status_code == 303 and "/game/" in stored.headers["Location"]


# ---------------------------------------------------------------- F10: the session key

@pytest.mark.parametrize("key", ["a", "k" * 31])
def test_a_short_key_in_the_environment_is_refused(archive_path, monkeypatch, key):
    """``JACQUET_SECRET_KEY=a`` was accepted: it needs the key file's 32 characters."""
    from webviewer.plumbing.secret import InsecureSecret, secret_key

    monkeypatch.setenv("JACQUET_SECRET_KEY", key)
    with pytest.raises(InsecureSecret, match="at least 32 characters"):
        secret_key(archive_path)
    result = CliRunner().invoke(main, ["serve", "--db", str(archive_path), "--port", "1"])
    assert result.exit_code == 2 and "JACQUET_SECRET_KEY" in result.output
    assert "Traceback" not in result.output
    monkeypatch.setenv("JACQUET_SECRET_KEY", "k" * 32)
    assert secret_key(archive_path) == "k" * 32
