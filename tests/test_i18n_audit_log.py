"""The audit log in the reader's language (issue 36): a line's detail is kept as a message
(its id and parameters) beside its English text, and the admin's page says it in his
language; a line logged before (English text alone) still reads as it was stored, and an
archive made before the messages opens with its lines kept."""

from __future__ import annotations

import re
from html import unescape

import pytest
from click.testing import CliRunner

import archive
from jacquet_cli import main
from notation.messages import Message, render
from tests.accounts_helpers import signed_in_client
from tests.viewer_helpers import shown, viewer_app

GAME = '[Event "Club night"]\n[White "Marie"]\n[Black "Jean"]\n\n1. 55: 24/4 66: 24/18 *\n'
OLD_LINE = "jacquet import of old.jqn: 3 game(s): 1-3"


def details(app, language: str) -> dict[str, tuple[str, str]]:
    """Each line of the log page as an admin reading ``language`` sees it: by its action,
    (what it says, how it names the action)."""
    page = signed_in_client(app, "Admin", "admin").get("/admin/audit", headers={"Accept-Language": language}).text
    rows = re.findall(r'<td data-action="(\w+)">([^<]*)</td>.*?<td>([^<]*)</td></tr>', page, re.S)
    return {action: (unescape(detail), unescape(named)) for action, named, detail in rows}


@pytest.fixture
def logged(tmp_path):
    """An archive whose log has an import by the command line (now: a message) and a line
    of an older version (its English text alone)."""
    record = tmp_path / "club.jqn"
    record.write_text(GAME, encoding="utf-8")
    path = tmp_path / "club.db"
    answer = CliRunner().invoke(main, ["import", str(record), "--db", str(path)])
    assert answer.exit_code == 0, answer.output
    with archive.open_archive(path) as db:
        db.execute("INSERT INTO audit (at, user, action, game_id, detail) VALUES (?, ?, ?, ?, ?)",
                   ["2026-01-01T00:00:00+00:00", "old", "deleted", 7, OLD_LINE])
        db.conn.commit()
    return path, str(record)


@pytest.mark.parametrize("language", ["fr", "ru", "en"])
def test_an_admin_reads_the_log_in_his_language(logged, language):
    path, record = logged
    lines = details(viewer_app(path), language)
    imported = Message.of("audit.import", source=record, games=Message.of("count.games", count=1), numbers="1")
    assert lines["stored"] == (render(imported, language), shown("stored", language))
    assert lines["deleted"][0] == OLD_LINE  # a line of an older version: as it was stored
    if language == "fr":
        assert lines["stored"][0].startswith(f"jacquet import de {record} : 1 partie : 1")


def test_the_log_keeps_the_english_text_beside_the_message(logged):
    path, record = logged
    with archive.open_archive(path) as db:
        detail, stored = db.execute("SELECT detail, detail_msg FROM audit WHERE action = 'stored'").fetchone()
    assert detail == f"jacquet import of {record}: 1 game: 1"
    assert Message.from_stored(stored).id == "audit.import"


def test_an_archive_logged_before_the_messages_keeps_its_lines(tmp_path):
    path = tmp_path / "old.db"
    with archive.open_archive(path) as db:
        db.execute("ALTER TABLE audit DROP COLUMN detail_msg")
        db.execute("DELETE FROM _sqlite_migrations WHERE name = 'audit_messages'")
        db.execute("INSERT INTO audit (at, user, action, game_id, detail) VALUES (?, ?, ?, ?, ?)",
                   ["2026-01-01T00:00:00+00:00", "Boss", "stored", 1, "recorded"])
        db.conn.commit()
    with archive.open_archive(path) as db:  # upgraded
        assert db.execute("SELECT detail, detail_msg FROM audit").fetchall() == [("recorded", None)]
    assert details(viewer_app(path), "fr")["stored"] == ("recorded", shown("stored", "fr"))
