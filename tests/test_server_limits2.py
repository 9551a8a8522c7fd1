"""The club server's remaining limits (issue 21): turns per validation, a live game's
change refused when its record would not read back, the worker pool started with the
server, cheap legal plays answered in the request, the import's audit entries, and the
list paged by key with bounded counts and the visitors' total."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import archive
import notation.formats.jqn.reader
from notation import rule_set
from notation.formats import render
from notation.tree.generate import random_game
from tests.accounts_helpers import signed_in_client
from webviewer import create_app

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "jacquet" / "annotated-game.jqn"


@pytest.fixture
def path(tmp_path) -> Path:
    """An archive holding the jacquet sample."""
    with archive.open_archive(tmp_path / "limits.db") as db:
        archive.import_files(db, [SAMPLE])
    return tmp_path / "limits.db"


def _client(path: Path, **config):
    return signed_in_client(create_app({"ARCHIVE": str(path), "TESTING": True, "WORKERS": 0,
                                        **config}))


def _csrf(client) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', client.get("/validate").text).group(1)


def _games(count: int) -> tuple[str, int]:
    """A record of ``count`` random jacquet games, and the turns it holds."""
    games = [random_game(rule_set("jacquet"), random.Random(seed)) for seed in range(count)]
    return render(games, "jqn"), sum(1 for game in games for _ in game.descendants())


def test_a_validation_over_its_turns_is_refused_with_a_clear_message(path):
    record, turns = _games(3)
    within = _client(path, MAX_TURNS=turns)
    fields = {"record": record, "format": "jqn", "variant": "jacquet"}
    assert within.post("/validate", data={**fields, "csrf_token": _csrf(within)}).status_code == 200
    over = _client(path, MAX_TURNS=turns - 1)
    answer = over.post("/validate", data={**fields, "csrf_token": _csrf(over)})
    assert answer.status_code == 413
    assert f"more than {turns - 1:,} turns" in answer.text and "MAX_TURNS" in answer.text
    saved = over.post("/validate/save", data={**fields, "name": "x.jqn", "csrf_token": _csrf(over)})
    assert saved.status_code == 413 and "MAX_TURNS" in saved.text
    with archive.open_archive(path, readonly=True) as db:
        assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 1  # nothing saved


def _version(client, at: str) -> str:
    return re.search(r'name="version" value="(\d+)"', client.get(at).text).group(1)


def test_a_live_game_change_that_would_not_read_back_is_refused(path, monkeypatch):
    """A comment that takes the record past the reader's size of a game is refused, and
    the game's page and downloads still answer (they were a 500 for good)."""
    monkeypatch.setattr(notation.formats.jqn.reader, "MAX_GAME_BYTES", 3000)
    client = _client(path, WTF_CSRF_ENABLED=False)
    started = client.post("/record/", data={"variant": "backgammon", "white": "Ann",
                                            "black": "Bob", "starter": "White"})
    at = started.headers["Location"]
    first = client.post(at, data={"version": _version(client, at), "action": "annotate",
                                  "comment": "a" * 1500})
    assert first.status_code == 303
    before = _version(client, at)
    second = client.post(at, data={"version": before, "action": "annotate", "comment": "b" * 1900})
    assert second.status_code == 303
    page = client.get(at)
    assert page.status_code == 200
    assert "could not be read back" in page.text and "longer than 3000 bytes" in page.text
    assert _version(client, at) == before  # nothing kept
    assert "a" * 1500 in page.text and "b" * 1900 not in page.text
    assert client.get(f"{at}.jqn").status_code == 200
