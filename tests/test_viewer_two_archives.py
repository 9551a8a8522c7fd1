"""Two archives served by one process (as the tests do, or a server whose archive file was
replaced): the game page of each shows its own analysis, though both hold the same record
(the kept game views are shared by record) and their analyses have the same id."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from analysis.shipped import load_net
from archive import import_files, open_archive
from jacquet_cli import main
from notation.formats import read_file, write_file
from tests.viewer_helpers import viewer_app

ENGINE = load_net("jacquet").name
"""The shipped jacquet engine's name (its contact net and its race net)."""


def analysed_archive(folder, ply: str) -> str:
    record = folder / "one.jqn"
    write_file(list(read_file("samples/generated/jacquet-10.jqn"))[:1], record)
    path = folder / "club.db"
    with open_archive(path) as db:
        import_files(db, [str(record)])
    result = CliRunner().invoke(main, ["analyse", "--db", str(path), "--ply", ply, "--confirm", "none"])
    assert result.exit_code == 0, result.output
    return str(path)


@pytest.fixture(scope="module")
def archives(tmp_path_factory) -> dict[str, str]:
    return {ply: analysed_archive(tmp_path_factory.mktemp(f"ply{ply}"), ply) for ply in ("0", "1")}


def test_each_archives_game_page_shows_its_own_analysis(archives):
    with open_archive(archives["0"]) as first, open_archive(archives["1"]) as second:
        ids = [db.execute("SELECT id FROM analyses").fetchall() for db in (first, second)]
    assert ids[0] == ids[1]  # the same analysis id in both
    for ply in ("0", "1", "0"):
        page = viewer_app(archives[ply]).test_client().get("/game/1?ply=3")
        assert page.status_code == 200
        # the game report says who measured the luck: the engine at 0-ply, whatever the depth
        text = page.get_data(as_text=True).replace(f"luck by {ENGINE}, 0-ply", "")
        assert f"{ENGINE}, {ply}-ply" in text
        assert f"{ENGINE}, {1 - int(ply)}-ply" not in text
