"""What the viewer keeps between requests stays correct: pooled read connections see new
games and never a replaced archive file's old games; a stored game's view is named by its
record's content, not its id; each page marks only its own turn; caches are bounded."""

import io
import os
import re

import pytest
from itsdangerous import BadSignature

import archive
from notation.formats.jqn import GameBuilder, read_games
from webviewer import create_app
from webviewer.demo import build_demo
from webviewer.plumbing.cache import BoundedCache
from webviewer.plumbing.db import POOL_SIZE

NESTED = ('[White "Ann"]\n[Black "Bob"]\n[Variant "backgammon"]\n[LeadRoll "W3 B1"]\n\n'
          '1. 31: 8/5 6/5 (1. 31: 24/21 6/5 {split} 1... 62: 24/18 13/11 (1... 62: 24/16)) '
          '1... 62: 24/18 13/11 (1... 62: 24/16 {run}) *\n')
OTHER = '[White "Zed"]\n[Black "Yan"]\n\n1. 55: 24/4 *\n'


def games_of(text: str) -> list:
    games = list(read_games(io.BytesIO(text.encode("utf-8")), GameBuilder))
    assert not any(game.errors for game in games)
    return games


def archive_of(path, text: str | None = None, journal: str = "WAL") -> None:
    """An archive at ``path``: the demo's games, or those of ``text``."""
    if text is None:
        build_demo(path)
    db = archive.open_archive(path)
    if text is not None:
        archive.import_games(db, games_of(text))
    db.execute(f"PRAGMA journal_mode={journal}")
    db.close()


@pytest.fixture
def demo(tmp_path):
    path = tmp_path / "viewer.db"
    archive_of(path)
    return path


def test_a_game_imported_later_is_seen_by_a_pooled_connection(demo):
    client = create_app({"ARCHIVE": str(demo)}).test_client()
    for _ in range(2 * POOL_SIZE):
        assert client.get("/game/1").status_code == 200
    db = archive.open_archive(demo)
    archive.import_games(db, games_of(OTHER))
    new = db.execute("SELECT max(id) FROM games").fetchone()[0]
    db.close()
    page = client.get(f"/game/{new}")
    assert page.status_code == 200 and b"Zed" in page.data


def test_an_archive_replaced_by_another_file_is_read_afresh(tmp_path):
    path, other = tmp_path / "viewer.db", tmp_path / "other.db"
    archive_of(path, NESTED, journal="DELETE")  # no -shm file to share with the next archive
    archive_of(other, OTHER, journal="DELETE")
    client = create_app({"ARCHIVE": str(path)}).test_client()
    assert b"Ann" in client.get("/game/1").data and b"Ann" in client.get("/api/games/1").data
    os.replace(other, path)  # game 1 is now another game, under the same id
    page = client.get("/game/1").data
    assert b"Zed" in page and b"Ann" not in page
    assert b"Zed" in client.get("/api/games/1").data


def test_a_game_is_kept_under_its_record_not_its_id(tmp_path):
    first, second = tmp_path / "first.db", tmp_path / "second.db"
    archive_of(first, NESTED)
    archive_of(second, OTHER)
    one, two = (create_app({"ARCHIVE": str(p)}).test_client() for p in (first, second))
    assert b"Ann" in one.get("/game/1").data
    assert b"Zed" in two.get("/game/1").data and b"Ann" not in two.get("/game/1").data


def test_each_page_marks_its_own_turn_only(tmp_path):
    path = tmp_path / "viewer.db"
    archive_of(path, NESTED)
    client = create_app({"ARCHIVE": str(path)}).test_client()
    page = client.get("/game/1").data.decode()
    addresses = ["ply=0"] + sorted(set(re.findall(r'\?((?:ply|path)=[0-9.]+)" class="move"', page)))
    assert len(addresses) == 7
    for flip in ("", "&flip=1"):
        for where in addresses:
            text = client.get(f"/game/1?{where}{flip}").data.decode()
            marked = re.findall(r'href="[^"]*\?([^"&]*)[^"]*" class="move" aria-current="true"', text)
            assert marked == ([] if where == "ply=0" else [where])
            assert text.count('aria-current="true"') == (0 if where == "ply=0" else 1)
            listed = text.split('class="movelist')[1].split('<figure class="chart">')[0]
            assert ("flip=1" in listed) == bool(flip)
            chart = text.split('class="pip-chart"')[1].split("</svg>")[0]
            assert chart.count('fill="#2f7de1"') == (0 if where.startswith("path=") else 1)


def test_bounded_cache_drops_the_least_recently_used():
    cache: BoundedCache[str, int] = BoundedCache(2)
    made = []

    def make(value: int):
        def value_made() -> int:
            made.append(value)
            return value
        return value_made

    assert cache.get("a", make(1)) == 1 and cache.get("b", make(2)) == 2
    assert cache.get("a", make(9)) == 1  # kept, and now the most recently used
    assert cache.get("c", make(3)) == 3  # b is dropped
    assert cache.get("b", make(4)) == 4  # made again; a is dropped
    assert cache.get("a", make(5)) == 5
    assert made == [1, 2, 3, 4, 5]


def test_a_flashed_message_is_shown_once_in_the_game_page_frame(tmp_path):
    """The frame around a page's live part is kept per game without messages; a visitor
    with a message waiting gets it, escaped, in an otherwise identical page."""
    path = tmp_path / "viewer.db"
    archive_of(path, NESTED)
    client = create_app({"ARCHIVE": str(path), "SECRET_KEY": "test"}).test_client()
    plain = client.get("/game/1?path=0.1").data.decode()
    with client.session_transaction() as session:
        session["_flashes"] = [("error", "<script>alert(1)</script>")]
    flashed = client.get("/game/1?path=0.1").data.decode()
    message = '<p class="flash error" role="alert">&lt;script&gt;alert(1)&lt;/script&gt;</p>\n    \n    '
    assert message in flashed and "<script>alert" not in flashed
    assert flashed.replace(message, "") == plain
    assert client.get("/game/1?path=0.1").data.decode() == plain


def test_a_message_flashed_with_a_games_first_view_is_not_kept_for_others(tmp_path):
    path = tmp_path / "viewer.db"
    archive_of(path, NESTED)
    client = create_app({"ARCHIVE": str(path)}).test_client()
    with client.session_transaction() as session:
        session["_flashes"] = [("error", "only for this visitor")]
    assert "only for this visitor" in client.get("/game/1?ply=1").data.decode()
    assert "only for this visitor" not in client.get("/game/1?ply=1").data.decode()


def test_a_views_branches_and_line_ends_follow_the_record():
    """In NESTED, 1. 31 has an alternative (itself answered by 62, with an alternative) and
    1... 62 has one: "Back to the main line" leads to where each variation leaves it, and
    "End" to the last turn of the node's own line."""
    from webviewer.pages.kept_games import GameView

    view = GameView(games_of(NESTED)[0])
    nodes = view.nodes
    branch = {node.address: nodes[node.branch].address for node in nodes}
    end = {node.address: nodes[node.end].address for node in nodes}
    assert branch == {"ply=0": "ply=0", "ply=1": "ply=1", "ply=2": "ply=2", "path=0.1": "ply=1",
                      "path=1": "ply=0", "path=1.0": "ply=0", "path=1.1": "ply=0"}
    assert end == {"ply=0": "ply=2", "ply=1": "ply=2", "ply=2": "ply=2", "path=0.1": "path=0.1",
                   "path=1": "path=1.0", "path=1.0": "path=1.0", "path=1.1": "path=1.1"}


def test_the_session_serializer_is_kept_per_secret_key(demo):
    app = create_app({"ARCHIVE": str(demo), "SECRET_KEY": "one"})
    interface = app.session_interface
    first = interface.get_signing_serializer(app)
    assert interface.get_signing_serializer(app) is first
    cookie = first.dumps({"a": 1})
    app.secret_key = "two"
    second = interface.get_signing_serializer(app)
    assert second is not first and second.loads(second.dumps({"b": 2})) == {"b": 2}
    with pytest.raises(BadSignature):
        second.loads(cookie)  # signed with the old key
    app.config["SECRET_KEY_FALLBACKS"] = ["one"]
    assert interface.get_signing_serializer(app).loads(cookie) == {"a": 1}


def test_a_games_row_is_read_once_per_archive_file(tmp_path, monkeypatch):
    from webviewer.pages import stored

    path, other = tmp_path / "viewer.db", tmp_path / "other.db"
    archive_of(path, NESTED, journal="DELETE")
    archive_of(other, OTHER, journal="DELETE")
    reads = []
    real = stored.game_row
    monkeypatch.setattr(stored, "game_row", lambda db, game_id: reads.append(game_id) or real(db, game_id))
    client = create_app({"ARCHIVE": str(path)}).test_client()
    for where in ("ply=0", "ply=1", "path=0.1", "ply=2&flip=1"):
        assert b"Ann" in client.get(f"/game/1?{where}").data
    assert client.get("/api/games/1").status_code == 200
    assert reads == [1]
    assert client.get("/game/2").status_code == 404
    assert client.get("/game/2").status_code == 404 and reads == [1, 2, 2]  # no game: never kept
    db = archive.open_archive(path)
    archive.import_games(db, games_of(OTHER))
    db.close()
    assert b"Zed" in client.get("/game/2").data
    os.replace(other, path)  # another file: every row read again
    page = client.get("/game/1").data
    assert b"Zed" in page and b"Ann" not in page
    assert reads[-1] == 1 and client.get("/game/2").status_code == 404


def test_a_view_keeps_no_game_tree_and_the_tree_is_freed_at_once():
    """A kept view is page nodes (numbers, strings and tuples of them), not the game tree:
    once the view is made, the tree read back is freed by reference counting (the
    collector is off here), not left to a full collection."""
    import gc

    from notation.tree.game import Node
    from webviewer.pages.kept_games import GameView, read_back

    def nodes_alive() -> int:
        return sum(isinstance(thing, Node) for thing in gc.get_objects())

    was_on = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        before = nodes_alive()
        with read_back(NESTED, "backgammon", True) as game:
            assert nodes_alive() - before == 7  # the start and six turns
            view = GameView(game)
        del game
        assert nodes_alive() == before
        assert {node.address for node in view.nodes} == {
            "ply=0", "ply=1", "path=0.1", "ply=2", "path=1", "path=1.0", "path=1.1"}
    finally:
        if was_on:
            gc.enable()


def test_a_games_json_is_read_once_and_kept_apart_from_its_page(tmp_path, monkeypatch):
    from webviewer.pages import kept_games

    path = tmp_path / "viewer.db"
    archive_of(path, NESTED.replace("{split}", "{a record no other test shows}"))
    reads = []
    real = kept_games.game_from_record
    monkeypatch.setattr(kept_games, "game_from_record", lambda *args: reads.append("read") or real(*args))
    client = create_app({"ARCHIVE": str(path)}).test_client()
    first = client.get("/api/games/1")
    assert first.status_code == 200 and reads == ["read"]
    assert client.get("/api/games/1").data == first.data and reads == ["read"]
    assert client.get("/game/1?ply=1").status_code == 200 and reads == ["read", "read"]
    assert client.get("/game/1?ply=2").status_code == 200 and reads == ["read", "read"]
