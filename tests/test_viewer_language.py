"""The viewer's language (issue 36): ``<html lang>`` follows the signed-in user's choice
kept in his account, else the visitor's choice kept in a cookie, else the browser's
``Accept-Language`` (best match among French, English and Russian), else English; the
switcher on every page is a form (POST; a signed-in user's with its CSRF token) that leads back to the page it was on (the
``Referer``), never to another site; an archive made before accounts had a language keeps every
account."""

from __future__ import annotations

import re

import pytest

import archive
from archive.accounts import find_user
from tests.accounts_helpers import PASSWORD, add_account, sign_in, signed_in_client
from webviewer import create_app

GAME = ('[Event "Club night"]\n[White "Marie"]\n[Black "Jean"]\n\n'
        '1. 55: 24/4 66: 24/18 2. 21: 4/1 21: 18/15 *\n')


@pytest.fixture
def path(tmp_path):
    """An archive of one game."""
    path = tmp_path / "club.db"
    record = tmp_path / "game.jqn"
    record.write_text(GAME, encoding="utf-8")
    db = archive.open_archive(path)
    archive.import_files(db, [record])
    db.close()
    return path


@pytest.fixture
def app(path):
    return create_app({"ARCHIVE": str(path), "TESTING": True})


def lang(page) -> str:
    """The ``lang`` of a page's ``<html>``."""
    return re.search(r'<html lang="([^"]*)">', page.text).group(1)


def token(page) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)


def choose(client, language: str, referrer: str | None = "http://localhost/game/1?ply=2"):
    """Press the switcher's button for ``language`` on the page ``referrer``, as a browser
    sends it (the page in the ``Referer`` header: the site's policy is ``same-origin``)."""
    page = client.get("/")
    form = re.search(r'<form method="post" action="/language".*?</form>', page.text, re.S).group(0)
    data = {"language": language, **({"csrf_token": token(page)} if "csrf_token" in form else {})}
    headers = {"Referer": referrer} if referrer is not None else {}
    return client.post("/language", data=data, headers=headers)


@pytest.mark.parametrize(("header", "expected"), [
    (None, "en"), ("fr-CH, fr;q=0.9, en;q=0.8", "fr"), ("ru-RU,ru;q=0.9", "ru"),
    ("de-DE, de;q=0.9", "en"), ("de, ru;q=0.5, fr;q=0.7", "fr"), ("en-GB", "en"),
    ("fr;q=0.1, ru;q=0.9", "ru"), ("ru;q=x, ;;, *;q=", "en"), ("ru, " + "xx, " * 60000, "ru"), ("xx, " * 100 + "ru", "en")])
def test_the_browsers_language_is_the_best_match_else_english(app, header, expected):
    headers = {"Accept-Language": header} if header else {}
    for page in ("/", "/game/1", "/validate", "/login", "/play/", "/game/999"):
        assert lang(app.test_client().get(page, headers=headers)) == expected, page


def test_every_page_has_the_switcher_marking_its_language(app):
    page = app.test_client().get("/game/1", headers={"Accept-Language": "ru"})
    form = re.search(r'<form method="post" action="/language".*?</form>', page.text, re.S).group(0)
    assert re.findall(r'value="(\w\w)" lang="\w\w"', form) == ["en", "fr", "ru"]
    assert re.search(r'value="ru" lang="ru" aria-pressed="true">Русский<', form)


def test_the_choice_is_kept_in_a_cookie_over_the_browsers_language(app):
    client = app.test_client()
    answer = choose(client, "ru")
    assert answer.status_code == 303 and answer.headers["Location"] == "/game/1?ply=2"
    cookie = client.get_cookie("language")
    assert cookie.value == "ru" and cookie.http_only and cookie.same_site == "Lax"
    assert lang(client.get("/game/1", headers={"Accept-Language": "fr"})) == "ru"
    choose(client, "en")
    assert lang(client.get("/", headers={"Accept-Language": "fr"})) == "en"


@pytest.mark.parametrize("target", ["https://evil.example/game/1", "http://localhost.evil.example/",
                                    "http://localhost//evil.example/", "http://localhost/\\evil.example",
                                    "javascript:alert(1)", "", None])
def test_the_switcher_leads_back_on_this_site_only(app, target):
    answer = choose(app.test_client(), "fr", target)
    assert answer.status_code == 303 and answer.headers["Location"] == "/"


def test_the_switcher_needs_a_known_language(app):
    client = app.test_client()
    assert choose(client, "de").status_code == 400 and client.get_cookie("language") is None
    assert choose(client, "").status_code == 400


def test_a_signed_in_users_choice_needs_the_forms_csrf_token(app, path):
    client = signed_in_client(app)
    forged = client.post("/language", data={"language": "fr"}, headers={"Referer": "http://localhost/"})
    assert forged.status_code == 400 and "CSRF" in forged.text
    assert find_user(archive.open_archive(path), "Scorer").language is None
    assert client.get_cookie("language") is None


def test_a_visitors_pages_carry_no_token_and_set_no_cookie(app):
    """Pages served to visitors are kept and shared (the game page's frame): the switcher
    holds nothing of one visitor's session."""
    client = app.test_client()
    page = client.get("/game/1")
    form = re.search(r'<form method="post" action="/language".*?</form>', page.text, re.S).group(0)
    assert "csrf_token" not in form and "Set-Cookie" not in page.headers


def test_a_signed_in_users_choice_is_kept_in_his_account(app, path):
    client = signed_in_client(app)
    assert choose(client, "fr").status_code == 303
    assert find_user(archive.open_archive(path), "Scorer").language == "fr"
    other = app.test_client()  # another browser: no cookie, a Russian browser
    assert lang(other.get("/", headers={"Accept-Language": "ru"})) == "ru"
    assert sign_in(other, "Scorer", PASSWORD).status_code == 303
    assert lang(other.get("/", headers={"Accept-Language": "ru"})) == "fr"
    assert other.get_cookie("language") is None  # the account's, not a cookie


def test_a_visitors_choice_writes_no_account(app, path):
    add_account(path)
    choose(app.test_client(), "ru")
    assert find_user(archive.open_archive(path), "Scorer").language is None


def test_an_archive_from_before_languages_keeps_its_accounts(tmp_path):
    path = tmp_path / "old.db"
    add_account(path, "Marie", "admin")
    db = archive.open_archive(path)
    db.execute("ALTER TABLE users DROP COLUMN language")
    db.execute("DELETE FROM _sqlite_migrations WHERE name = 'users_language'")
    db.conn.commit()
    db.close()
    db = archive.open_archive(path)  # upgraded
    user = find_user(db, "marie")
    assert user is not None and user.role == "admin" and user.language is None
    db.close()
    client = signed_in_client(create_app({"ARCHIVE": str(path), "TESTING": True}), "Marie", "admin")
    assert choose(client, "ru").status_code == 303
    assert find_user(archive.open_archive(path), "Marie").language == "ru"


def test_every_answer_says_it_depends_on_the_language_asked(app):
    """A cache in front of the server must not give one visitor's French page to the next."""
    client = app.test_client()
    for address in ("/", "/game/1", "/login", "/game/999"):
        answer = client.get(address, headers={"Accept-Language": "fr"})
        assert {"accept-language", "cookie"} <= {v.lower() for v in answer.vary}, address
        assert len(answer.headers.getlist("Vary")) == 1, address
