"""Accounts for the viewer tests: an account added to a test's archive, and a test client
signed in with it (through the sign-in form, CSRF token and all, as a browser does)."""

from __future__ import annotations

import re
from pathlib import Path

import archive
from archive.accounts import add_user, find_user

PASSWORD = "correct horse battery staple"
CSRF_TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


def without_csrf_tokens(page: str) -> str:
    """``page`` with its forms' CSRF tokens blanked: a token is signed with the second it
    was made, so the same page asked twice differs in them across a second's turn."""
    return CSRF_TOKEN.sub('name="csrf_token" value=""', page)


def add_account(path: str | Path, name: str = "Scorer", role: str = "scorer",
                password: str = PASSWORD) -> None:
    """Add the account ``name`` to the archive at ``path`` (made if missing), unless it is
    there."""
    db = archive.open_archive(path)
    try:
        if find_user(db, name) is None:
            add_user(db, name, role, password)
    finally:
        db.close()


def sign_in(client, name: str = "Scorer", password: str = PASSWORD, next_page: str | None = None):
    """Send the sign-in form as a browser would; the answer."""
    page = client.get("/login")
    token = CSRF_TOKEN.search(page.text)
    data = {"name": name, "password": password, **({"next": next_page} if next_page else {})}
    if token:
        data["csrf_token"] = token.group(1)
    return client.post("/login", data=data)


def signed_in_client(app, name: str = "Scorer", role: str = "scorer", password: str = PASSWORD):
    """A test client of ``app`` signed in as the account ``name`` with ``role`` (added if
    missing)."""
    add_account(app.config["ARCHIVE"], name, role, password)
    client = app.test_client()
    response = sign_in(client, name, password)
    assert response.status_code == 303, response.text
    return client
