"""The game page made by several of the server's threads at once (waitress serves the
viewer with several): every page is answered, never a 500, and the links of its move list
and its steps are links, not escaped into text, however the threads' work interleaves."""

from __future__ import annotations

import random
import sys
import threading

import archive
from webviewer import create_app
from webviewer.demo import build_demo
from webviewer.pages import kept_games
from webviewer.plumbing.cache import BoundedCache

THREADS = 8
PAGES = 8
"""Game pages asked for by each thread."""


def test_game_pages_made_in_eight_threads_at_once_are_whole(tmp_path, monkeypatch):
    """Eight threads ask for the pages of random games, in every kind of link, while the
    kept games hold two (so each page makes its move list, pip chart and steps afresh,
    in the app's macros, as others are being made); the interpreter switches threads
    every microsecond to interleave them finely."""
    path = tmp_path / "viewer.db"
    build_demo(path)
    db = archive.open_archive(path, readonly=True)
    try:
        games = [row[0] for row in db.execute("SELECT id FROM games")]
    finally:
        db.close()
    monkeypatch.setattr(kept_games, "_views", BoundedCache(2))
    app = create_app({"ARCHIVE": str(path), "WORKERS": 0})
    assert app.test_client().get(f"/game/{games[0]}").status_code == 200  # the app's first page
    answers: list[tuple[str, int, str]] = []

    def browse(seed: int) -> None:
        rng = random.Random(seed)
        client = app.test_client()
        for _ in range(PAGES):
            address = f"/game/{rng.choice(games)}{rng.choice(['', '?flip=1', '?numbers=roll'])}"
            page = client.get(address)
            answers.append((address, page.status_code, page.get_data(as_text=True)))

    switching = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=browse, args=(seed,)) for seed in range(THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(switching)
    assert len(answers) == THREADS * PAGES
    failed = [(address, status) for address, status, _ in answers if status != 200]
    assert failed == []
    escaped = [address for address, _, text in answers if "&lt;a " in text]
    assert escaped == [], "links escaped into text"
