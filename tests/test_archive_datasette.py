"""The archive file opens in Datasette as it is: tables browse, full-text search works."""

import asyncio
from pathlib import Path

from datasette.app import Datasette

import archive


def test_datasette_serves_the_archive(tmp_path):
    path = tmp_path / "club.db"
    db = archive.open_archive(path)
    samples = Path(__file__).parents[1] / "samples"
    archive.import_files(db, [samples / "jacquet" / "annotated-game.jqn",
                              samples / "murray" / "annotated-game.jqn"])
    db.close()

    async def browse():
        datasette = Datasette([str(path)])
        games = await datasette.client.get("/club/games.json?_shape=array")
        search = await datasette.client.get("/club/annotations.json?_search=courier&_shape=array")
        turns = await datasette.client.get("/club/turns.json?_shape=array&_size=5")
        return games, search, turns

    games, search, turns = asyncio.run(browse())
    assert games.status_code == 200
    assert {row["variant"] for row in games.json()} == {"jacquet", "murray"}
    assert search.status_code == 200 and search.json()
    assert all("courier" in row["text"].lower() for row in search.json())
    assert turns.status_code == 200 and len(turns.json()) == 5
