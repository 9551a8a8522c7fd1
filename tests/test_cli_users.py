"""``jacquet users``: accounts added (password asked twice or read from standard input),
listed, given a new password and removed, with a clear error for a taken or unknown name,
an empty password, and a file that is no archive (left untouched)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import archive
from archive.accounts import check_password, list_users
from jacquet_cli import main


@pytest.fixture
def db_path(tmp_path):
    path = tmp_path / "club.db"
    archive.open_archive(path).close()
    return path


def users(*args, input=None):
    return CliRunner().invoke(main, ["users", *map(str, args)], input=input)


def accounts(path):
    db = archive.open_archive(path)
    try:
        return [(user.name, user.role) for user in list_users(db)]
    finally:
        db.close()


def password_works(path, name, password):
    db = archive.open_archive(path)
    try:
        return check_password(db, name, password) is not None
    finally:
        db.close()


def test_add_list_passwd_remove(db_path):
    added = users("add", "Marie", "--role", "scorer", "--db", db_path, "--password-stdin", input="s3cret\n")
    assert added.exit_code == 0 and "added Marie (scorer)" in added.output
    asked = users("add", "Paul", "--role", "admin", "--db", db_path, input="pw one\npw one\n")
    assert asked.exit_code == 0, asked.output
    assert accounts(db_path) == [("Marie", "scorer"), ("Paul", "admin")]
    assert password_works(db_path, "marie", "s3cret") and password_works(db_path, "Paul", "pw one")
    listed = users("list", "--db", db_path)
    assert [line.split("\t")[:2] for line in listed.output.splitlines()] == [["Marie", "scorer"], ["Paul", "admin"]]
    changed = users("passwd", "MARIE", "--db", db_path, "--password-stdin", input="new one\n")
    assert changed.exit_code == 0 and "new password for Marie" in changed.output
    assert password_works(db_path, "Marie", "new one") and not password_works(db_path, "Marie", "s3cret")
    removed = users("remove", "marie", "--db", db_path)
    assert removed.exit_code == 0 and "removed Marie" in removed.output
    assert accounts(db_path) == [("Paul", "admin")]


def test_the_password_is_asked_twice_and_must_match(db_path):
    result = users("add", "Marie", "--role", "scorer", "--db", db_path, input="one\ntwo\nsame\nsame\n")
    assert result.exit_code == 0 and "do not match" in result.output.lower()
    assert password_works(db_path, "Marie", "same")


@pytest.mark.parametrize(("args", "stdin", "message"), [
    (("add", "marie", "--role", "scorer"), "x\n", "the name 'marie' is taken"),
    (("add", "Jean", "--role", "scorer"), "\n", "the password cannot be empty"),
    (("add", "  ", "--role", "scorer"), "x\n", "a user name cannot be empty"),
    (("remove", "Nobody"), None, "no user 'Nobody'"),
    (("passwd", "Nobody"), "x\n", "no user 'Nobody'"),
])
def test_clear_errors(db_path, args, stdin, message):
    users("add", "Marie", "--role", "scorer", "--db", db_path, "--password-stdin", input="x\n")
    extra = ["--password-stdin"] if stdin is not None else []
    result = users(*args, "--db", db_path, *extra, input=stdin)
    assert result.exit_code == 1 and f"Error: {message}" in result.output
    assert "Traceback" not in result.output and accounts(db_path) == [("Marie", "scorer")]


def test_a_role_is_scorer_or_admin(db_path):
    result = users("add", "Marie", "--role", "owner", "--db", db_path, "--password-stdin", input="x\n")
    assert result.exit_code == 2 and "'owner' is not one of 'scorer', 'admin'" in result.output


def test_a_file_that_is_no_archive_is_refused_and_left_alone(tmp_path):
    other = tmp_path / "other.db"
    import sqlite3
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE notes (text)")
    before = other.read_bytes()
    for args in (("list",), ("add", "Marie", "--role", "scorer", "--password-stdin")):
        result = users(*args, "--db", other, input="x\n")
        assert result.exit_code == 2 and "is not a jacquet archive" in result.output
    assert other.read_bytes() == before
    missing = users("list", "--db", tmp_path / "none.db")
    assert missing.exit_code == 2 and "no archive at" in missing.output
    assert not (tmp_path / "none.db").exists()


def test_an_empty_list_says_the_viewer_is_read_only(db_path):
    result = users("list", "--db", db_path)
    assert result.exit_code == 0 and "no accounts: the viewer is read-only" in result.output
