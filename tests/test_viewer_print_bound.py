"""The printed game's diagrams are bounded (docs/viewer.md): a long game asked for a diagram
after every ply gets the first 200, after plies 1 to 200, and no more."""

from __future__ import annotations

import re

from archive import import_files, open_archive
from tests.viewer_helpers import viewer_app

LONG = "samples/generated/murray-10.jqn"
"""Generated murray games, one of them over 300 plies long."""


def test_a_long_game_printed_every_ply_gets_200_diagrams(tmp_path):
    path = tmp_path / "club.db"
    with open_archive(path) as db:
        import_files(db, [LONG])
        game_id, turns = db.execute("SELECT id, turns FROM games ORDER BY turns DESC LIMIT 1").fetchone()
    assert turns > 200
    response = viewer_app(path).test_client().get(f"/game/{game_id}/print?every=1")
    assert response.status_code == 200
    captions = re.findall(r"After ply (\d+) \(", response.get_data(as_text=True))
    plies = sorted({int(ply) for ply in captions})
    assert plies == list(range(1, 201))
