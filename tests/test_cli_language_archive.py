"""What the archive, the accounts and the nets say on the command line, in French and
Russian (issue 36): a missing archive, a file that is not one, a damaged archive
(``check``'s problems and count, ``import``'s refusal), an account the archive refuses, a
file that is no net or a net of another rule set. Each line is the message its id names
(``notation/messages/admin.py``) with its parameters, in the language asked; what SQLite
itself says stays its own words, a parameter."""

from __future__ import annotations

import sqlite3

import pytest

from archive.accounts import MAX_NAME
from archive.store import check_archive
from tests.cli_language_helpers import TRANSLATED, run, said
from tests.test_server_bounds import damage

SAMPLE = "samples/backgammon/annotated-game.jqn"


@pytest.mark.parametrize("language", TRANSLATED)
def test_an_archive_missing_foreign_or_not_sqlite_is_said_in_the_language(tmp_path, language):
    missing = str(tmp_path / "missing.db")
    answer = run(language, "check", "--db", missing)
    assert answer.exit_code == 2 and said(language, "archive.missing", path=missing) in answer.output
    foreign = tmp_path / "other.db"
    with sqlite3.connect(foreign) as connection:
        connection.execute("CREATE TABLE notes (text)")
    refused = run(language, "import", SAMPLE, "--db", str(foreign))
    assert refused.exit_code == 2
    assert said(language, "archive.not-archive", path=str(foreign)) in refused.output
    text = tmp_path / "notes.db"
    text.write_text("not a database, but long enough to be read as a page header " * 20)
    opened = run(language, "check", "--db", str(text))
    assert opened.exit_code == 2
    assert said(language, "archive.failed.open", path=str(text), error="") in opened.output
    assert said(language, "archive.hint.notadb") in opened.output


@pytest.mark.parametrize("language", TRANSLATED)
def test_files_import_cannot_read_are_said_in_the_language(tmp_path, language):
    missing, unknown = tmp_path / "missing.jqn", tmp_path / "notes.docx"
    unknown.write_text("minutes of the club's meeting")
    answer = run(language, "import", str(missing), str(unknown), SAMPLE,
                 "--db", str(tmp_path / "club.db"))
    assert answer.exit_code == 2
    assert said(language, "cli.file.missing", path=str(missing)) in answer.output
    assert said(language, "cli.file.unknown-format", path=str(unknown), known=".jqn, .json, .mat, .sgf, .txt, "
                ".xml") in answer.output
    assert answer.output.count("notes.docx") == 1  # the file named once
    assert said(language, "cli.import.unreadable", count=2) in answer.output


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_damaged_archive_in_the_language(tmp_path, language):
    db = str(tmp_path / "club.db")
    assert run(language, "import", SAMPLE, "--db", db).exit_code == 0
    damage(tmp_path / "club.db")
    checked = run(language, "check", "--db", db)
    assert checked.exit_code == 1
    problems = check_archive(db, full=True)  # (SQLite's own words)
    assert problems and all(said(language, "archive.problem", path=db, problem=problem) in checked.output
                            for problem in problems)
    assert checked.output.strip().endswith(said(language, "cli.check.damaged", path=db, count=len(problems)))
    imported = run(language, "import", SAMPLE, "--db", db)
    assert imported.exit_code == 2
    assert said(language, "archive.damaged", path=db, problem=check_archive(db)[0]) in imported.output


@pytest.mark.parametrize("language", TRANSLATED)
def test_an_account_the_archive_refuses_in_the_language(tmp_path, language):
    db = str(tmp_path / "club.db")
    assert run(language, "import", SAMPLE, "--db", db).exit_code == 0
    empty = run(language, "users", "add", "Jean", "--role", "scorer", "--password-stdin", "--db", db, input="\n")
    assert empty.exit_code == 1 and said(language, "account.password.empty") in empty.output
    long = run(language, "users", "add", "J" * (MAX_NAME + 1), "--role", "scorer", "--password-stdin", "--db", db,
               input="secret\n")
    assert long.exit_code == 1 and said(language, "account.name.form", count=MAX_NAME) in long.output


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_file_that_is_no_net_or_a_net_of_another_rule_set_in_the_language(tmp_path, two_games, language):
    record, jacquet_net = two_games
    junk = tmp_path / "junk.npz"
    junk.write_text("not a net")
    answer = run(language, "analyse", record, "--net", str(junk))
    assert answer.exit_code == 2 and said(language, "net.not-a-net", path=str(junk), error="") in answer.output
    hale = tmp_path / "hale.jqn"
    hale.write_text('[Variant "hale"]\n\n*\n', encoding="utf-8")
    other = run(language, "analyse", str(hale), "--net", jacquet_net)
    assert other.exit_code == 2
    assert said(language, "net.wrong-variant", path=jacquet_net, found="jacquet", variant="hale") in other.output
